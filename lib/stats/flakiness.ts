/**
 * Flakiness of one case over repetitions: did it pass in some repetitions and fail in others,
 * and how mixed or how unstable were the outcomes.
 *
 * @module
 */

/** Flakiness figures of one case. */
export interface Flakiness {
  /** Scored repetitions n. */
  readonly runs: number;
  /** Repetitions that passed c. */
  readonly passes: number;
  /** c / n, in [0, 1]. */
  readonly passRate: number;
  /** `true` when 0 < c < n: it passed at least once and failed at least once. */
  readonly flaky: boolean;
  /**
   * Flakiness score 4·p·(1 − p) with p = c/n, in [0, 1]: 0 when every repetition agrees, 1 when
   * half pass. It is the Bernoulli variance p(1 − p) divided by its maximum 1/4, i.e. twice
   * the Gini impurity 2p(1 − p) of the outcomes (Breiman et al., "Classification and Regression
   * Trees", 1984). It does not depend on the order of repetitions.
   */
  readonly score: number;
  /**
   * Flip rate: pass↔fail transitions between consecutive repetitions / (n − 1), in [0, 1]; 0
   * when n < 2. Order-dependent (repetitions in index order). Source: E. Kowalczyk et al.,
   * "Modeling and Ranking Flaky Tests at Apple", ICSE-SEIP 2020.
   */
  readonly flipRate: number;
}

/**
 * Flakiness of one case from its scored outcomes in repetition order.
 *
 * @param outcomes Pass (`true`) or fail (`false`) per scored repetition, in repetition order
 *   (infrastructure errors left out by the caller). At least one.
 * @returns `{runs, passes, passRate, flaky, score, flipRate}`.
 * @throws {RangeError} when `outcomes` is empty.
 *
 * @example Usage
 * ```ts
 * import { flakiness } from "./flakiness.ts";
 * const f = flakiness([true, false, true, true]);
 * // p = 3/4: score 4 · 3/4 · 1/4 = 0.75; two flips over three gaps
 * if (!f.flaky || f.score !== 0.75 || f.flipRate !== 2 / 3) throw new Error("unexpected");
 * ```
 */
export function flakiness(outcomes: readonly boolean[]): Flakiness {
  const runs = outcomes.length;
  if (runs === 0) throw new RangeError("Cannot compute flakiness: no scored repetitions");
  let passes = 0;
  let flips = 0;
  for (let i = 0; i < runs; i++) {
    if (outcomes[i]) passes++;
    if (i > 0 && outcomes[i] !== outcomes[i - 1]) flips++;
  }
  const p = passes / runs;
  return {
    runs,
    passes,
    passRate: p,
    flaky: passes > 0 && passes < runs,
    score: 4 * p * (1 - p),
    flipRate: runs < 2 ? 0 : flips / (runs - 1),
  };
}
