/**
 * Newcombe's hybrid score interval for the difference of two independent proportions.
 *
 * @module
 */

import { wilsonInterval, Z_95 } from "./wilson.ts";

/** A difference of proportions with its interval. */
export interface DifferenceInterval {
  /** p₁ − p₂, in [−1, 1]. */
  readonly diff: number;
  /** Lower bound, in [−1, 1]. */
  readonly lo: number;
  /** Upper bound, in [−1, 1]. */
  readonly hi: number;
}

/**
 * Interval for p₁ − p₂ from x₁/n₁ and x₂/n₂ (Newcombe's method 10, the "hybrid score"
 * interval): with (l₁, u₁) and (l₂, u₂) the Wilson intervals of each proportion and
 * d = p̂₁ − p̂₂,
 * L = d − √((p̂₁ − l₁)² + (u₂ − p̂₂)²), U = d + √((u₁ − p̂₁)² + (p̂₂ − l₂)²).
 *
 * It assumes independent trials. Repetitions of the same case are not independent (a hard case
 * fails in every repetition), so for runs with repetitions the interval is too narrow; the gate
 * decides with the case-level `clusterPermutationTest` and shows this interval only as
 * a description.
 *
 * Source: R. G. Newcombe, "Interval estimation for the difference between independent
 * proportions: comparison of eleven methods", Statistics in Medicine 17 (1998) 873–890.
 *
 * @param x1 Successes of the first sample (integer in [0, n1]).
 * @param n1 Trials of the first sample (integer ≥ 1).
 * @param x2 Successes of the second sample (integer in [0, n2]).
 * @param n2 Trials of the second sample (integer ≥ 1).
 * @param z Normal quantile; default 1.959964 (95% two-sided).
 * @returns `{diff, lo, hi}`.
 * @throws {RangeError} from {@linkcode wilsonInterval} on bad counts.
 *
 * @example Usage
 * ```ts
 * import { newcombeInterval } from "./newcombe.ts";
 * // Newcombe (1998), Table II, example (a): 56/70 − 48/80 → 0.0524 to 0.3339
 * const d = newcombeInterval(56, 70, 48, 80);
 * if (Math.abs(d.lo - 0.0524) > 1e-4 || Math.abs(d.hi - 0.3339) > 1e-4) throw new Error();
 * ```
 */
export function newcombeInterval(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  z: number = Z_95,
): DifferenceInterval {
  const a = wilsonInterval(x1, n1, z);
  const b = wilsonInterval(x2, n2, z);
  const diff = a.p - b.p;
  return {
    diff,
    lo: Math.max(-1, diff - Math.hypot(a.p - a.lo, b.hi - b.p)),
    hi: Math.min(1, diff + Math.hypot(a.hi - a.p, b.p - b.lo)),
  };
}
