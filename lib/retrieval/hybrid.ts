/**
 * Hybrid retrieval: reciprocal rank fusion (RRF) of BM25 and dense rankings.
 *
 * @module
 */

import { checkLimit } from "./_limit.ts";
import { bm25Entry, createBm25Retriever } from "./bm25.ts";
import { createDenseRetriever, denseEntry, embedderFromContext } from "./dense.ts";
import type { Embedder } from "./embeddings.ts";
import { compareHits } from "./metrics.ts";
import {
  type Hit,
  INDEX_FIELD_NAMES,
  type RetrievalDoc,
  type RetrieverCost,
  type RetrieverEntry,
  type RetrieverWith,
} from "./types.ts";

/** The RRF constant of Cormack, Clarke & Büttcher (SIGIR 2009), used unless tuned on dev. */
export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal rank fusion of ranked lists: score(d) = Σ over lists containing d of
 * 1 / (k + rank(d)), rank 1-based.
 *
 * @param rankings Ranked lists of ids, best first.
 * @param k RRF constant (> 0). @default {DEFAULT_RRF_K}
 * @returns Hits by fused score descending, ties by id ascending.
 * @throws {RangeError} when k is not positive.
 *
 * @example Usage
 * ```ts
 * import { reciprocalRankFusion } from "./hybrid.ts";
 * const fused = reciprocalRankFusion([["a", "b"], ["b", "c"]], 60);
 * if (fused[0].id !== "b") throw new Error("b is in both lists");
 * ```
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly string[])[],
  k: number = DEFAULT_RRF_K,
): Hit[] {
  if (!(k > 0)) throw new RangeError(`Cannot fuse rankings: k must be > 0, got ${k}`);
  const scores = new Map<string, number>();
  for (const list of rankings) {
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  return [...scores].map(([id, score]) => ({ id, score: Math.round(score * 1e12) / 1e12 }))
    .sort(compareHits);
}

/** Options of {@linkcode createHybridRetriever}. */
export interface HybridOptions {
  /** Embedder of the dense side. */
  readonly embedder: Embedder;
  /**
   * RRF constant.
   * @default {DEFAULT_RRF_K}
   */
  readonly k?: number;
  /**
   * How many hits of each side are fused.
   * @default {100}
   */
  readonly depth?: number;
}

/**
 * Build BM25 (default weights) and dense indexes over `docs` and fuse their top `depth` hits
 * with {@linkcode reciprocalRankFusion}.
 *
 * @param docs Documents (≥ 3, ids unique).
 * @param options Embedder, k, depth.
 * @returns A retriever named `hybrid`, with `prepare` and `cost` of its dense side.
 * @throws {EmbeddingError} when the endpoint fails; RangeError as {@linkcode createBm25Retriever}.
 */
export async function createHybridRetriever(
  docs: readonly RetrievalDoc[],
  options: HybridOptions,
): Promise<RetrieverWith<"prepare" | "cost">> {
  const k = options.k ?? DEFAULT_RRF_K;
  const depth = options.depth ?? 100;
  const bm25 = createBm25Retriever(docs);
  const dense = await createDenseRetriever(docs, { embedder: options.embedder });
  return {
    name: "hybrid",
    config: { k, depth, bm25: bm25.config, dense: dense.config },
    prepare: dense.prepare,
    cost: (): RetrieverCost => dense.cost(),
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      const lexical = bm25.search(query, depth).map((h) => h.id);
      const semantic = dense.search(query, depth).map((h) => h.id);
      return reciprocalRankFusion([lexical, semantic], k).slice(0, limit);
    },
  };
}

/** Registry entry of the `hybrid` retriever. */
export const hybridEntry: RetrieverEntry = {
  name: "hybrid",
  label: "hybrid",
  summary: `reciprocal rank fusion (k = ${DEFAULT_RRF_K}) of bm25 and dense (--embedding-model)`,
  // What its two parts read, and dense's build, cost and endpoint.
  reads: INDEX_FIELD_NAMES.filter((f) =>
    bm25Entry.reads.includes(f) || denseEntry.reads.includes(f)
  ),
  needsGolden: false,
  asyncBuild: denseEntry.asyncBuild,
  reportsCost: denseEntry.reportsCost,
  endpoint: denseEntry.endpoint,
  create: (docs, context) =>
    createHybridRetriever(docs, { embedder: embedderFromContext(context, "hybrid") }),
};
