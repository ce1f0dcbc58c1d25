import assert from "node:assert/strict";
import { byKeys, firstSorted } from "./order.ts";

Deno.test("byKeys() orders by the first differing key, text in code-unit order", () => {
  type R = { s: string; n: number };
  const rows: R[] = [
    { s: "b", n: 1 },
    { s: "B", n: 9 },
    { s: "a", n: 2 },
    { s: "a", n: 1 },
  ];
  // "B" (0x42) sorts before "a" (0x61) and "b" (0x62): code units, not locale.
  assert.deepEqual(
    [...rows].sort(byKeys((r: R) => r.s, (r) => r.n)).map((r) => `${r.s}${r.n}`),
    ["B9", "a1", "a2", "b1"],
  );
  assert.equal(byKeys((r: R) => r.s)(rows[2], rows[3]), 0);
});

Deno.test("firstSorted() is the first k of a stable sort, ties in input order", () => {
  // Pairs of a key with ties and the input position; the comparator reads the key only.
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 7;
  for (let n = 0; n <= 40; n += 3) {
    const items = Array.from({ length: n }, (_, i) => ({ key: next(), at: i }));
    const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
    for (const k of [0, 1, 2, 5, n, n + 3]) {
      const want = [...items].sort(byKey).slice(0, k);
      assert.deepEqual(firstSorted(items, k, byKey), want, `n ${n} k ${k}`);
    }
  }
  assert.deepEqual(firstSorted([3, 1, 2], 1.5, (a, b) => a - b), [1]);
  assert.deepEqual(firstSorted([3, 1, 2], -1, (a, b) => a - b), []);
});
