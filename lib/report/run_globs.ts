/**
 * Expands `--runs` arguments that hold a `*` or `?` in their last path segment (a quoted glob
 * such as `"results/runs/fs_*"`) into the matching folders; other arguments pass unchanged.
 * File edge of lib/report.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/**
 * Expands glob arguments (wildcards in the last segment only: `*` any run of characters except
 * `/`, `?` one character).
 *
 * @param args Paths or globs.
 * @returns Paths, each glob replaced by its matching run folders (those holding `run.json`)
 *   sorted by name (a glob matching no run is kept as given, so the loader reports it).
 *
 * @example Usage
 * ```ts
 * import { expandRunGlobs } from "./run_globs.ts";
 * const out = await expandRunGlobs(["results/runs/a-run"]);
 * if (out[0] !== "results/runs/a-run") throw new Error();
 * ```
 */
export async function expandRunGlobs(args: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const arg of args) {
    const name = basename(arg);
    if (!/[*?]/.test(name) || /[*?]/.test(dirname(arg))) {
      out.push(arg);
      continue;
    }
    const re = new RegExp(
      `^${
        name.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]")
      }$`,
    );
    const dir = dirname(arg);
    const hits: string[] = [];
    try {
      for await (const e of Deno.readDir(dir)) {
        if (e.isDirectory && re.test(e.name)) hits.push(join(dir, e.name));
      }
    } catch { /* the loader reports a missing folder */ }
    // Like a folder of runs, a glob skips matches that hold no run.json (a run that never
    // started); a glob matching no run at all is kept as given, so the loader reports it.
    const runs: string[] = [];
    for (const hit of hits) {
      if (await Deno.stat(join(hit, "run.json")).then(() => true, () => false)) runs.push(hit);
    }
    out.push(...(runs.length > 0 ? runs.sort() : [arg]));
  }
  return out;
}
