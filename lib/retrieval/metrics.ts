/**
 * Ranking metrics over one query's ranked ids and graded labels: recall@k, reciprocal rank,
 * nDCG@k (linear gain) and average precision@k, and their means over a run.
 *
 * Definitions (as in the discovery-quality issue; same as trec_eval / pytrec_eval's
 * `recall_k`, `recip_rank` cut at k, `ndcg_cut_k` and `map_cut_k` except where noted):
 * - relevant = labels with grade ≥ 1 (grades collapse to binary for recall, RR and AP);
 * - recall@k = |relevant ∩ top k| / |relevant|;
 * - RR@k = 1 / rank of the first relevant id within the top k, else 0;
 * - nDCG@k = DCG@k / IDCG@k with DCG@k = Σ_{i ≤ k} grade(i) / log2(i + 1) (linear gain, Järvelin &
 *   Kekäläinen 2002 with the log2(i + 1) discount of Burges et al. 2005), and IDCG@k the DCG of all
 *   relevant labels sorted by grade descending;
 * - AP@k = Σ_{i ≤ k, i relevant} precision@i / |relevant| (the denominator is all relevant labels,
 *   as trec_eval's `map_cut`).
 *
 * @module
 */

import type { Grade, Hit } from "./types.ts";

/** How one metric is computed from a query's ranking (best first) and its graded labels. */
type MetricFn = (ranking: readonly string[], labels: ReadonlyMap<string, Grade>) => number;

/**
 * The metrics reported for every query and every mean, in report order: each key with the
 * function that computes it from one query's ranking (best first) and graded labels.
 */
export const METRICS = {
  "recall@1": (ranking, labels) => recallAtK(ranking, labels, 1),
  "recall@3": (ranking, labels) => recallAtK(ranking, labels, 3),
  "recall@5": (ranking, labels) => recallAtK(ranking, labels, 5),
  "recall@10": (ranking, labels) => recallAtK(ranking, labels, 10),
  "mrr@10": (ranking, labels) => reciprocalRankAtK(ranking, labels, 10),
  "ndcg@10": (ranking, labels) => ndcgAtK(ranking, labels, 10),
  "map@10": (ranking, labels) => averagePrecisionAtK(ranking, labels, 10),
} as const satisfies Readonly<Record<string, MetricFn>>;

/** One of {@linkcode METRIC_KEYS}. */
export type MetricKey = keyof typeof METRICS;

/** The metric keys reported for every query and every mean, in report order. */
export const METRIC_KEYS: readonly MetricKey[] = Object.keys(METRICS) as MetricKey[];

/**
 * Each metric without its input checks, for {@linkcode queryMetrics}, which checks a query's
 * inputs once: `ranking` unique, `relevant` the labels with grade >= 1 (at least one).
 */
const CORES: Readonly<
  Record<
    MetricKey,
    (ranking: readonly string[], labels: ReadonlyMap<string, Grade>, relevant: number) => number
  >
> = {
  "recall@1": (ranking, labels, r) => recall(ranking, labels, 1, r),
  "recall@3": (ranking, labels, r) => recall(ranking, labels, 3, r),
  "recall@5": (ranking, labels, r) => recall(ranking, labels, 5, r),
  "recall@10": (ranking, labels, r) => recall(ranking, labels, 10, r),
  "mrr@10": (ranking, labels) => reciprocalRank(ranking, labels, 10),
  "ndcg@10": (ranking, labels) => ndcg(ranking, labels, 10),
  "map@10": (ranking, labels, r) => averagePrecision(ranking, labels, 10, r),
};

/** A value per metric key; every value is in [0, 1]. */
export type MetricValues = { readonly [K in MetricKey]: number };

/**
 * Sort hits best first: score descending, then id ascending (UTF-16 code unit order).
 *
 * @param hits Hits in any order.
 * @returns A new sorted array.
 * @throws {RangeError} when a score is not finite or an id appears twice.
 */
export function rankHits(hits: readonly Hit[]): Hit[] {
  const seen = new Set<string>();
  for (const h of hits) {
    if (!Number.isFinite(h.score)) {
      throw new RangeError(`Cannot rank hits: hit "${h.id}" has score ${h.score}`);
    }
    if (seen.has(h.id)) throw new RangeError(`Cannot rank hits: id "${h.id}" appears twice`);
    seen.add(h.id);
  }
  return [...hits].sort(compareHits);
}

/** Order of {@linkcode rankHits}: score descending, then id ascending. */
export function compareHits(a: Hit, b: Hit): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function relevantCount(labels: ReadonlyMap<string, Grade>): number {
  let n = 0;
  for (const g of labels.values()) if (g >= 1) n++;
  return n;
}

function checkInputs(ranking: readonly string[], labels: ReadonlyMap<string, Grade>, k: number) {
  if (!Number.isInteger(k) || k < 1) {
    throw new RangeError(`Cannot compute a metric at k: k must be an integer >= 1, got ${k}`);
  }
  if (new Set(ranking).size !== ranking.length) {
    throw new RangeError(`Cannot score a ranking with duplicate ids: ${JSON.stringify(ranking)}`);
  }
  const r = relevantCount(labels);
  if (r === 0) {
    throw new RangeError("Cannot score a query with no label of relevance >= 1");
  }
  return r;
}

/**
 * recall@k: relevant ids in the top k ÷ number of labels with grade ≥ 1.
 *
 * @param ranking Ids, best first (unique).
 * @param labels Id → grade; at least one grade ≥ 1.
 * @param k Cut-off (≥ 1).
 * @returns A number in [0, 1].
 * @throws {RangeError} when k < 1, ids repeat, or no label has grade ≥ 1.
 *
 * @example Usage
 * ```ts
 * import { recallAtK } from "./metrics.ts";
 * const labels = new Map([["A", 2], ["B", 1], ["C", 1]] as const);
 * if (recallAtK(["A", "X", "B", "Y"], labels, 3) !== 2 / 3) throw new Error("unexpected");
 * ```
 */
export function recallAtK(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  k: number,
): number {
  return recall(ranking, labels, k, checkInputs(ranking, labels, k));
}

function recall(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  k: number,
  relevant: number,
): number {
  let hits = 0;
  const top = Math.min(k, ranking.length);
  for (let i = 0; i < top; i++) if ((labels.get(ranking[i]) ?? 0) >= 1) hits++;
  return hits / relevant;
}

/**
 * recall@k for every k from 1 to `maxK` (`recallAtK(ranking.slice(0, k), labels, k)` each),
 * from one pass over the ranking.
 *
 * @param ranking Ids, best first (unique).
 * @param labels Id → grade; at least one grade ≥ 1.
 * @param maxK Largest cut-off (≥ 1).
 * @returns `maxK` numbers in [0, 1], recall@1 first.
 * @throws {RangeError} when maxK < 1, ids repeat, or no label has grade ≥ 1.
 *
 * @example Usage
 * ```ts
 * import { recallCurve } from "./metrics.ts";
 * const labels = new Map([["A", 2], ["B", 1]] as const);
 * if (recallCurve(["X", "A", "B"], labels, 4).join() !== "0,0.5,1,1") throw new Error();
 * ```
 */
export function recallCurve(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  maxK: number,
): number[] {
  const r = checkInputs(ranking, labels, maxK);
  const out = new Array<number>(maxK);
  let hits = 0;
  for (let k = 1; k <= maxK; k++) {
    if (k <= ranking.length && (labels.get(ranking[k - 1]) ?? 0) >= 1) hits++;
    out[k - 1] = hits / r;
  }
  return out;
}

/**
 * Reciprocal rank at k: 1 / rank of the first id with grade ≥ 1 in the top k, else 0.
 *
 * @param ranking Ids, best first (unique).
 * @param labels Id → grade; at least one grade ≥ 1.
 * @param k Cut-off (≥ 1).
 * @returns A number in [0, 1].
 * @throws {RangeError} when k < 1, ids repeat, or no label has grade ≥ 1.
 */
export function reciprocalRankAtK(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  k: number,
): number {
  checkInputs(ranking, labels, k);
  return reciprocalRank(ranking, labels, k);
}

function reciprocalRank(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  k: number,
): number {
  const top = Math.min(k, ranking.length);
  for (let i = 0; i < top; i++) if ((labels.get(ranking[i]) ?? 0) >= 1) return 1 / (i + 1);
  return 0;
}

/**
 * nDCG@k with linear graded gain: Σ grade / log2(rank + 1) over the top k, divided by the same sum
 * for the ideal ranking of all labels with grade ≥ 1 (grade descending), cut at k.
 *
 * @param ranking Ids, best first (unique).
 * @param labels Id → grade; at least one grade ≥ 1.
 * @param k Cut-off (≥ 1).
 * @returns A number in [0, 1].
 * @throws {RangeError} when k < 1, ids repeat, or no label has grade ≥ 1.
 */
export function ndcgAtK(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  k: number,
): number {
  checkInputs(ranking, labels, k);
  return ndcg(ranking, labels, k);
}

function ndcg(ranking: readonly string[], labels: ReadonlyMap<string, Grade>, k: number): number {
  let dcg = 0;
  const top = Math.min(k, ranking.length);
  for (let i = 0; i < top; i++) dcg += (labels.get(ranking[i]) ?? 0) / Math.log2(i + 2);
  const ideal = [...labels.values()].filter((g) => g >= 1).sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  for (let i = 0; i < ideal.length; i++) idcg += ideal[i] / Math.log2(i + 2);
  return dcg / idcg;
}

/**
 * Average precision at k: Σ precision@i over the ranks i ≤ k that hold a relevant id, divided by
 * the number of labels with grade ≥ 1 (not by min(k, relevant)).
 *
 * @param ranking Ids, best first (unique).
 * @param labels Id → grade; at least one grade ≥ 1.
 * @param k Cut-off (≥ 1).
 * @returns A number in [0, 1].
 * @throws {RangeError} when k < 1, ids repeat, or no label has grade ≥ 1.
 */
export function averagePrecisionAtK(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  k: number,
): number {
  return averagePrecision(ranking, labels, k, checkInputs(ranking, labels, k));
}

function averagePrecision(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
  k: number,
  relevant: number,
): number {
  let found = 0;
  let sum = 0;
  const top = Math.min(k, ranking.length);
  for (let i = 0; i < top; i++) {
    if ((labels.get(ranking[i]) ?? 0) >= 1) {
      found++;
      sum += found / (i + 1);
    }
  }
  return sum / relevant;
}

/**
 * All {@linkcode METRIC_KEYS} for one query.
 *
 * @param ranking Ids, best first (unique); only the top 10 count.
 * @param labels Id → grade; at least one grade ≥ 1.
 * @returns One value per metric key.
 * @throws {RangeError} when ids repeat or no label has grade ≥ 1.
 *
 * @example Usage
 * ```ts
 * import { queryMetrics } from "./metrics.ts";
 * const m = queryMetrics(["A", "X", "B", "Y"], new Map([["A", 2], ["B", 1], ["C", 1]] as const));
 * if (m["mrr@10"] !== 1 || m["recall@1"] !== 1 / 3) throw new Error("unexpected");
 * ```
 */
export function queryMetrics(
  ranking: readonly string[],
  labels: ReadonlyMap<string, Grade>,
): MetricValues {
  // The inputs checked once for every metric (each metric alone checks them itself).
  const r = checkInputs(ranking, labels, 1);
  const out: Record<string, number> = {};
  for (const key of METRIC_KEYS) out[key] = CORES[key](ranking, labels, r);
  return out as MetricValues;
}

/**
 * Mean of each metric over per-query values (every query counts once).
 *
 * @param rows Per-query metric values, at least one.
 * @returns The arithmetic mean per key.
 * @throws {RangeError} when `rows` is empty.
 */
export function meanMetrics(rows: readonly MetricValues[]): MetricValues {
  if (rows.length === 0) throw new RangeError("Cannot average metrics over zero queries");
  const out: Record<string, number> = {};
  for (const key of METRIC_KEYS) {
    let s = 0;
    for (const row of rows) s += row[key];
    out[key] = s / rows.length;
  }
  return out as MetricValues;
}
