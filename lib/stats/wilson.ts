/**
 * Wilson score interval for a binomial proportion (pass rates).
 *
 * @module
 */

/** Two-sided 95% normal quantile z = Φ⁻¹(0.975), to 16 digits. */
export const Z_95 = 1.959963984540054;

/** A proportion with its Wilson score interval. */
export interface WilsonInterval {
  /** Observed proportion successes / trials, in [0, 1]. */
  readonly p: number;
  /** Lower bound of the interval, in [0, 1]. */
  readonly lo: number;
  /** Upper bound of the interval, in [0, 1]. */
  readonly hi: number;
}

/**
 * The Wilson score interval for `successes` out of `trials`.
 *
 * With p̂ = x/n: centre = (p̂ + z²/2n) / (1 + z²/n) and
 * half-width = z / (1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²).
 * Unlike the Wald interval it stays inside [0, 1] and is not degenerate at p̂ = 0 or 1.
 *
 * Source: E. B. Wilson, "Probable inference, the law of succession, and statistical
 * inference", Journal of the American Statistical Association 22 (1927) 209–212.
 *
 * @param successes Number of successes x (integer, 0 ≤ x ≤ n).
 * @param trials Number of trials n (integer ≥ 1).
 * @param z Normal quantile; default {@linkcode Z_95} (95% two-sided).
 * @returns `{p, lo, hi}`, bounds clamped to [0, 1]; exactly 0 (1) when x = 0 (x = n).
 * @throws {RangeError} when `trials` < 1, or `successes` is not an integer in [0, trials], or z ≤ 0.
 *
 * @example Usage
 * ```ts
 * import { wilsonInterval } from "./wilson.ts";
 * const { lo, hi } = wilsonInterval(5, 10);
 * if (Math.abs(lo - 0.2366) > 1e-4 || Math.abs(hi - 0.7634) > 1e-4) throw new Error("unexpected");
 * ```
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  z: number = Z_95,
): WilsonInterval {
  if (!Number.isInteger(trials) || trials < 1) {
    throw new RangeError(
      `Cannot compute a Wilson interval: trials must be an integer >= 1, got ${trials}`,
    );
  }
  if (!Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError(
      `Cannot compute a Wilson interval: successes must be an integer in [0, ${trials}], got ${successes}`,
    );
  }
  if (!(z > 0)) throw new RangeError(`Cannot compute a Wilson interval: z must be > 0, got ${z}`);
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At x = 0 (x = n) the lower (upper) bound is exactly 0 (1); pin it against rounding.
  const lo = successes === 0 ? 0 : Math.max(0, centre - half);
  const hi = successes === n ? 1 : Math.min(1, centre + half);
  return { p, lo, hi };
}
