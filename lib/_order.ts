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
 * import { byKeys } from "./_order.ts";
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
