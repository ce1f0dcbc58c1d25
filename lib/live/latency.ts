/**
 * Client-side latency summary of discovery calls.
 *
 * @module
 */
import { percentileNearestRank } from "../stats/percentile.ts";

/** Latency percentiles of a set of calls (ms). */
export interface LatencySummary {
  /** Calls measured (count). */
  readonly n: number;
  /** Median, nearest-rank (ms). */
  readonly p50: number;
  /** 95th percentile, nearest-rank (ms). */
  readonly p95: number;
  /** 99th percentile, nearest-rank (ms). */
  readonly p99: number;
  /** Slowest call (ms). */
  readonly max: number;
  /** Arithmetic mean (ms). */
  readonly mean: number;
}

/**
 * Summarizes per-call latencies with nearest-rank percentiles.
 *
 * Nearest rank: sort ascending and take the value at 1-based rank
 * `ceil(p / 100 × n)`; the result is always an observed latency, never an
 * interpolation (`percentileNearestRank` in lib/stats). With n < 100, p99 is
 * the maximum; with n < 20, p95 is too.
 *
 * @param latenciesMs Per-call latencies in ms (finite, ≥ 1 value).
 * @returns `{n, p50, p95, p99, max, mean}` in ms.
 * @throws {RangeError} When the list is empty or holds a non-finite value.
 *
 * @example Usage
 * ```ts
 * import { summarizeLatency } from "./latency.ts";
 * // n = 4: p50 → rank ceil(2) = 2 → 20; p95, p99 → rank 4 → 40.
 * const s = summarizeLatency([40, 10, 30, 20]);
 * if (s.p50 !== 20 || s.p95 !== 40 || s.mean !== 25) throw new Error(JSON.stringify(s));
 * ```
 */
export function summarizeLatency(latenciesMs: readonly number[]): LatencySummary {
  if (latenciesMs.length === 0) throw new RangeError("Cannot summarize latency of zero calls");
  const p = (q: number) => percentileNearestRank(latenciesMs, q);
  let sum = 0;
  for (const v of latenciesMs) sum += v;
  return {
    n: latenciesMs.length,
    p50: p(50),
    p95: p(95),
    p99: p(99),
    max: p(100),
    mean: sum / latenciesMs.length,
  };
}
