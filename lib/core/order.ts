/**
 * Deterministic orders for records: text in code-unit order (never locale order, so the same
 * input sorts the same on every machine), numbers ascending, and a chain of keys.
 *
 * @module
 */

/**
 * A comparator over `keys` in turn: the first key that differs decides.
 *
 * @example Usage
 * ```ts
 * import { byKeys } from "./order.ts";
 * type Row = { a: string; n: number };
 * const rows: Row[] = [{ a: "b", n: 1 }, { a: "a", n: 2 }, { a: "a", n: 1 }];
 * rows.sort(byKeys((r: Row) => r.a, (r) => r.n));
 * if (rows.map((r) => r.a + r.n).join() !== "a1,a2,b1") throw new Error();
 * ```
 *
 * @param keys Key readers, most significant first.
 * @returns A comparator for `Array.prototype.sort`.
 */
export function byKeys<T>(...keys: readonly ((x: T) => string | number)[]): (a: T, b: T) => number {
  return (a, b) => {
    for (const key of keys) {
      const x = key(a);
      const y = key(b);
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
}

/**
 * The first `k` items of a stable sort of `items` by `compare` (what
 * `[...items].sort(compare).slice(0, k)` gives), kept in a sorted buffer of at most `k` items
 * instead of sorting them all: for the few heaviest tools or best hits of a large catalog.
 *
 * @example Usage
 * ```ts
 * import { firstSorted } from "./order.ts";
 * const top = firstSorted([5, 1, 4, 1, 3], 2, (a, b) => a - b);
 * if (top.join() !== "1,1") throw new Error();
 * ```
 *
 * @param items The items, in input order (ties keep it).
 * @param k How many to keep (rounded down; below 1 keeps none).
 * @param compare A comparator, as for `Array.prototype.sort`.
 * @returns At most `k` items, in sorted order.
 */
export function firstSorted<T>(
  items: Iterable<T>,
  k: number,
  compare: (a: T, b: T) => number,
): T[] {
  const best: T[] = [];
  k = Math.floor(k);
  if (!(k >= 1)) return best;
  for (const item of items) {
    if (best.length >= k && compare(item, best[best.length - 1]) >= 0) continue;
    // After every item that is not greater (upper bound), so equal items keep input order.
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(best[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > k) best.pop();
  }
  return best;
}
