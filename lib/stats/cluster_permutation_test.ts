import assert from "node:assert/strict";
import { clusterPermutationTest } from "./cluster_permutation.ts";

Deno.test("clusterPermutationTest() gives exact p-values enumerated by hand", async (t) => {
  await t.step("d = (−0.5, −1, 0, +0.5): T = −1", () => {
    // Sums ±0.5 ±1 ±0.5 over the 8 sign patterns of the non-zero terms: 2, 1, 0, −1, 1, 0, −1, −2.
    // The zero term doubles every pattern, which leaves the proportions unchanged.
    const base = [1, 1, 0.5, 0];
    const cand = [0.5, 0, 0.5, 0.5];
    const less = clusterPermutationTest(base, cand, { seed: 0, alternative: "less" });
    assert.equal(less.meanDiff, -0.25);
    assert.equal(less.pValue, 3 / 8); // T ≤ −1: −1, −1, −2
    assert.equal(less.permutations, 16);
    const two = clusterPermutationTest(base, cand, { seed: 0 });
    assert.equal(two.pValue, 6 / 8); // |T| ≥ 1
    const greater = clusterPermutationTest(base, cand, { seed: 0, alternative: "greater" });
    assert.equal(greater.pValue, 7 / 8); // T ≥ −1: all but −2
  });
  await t.step("identical runs give p = 1 for every alternative", () => {
    for (const alternative of ["less", "greater", "two-sided"] as const) {
      const r = clusterPermutationTest([0.2, 0.8], [0.2, 0.8], { seed: 0, alternative });
      assert.equal(r.pValue, 1);
    }
  });
  await t.step("six cases that all drop: p = 2⁻⁶ one-sided", () => {
    const r = clusterPermutationTest([1, 1, 1, 1, 1, 1], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], {
      seed: 0,
      alternative: "less",
    });
    assert.equal(r.pValue, 1 / 64);
  });
});

Deno.test("clusterPermutationTest() Monte Carlo agrees with the exact answer", () => {
  // 20 cases all dropping by 1: exact one-sided p = 2⁻²⁰ ≈ 1e-6, so no random sign vector but
  // the all-negative one is as extreme; with 2000 draws p = (0 + 1)/(2000 + 1) almost surely.
  const mc = clusterPermutationTest(Array(20).fill(1), Array(20).fill(0), {
    seed: 7,
    alternative: "less",
    resamples: 2000,
  });
  assert.equal(mc.method, "monte-carlo");
  assert.equal(mc.pValue, 1 / 2001);
  // 18 mixed cases: exact (by enumeration, exactUpTo 18) vs 20,000 draws within 0.01.
  const base = [1, 1, 0.8, 0.6, 1, 0.4, 0.9, 1, 0.7, 1, 0.5, 0.3, 1, 0.6, 0.8, 1, 0.2, 0.9];
  const cand = [
    0.8,
    1,
    0.6,
    0.6,
    0.8,
    0.5,
    0.7,
    0.9,
    0.7,
    0.8,
    0.5,
    0.2,
    1,
    0.4,
    0.8,
    0.9,
    0.3,
    0.6,
  ];
  const exact = clusterPermutationTest(base, cand, { seed: 1, alternative: "less", exactUpTo: 18 });
  const approx = clusterPermutationTest(base, cand, {
    seed: 1,
    alternative: "less",
    resamples: 20000,
  });
  assert.equal(exact.method, "exact");
  assert.ok(Math.abs(exact.pValue - approx.pValue) < 0.01, `${exact.pValue} vs ${approx.pValue}`);
});

Deno.test("clusterPermutationTest() throws RangeError on bad input", () => {
  assert.throws(() => clusterPermutationTest([1], [1, 0], { seed: 0 }), RangeError);
  assert.throws(() => clusterPermutationTest([], [], { seed: 0 }), RangeError);
  assert.throws(() => clusterPermutationTest([NaN], [1], { seed: 0 }), RangeError);
  assert.throws(() => clusterPermutationTest([1], [1], { seed: 0, exactUpTo: 30 }), RangeError);
});
