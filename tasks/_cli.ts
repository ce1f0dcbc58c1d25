// Shared plumbing for task entry points: user-facing errors, progress lines,
// run metadata (git, dependency versions, file hashes).
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { dirname, join, resolve } from "node:path";
import { CatalogError } from "../lib/catalog/errors.ts";
import { ConfigError } from "../lib/mcp/mod.ts";
import { denoFlowIo, type GitState, UsageError } from "../lib/flows/mod.ts";

export { UsageError };

/**
 * Parses command-line flags with `node:util`'s `parseArgs` (strict: unknown flags and missing
 * values are errors), turning a parse error into a {@linkcode UsageError} whose message ends
 * with "(see --help)".
 *
 * @param args The arguments (e.g. `Deno.args`).
 * @param options `parseArgs` option specs.
 * @param allowPositionals Accept non-flag arguments (returned as `positionals`); default false.
 * @returns `parseArgs`'s `{ values, positionals }`.
 * @throws {UsageError} On an unknown flag, a missing value or an unexpected positional.
 */
export function parseFlags<const O extends ParseArgsOptionsConfig, const P extends boolean = false>(
  args: string[],
  options: O,
  allowPositionals?: P,
) {
  try {
    return parseArgs({
      args,
      options,
      strict: true,
      allowPositionals: (allowPositionals ?? false) as P,
    });
  } catch (error) {
    const message = (error as Error).message;
    // parseArgs reads "--seed -1" as a flag "-1": say what to type instead.
    const ambiguous = /Option '(--[\w-]+)' argument is ambiguous/.exec(message);
    if (ambiguous) {
      throw new UsageError(
        `${ambiguous[1]} was given a value that starts with "-", which is read as a flag; ` +
          `counts and seeds are non-negative, and any other such value is written ${
            ambiguous[1]
          }=VALUE (see --help)`,
      );
    }
    throw new UsageError(`${message} (see --help)`);
  }
}

/** Root of the repository, resolved from this file (not the working directory). */
export const ROOT = new URL("../", import.meta.url);

/** Resolves a repository-relative path to an absolute file path. */
export function fromRoot(path: string): string {
  return new URL(path, ROOT).pathname;
}

/**
 * Checks, before any work, that `path` can be written: creates its parent
 * folder and writes then removes a probe file beside it.
 *
 * @param path The file the task will write.
 * @param flag The flag that named it, for the message (e.g. `--junit`).
 * @throws {UsageError} When the folder cannot be created or written.
 */
export async function ensureWritable(path: string, flag: string): Promise<void> {
  const dir = dirname(resolve(path));
  const probe = join(dir, `.mcpmeter-write-probe-${Deno.pid}`);
  try {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot write there (${(error as Error).message})`);
  }
}

/**
 * A path for result files: relative to the repository when inside it, as
 * given otherwise, so results do not depend on where the checkout lives.
 *
 * @param path A file path.
 * @returns The repository-relative path, or `path` unchanged.
 */
export function displayPath(path: string): string {
  return IO.displayPath(path);
}

/** Writes one progress line to stderr. */
export function progress(task: string, message: string): void {
  IO.progress(task, message);
}

/**
 * Runs a task's main function: exits 0 on success, 2 on a usage error, 1 on any
 * other error, always with a one-line reason and never a stack trace
 * (set MCPMETER_DEBUG=1 to see it).
 */
export async function runMain(task: string, main: () => Promise<number | void>): Promise<never> {
  try {
    Deno.exit((await main()) ?? 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`mcpmeter ${task}: error: ${message.split("\n")[0]}`);
    // Tasks without --allow-env must not crash here: ask, never prompt.
    const env = Deno.permissions.querySync?.({ name: "env", variable: "MCPMETER_DEBUG" });
    if (env?.state === "granted" && Deno.env.get("MCPMETER_DEBUG")) console.error(error);
    const badInput = error instanceof UsageError || error instanceof CatalogError ||
      error instanceof ConfigError;
    Deno.exit(badInput ? 2 : 1);
  }
}

/** The real flow I/O, rooted at this checkout (lib/flows/io.ts). */
export const IO = denoFlowIo(ROOT);

/** Current git commit and dirtiness, or nulls outside a git checkout. */
export function gitState(): Promise<GitState> {
  return IO.gitState();
}

/** Versions of the npm packages pinned in deno.json's import map. */
export function dependencyVersions(): Promise<Record<string, string>> {
  return IO.dependencyVersions();
}

/** Report timestamp: `SOURCE_DATE_EPOCH` (seconds) when set, else now. */
export function createdAt(): string {
  return IO.createdAt();
}

/** Parses a non-negative integer flag value. */
export function intFlag(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new UsageError(`--${name} must be a non-negative integer: current value is "${value}"`);
  }
  return n;
}
