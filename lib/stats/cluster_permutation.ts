/**
 * Case-level (cluster) paired permutation test for a change in pass rate between two runs
 * with repetitions.
 *
 * @module
 */

import { checkValues } from "./_check.ts";
import { createRng, deriveSeed } from "./prng.ts";

/** Which difference the test looks for. */
export type Alternative = "less" | "greater" | "two-sided";

/** Options of {@linkcode clusterPermutationTest}. */
export interface ClusterPermutationOptions {
  /** Seed of the random sign flips (used only above `exactUpTo` clusters); record it. */
  readonly seed: number;
  /**
   * `less`: candidate below baseline; `greater`: above; `two-sided`: either.
   * @default {"two-sided"}
   */
  readonly alternative?: Alternative;
  /**
   * Enumerate all 2ⁿ sign vectors when n ≤ this many clusters; else draw `resamples`.
   * @default {16}
   */
  readonly exactUpTo?: number;
  /**
   * Random sign vectors drawn above `exactUpTo`.
   * @default {10000}
   */
  readonly resamples?: number;
}

/** Outcome of {@linkcode clusterPermutationTest}. */
export interface ClusterPermutationResult {
  /** Clusters (cases) compared. */
  readonly n: number;
  /** Mean over clusters of candidate − baseline. */
  readonly meanDiff: number;
  /** p-value for the chosen alternative, in (0, 1]. */
  readonly pValue: number;
  /** The alternative tested. */
  readonly alternative: Alternative;
  /** `exact` (all 2ⁿ sign vectors) or `monte-carlo` (`resamples` random ones). */
  readonly method: "exact" | "monte-carlo";
  /** Sign vectors evaluated. */
  readonly permutations: number;
  /** Seed used (unsigned 32-bit). */
  readonly seed: number;
}

/**
 * Paired sign-flip permutation test over clusters. Each cluster is one case; its value in a
 * run is the case's pass rate over that run's scored repetitions. The test pairs the two runs
 * by case: dᵢ = candidateᵢ − baselineᵢ, statistic T = Σ dᵢ. Under H0 (the change does not
 * affect the case's pass probability) each dᵢ is as likely as −dᵢ, so the null distribution is
 * that of Σ sᵢ·dᵢ over sign vectors s ∈ {−1, 1}ⁿ.
 *
 * Why clusters: repetitions of one case share its difficulty, so they are not independent
 * trials; a test over all repetitions as if independent (a two-proportion z test) overstates
 * the evidence, and more repetitions would make any small drop "significant". Permuting whole
 * cases keeps the within-case correlation, and the number of repetitions only sharpens each
 * case's rate (cluster randomization: A. Donner & N. Klar, "Design and Analysis of Cluster
 * Randomization Trials", 2000; the sign-flip randomization test: R. A. Fisher, "The Design of
 * Experiments", 1935, §21; for paired system comparisons, Smucker, Allan & Carterette, CIKM 2007).
 *
 * p-values: exact — #{s : T(s) ≤ T_obs} / 2ⁿ for `less` (≥ for `greater`, |T(s)| ≥ |T_obs| for
 * `two-sided`), the identity included so p > 0; Monte Carlo — (count + 1) / (resamples + 1)
 * (Phipson & Smyth 2010). Comparisons allow 1e-12 for float noise. With n cases the smallest
 * possible one-sided p is 2⁻ⁿ: five cases can never be significant at 0.05, which is why the
 * gate also has an absolute `--max-pass-drop`.
 *
 * @param baseline Per-cluster values of the baseline (e.g. per-case pass rates), finite.
 * @param candidate Per-cluster values of the candidate, same clusters in the same order.
 * @param options Seed, alternative, exact limit, resamples.
 * @returns `{n, meanDiff, pValue, alternative, method, permutations, seed}`.
 * @throws {RangeError} when the lengths differ, are 0, a value is not finite, `exactUpTo` is not
 *   in [0, 24], or `resamples` < 1.
 *
 * @example Usage
 * ```ts
 * import { clusterPermutationTest } from "./cluster_permutation.ts";
 * // Three cases each went from always passing to always failing: only the all-negative sign
 * // vector is as extreme, p = 1/2³.
 * const r = clusterPermutationTest([1, 1, 1], [0, 0, 0], { seed: 1, alternative: "less" });
 * if (r.pValue !== 0.125 || r.meanDiff !== -1 || r.method !== "exact") throw new Error();
 * ```
 */
export function clusterPermutationTest(
  baseline: readonly number[],
  candidate: readonly number[],
  options: ClusterPermutationOptions,
): ClusterPermutationResult {
  const alternative = options.alternative ?? "two-sided";
  const exactUpTo = options.exactUpTo ?? 16;
  const resamples = options.resamples ?? 10000;
  const what = "run a cluster permutation test";
  if (baseline.length !== candidate.length) {
    throw new RangeError(
      `Cannot ${what}: baseline has ${baseline.length} clusters, candidate ${candidate.length}`,
    );
  }
  checkValues(baseline, what);
  checkValues(candidate, what);
  if (!Number.isInteger(exactUpTo) || exactUpTo < 0 || exactUpTo > 24) {
    throw new RangeError(
      `Cannot ${what}: exactUpTo must be an integer in [0, 24], got ${exactUpTo}`,
    );
  }
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`Cannot ${what}: resamples must be an integer >= 1, got ${resamples}`);
  }
  const n = baseline.length;
  const d = candidate.map((c, i) => c - baseline[i]);
  const observed = d.reduce((s, x) => s + x, 0);
  const eps = 1e-12;
  const extreme = (t: number) =>
    alternative === "less"
      ? t <= observed + eps
      : alternative === "greater"
      ? t >= observed - eps
      : Math.abs(t) >= Math.abs(observed) - eps;
  const seed = options.seed >>> 0;
  let count = 0;
  let pValue: number;
  let permutations: number;
  let method: "exact" | "monte-carlo";
  if (n <= exactUpTo) {
    method = "exact";
    permutations = 2 ** n;
    for (let mask = 0; mask < permutations; mask++) {
      let t = 0;
      for (let i = 0; i < n; i++) t += (mask >>> i) & 1 ? -d[i] : d[i];
      if (extreme(t)) count++;
    }
    pValue = count / permutations;
  } else {
    method = "monte-carlo";
    permutations = resamples;
    const rng = createRng(deriveSeed(seed, "cluster-sign-flip"));
    for (let r = 0; r < resamples; r++) {
      let t = 0;
      for (let i = 0; i < n; i++) t += rng.next() < 0.5 ? -d[i] : d[i];
      if (extreme(t)) count++;
    }
    pValue = (count + 1) / (resamples + 1);
  }
  return { n, meanDiff: observed / n, pValue, alternative, method, permutations, seed };
}
