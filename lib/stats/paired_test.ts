import assert from "node:assert/strict";
import { quantileSorted } from "simple-statistics";
import { pairedTest } from "./paired.ts";
import { createRng, deriveSeed } from "./prng.ts";

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

Deno.test("pairedTest() draws as the per-call definition: one next() per item, then the bootstrap", () => {
  // The definition written out with one rng call per draw (the form the fast loop replaced): the
  // p-value and interval must be the same numbers, bit for bit.
  const byDefinition = (a: number[], b: number[], seed: number, resamples: number) => {
    const diff = a.map((x, i) => x - b[i]);
    const n = diff.length;
    const observed = Math.abs(diff.reduce((s, d) => s + d, 0) / n);
    const flips = createRng(deriveSeed(seed, "sign-flip"));
    let extreme = 0;
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += flips.next() < 0.5 ? -diff[i] : diff[i];
      if (Math.abs(sum / n) >= observed - 1e-12) extreme++;
    }
    const boot = createRng(deriveSeed(seed, "bootstrap"));
    const means = [];
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += diff[boot.int(n)];
      means.push(sum / n);
    }
    means.sort((x, y) => x - y);
    return {
      pValue: (extreme + 1) / (resamples + 1),
      ci95: [quantileSorted(means, (1 - 0.95) / 2), quantileSorted(means, (1 + 0.95) / 2)],
    };
  };
  const gen = createRng(7);
  for (const n of [1, 2, 5, 37, 206]) {
    const a = Array.from({ length: n }, () => gen.int(11) / 10);
    const b = Array.from({ length: n }, () => (gen.next() < 0.3 ? 0 : gen.int(4) / 3));
    for (const seed of [1, 20261130]) {
      const r = pairedTest(a, b, { seed, resamples: 301 });
      assert.deepEqual({ pValue: r.pValue, ci95: r.ci95 }, byDefinition(a, b, seed, 301), `n ${n}`);
    }
  }
  // Mostly equal scores (zero differences, which the fast loop leaves out of its sums), other
  // values under the same seed and sizes (kept sign and index tables), all equal, and a table
  // too large to keep (4,200 items × 4,000 permutations: streamed).
  for (
    const [n, resamples, equal] of [[206, 301, 0.8], [206, 301, 0.9], [37, 301, 1], [
      4200,
      4000,
      0.7,
    ]]
  ) {
    const a = Array.from({ length: n }, () => gen.int(11) / 10);
    const b = a.map((x) => (gen.next() < equal ? x : gen.int(4) / 3));
    const r = pairedTest(a, b, { seed: 20261130, resamples });
    assert.deepEqual(
      { pValue: r.pValue, ci95: r.ci95 },
      byDefinition(a, b, 20261130, resamples),
      `n ${n}, ${equal} equal`,
    );
  }
});
