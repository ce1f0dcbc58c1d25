/**
 * The I/O a flow is given: the clocks, where the repository is, how a path is recorded, the
 * environment, git state, pinned dependency versions and a progress sink. {@linkcode denoFlowIo}
 * builds the real one from Deno; tests and the workbench pass their own.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import { printable } from "../core/text.ts";

// Also in mod.ts: here so that a task's shared plumbing (tasks/_cli.ts) gets them without
// loading every flow.
export { ensureWritable } from "./_write.ts";
export { UsageError } from "../core/errors.ts";
// InputFileError is also in lib/catalog/mod.ts, which loads every catalog module (zod too).
export { InputFileError } from "../core/errors.ts";
/** The one layout of every task's `--help` (the tasks print it; it is plain text). */
export { HELP_LAYOUT, type HelpParts, helpText } from "../core/help.ts";
/** Where a path typed on the command line points (deno task sets INIT_CWD). */
export { userFolder, userPath } from "../core/paths.ts";
export type { FlowOutcome } from "./outcome.ts";

/**
 * Commit (`git rev-parse HEAD`) and dirtiness (tracked files differ from HEAD) of the checkout,
 * or nulls outside git. A type alias, so it fits a JSON record.
 */
export type GitState = { commit: string | null; dirty: boolean | null };

/** What a flow may ask of the outside world. */
export interface FlowIo {
  /** Monotonic clock (ms), for wall times. */
  readonly now: () => number;
  /** Wall clock (epoch ms), for run ids and run-folder timestamps. */
  readonly epochNow: () => number;
  /** Timestamp recorded in a report (ISO 8601). */
  readonly createdAt: () => string;
  /** Absolute path of a repository-relative path (defaults live there). */
  readonly fromRoot: (path: string) => string;
  /** How a path is recorded in results: repository-relative when inside it, as given otherwise. */
  readonly displayPath: (path: string) => string;
  /** Environment variables handed to spawned servers. */
  readonly env: () => Record<string, string>;
  /** Git state of the checkout. */
  readonly gitState: () => Promise<GitState>;
  /** Versions of the npm packages the numbers depend on (name → version). */
  readonly dependencyVersions: () => Promise<Record<string, string>>;
  /** One progress line (the tasks print `[task] message` to stderr). */
  readonly progress: (task: string, message: string) => void;
}

/** Root of this checkout: the folder above `lib/`. */
export const REPO_ROOT: URL = new URL("../../", import.meta.url);

/**
 * Versions pinned in a `deno.json` import map: `npm:NAME@VERSION` entries.
 *
 * @param config The parsed `deno.json`.
 * @returns Package name → version, in import-map order.
 */
export function pinnedVersions(config: { imports?: Record<string, string> }): Record<
  string,
  string
> {
  const out: Record<string, string> = {};
  for (const spec of Object.values(config.imports ?? {})) {
    const m = /^npm:\/?((?:@[^/]+\/)?[^@/]+)@([^/]+)/.exec(spec);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

async function git(root: URL, args: string[]): Promise<string | null> {
  try {
    const out = await new Deno.Command("git", { args, cwd: root, stdout: "piped", stderr: "null" })
      .output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

/**
 * The real I/O: `performance.now()`, `SOURCE_DATE_EPOCH` (seconds) or the wall clock for
 * timestamps, `git` in `root`, `root/deno.json` for versions, the process environment, and
 * progress lines on stderr.
 *
 * @param root Repository root. @default {REPO_ROOT}
 * @returns The {@linkcode FlowIo}.
 */
export function denoFlowIo(root: URL = REPO_ROOT): FlowIo {
  const fromRoot = (path: string) => new URL(path, root).pathname;
  return {
    now: () => performance.now(),
    epochNow: () => Date.now(),
    createdAt: () => {
      const epoch = Deno.env.get("SOURCE_DATE_EPOCH");
      return new Date(epoch ? Number(epoch) * 1000 : Date.now()).toISOString();
    },
    fromRoot,
    displayPath: (path) => {
      const rel = relative(fromRoot("."), resolve(path));
      return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
    },
    env: () => Deno.env.toObject(),
    gitState: async () => {
      const commit = await git(root, ["rev-parse", "HEAD"]);
      const status = await git(root, ["status", "--porcelain", "--untracked-files=no"]);
      return { commit, dirty: status === null ? null : status.length > 0 };
    },
    dependencyVersions: async () =>
      pinnedVersions(JSON.parse(await Deno.readTextFile(new URL("deno.json", root)))),
    // A progress line names catalogs, servers and tools (others' text): control characters
    // are shown escaped, not sent to the terminal.
    progress: (task, message) => console.error(printable(`[${task}] ${message}`)),
  };
}
