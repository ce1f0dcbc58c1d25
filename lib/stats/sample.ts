/**
 * Seeded subset sampling for large golden sets.
 *
 * @module
 */

import type { Rng } from "./prng.ts";

/**
 * Draw `k` distinct items uniformly at random without replacement (a partial Fisher–Yates shuffle
 * of the index array, Knuth TAOCP vol. 2, Algorithm P), and return them in their original order.
 *
 * With the same `rng` seed and the same input order the subset is identical on every machine.
 *
 * @typeParam T Item type.
 * @param items Items to sample from; not modified.
 * @param k Subset size, 0 ≤ k ≤ items.length.
 * @param rng A seeded generator (see `createRng`); `k` draws are consumed.
 * @returns A new array of `k` items, in the order they appear in `items`.
 * @throws {RangeError} when `k` is not an integer in [0, items.length].
 *
 * @example Usage
 * ```ts
 * import { createRng } from "./prng.ts";
 * import { sampleSubset } from "./sample.ts";
 * const a = sampleSubset(["a", "b", "c", "d"], 2, createRng(7));
 * const b = sampleSubset(["a", "b", "c", "d"], 2, createRng(7));
 * if (a.join() !== b.join() || a.length !== 2) throw new Error("unexpected");
 * ```
 */
export function sampleSubset<T>(items: readonly T[], k: number, rng: Rng): T[] {
  if (!Number.isInteger(k) || k < 0 || k > items.length) {
    throw new RangeError(
      `Cannot sample a subset: k must be an integer in [0, ${items.length}], got ${k}`,
    );
  }
  const index = items.map((_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(index.length - i);
    const tmp = index[i];
    index[i] = index[j];
    index[j] = tmp;
  }
  return index.slice(0, k).sort((a, b) => a - b).map((i) => items[i]);
}
