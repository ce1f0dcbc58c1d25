import assert from "node:assert/strict";
import { flakiness } from "./flakiness.ts";

Deno.test("flakiness() scores mixed outcomes by hand-computed values", async (t) => {
  await t.step("always passing: not flaky, score 0, no flips", () => {
    assert.deepEqual(flakiness([true, true, true]), {
      runs: 3,
      passes: 3,
      passRate: 1,
      flaky: false,
      score: 0,
      flipRate: 0,
    });
  });
  await t.step("half passing: score 4 · 1/2 · 1/2 = 1", () => {
    const f = flakiness([true, true, false, false]);
    assert.equal(f.score, 1);
    assert.equal(f.flaky, true);
    // one transition (T→F) over three gaps
    assert.equal(f.flipRate, 1 / 3);
  });
  await t.step("alternating: every gap flips", () => {
    assert.equal(flakiness([true, false, true, false, true]).flipRate, 1);
  });
  await t.step("1 of 5: score 4 · 0.2 · 0.8 = 0.64", () => {
    const f = flakiness([false, false, true, false, false]);
    assert.ok(Math.abs(f.score - 0.64) < 1e-12);
    assert.equal(f.flipRate, 2 / 4);
  });
  await t.step("a single repetition is never flaky", () => {
    const f = flakiness([false]);
    assert.equal(f.flaky, false);
    assert.equal(f.flipRate, 0);
  });
});

Deno.test("flakiness() throws RangeError without outcomes", () => {
  assert.throws(() => flakiness([]), RangeError);
});
