import assert from "node:assert/strict";
import { cohensKappa, confusion, majority, raterAgreement } from "./agreement.ts";

const close = (a: number | null | undefined, b: number) =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-12, `${a} != ${b}`);

Deno.test("cohensKappa() matches the textbook 50-item example (κ = 0.4)", () => {
  // The worked example of Cohen's kappa on Wikipedia: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no.
  // p_o = 35/50 = 0.7; p_yes = 25/50 · 30/50 = 0.3; p_no = 25/50 · 20/50 = 0.2; p_e = 0.5.
  const k = cohensKappa({ bothTrue: 20, aTrueBFalse: 5, aFalseBTrue: 10, bothFalse: 15 });
  assert.equal(k.n, 50);
  close(k.observed, 0.7);
  close(k.expected, 0.5);
  close(k.kappa, 0.4);
});

Deno.test("cohensKappa() is 1 for perfect agreement, -1 for symmetric total disagreement", () => {
  close(cohensKappa({ bothTrue: 3, aTrueBFalse: 0, aFalseBTrue: 0, bothFalse: 2 }).kappa, 1);
  close(cohensKappa({ bothTrue: 0, aTrueBFalse: 5, aFalseBTrue: 5, bothFalse: 0 }).kappa, -1);
});

Deno.test("cohensKappa() is null with a reason when both raters give one verdict throughout", () => {
  const k = cohensKappa({ bothTrue: 4, aTrueBFalse: 0, aFalseBTrue: 0, bothFalse: 0 });
  assert.equal(k.kappa, null);
  assert.match(k.reason!, /same verdict/);
  close(k.observed, 1);
});

Deno.test("cohensKappa() refuses an empty table and bad counts", () => {
  const zero = { bothTrue: 0, aTrueBFalse: 0, aFalseBTrue: 0, bothFalse: 0 };
  assert.throws(() => cohensKappa(zero), RangeError);
  assert.throws(() => cohensKappa({ ...zero, bothTrue: -1 }), RangeError);
  assert.throws(() => cohensKappa({ ...zero, bothTrue: 1.5 }), RangeError);
});

Deno.test("confusion() counts the four cells and refuses lists of different lengths", () => {
  const a = [true, true, true, true, true, true, false, false, false, false, false, false];
  const b = [true, true, true, true, true, false, true, true, false, false, false, false];
  assert.deepEqual(confusion(a, b), { bothTrue: 5, aTrueBFalse: 1, aFalseBTrue: 2, bothFalse: 4 });
  // p_o = 9/12 = 0.75; pA = 6/12, pB = 7/12; p_e = 0.5·7/12 + 0.5·5/12 = 0.5; κ = 0.25/0.5.
  close(cohensKappa(confusion(a, b)).kappa, 0.5);
  assert.throws(() => confusion([true], []), RangeError);
});

Deno.test("raterAgreement() with two raters: share agreeing, disagreements, kappa", () => {
  const r = raterAgreement([
    [true, true],
    [true, false],
    [false, false],
    [false, true],
    [null, true], // one verdict only: left out
  ]);
  assert.equal(r.items, 4);
  close(r.agreementRate, 0.5);
  assert.deepEqual(r.disagreements, [1, 3]);
  // 1 both, 1 A only, 1 B only, 1 neither: p_o = 0.5, p_e = 0.5, κ = 0.
  close(r.kappa!.kappa, 0);
});

Deno.test("raterAgreement() with three raters: mean pairwise agreement, no kappa", () => {
  // [T,T,F]: 1 of 3 pairs agree; [T,T,T]: 3 of 3; [F,null,F]: 1 of 1. Mean = (1/3 + 1 + 1) / 3.
  const r = raterAgreement([[true, true, false], [true, true, true], [false, null, false]]);
  assert.equal(r.items, 3);
  close(r.agreementRate, (1 / 3 + 2) / 3);
  assert.deepEqual(r.disagreements, [0]);
  assert.equal(r.kappa, null);
});

Deno.test("raterAgreement() of no comparable items is null, and rows must match", () => {
  const r = raterAgreement([[true], [false]]);
  assert.equal(r.items, 0);
  assert.equal(r.agreementRate, null);
  assert.equal(r.kappa, null);
  assert.throws(() => raterAgreement([[true, false], [true]]), RangeError);
});

Deno.test("majority() needs strictly more than half: a tie fails", () => {
  assert.equal(majority([true]), true);
  assert.equal(majority([true, false]), false);
  assert.equal(majority([true, true, false]), true);
  assert.equal(majority([false, false, true]), false);
  assert.equal(majority([]), false);
});
