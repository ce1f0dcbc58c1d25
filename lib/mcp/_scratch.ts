/**
 * Throwaway folders for one server run (private to lib/mcp): a temp root
 * holding `home/` (the server's HOME), `work/` (its `${SCRATCH}` and default
 * cwd) and `tmp/` (its TMPDIR). Removed afterwards.
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { JsonValue } from "../catalog/types.ts";
import { filePathProblem } from "./config.ts";
import type { RunPath } from "./types.ts";

/** The folders of one run. */
export interface Scratch {
  /** Temp root (absolute). */
  readonly root: string;
  /** Throwaway HOME. */
  readonly home: string;
  /** `${SCRATCH}`: the server's default cwd and the base of `files`. */
  readonly work: string;
  /** TMPDIR for the server. */
  readonly tmp: string;
  /** The paths with their placeholders, most specific first. */
  readonly runPaths: readonly RunPath[];
  /** Removes the whole tree (errors ignored). */
  dispose(): Promise<void>;
}

/**
 * Creates the folders of one run under the system temp dir.
 *
 * @param prefix Temp dir name prefix, e.g. `mcpmeter-github-`.
 * @returns The folders; call `dispose()` when done.
 */
export async function createScratch(prefix: string): Promise<Scratch> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  const home = join(root, "home");
  const work = join(root, "work");
  const tmp = join(root, "tmp");
  await Promise.all([home, work, tmp].map((dir) => Deno.mkdir(dir)));
  return {
    root,
    home,
    work,
    tmp,
    runPaths: [
      { path: home, placeholder: "<home>" },
      { path: work, placeholder: "<scratch>" },
      { path: tmp, placeholder: "<tmpdir>" },
      { path: root, placeholder: "<run>" },
    ],
    async dispose() {
      try {
        await Deno.remove(root, { recursive: true });
      } catch {
        // a server still writing, or already removed
      }
    },
  };
}

/**
 * Writes an entry's declared `files` (see `ServerMeta.files`).
 *
 * @param files Path to content: string = text, `null` = directory, other JSON = pretty JSON.
 * @param scratch Where `~/` (home) and plain relative paths (work) point.
 * @throws {TypeError} On a path that escapes the scratch folders.
 */
export async function writeDeclaredFiles(
  files: Readonly<Record<string, JsonValue>>,
  scratch: Pick<Scratch, "home" | "work">,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const problem = filePathProblem(path);
    if (problem !== undefined) throw new TypeError(problem);
    const target = path.startsWith("~/")
      ? join(scratch.home, path.slice(2))
      : join(scratch.work, path);
    if (content === null) {
      await Deno.mkdir(target, { recursive: true });
      continue;
    }
    await Deno.mkdir(dirname(target), { recursive: true });
    const text = typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`;
    await Deno.writeTextFile(target, text);
  }
}
