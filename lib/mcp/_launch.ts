/**
 * How a stdio server is launched (private to lib/mcp), shared by captures
 * (`stdio.ts`) and sessions (`session.ts`): the entry expanded against the
 * run's folders, its declared `files` written, the command found on `PATH` and
 * wrapped for the isolation mode, and the server's whole environment.
 *
 * @module
 */

import { expandServerEntry, type StdioServerEntry } from "./config.ts";
import { findExecutable, type IsolationMode, wrapCommand } from "./_sandbox.ts";
import { type Scratch, writeDeclaredFiles } from "./_scratch.ts";
import { oneLine } from "../core/text.ts";

/** `PATH` used when this process has none. */
export const FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Options of {@linkcode prepareLaunch}. */
export interface LaunchOptions {
  /** Variables for `${VAR}` expansion; `HOME`, `SCRATCH` and `TMPDIR` are the run's folders. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Extra variables that win over `env` and the folders (e.g. `BIN`, `DATA`). */
  readonly vars?: Readonly<Record<string, string>>;
  /** `PATH` for the server and for finding `command`. */
  readonly path: string;
  /** How the command is wrapped. */
  readonly isolation: IsolationMode;
  /** Config source name for error messages. */
  readonly source?: string;
}

/** What to spawn: the wrapped command line, its cwd and its whole environment. */
export interface Launch {
  /** Wrapper or server executable. */
  readonly command: string;
  /** Its arguments. */
  readonly args: string[];
  /** Working folder: the entry's `cwd`, else the run's `work` folder. */
  readonly cwd: string;
  /** `HOME`, `PATH`, `TMPDIR`, `NODE_NO_WARNINGS=1` and the entry's own `env`. */
  readonly env: Record<string, string>;
}

/**
 * Expands an entry in a run's folders, writes its declared files and finds its
 * command.
 *
 * @param entry The unexpanded entry.
 * @param scratch The run's folders.
 * @param options Variables, PATH, isolation, source name.
 * @returns What to spawn, or `{ problem }` (one line) when expansion, a
 *   declared file or the command lookup fails.
 */
export async function prepareLaunch(
  entry: StdioServerEntry,
  scratch: Scratch,
  options: LaunchOptions,
): Promise<Launch | { readonly problem: string }> {
  let expanded: StdioServerEntry;
  try {
    expanded = expandServerEntry(entry, {
      ...options.env,
      HOME: scratch.home,
      SCRATCH: scratch.work,
      TMPDIR: scratch.tmp,
      ...options.vars,
    }, options.source) as StdioServerEntry;
    if (expanded.meta.files !== undefined) {
      await writeDeclaredFiles(expanded.meta.files, scratch);
    }
  } catch (error) {
    return { problem: oneLine(error) };
  }
  const cwd = expanded.cwd ?? scratch.work;
  const executable = findExecutable(expanded.command, options.path, cwd);
  if (executable === undefined) {
    return {
      problem: `command ${JSON.stringify(expanded.command)} not found or not executable`,
    };
  }
  const wrapped = wrapCommand(options.isolation, executable, expanded.args);
  return {
    command: wrapped.command,
    args: wrapped.args,
    cwd,
    env: {
      HOME: scratch.home,
      PATH: options.path,
      TMPDIR: scratch.tmp,
      NODE_NO_WARNINGS: "1",
      ...expanded.env,
    },
  };
}

/**
 * Checks a server timeout.
 *
 * @param timeoutMs Timeout in ms.
 * @returns `timeoutMs`.
 * @throws {RangeError} When it is not a positive finite number.
 */
export function checkTimeoutMs(timeoutMs: number): number {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  }
  return timeoutMs;
}
