/**
 * pass@k and pass^k estimators over repeated attempts of one task.
 *
 * @module
 */

function check(n: number, c: number, k: number, what: string): void {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`Cannot compute ${what}: n must be an integer >= 1, got ${n}`);
  }
  if (!Number.isInteger(c) || c < 0 || c > n) {
    throw new RangeError(`Cannot compute ${what}: c must be an integer in [0, ${n}], got ${c}`);
  }
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new RangeError(`Cannot compute ${what}: k must be an integer in [1, ${n}], got ${k}`);
  }
}

/**
 * Unbiased pass@k: the probability that at least one of k attempts drawn without replacement
 * from n attempts (c of them correct) is correct.
 *
 * pass@k = 1 − C(n − c, k) / C(n, k), evaluated as the product 1 − ∏_{i=n−c+1}^{n} (1 − k/i)
 * to avoid large binomials.
 *
 * Source: M. Chen et al., "Evaluating Large Language Models Trained on Code", arXiv:2107.03374
 * (2021), equation 1 and its numerically stable implementation.
 *
 * @param n Attempts made (integer ≥ 1).
 * @param c Correct attempts (integer, 0 ≤ c ≤ n).
 * @param k Attempts allowed (integer, 1 ≤ k ≤ n).
 * @returns A probability in [0, 1].
 * @throws {RangeError} on non-integer or out-of-range arguments.
 *
 * @example Usage
 * ```ts
 * import { passAtK } from "./pass_at_k.ts";
 * // n = 5, c = 2, k = 2: 1 − C(3,2)/C(5,2) = 1 − 3/10
 * if (Math.abs(passAtK(5, 2, 2) - 0.7) > 1e-12) throw new Error("unexpected");
 * ```
 */
export function passAtK(n: number, c: number, k: number): number {
  check(n, c, k, "pass@k");
  if (n - c < k) return 1;
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - k / i;
  return 1 - prod;
}

/**
 * pass^k: the probability that all of k attempts drawn without replacement from n attempts
 * (c of them correct) are correct — a reliability measure that falls as k grows.
 *
 * pass^k = C(c, k) / C(n, k) = ∏_{i=0}^{k−1} (c − i) / (n − i).
 *
 * Source: S. Yao et al., "τ-bench: A Benchmark for Tool-Agent-User Interaction in Real-World
 * Domains", arXiv:2406.12045 (2024), section 4 (pass^k).
 *
 * @param n Attempts made (integer ≥ 1).
 * @param c Correct attempts (integer, 0 ≤ c ≤ n).
 * @param k Attempts required to all pass (integer, 1 ≤ k ≤ n).
 * @returns A probability in [0, 1].
 * @throws {RangeError} on non-integer or out-of-range arguments.
 *
 * @example Usage
 * ```ts
 * import { passHatK } from "./pass_at_k.ts";
 * // n = 5, c = 2, k = 2: C(2,2)/C(5,2) = 1/10
 * if (Math.abs(passHatK(5, 2, 2) - 0.1) > 1e-12) throw new Error("unexpected");
 * ```
 */
export function passHatK(n: number, c: number, k: number): number {
  check(n, c, k, "pass^k");
  if (c < k) return 0;
  let prod = 1;
  for (let i = 0; i < k; i++) prod *= (c - i) / (n - i);
  return prod;
}
