import assert from "node:assert/strict";
import { percentileNearestRank } from "./percentile.ts";

Deno.test("percentileNearestRank() follows rank = ceil(p/100 × n)", () => {
  // Worked nearest-rank example: {15, 20, 35, 40, 50}
  const v = [50, 15, 40, 20, 35];
  assert.equal(percentileNearestRank(v, 5), 15); // ceil(0.25) = 1
  assert.equal(percentileNearestRank(v, 30), 20); // ceil(1.5) = 2
  assert.equal(percentileNearestRank(v, 40), 20); // ceil(2) = 2
  assert.equal(percentileNearestRank(v, 50), 35); // ceil(2.5) = 3
  assert.equal(percentileNearestRank(v, 100), 50); // ceil(5) = 5
  assert.equal(percentileNearestRank(v, 0), 15); // rank clamped to 1
});

Deno.test("percentileNearestRank() p99 of 1..100 is 99 and p99 of 1..10 is 10", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentileNearestRank(hundred, 99), 99);
  assert.equal(percentileNearestRank(hundred.slice(0, 10), 99), 10);
});

Deno.test("percentileNearestRank() throws RangeError on bad input", () => {
  assert.throws(() => percentileNearestRank([], 50), RangeError);
  assert.throws(() => percentileNearestRank([1], 101), RangeError);
  assert.throws(() => percentileNearestRank([1], Number.NaN), RangeError);
  assert.throws(() => percentileNearestRank([1, Number.NaN], 50), RangeError);
});

Deno.test("percentileNearestRank() p95 of 1..20 is 19 (rank ceil(19) = 19)", () => {
  assert.equal(percentileNearestRank(Array.from({ length: 20 }, (_, i) => i + 1), 95), 19);
});
