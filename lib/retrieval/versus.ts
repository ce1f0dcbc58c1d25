/**
 * Every retriever against a baseline (BM25) on each golden set: the paired test of the
 * difference per query, for the report's side-by-side view of golden sets.
 *
 * @module
 */

import { compareRetrievals, type RetrievalResult } from "./evaluate.ts";
import type { MetricKey } from "./metrics.ts";

/** One retriever against the baseline on one golden set and metric; JSON-safe. */
export interface BaselineComparison {
  /** Golden set id. */
  readonly goldenSetId: string;
  /** Corpus id. */
  readonly corpusId: string;
  /** The retriever compared (plain index). */
  readonly retriever: string;
  /** The baseline retriever, e.g. `bm25`. */
  readonly baseline: string;
  /** Metric compared. */
  readonly metric: MetricKey;
  /** Queries paired. */
  readonly n: number;
  /** Mean of retriever − baseline over the queries. */
  readonly meanDiff: number;
  /** 95% paired-bootstrap interval of `meanDiff`. */
  readonly ci95: readonly [number, number];
  /** Two-sided p-value of the sign-flip randomization test. */
  readonly pValue: number;
  /** Test name. */
  readonly method: string;
}

/** Options of {@linkcode compareToBaseline}. */
export interface CompareToBaselineOptions {
  /**
   * Baseline retriever name.
   * @default {"bm25"}
   */
  readonly baseline?: string;
  /**
   * Metrics compared.
   * @default {["recall@5", "ndcg@10"]}
   */
  readonly metrics?: readonly MetricKey[];
  /** Seed of the tests (derived per metric). */
  readonly seed: number;
  /**
   * Permutations per test.
   * @default {10000}
   */
  readonly resamples?: number;
}

/**
 * Pairs each plain-index row (arm `null`) with the baseline's plain row of the same golden set
 * and corpus and runs {@linkcode compareRetrievals}. Rows of sets without a baseline row, the
 * baseline itself and arm rows are left out.
 *
 * @param rows Retrieval rows.
 * @param options Baseline, metrics, seed, resamples.
 * @returns One comparison per row × metric, in row order.
 *
 * @example Usage
 * ```ts
 * import { compareToBaseline } from "./versus.ts";
 * if (compareToBaseline([], { seed: 1 }).length !== 0) throw new Error("nothing to compare");
 * ```
 */
export function compareToBaseline(
  rows: readonly RetrievalResult[],
  options: CompareToBaselineOptions,
): BaselineComparison[] {
  const baseline = options.baseline ?? "bm25";
  const metrics = options.metrics ?? ["recall@5", "ndcg@10"];
  const out: BaselineComparison[] = [];
  for (const row of rows) {
    if (row.arm !== null || row.retriever === baseline) continue;
    const base = rows.find((r) =>
      r.arm === null && r.retriever === baseline && r.goldenSetId === row.goldenSetId &&
      r.corpusId === row.corpusId
    );
    if (base === undefined) continue;
    const tests = compareRetrievals(row, base, {
      seed: options.seed,
      metrics,
      ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
    });
    for (const t of tests) {
      out.push({
        goldenSetId: row.goldenSetId,
        corpusId: row.corpusId,
        retriever: row.retriever,
        baseline,
        metric: t.metric,
        n: t.n,
        meanDiff: t.meanDiff,
        ci95: t.ci95,
        pValue: t.pValue,
        method: t.method,
      });
    }
  }
  return out;
}
