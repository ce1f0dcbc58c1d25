import assert from "node:assert/strict";
import { createRng } from "./prng.ts";
import { sampleSubset } from "./sample.ts";

Deno.test("sampleSubset() picks the index given by the first Mulberry32 draw", () => {
  // seed 42: first draw 2581720956 / 2^32 = 0.6011 → floor(0.6011 × 4) = 2 → "c"
  assert.deepEqual(sampleSubset(["a", "b", "c", "d"], 1, createRng(42)), ["c"]);
});

Deno.test("sampleSubset() returns k distinct items in their original order", () => {
  const items = Array.from({ length: 50 }, (_, i) => i);
  const s = sampleSubset(items, 20, createRng(9));
  assert.equal(s.length, 20);
  assert.equal(new Set(s).size, 20);
  assert.deepEqual(s, [...s].sort((a, b) => a - b));
  assert.deepEqual(sampleSubset(items, 50, createRng(1)), items);
  assert.deepEqual(sampleSubset(items, 0, createRng(1)), []);
});

Deno.test("sampleSubset() is deterministic per seed and differs across seeds", () => {
  const items = Array.from({ length: 100 }, (_, i) => `q${i}`);
  assert.deepEqual(sampleSubset(items, 10, createRng(5)), sampleSubset(items, 10, createRng(5)));
  assert.notDeepEqual(sampleSubset(items, 10, createRng(5)), sampleSubset(items, 10, createRng(6)));
});

Deno.test("sampleSubset() throws RangeError when k is out of range", () => {
  assert.throws(() => sampleSubset([1, 2], 3, createRng(1)), RangeError);
  assert.throws(() => sampleSubset([1, 2], -1, createRng(1)), RangeError);
  assert.throws(() => sampleSubset([1, 2], 1.5, createRng(1)), RangeError);
});
