/**
 * The errors a flow throws for bad input. `UsageError`: a flag value out of range, a file that
 * holds nothing to measure (tasks print the message on one line and exit 2). `InputFileError`: an
 * input file that cannot be used (missing, malformed, failing validation); each loader throws its own
 * subclass (`CatalogError`, `ConfigError`, `GoldenSetError`, ...) and callers that only need
 * "bad input, exit 2" test for this base class.
 *
 * @module
 */

/**
 * Bad input to a flow or a task. The message names the input (flag or file) and what is wrong
 * with it, e.g. `--resamples must be between 1 and 100000: current value is 0`.
 *
 * @example Usage
 * ```ts
 * import { UsageError } from "./errors.ts";
 * const e = new UsageError("--seed must be a non-negative integer");
 * if (e.name !== "UsageError") throw new Error(e.name);
 * ```
 */
export class UsageError extends Error {
  /** Always `"UsageError"`. */
  override name = "UsageError";
}

/**
 * An input file that cannot be used. The message is one line for the user and names the file.
 *
 * @example Usage
 * ```ts
 * import { InputFileError } from "./errors.ts";
 * const error = new InputFileError("a.json", 'Cannot use "a.json": not JSON');
 * if (!(error instanceof Error) || error.path !== "a.json") throw new Error("unexpected");
 * ```
 */
export class InputFileError extends Error {
  /** The file (or folder, or `"<memory>"`/`"<inline>"` for text not read from disk) at fault. */
  readonly path: string;

  /**
   * Builds the error.
   *
   * @param path The file at fault, as the caller named it.
   * @param message The whole one-line message (it should name `path`).
   * @param options `cause`: the underlying error (a parse or I/O error), when there is one.
   */
  constructor(path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "InputFileError";
    this.path = path;
  }
}

/**
 * Why a file could not be read, in words for a one-line error: `file not found`, `permission
 * denied (run with --allow-read)`, `is a directory, not a file`, or the system's message.
 *
 * @example Usage
 * ```ts
 * import { readFailure } from "./errors.ts";
 * if (readFailure(new Deno.errors.NotFound("x")) !== "file not found") throw new Error();
 * ```
 *
 * @param e The error `Deno.readFile` or `Deno.readTextFile` threw.
 * @returns The reason.
 */
export function readFailure(e: unknown): string {
  return e instanceof Deno.errors.NotFound
    ? "file not found"
    : e instanceof Deno.errors.PermissionDenied
    ? "permission denied (run with --allow-read)"
    : e instanceof Deno.errors.IsADirectory
    ? "is a directory, not a file"
    : `cannot read the file (${(e as Error).message})`;
}
