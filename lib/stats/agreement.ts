/**
 * Agreement between raters of binary verdicts (LLM judges, a judge against human labels):
 * observed agreement, Cohen's kappa and the 2 × 2 confusion counts.
 *
 * Pure; no randomness.
 *
 * @module
 */

/**
 * Counts of a 2 × 2 table of binary verdicts, rater A (rows, e.g. a judge) against rater B
 * (columns, e.g. the label). For a judge against labels: `bothTrue` = true positives,
 * `aTrueBFalse` = false positives, `aFalseBTrue` = false negatives, `bothFalse` = true
 * negatives.
 */
export interface Confusion {
  /** A and B both said true (pass). */
  readonly bothTrue: number;
  /** A said true, B false. */
  readonly aTrueBFalse: number;
  /** A said false, B true. */
  readonly aFalseBTrue: number;
  /** A and B both said false. */
  readonly bothFalse: number;
}

/** Cohen's kappa with the two proportions it is built from. */
export interface Kappa {
  /** Items both raters judged. */
  readonly n: number;
  /** Observed agreement p_o: share of items on which the raters agree, in [0, 1]. */
  readonly observed: number;
  /**
   * Agreement expected by chance p_e from each rater's own pass share:
   * p_e = pA·pB + (1 − pA)(1 − pB), in [0, 1].
   */
  readonly expected: number;
  /**
   * κ = (p_o − p_e) / (1 − p_e), in [−1, 1]; `null` when p_e = 1 (both raters gave one and the
   * same verdict to every item: kappa is undefined, see `reason`).
   */
  readonly kappa: number | null;
  /** Why `kappa` is `null`; absent otherwise. */
  readonly reason?: string;
}

/**
 * The 2 × 2 confusion counts of two raters over the same items.
 *
 * @param a Verdicts of rater A (e.g. the judge), one per item.
 * @param b Verdicts of rater B (e.g. the label), same items, same order.
 * @returns The four counts.
 * @throws {RangeError} when the lists differ in length.
 *
 * @example Usage
 * ```ts
 * import { confusion } from "./agreement.ts";
 * const c = confusion([true, true, false, false], [true, false, true, false]);
 * if (c.bothTrue !== 1 || c.aTrueBFalse !== 1 || c.aFalseBTrue !== 1 || c.bothFalse !== 1) {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function confusion(a: readonly boolean[], b: readonly boolean[]): Confusion {
  if (a.length !== b.length) {
    throw new RangeError(
      `Cannot count agreement: rater A has ${a.length} verdicts, rater B ${b.length}`,
    );
  }
  let bothTrue = 0, aTrueBFalse = 0, aFalseBTrue = 0, bothFalse = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) bothTrue++;
    else if (a[i]) aTrueBFalse++;
    else if (b[i]) aFalseBTrue++;
    else bothFalse++;
  }
  return { bothTrue, aTrueBFalse, aFalseBTrue, bothFalse };
}

/**
 * Cohen's kappa of a 2 × 2 table: chance-corrected agreement of two raters.
 *
 * Source: J. Cohen, "A coefficient of agreement for nominal scales", Educational and
 * Psychological Measurement 20 (1960) 37–46.
 *
 * @param c The confusion counts (see {@linkcode confusion}).
 * @returns `{n, observed, expected, kappa}`; `kappa` is `null` with a `reason` when p_e = 1.
 * @throws {RangeError} when the table is empty or a count is not a non-negative integer.
 *
 * @example Usage
 * ```ts
 * import { cohensKappa } from "./agreement.ts";
 * // 20 items: 8 both pass, 2 A only, 4 B only, 6 both fail.
 * // p_o = 14/20 = 0.7, pA = 0.5, pB = 0.6, p_e = 0.3 + 0.2 = 0.5, κ = 0.2 / 0.5 = 0.4.
 * const k = cohensKappa({ bothTrue: 8, aTrueBFalse: 2, aFalseBTrue: 4, bothFalse: 6 });
 * if (Math.abs(k.kappa! - 0.4) > 1e-12) throw new Error(String(k.kappa));
 * ```
 */
export function cohensKappa(c: Confusion): Kappa {
  const counts = [c.bothTrue, c.aTrueBFalse, c.aFalseBTrue, c.bothFalse];
  for (const x of counts) {
    if (!Number.isInteger(x) || x < 0) {
      throw new RangeError(
        `Cannot compute Cohen's kappa: counts must be integers >= 0, got ${JSON.stringify(c)}`,
      );
    }
  }
  const n = counts.reduce((s, x) => s + x, 0);
  if (n === 0) throw new RangeError("Cannot compute Cohen's kappa: no items");
  const observed = (c.bothTrue + c.bothFalse) / n;
  const pA = (c.bothTrue + c.aTrueBFalse) / n;
  const pB = (c.bothTrue + c.aFalseBTrue) / n;
  const expected = pA * pB + (1 - pA) * (1 - pB);
  if (expected === 1) {
    return {
      n,
      observed,
      expected,
      kappa: null,
      reason: "both raters gave the same verdict to every item (chance agreement is 1)",
    };
  }
  return { n, observed, expected, kappa: (observed - expected) / (1 - expected) };
}

/** Agreement of several raters over items, from {@linkcode raterAgreement}. */
export interface RaterAgreement {
  /** Items with verdicts from at least two raters (the denominator). */
  readonly items: number;
  /**
   * Mean over items of the share of rater pairs that agree (pairs among the raters who judged
   * the item); with two raters, the share of items they agree on. `null` when `items` is 0.
   */
  readonly agreementRate: number | null;
  /** Indices of the items on which some raters disagree, ascending. */
  readonly disagreements: readonly number[];
  /**
   * Cohen's kappa when exactly two raters are given, over the items both judged; `null` for
   * one or three or more raters, or when no item has both.
   */
  readonly kappa: Kappa | null;
}

/**
 * Agreement of raters (columns) over items (rows). A `null` cell is a missing verdict (that
 * rater did not judge the item); items with fewer than two verdicts are left out.
 *
 * @param rows One row per item, one cell per rater (same rater order in every row).
 * @returns Items counted, mean pairwise agreement, the items with a disagreement, and Cohen's
 *   kappa where there are exactly two raters.
 * @throws {RangeError} when rows differ in length.
 *
 * @example Usage
 * ```ts
 * import { raterAgreement } from "./agreement.ts";
 * const r = raterAgreement([[true, true], [true, false], [false, false], [true, null]]);
 * if (r.items !== 3 || r.disagreements[0] !== 1) throw new Error("unexpected");
 * if (Math.abs(r.agreementRate! - 2 / 3) > 1e-12) throw new Error("unexpected");
 * ```
 */
export function raterAgreement(rows: readonly (readonly (boolean | null)[])[]): RaterAgreement {
  const raters = rows.length > 0 ? rows[0].length : 0;
  let items = 0;
  let sum = 0;
  const disagreements: number[] = [];
  const a: boolean[] = [];
  const b: boolean[] = [];
  rows.forEach((row, i) => {
    if (row.length !== raters) {
      throw new RangeError(
        `Cannot compute agreement: item ${i} has ${row.length} verdicts, item 0 has ${raters}`,
      );
    }
    const given = row.filter((v): v is boolean => v !== null);
    if (given.length < 2) return;
    items++;
    const t = given.filter((v) => v).length;
    const f = given.length - t;
    const pairs = given.length * (given.length - 1) / 2;
    sum += (t * (t - 1) / 2 + f * (f - 1) / 2) / pairs;
    if (t > 0 && f > 0) disagreements.push(i);
    if (raters === 2) {
      a.push(row[0]!);
      b.push(row[1]!);
    }
  });
  return {
    items,
    agreementRate: items === 0 ? null : sum / items,
    disagreements,
    kappa: raters === 2 && a.length > 0 ? cohensKappa(confusion(a, b)) : null,
  };
}

/**
 * The majority of binary verdicts. Tie rule: a tie (as many true as false, or no verdicts)
 * is `false`: a pass needs strictly more than half.
 *
 * @param verdicts The verdicts.
 * @returns `true` when more than half are `true`.
 *
 * @example Usage
 * ```ts
 * import { majority } from "./agreement.ts";
 * if (!majority([true, true, false]) || majority([true, false]) || majority([])) {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function majority(verdicts: readonly boolean[]): boolean {
  const t = verdicts.filter((v) => v).length;
  return 2 * t > verdicts.length;
}
