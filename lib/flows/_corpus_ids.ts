/**
 * Corpus ids made unique from the paths given: two catalogs whose files give the same id
 * (`a/x/tools.json` and `b/x/tools.json` are both `x`) are told apart by the folders of their
 * paths, so the bench can measure both and the report names each.
 *
 * @module
 */

/** One loaded corpus: the id its file gives and the path it was read from, as given. */
export interface CorpusIdInput {
  /** The id from `loadCatalog` (`--corpus` file's `id`, else its stem). */
  readonly id: string;
  /** The path as given on the command line. */
  readonly path: string;
}

/** The id a corpus takes, and why it changed when it did. */
export interface CorpusIdChoice {
  /** The id to use: the file's own when no other corpus has it, else a path-qualified one. */
  readonly id: string;
  /** One line for the report's warnings when the id was changed, else `undefined`. */
  readonly warning?: string;
}

/** The path's folders and its stem (`x.tools.json` → `x`; a bare `tools.json` adds nothing). */
function segments(path: string): string[] {
  const parts = path.replaceAll("\\", "/").split("/").filter((p) => p !== "" && p !== ".");
  const stem = (parts.pop() ?? "").replace(/\.json$/i, "").replace(/\.tools$/i, "");
  if (stem !== "" && stem.toLowerCase() !== "tools") parts.push(stem);
  return parts;
}

/**
 * Gives each corpus a unique id, deterministic from the ids and paths given (the same
 * command line, the same ids). A corpus whose id no other corpus shares keeps it. Corpora that
 * share one are named by the shortest run of trailing path segments (folders, then the file
 * stem unless it is `tools`) that tells them apart, ending in the id: `a/x/tools.json` and
 * `b/x/tools.json` (both `x`) become `a/x` and `b/x`; `p/one.json` and `p/two.json` whose files
 * both say `"id": "mine"` become `one/mine` and `two/mine`. Where no run of segments differs,
 * the path as given is the id.
 *
 * @param corpora The corpora in command-line order.
 * @returns One choice per corpus, in the same order.
 *
 * @example Usage
 * ```ts
 * import { uniqueCorpusIds } from "./_corpus_ids.ts";
 * const ids = uniqueCorpusIds([
 *   { id: "x", path: "a/x/tools.json" },
 *   { id: "x", path: "b/x/tools.json" },
 *   { id: "y", path: "y.json" },
 * ]).map((c) => c.id);
 * if (ids.join(" ") !== "a/x b/x y") throw new Error(ids.join(" "));
 * ```
 */
export function uniqueCorpusIds(corpora: readonly CorpusIdInput[]): CorpusIdChoice[] {
  const byId = new Map<string, number[]>();
  corpora.forEach((c, i) => byId.set(c.id, [...(byId.get(c.id) ?? []), i]));
  const taken = new Set(corpora.map((c) => c.id));
  const out: CorpusIdChoice[] = corpora.map((c) => ({ id: c.id }));
  for (const [id, members] of byId) {
    if (members.length < 2) continue;
    const segs = members.map((i) => {
      const s = segments(corpora[i].path);
      return s.at(-1) === id ? s : [...s, id];
    });
    const longest = Math.max(...segs.map((s) => s.length));
    let names: string[] | undefined;
    for (let k = 2; k <= longest && names === undefined; k++) {
      const candidate = segs.map((s) => s.slice(-k).join("/"));
      if (new Set(candidate).size === candidate.length && candidate.every((n) => !taken.has(n))) {
        names = candidate;
      }
    }
    names ??= members.map((i) => corpora[i].path);
    members.forEach((i, j) => {
      taken.add(names![j]);
      out[i] = {
        id: names![j],
        warning: `${members.length === 2 ? "two" : members.length} corpora give the id ` +
          `${JSON.stringify(id)}: ${corpora[i].path} is named ${JSON.stringify(names![j])} ` +
          "after its path",
      };
    });
  }
  return out;
}
