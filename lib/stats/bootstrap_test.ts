import assert from "node:assert/strict";
import { quantileSorted } from "simple-statistics";
import { bootstrapMeanCi } from "./bootstrap.ts";
import { createRng } from "./prng.ts";

Deno.test("bootstrapMeanCi() with one resample equals the mean of the drawn sample", () => {
  // seed 42 draws 0.6011 → index 1 (value 10), then 0.4483 → index 0 (value 0): mean 5.
  const ci = bootstrapMeanCi([0, 10], { seed: 42, resamples: 1 });
  assert.equal(ci.lo, 5);
  assert.equal(ci.hi, 5);
  assert.equal(ci.mean, 5);
});

Deno.test("bootstrapMeanCi() of {0, 1} spans [0, 1]", () => {
  // Resampled means are 0, 0.5, 1 with probability 1/4, 1/2, 1/4; both tails (2.5%) fall
  // inside the 25% atoms at 0 and 1.
  const ci = bootstrapMeanCi([0, 1], { seed: 11, resamples: 2000 });
  assert.deepEqual([ci.lo, ci.hi], [0, 1]);
  assert.equal(ci.mean, 0.5);
  assert.equal(ci.resamples, 2000);
  assert.equal(ci.level, 0.95);
});

Deno.test("bootstrapMeanCi() of constant data is a point; records the seed", () => {
  const ci = bootstrapMeanCi([0.25, 0.25, 0.25], { seed: 99 });
  assert.deepEqual([ci.lo, ci.mean, ci.hi, ci.seed, ci.resamples], [0.25, 0.25, 0.25, 99, 1000]);
});

Deno.test("bootstrapMeanCi() is reproducible per seed and brackets the mean", () => {
  const v = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const a = bootstrapMeanCi(v, { seed: 1 });
  assert.deepEqual(a, bootstrapMeanCi(v, { seed: 1 }));
  assert.ok(a.lo < a.mean && a.mean < a.hi);
});

Deno.test("bootstrapMeanCi() throws RangeError on bad input", () => {
  assert.throws(() => bootstrapMeanCi([], { seed: 1 }), RangeError);
  assert.throws(() => bootstrapMeanCi([Number.NaN], { seed: 1 }), RangeError);
  assert.throws(() => bootstrapMeanCi([1], { seed: 1, resamples: 0 }), RangeError);
  assert.throws(() => bootstrapMeanCi([1], { seed: 1, level: 1 }), RangeError);
});

Deno.test("bootstrapMeanCi() draws as the per-call definition: rng.int(n) per draw", () => {
  // The definition with one rng call per draw (the form the fast loop replaced): same bounds, bit
  // for bit, for several sizes, seeds and levels.
  const byDefinition = (values: number[], seed: number, resamples: number, level: number) => {
    const rng = createRng(seed);
    const means = [];
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < values.length; i++) sum += values[rng.int(values.length)];
      means.push(sum / values.length);
    }
    means.sort((x, y) => x - y);
    return [quantileSorted(means, (1 - level) / 2), quantileSorted(means, (1 + level) / 2)];
  };
  const gen = createRng(3);
  // Twice per size, other values with the same seed (a kept index table the second time), a
  // table too large to keep (17,000 × 1,000 draws) and more values than a 16-bit index holds
  // (70,000: both streamed).
  for (
    const [n, resamples] of [
      [1, 257],
      [3, 257],
      [10, 257],
      [206, 257],
      [206, 257],
      [260, 257],
      [1100, 1000],
      [17000, 1000],
      [70000, 3],
    ]
  ) {
    const values = Array.from({ length: n }, () => gen.int(1000) / 999);
    for (const [seed, level] of [[1, 0.95], [4294967295, 0.9]]) {
      const ci = bootstrapMeanCi(values, { seed, resamples, level });
      assert.deepEqual([ci.lo, ci.hi], byDefinition(values, seed, resamples, level), `n ${n}`);
    }
  }
});

Deno.test("bootstrapMeanCi() finds the quantiles a full sort of the means gives: ties, a -0", () => {
  // The means by definition, sorted whole as a Float64Array (-0 before 0), read by
  // quantileSorted: the selection must give the same numbers, signs of zero included.
  const bySort = (values: number[], seed: number, resamples: number, level: number) => {
    const rng = createRng(seed);
    const means = new Float64Array(resamples);
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < values.length; i++) sum += values[rng.int(values.length)];
      means[r] = sum / values.length;
    }
    const sorted = Array.from(means.sort());
    return [quantileSorted(sorted, (1 - level) / 2), quantileSorted(sorted, (1 + level) / 2)];
  };
  const cases: [number[], number][] = [
    [[0, 1, 0, 0, 1, 0, 0, 0], 2000], // few distinct means, many ties
    [[1, 1, 1, 1], 40], // one value
    [[-5e-324, 0, 0], 400], // -5e-324 / 3 rounds to -0: means of -0 and 0
    [[0.1, 0.7, 0.2, 0.9, 0.4], 10000],
  ];
  for (const [values, resamples] of cases) {
    for (const level of [0.95, 0.5, 0.999]) {
      const ci = bootstrapMeanCi(values, { seed: 11, resamples, level });
      const want = bySort(values, 11, resamples, level);
      assert.ok(Object.is(ci.lo, want[0]) && Object.is(ci.hi, want[1]), `${values} ${level}`);
    }
  }
});
