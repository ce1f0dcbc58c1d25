// Shared plumbing for task entry points: user-facing errors, progress lines,
// run metadata (git, dependency versions, file hashes).
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { dirname, join, resolve } from "node:path";
import { InputFileError } from "../lib/catalog/mod.ts";
import { denoFlowIo, ensureWritable, type GitState, UsageError } from "../lib/flows/mod.ts";

export { ensureWritable, UsageError };

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
 * The `deno run` arguments of a task exactly as deno.json declares it (its `--allow-*` flags and
 * its file), for a task that starts another task as a child process with that task's own
 * permissions rather than `-A`. Run the child with `cwd: fromRoot(".")`: the permission paths
 * are relative to the repository.
 *
 * @param name Task name in deno.json (e.g. `agents`).
 * @returns `["run", ...flags, "tasks/NAME.ts"]`.
 * @throws {Error} When the task is missing or is not one `deno run` of a task file.
 */
export async function taskRunArgs(name: string): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(fromRoot("deno.json")));
  const command = config.tasks?.[name];
  const words = typeof command === "string" ? command.trim().split(/\s+/) : [];
  if (words[0] !== "deno" || words[1] !== "run" || !/^tasks\/\w+\.ts$/.test(words.at(-1) ?? "")) {
    throw new Error(`deno.json task "${name}" is not one "deno run ... tasks/FILE.ts"`);
  }
  return words.slice(1);
}

/**
 * Runs a task's main function: exits with its code (0 when it returns nothing), 2 on a usage
 * error or an unusable input file ({@linkcode InputFileError}: catalog, servers config, golden
 * set, agent configuration, run folder), 1 on any other error, always with a one-line reason
 * `mcpmeter TASK: error: ...` and never a stack trace (set MCPMETER_DEBUG=1 to see it).
 */
export async function runMain(task: string, main: () => Promise<number | void>): Promise<never> {
  try {
    Deno.exit((await main()) ?? 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`mcpmeter ${task}: error: ${message.split("\n")[0]}`);
    if (error instanceof Deno.errors.NotCapable) {
      // A path or host outside what the task declares in deno.json (docs/security.md).
      console.error(
        `mcpmeter ${task}: deno task ${task} may touch only what its deno.json entry allows; ` +
          "read inputs from the repository and write outputs under results/ (or /tmp), or run the " +
          "task file with deno run and wider --allow-* flags (the task's line in deno.json lists them)",
      );
      Deno.exit(2);
    }
    // Tasks without --allow-env must not crash here: ask, never prompt.
    const env = Deno.permissions.querySync?.({ name: "env", variable: "MCPMETER_DEBUG" });
    if (env?.state === "granted" && Deno.env.get("MCPMETER_DEBUG")) console.error(error);
    Deno.exit(error instanceof UsageError || error instanceof InputFileError ? 2 : 1);
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

/**
 * Parses an integer flag value.
 *
 * @param name The flag without dashes, for the message (e.g. `timeout-ms`).
 * @param value The raw value, `undefined` when the flag was not given.
 * @param fallback What an absent flag means (`undefined` to let the library default apply).
 * @param min Smallest allowed value (default 0).
 * @returns The integer.
 * @throws {UsageError} When the value is not a safe integer >= `min`, e.g.
 *   `--timeout-ms must be a positive integer, got "abc"`.
 */
export function intFlag<F extends number | undefined>(
  name: string,
  value: string | undefined,
  fallback: F,
  min = 0,
): number | F {
  if (value === undefined) return fallback;
  const n = value.trim() === "" ? NaN : Number(value);
  if (!Number.isSafeInteger(n) || n < min) {
    const what = min === 0
      ? "a non-negative integer"
      : min === 1
      ? "a positive integer"
      : `an integer >= ${min}`;
    throw new UsageError(`--${name} must be ${what}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * Parses a comma-separated list flag: items trimmed, empty items dropped.
 *
 * @param name The flag without dashes, for the message (e.g. `tokenizers`).
 * @param value The raw value, `undefined` when the flag was not given.
 * @param known When given, the allowed items; any other is an error naming them.
 * @returns The items in the order given, or `undefined` when the flag was absent.
 * @throws {UsageError} When the flag names no item at all (`--tokenizers ,`) or an unknown one.
 */
export function listFlag(
  name: string,
  value: string | undefined,
  known?: readonly string[],
): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) {
    throw new UsageError(
      `--${name} needs at least one comma-separated value, got ${JSON.stringify(value)}`,
    );
  }
  const unknown = known === undefined ? [] : items.filter((i) => !known.includes(i));
  if (unknown.length > 0) {
    throw new UsageError(
      `--${name}: unknown value ${JSON.stringify(unknown[0])} (known: ${known!.join(", ")})`,
    );
  }
  return items;
}
