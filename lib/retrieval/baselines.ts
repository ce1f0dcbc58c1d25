/**
 * Baselines that bracket every metric: a seeded random ranking (floor) and an oracle that
 * returns the labelled tools in ideal order (ceiling).
 *
 * @module
 */

import { createRng, deriveSeed } from "../stats/prng.ts";
import { checkLimit } from "./_limit.ts";
import { compareHits } from "./metrics.ts";
import type {
  Grade,
  Hit,
  Qrels,
  Queries,
  RetrievalDoc,
  Retriever,
  RetrieverEntry,
} from "./types.ts";

/**
 * A retriever that ranks `limit` documents drawn uniformly at random without replacement.
 *
 * The draw for a query depends only on `seed` and the query text (Mulberry32 seeded with
 * `deriveSeed(seed, query)`, partial Fisher–Yates over the documents sorted by id), never on call
 * order. Scores are `limit − i` for the i-th draw.
 *
 * @param docs Documents (at least one).
 * @param seed Seed, recorded in `config.seed`.
 * @returns A {@linkcode Retriever} named `random`.
 * @throws {RangeError} when `docs` is empty.
 *
 * @example Usage
 * ```ts
 * import { createRandomRetriever } from "./baselines.ts";
 * const docs = ["a", "b", "c"].map((id) => ({ id, name: id, server: "s", description: "", params: "" }));
 * const r = createRandomRetriever(docs, 1);
 * if (r.search("q", 3).length !== 3) throw new Error("unexpected");
 * ```
 */
export function createRandomRetriever(docs: readonly RetrievalDoc[], seed: number): Retriever {
  if (docs.length === 0) throw new RangeError("Cannot build a random retriever over 0 documents");
  const ids = docs.map((d) => d.id).sort();
  return {
    name: "random",
    config: { seed: seed >>> 0 },
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      const rng = createRng(deriveSeed(seed, query));
      const k = Math.min(limit, ids.length);
      const swapped = new Map<number, number>();
      const at = (i: number) => swapped.get(i) ?? i;
      const out: Hit[] = [];
      for (let i = 0; i < k; i++) {
        const j = i + rng.int(ids.length - i);
        const pick = at(j);
        swapped.set(j, at(i));
        out.push({ id: ids[pick], score: k - i });
      }
      return out;
    },
  };
}

/**
 * A retriever that answers each known query text with its labels of grade ≥ 1, best grade first,
 * ties by id ascending (the ideal ranking), score = grade. Unknown queries get no hits.
 *
 * @param golden Queries and qrels (e.g. a {@linkcode GoldenSet}).
 * @returns A {@linkcode Retriever} named `oracle`.
 * @throws {RangeError} when two queries share a text but not their labels.
 */
export function createOracleRetriever(
  golden: { readonly queries: Queries; readonly qrels: Qrels },
): Retriever {
  const byText = new Map<string, Hit[]>();
  for (const [qid, text] of golden.queries) {
    const labels: ReadonlyMap<string, Grade> = golden.qrels.get(qid) ?? new Map();
    const hits = [...labels].filter(([, g]) => g >= 1).map(([id, g]) => ({ id, score: g }))
      .sort(compareHits);
    const prev = byText.get(text);
    if (prev !== undefined && JSON.stringify(prev) !== JSON.stringify(hits)) {
      throw new RangeError(
        `Cannot build an oracle: query text ${JSON.stringify(text)} has two different label sets`,
      );
    }
    byText.set(text, hits);
  }
  return {
    name: "oracle",
    config: {},
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      return (byText.get(query) ?? []).slice(0, limit);
    },
  };
}

/** Registry entry of the `random` floor: seeded by `deriveSeed(seed, "random")`; ignores the index. */
export const randomEntry: RetrieverEntry = {
  name: "random",
  label: "random",
  summary: "seeded random ranking (the floor of every metric)",
  reads: [],
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  create: (docs, context) => createRandomRetriever(docs, deriveSeed(context.seed, "random")),
};

/** Registry entry of the `oracle` ceiling: answers from the golden labels; ignores the index. */
export const oracleEntry: RetrieverEntry = {
  name: "oracle",
  label: "oracle",
  summary: "the labelled tools in ideal order (the ceiling of every metric)",
  reads: [],
  needsGolden: true,
  asyncBuild: false,
  reportsCost: false,
  create: (_docs, context) => {
    if (context.golden === undefined) {
      throw new TypeError("Cannot build the oracle retriever: it needs a golden set");
    }
    return createOracleRetriever(context.golden);
  },
};
