/**
 * The one error type for "this input file cannot be used": a catalog, a servers config, a golden
 * set, an agent configuration, a run folder or a gate input that is missing, malformed or fails
 * validation. Each loader throws its own subclass (`CatalogError`, `ConfigError`,
 * `GoldenSetError`, `AgentConfigError`, `RunInputError`, `GateInputError`) for its message and
 * extra fields; callers that only need to know "bad input, exit 2" test for this base class.
 *
 * @module
 */

/**
 * An input file that cannot be used. The message is one line for the user and names the file.
 *
 * @example Usage
 * ```ts
 * import { InputFileError } from "./input_error.ts";
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
 * import { readFailure } from "./input_error.ts";
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
