// Shared plumbing for task entry points: user-facing errors, progress lines,
// run metadata (git, dependency versions, file hashes).
import {
  denoFlowIo,
  ensureWritable,
  type FlowOutcome,
  type GitState,
  helpText,
  InputFileError,
  UsageError,
} from "../lib/flows/io.ts";

export { ensureWritable, helpText, UsageError };
export { intFlag, listFlag, numberFlag, parseFlags } from "./_flags.ts";

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
 * The `deno run` arguments of a task exactly as deno.json declares it (`-q -P=NAME`, its
 * permission set, and its file), for a task that starts another task as a child process with
 * that task's own permissions rather than `-A`. Run the child with `cwd: fromRoot(".")`, where
 * Deno finds deno.json and the set's relative paths start.
 *
 * @param name Task name in deno.json (e.g. `agents`).
 * @returns `["run", "-q", "-P=NAME", ...v8 flags, "tasks/NAME.ts"]`, with `$NAME` expanded from
 *   the environment as deno task's shell expands it.
 * @throws {Error} When the task is missing or is not one `deno run` of a task file.
 */
export async function taskRunArgs(name: string): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(fromRoot("deno.json")));
  const task = config.tasks?.[name];
  const command = typeof task === "string" ? task : task?.command;
  const words = typeof command === "string" ? command.trim().split(/\s+/) : [];
  if (words[0] !== "deno" || words[1] !== "run" || !/^tasks\/\w+\.ts$/.test(words.at(-1) ?? "")) {
    throw new Error(`deno.json task "${name}" is not one "deno run ... tasks/FILE.ts"`);
  }
  // deno task's shell expands $NAME in a command line; a direct spawn must do the same.
  return words.slice(1).map((w) =>
    w.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, v: string) => Deno.env.get(v) ?? "")
  );
}

/**
 * Prints a flow's console result, its stderr lines first, then its stdout lines, and hands back
 * its exit code for the task's main function to return.
 *
 * @param outcome What the flow returned (lib/flows/outcome.ts).
 * @returns `outcome.exitCode`.
 */
export function printOutcome(outcome: FlowOutcome): number {
  for (const line of outcome.stderr) console.error(line);
  for (const line of outcome.stdout) console.log(line);
  return outcome.exitCode;
}

/**
 * Runs a task's main function: exits with its code (0 when it returns nothing), 2 on a usage
 * error or an unusable input file ({@linkcode InputFileError}: catalog, servers config, golden
 * set, agent configuration, run folder; or a golden set whose label ids are not the index's ids),
 * 1 (or `options.crashCode`) on any other error, always with a one-line reason
 * `mcpmeter TASK: error: ...` and never a stack trace (set MCPMETER_DEBUG=1 to see it).
 *
 * @param task The task's name, for the message.
 * @param main The task's main function.
 * @param options `crashCode`: the exit code of an unexpected error, for a task whose 1 is a
 *   verdict (lint-catalog, gate), so that CI can tell a crash from a finding. @default {1}
 */
export async function runMain(
  task: string,
  main: () => Promise<number | void>,
  options: { readonly crashCode?: number } = {},
): Promise<never> {
  try {
    Deno.exit((await main()) ?? 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Deno's own advice ("run again with the --allow-write flag") does not apply to a task.
    const first = message.split("\n")[0].replace(/, run again with the --allow-\w+ flag/, "");
    const line = `mcpmeter ${task}: error: ${first}`;
    // Also when a flow wrapped the permission error in its own message ("cannot read X: ...").
    if (
      error instanceof Deno.errors.NotCapable ||
      (error as { cause?: unknown })?.cause instanceof Deno.errors.NotCapable ||
      /Requires (read|write|net|run|env|sys|ffi) access to/.test(message)
    ) {
      // A path or host outside what the task declares in deno.json (docs/security.md).
      console.error(`${line}; ${permissionHint(task)}`);
      Deno.exit(2);
    }
    console.error(line);
    // Tasks without --allow-env must not crash here: ask, never prompt.
    const env = Deno.permissions.querySync?.({ name: "env", variable: "MCPMETER_DEBUG" });
    if (env?.state === "granted" && Deno.env.get("MCPMETER_DEBUG")) console.error(error);
    // A golden set none of whose label ids is in the index (lib/retrieval's IdMismatchError,
    // told by name so every task does not load lib/retrieval) is unusable input too.
    const unusable = error instanceof UsageError || error instanceof InputFileError ||
      (error as Error)?.name === "IdMismatchError";
    Deno.exit(unusable ? 2 : options.crashCode ?? 1);
  }
}

/**
 * What a task's own permissions allow, for the message of a path it may not touch, asked of
 * Deno, never prompted: "anywhere", "anywhere but fixtures/" (the frozen inputs), or the
 * folders of this checkout it may use.
 */
function permissionHint(task: string): string {
  const state = (name: "read" | "write", path?: string) =>
    Deno.permissions.querySync?.(path === undefined ? { name } : { name, path }).state;
  const list = (name: "read" | "write") => {
    if (state(name) === "granted") {
      return state(name, fromRoot("fixtures")) === "granted"
        ? "anywhere"
        : "anywhere but fixtures/";
    }
    const places: readonly (readonly [label: string, path: string])[] = [
      ["the repository", fromRoot(".")],
      ["results/", fromRoot("results")],
      ["fixtures/manifest.json", fromRoot("fixtures/manifest.json")],
    ];
    const granted = places.filter(([, path]) => state(name, path) === "granted").map(([l]) => l);
    // The repository as a whole stands for its folders.
    const shown = granted.includes("the repository") ? ["the repository"] : granted;
    return shown.length === 0 ? "nothing" : shown.join(", ");
  };
  return `deno task ${task} may read ${list("read")} and write ${list("write")} (its ` +
    `permission set in deno.json; fixtures/ holds the frozen inputs, see docs/security.md)`;
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
