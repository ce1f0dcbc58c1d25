/**
 * Seeded percentile-bootstrap confidence intervals for a mean.
 *
 * @module
 */

import { mean, quantileSorted } from "simple-statistics";
import { createRng } from "./prng.ts";
import { checkValues } from "./_check.ts";
import { KeptTables } from "./_tables.ts";

/** Options of {@linkcode bootstrapMeanCi}. */
export interface BootstrapOptions {
  /** Seed of the Mulberry32 generator that draws the resamples; record it with the result. */
  readonly seed: number;
  /**
   * Number of bootstrap resamples.
   * @default {1000}
   */
  readonly resamples?: number;
  /**
   * Coverage of the interval, in (0, 1).
   * @default {0.95}
   */
  readonly level?: number;
}

/** A bootstrap interval for a mean, with what is needed to reproduce it. */
export interface BootstrapInterval {
  /** Mean of the observed values. */
  readonly mean: number;
  /** Lower bound: the (1 − level)/2 quantile of the resampled means. */
  readonly lo: number;
  /** Upper bound: the (1 + level)/2 quantile of the resampled means. */
  readonly hi: number;
  /** Coverage requested, e.g. 0.95. */
  readonly level: number;
  /** Number of resamples drawn. */
  readonly resamples: number;
  /** Seed used. */
  readonly seed: number;
}

/**
 * Entries of the index tables kept, all together (32 MB as 16-bit indices): every metric's
 * bootstrap of the bench's golden sets (1,000 resamples of about 250 queries) and the paired
 * tests' (10,000 resamples).
 */
const TABLES_BUDGET = 1 << 24;
const tables = new KeptTables<Uint16Array>(TABLES_BUDGET);

/**
 * The drawn indices of every resample, `resamples × n`, for a seed: `floor(u × n)` per draw
 * (`u = rng.next()`), resample after resample. The table depends on the seed and sizes only, and
 * the bench bootstraps every retriever's metric on a golden set with the same seed, so the last
 * tables are kept ({@linkcode TABLES_BUDGET} entries in all). `undefined` for a larger table or
 * more than 65,536 values (its draws are streamed instead).
 */
export function indexTable(seed: number, n: number, resamples: number): Uint16Array | undefined {
  if (n * resamples > TABLES_BUDGET || n > 65536) return undefined;
  return tables.get(
    `${seed}/${n}/${resamples}`,
    () => createRng(seed).fillInts(new Uint16Array(n * resamples), n),
  );
}

/**
 * The means of `resamples` resamples of `values` with replacement, drawn from Mulberry32 seeded
 * with `seed`, one index `floor(u × n)` per draw (`u = rng.next()`), resample after resample: the
 * same draws, the same additions in the same order and so the same means as calling `rng.int(n)`
 * once per draw, without a call or an allocation per draw.
 */
function resampledMeans(values: Float64Array, seed: number, resamples: number): Float64Array {
  const n = values.length;
  const means = new Float64Array(resamples);
  const table = indexTable(seed, n, resamples);
  if (table !== undefined) {
    // Four resamples at a time, each summed in its own draw order (so the same sums): four
    // independent additions per step instead of one chain waiting on the adder.
    let r = 0;
    for (; r + 4 <= resamples; r += 4) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      const a0 = r * n;
      const a1 = a0 + n;
      const a2 = a1 + n;
      const a3 = a2 + n;
      for (let i = 0; i < n; i++) {
        s0 += values[table[a0 + i]];
        s1 += values[table[a1 + i]];
        s2 += values[table[a2 + i]];
        s3 += values[table[a3 + i]];
      }
      means[r] = s0 / n;
      means[r + 1] = s1 / n;
      means[r + 2] = s2 / n;
      means[r + 3] = s3 / n;
    }
    for (; r < resamples; r++) {
      let sum = 0;
      const at = r * n;
      for (let i = 0; i < n; i++) sum += values[table[at + i]];
      means[r] = sum / n;
    }
    return means;
  }
  const rng = createRng(seed);
  const draws = new Uint32Array(n);
  for (let r = 0; r < resamples; r++) {
    rng.fill(draws);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor((draws[i] / 4294967296) * n)];
    means[r] = sum / n;
  }
  return means;
}

/**
 * Percentile bootstrap interval for the mean of `values` (Efron & Tibshirani 1993, "An
 * Introduction to the Bootstrap", ch. 13): draw `resamples` samples of size n with replacement,
 * take each sample's mean, and report the (1 − level)/2 and (1 + level)/2 quantiles of those means.
 * Quantiles are simple-statistics' `quantileSorted` (linear interpolation, R type 7).
 *
 * Draws come from Mulberry32 seeded with `seed`: index `floor(u × n)` per draw, resample after
 * resample, so the interval is the same on every machine.
 *
 * @param values Per-item observations (e.g. per-query recall@5), at least one, all finite.
 * @param options Seed, resample count (default 1,000) and level (default 0.95).
 * @returns `{mean, lo, hi, level, resamples, seed}`; `lo ≤ mean ≤ hi` is typical but not guaranteed.
 * @throws {RangeError} when `values` is empty or has a non-finite value, `resamples` < 1, or
 * `level` is outside (0, 1).
 *
 * @example Usage
 * ```ts
 * import { bootstrapMeanCi } from "./bootstrap.ts";
 * const ci = bootstrapMeanCi([1, 1, 1], { seed: 1 });
 * if (ci.lo !== 1 || ci.hi !== 1) throw new Error("constant data gives a point interval");
 * ```
 */
export function bootstrapMeanCi(
  values: readonly number[],
  options: BootstrapOptions,
): BootstrapInterval {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  checkValues(values, "bootstrap a mean");
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`Cannot bootstrap: resamples must be an integer >= 1, got ${resamples}`);
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(`Cannot bootstrap: level must be in (0, 1), got ${level}`);
  }
  const rng = createRng(options.seed);
  const means = resampledMeans(Float64Array.from(values), rng.seed, resamples);
  const ps = [(1 - level) / 2, (1 + level) / 2];
  placeQuantiles(means, ps);
  const sorted = means as unknown as number[]; // read at the placed positions only
  return {
    mean: mean(values as number[]),
    lo: quantileSorted(sorted, ps[0]),
    hi: quantileSorted(sorted, ps[1]),
    level,
    resamples,
    seed: rng.seed,
  };
}

/**
 * Puts in `a`, at the positions `quantileSorted` reads for each of `ps` (R type 7: the floor and
 * ceiling of (n − 1)p), the values an ascending sort would put there, by selection (Wirth's
 * `Find`, expected linear time) instead of a sort of the whole array. Exact: an order statistic
 * is one value whichever way it is found; only a -0 beside a 0 would make the order of equal
 * values show, so an array holding a -0 is sorted whole.
 */
function placeQuantiles(a: Float64Array, ps: readonly number[]): void {
  for (let i = 0; i < a.length; i++) {
    if (a[i] === 0 && 1 / a[i] < 0) {
      a.sort();
      return;
    }
  }
  const at = ps.flatMap((p) => {
    const idx = (a.length - 1) * p;
    return [Math.floor(idx), Math.ceil(idx)];
  }).sort((x, y) => x - y);
  let left = 0;
  for (const k of at) {
    if (k < left) continue; // placed by the selection before
    select(a, k, left, a.length - 1);
    left = k + 1;
  }
}

/**
 * Rearranges `a[left, right]` so that `a[k]` holds the value a sort would put there, the values
 * before it no larger and those after it no smaller (N. Wirth, "Algorithms + Data Structures =
 * Programs", 1976, the `Find` procedure).
 */
function select(a: Float64Array, k: number, left: number, right: number): void {
  while (left < right) {
    const x = a[k];
    let i = left;
    let j = right;
    do {
      while (a[i] < x) i++;
      while (x < a[j]) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) left = i;
    if (k < i) right = j;
  }
}
