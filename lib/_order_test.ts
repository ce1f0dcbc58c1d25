import assert from "node:assert/strict";
import { byKeys } from "./_order.ts";

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
