/**
 * Paired significance test for the difference between two systems scored on the same items
 * (two retrievers, or two encoding arms, on the same queries).
 *
 * @module
 */

import { bootstrapMeanCi } from "./bootstrap.ts";
import { checkValues } from "./_check.ts";
import { createRng, deriveSeed } from "./prng.ts";
import { KeptTables } from "./_tables.ts";

/**
 * Entries of the sign tables kept, all together (16 MB): the bench compares three retrievers
 * against one baseline per golden set and metric, with the same seed and sizes.
 */
const SIGNS_BUDGET = 1 << 24;
const signTables = new KeptTables<Uint8Array>(SIGNS_BUDGET);

/**
 * The sign bits of every permutation, `resamples × n`, for a seed: the top bit of each
 * `rng.nextUint32()` (1: keep the sign, 0: flip it), permutation after permutation; kept while
 * within {@linkcode SIGNS_BUDGET}. `undefined` for a larger table (its draws are streamed).
 */
function signTable(seed: number, n: number, resamples: number): Uint8Array | undefined {
  if (n * resamples > SIGNS_BUDGET) return undefined;
  return signTables.get(
    `${seed}/${n}/${resamples}`,
    () => createRng(seed).fillTopBits(new Uint8Array(n * resamples)),
  );
}

/** Options of {@linkcode pairedTest}. */
export interface PairedTestOptions {
  /** Seed for both the sign flips and the bootstrap; record it with the result. */
  readonly seed: number;
  /**
   * Number of random sign-flip permutations and of bootstrap resamples.
   * @default {10000}
   */
  readonly resamples?: number;
}

/** Outcome of {@linkcode pairedTest}. */
export interface PairedTestResult {
  /** Number of paired items. */
  readonly n: number;
  /** Mean of a − b over the items. */
  readonly meanDiff: number;
  /** 95% percentile-bootstrap interval of the mean difference, `[lo, hi]`. */
  readonly ci95: readonly [number, number];
  /** Two-sided p-value of the sign-flip randomization test, in (0, 1]. */
  readonly pValue: number;
  /** Name of the test. */
  readonly method: "paired-randomization-sign-flip";
  /** Number of permutations (and bootstrap resamples) drawn. */
  readonly resamples: number;
  /** Seed used. */
  readonly seed: number;
}

/**
 * Two-sided paired randomization test (sign-flip permutation test) of H0 "a and b are
 * exchangeable per item", plus a paired-bootstrap 95% interval for the mean difference.
 *
 * Under H0 each difference dᵢ = aᵢ − bᵢ is equally likely to have either sign. The test draws
 * `resamples` random sign vectors s, and counts how often |mean(s·d)| ≥ |mean(d)| (with a
 * 1e-12 tolerance for float noise). p = (count + 1) / (resamples + 1), which never reports 0
 * (Phipson & Smyth 2010, "Permutation p-values should never be zero"). The randomization test
 * for IR metrics follows Smucker, Allan & Carterette (CIKM 2007).
 *
 * @param a Per-item scores of system A (e.g. per-query ndcg@10).
 * @param b Per-item scores of system B on the same items, same order.
 * @param options Seed and number of resamples (default 10,000).
 * @returns `{n, meanDiff, ci95, pValue, method, resamples, seed}`.
 * @throws {RangeError} when the arrays differ in length, are empty, hold a non-finite value, or
 * `resamples` < 1.
 *
 * @example Usage
 * ```ts
 * import { pairedTest } from "./paired.ts";
 * const r = pairedTest([1, 1, 1, 1], [1, 1, 1, 1], { seed: 3, resamples: 100 });
 * if (r.meanDiff !== 0 || r.pValue !== 1) throw new Error("identical systems give p = 1");
 * ```
 */
export function pairedTest(
  a: readonly number[],
  b: readonly number[],
  options: PairedTestOptions,
): PairedTestResult {
  const resamples = options.resamples ?? 10000;
  if (a.length !== b.length) {
    throw new RangeError(
      `Cannot run a paired test: the systems have ${a.length} and ${b.length} scores`,
    );
  }
  checkValues(a, "run a paired test");
  checkValues(b, "run a paired test");
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`Cannot run a paired test: resamples must be >= 1, got ${resamples}`);
  }
  const n = a.length;
  const diff = a.map((x, i) => x - b[i]);
  const observed = Math.abs(diff.reduce((s, d) => s + d, 0) / n);
  // One draw per item, resample after resample: u / 2^32 < 0.5 (the top bit of u clear) flips the
  // sign. Multiplying by ±1 is exact, so the sums are those of the branch `u < 0.5 ? -d : d`; a
  // zero difference adds ±0, which leaves a sum begun at +0 as it is, so only the others are added.
  const signs = signTable(deriveSeed(options.seed, "sign-flip"), n, resamples);
  const nonZero: number[] = [];
  for (let i = 0; i < n; i++) if (diff[i] !== 0) nonZero.push(i);
  const at = Int32Array.from(nonZero);
  const d = Float64Array.from(nonZero, (i) => diff[i]);
  const m = at.length;
  let extreme = 0;
  if (signs !== undefined) {
    // Each term read by its sign bit from [-d, +d] (the same values as d · ±1, so the same sums),
    // without converting the bit and multiplying per term.
    const signed = new Float64Array(2 * m);
    for (let j = 0; j < m; j++) {
      signed[2 * j] = -d[j];
      signed[2 * j + 1] = d[j];
    }
    // Four permutations at a time, each summed in its own order (so the same sums), as four
    // independent additions per step.
    const bound = observed - 1e-12;
    let r = 0;
    let row = 0;
    for (; r + 4 <= resamples; r += 4, row += 4 * n) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let j = 0; j < m; j++) {
        const x = row + at[j];
        const k = 2 * j;
        s0 += signed[k + signs[x]];
        s1 += signed[k + signs[x + n]];
        s2 += signed[k + signs[x + 2 * n]];
        s3 += signed[k + signs[x + 3 * n]];
      }
      if (Math.abs(s0 / n) >= bound) extreme++;
      if (Math.abs(s1 / n) >= bound) extreme++;
      if (Math.abs(s2 / n) >= bound) extreme++;
      if (Math.abs(s3 / n) >= bound) extreme++;
    }
    for (; r < resamples; r++, row += n) {
      let sum = 0;
      for (let j = 0; j < m; j++) sum += signed[2 * j + signs[row + at[j]]];
      if (Math.abs(sum / n) >= bound) extreme++;
    }
  } else {
    const rng = createRng(deriveSeed(options.seed, "sign-flip"));
    const draws = new Uint32Array(n);
    for (let r = 0; r < resamples; r++) {
      rng.fill(draws);
      let sum = 0;
      for (let j = 0; j < m; j++) sum += d[j] * ((draws[at[j]] >>> 31) * 2 - 1);
      if (Math.abs(sum / n) >= observed - 1e-12) extreme++;
    }
  }
  const ci = bootstrapMeanCi(diff, { seed: deriveSeed(options.seed, "bootstrap"), resamples });
  return {
    n,
    meanDiff: ci.mean,
    ci95: [ci.lo, ci.hi],
    pValue: (extreme + 1) / (resamples + 1),
    method: "paired-randomization-sign-flip",
    resamples,
    seed: options.seed >>> 0,
  };
}
