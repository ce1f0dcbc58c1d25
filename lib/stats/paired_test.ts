import assert from "node:assert/strict";
import { pairedTest } from "./paired.ts";

Deno.test("pairedTest() approximates the exact sign-flip p-value", () => {
  // d = [1, 2, 3]: of the 8 sign vectors only (+,+,+) and (−,−,−) reach |sum| ≥ 6 → p = 2/8.
  const r = pairedTest([1, 2, 3], [0, 0, 0], { seed: 5, resamples: 20000 });
  assert.ok(Math.abs(r.pValue - 0.25) < 0.01, `p = ${r.pValue}`);
  assert.equal(r.meanDiff, 2);
  assert.equal(r.n, 3);
});

Deno.test("pairedTest() gives p = 1 for identical systems and a tiny p for a uniform gain", () => {
  const same = pairedTest([0.5, 1, 0], [0.5, 1, 0], { seed: 1, resamples: 500 });
  assert.equal(same.pValue, 1);
  assert.deepEqual(same.ci95, [0, 0]);
  // 20 items all +1: only 2 of 2^20 sign vectors are as extreme → p = (0 + 1)/(R + 1) almost surely.
  const a = new Array(20).fill(1);
  const b = new Array(20).fill(0);
  const r = pairedTest(a, b, { seed: 1, resamples: 999 });
  assert.ok(r.pValue <= 2 / 1000, `p = ${r.pValue}`);
  assert.deepEqual(r.ci95, [1, 1]);
});

Deno.test("pairedTest() throws RangeError on mismatched lengths", () => {
  assert.throws(() => pairedTest([1], [1, 2], { seed: 1 }), RangeError);
  assert.throws(() => pairedTest([], [], { seed: 1 }), RangeError);
});
