/**
 * Nearest-rank percentiles, as used for latency figures (p50, p95, p99).
 *
 * @module
 */

import { checkValues } from "./_check.ts";

/**
 * The nearest-rank percentile: sort ascending, take the value at 1-based rank
 * `ceil(p / 100 × n)` (rank 1 when p is 0). Always returns an observed value, never an interpolation.
 *
 * Definition: the "nearest-rank method" (e.g. NIST/Wikipedia "Percentile", nearest-rank method).
 *
 * @param values Observations (any unit, e.g. ms); not modified.
 * @param p Percentile in [0, 100].
 * @returns The value at rank `max(1, ceil(p / 100 × n))` of the sorted values.
 * @throws {RangeError} when `values` is empty, contains a non-finite number, or `p` is outside [0, 100].
 *
 * @example Usage
 * ```ts
 * import { percentileNearestRank } from "./percentile.ts";
 * // n = 5, p = 40 → rank ceil(2) = 2 → second smallest
 * if (percentileNearestRank([15, 20, 35, 40, 50], 40) !== 20) throw new Error("unexpected");
 * ```
 */
export function percentileNearestRank(values: readonly number[], p: number): number {
  checkValues(values, "compute a percentile");
  if (!(p >= 0 && p <= 100)) {
    throw new RangeError(`Cannot compute percentile p: p must be in [0, 100], got ${p}`);
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}
