import assert from "node:assert/strict";
import { newcombeInterval } from "./newcombe.ts";

const close = (a: number, b: number, eps = 1e-4) =>
  assert.ok(Math.abs(a - b) <= eps, `${a} is not within ${eps} of ${b}`);

// Reference values: Newcombe (1998), Statistics in Medicine 17:873–890, Table II, method 10.
Deno.test("newcombeInterval() matches Newcombe (1998) Table II, method 10", async (t) => {
  for (
    const [x1, n1, x2, n2, lo, hi] of [
      [56, 70, 48, 80, 0.0524, 0.3339],
      [9, 10, 3, 10, 0.1705, 0.8090],
      [5, 56, 0, 29, -0.0381, 0.1926],
    ]
  ) {
    await t.step(`${x1}/${n1} − ${x2}/${n2}`, () => {
      const d = newcombeInterval(x1, n1, x2, n2);
      close(d.diff, x1 / n1 - x2 / n2, 1e-12);
      close(d.lo, lo);
      close(d.hi, hi);
    });
  }
});

Deno.test("newcombeInterval() is antisymmetric and throws on bad counts", () => {
  const a = newcombeInterval(3, 10, 7, 12);
  const b = newcombeInterval(7, 12, 3, 10);
  close(a.lo, -b.hi, 1e-12);
  close(a.hi, -b.lo, 1e-12);
  assert.throws(() => newcombeInterval(11, 10, 1, 2), RangeError);
});
