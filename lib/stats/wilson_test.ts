import assert from "node:assert/strict";
import { wilsonInterval } from "./wilson.ts";

const close = (a: number, b: number, eps = 5e-5) =>
  assert.ok(Math.abs(a - b) <= eps, `${a} is not within ${eps} of ${b}`);

Deno.test("wilsonInterval() matches hand-computed bounds", async (t) => {
  await t.step("5 of 10: centre 0.5, half-width 1.96/1.38415·√0.0346037 = 0.26340", () => {
    const w = wilsonInterval(5, 10);
    close(w.p, 0.5);
    close(w.lo, 0.2366);
    close(w.hi, 0.7634);
  });
  await t.step("0 of 10: lower bound 0, upper z²/n/(1+z²/n) = 0.38415/1.38415 = 0.27753", () => {
    const w = wilsonInterval(0, 10);
    assert.equal(w.lo, 0);
    close(w.hi, 0.27753);
  });
  await t.step("10 of 10 mirrors 0 of 10", () => {
    const w = wilsonInterval(10, 10);
    close(w.lo, 1 - 0.27753);
    assert.equal(w.hi, 1);
  });
  await t.step("81 of 263 (Newcombe 1998 example 1: 0.2553 to 0.3662)", () => {
    const w = wilsonInterval(81, 263);
    close(w.lo, 0.2553, 1e-4);
    close(w.hi, 0.3662, 1e-4);
  });
});

Deno.test("wilsonInterval() throws RangeError on bad counts", () => {
  assert.throws(() => wilsonInterval(0, 0), RangeError);
  assert.throws(() => wilsonInterval(3, 2), RangeError);
  assert.throws(() => wilsonInterval(1.5, 2), RangeError);
});
