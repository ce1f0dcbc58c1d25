import assert from "node:assert/strict";
import { percentColumn, percentText } from "./_percent.ts";

Deno.test("percentText() keeps a fraction strictly inside (0, 1) off 0% and 100%", () => {
  assert.equal(percentText(0.5), "50.0%");
  assert.equal(percentText(1), "100.0%");
  assert.equal(percentText(0), "0.0%");
  assert.equal(percentText(-0.25), "-25.0%");
  // 1 - 2,104 / 5,012,345 tokens: one decimal would say 100.0%.
  assert.equal(percentText(1 - 2104 / 5012345), "99.96%");
  assert.equal(percentText(0.00042), "0.04%");
  assert.equal(percentText(0.999999), ">99.99%");
  assert.equal(percentText(0.000001), "<0.01%");
});

Deno.test("percentColumn() gives a column one number of decimals, the most any value needs", () => {
  // Modes of the reference corpus: direct 0, proxy 1 - 328/607,923, code 1 - 233/607,923.
  const f = percentColumn([0, 1 - 328 / 607923, 1 - 233 / 607923, "n/a"]);
  assert.deepEqual([0, 1 - 328 / 607923, 1 - 233 / 607923].map(f), ["0.00%", "99.95%", "99.96%"]);
  assert.equal(f("n/a"), "n/a");
  // Every value fits one decimal: one decimal.
  assert.deepEqual([0.745, -0.116].map(percentColumn([0.745, -0.116])), ["74.5%", "-11.6%"]);
  // Beyond two decimals the bound stays a bound.
  assert.equal(percentColumn([0.5, 0.999999])(0.999999), ">99.99%");
  assert.equal(percentColumn([0.5, 0.999999])(0.5), "50.00%");
});

Deno.test("percentText(v, 2) keeps two decimals and still never reads 0.00% or 100.00% inside (0, 1)", () => {
  assert.equal(percentText(0.745, 2), "74.50%");
  assert.equal(percentText(0.9995, 2), "99.95%");
  // 1 − 100/2,621,465 = 0.99996185...: 100.00% at two decimals, so the bound.
  assert.equal(percentText(1 - 100 / 2_621_465, 2), ">99.99%");
  assert.equal(percentText(8 / 2_621_465, 2), "<0.01%");
  assert.equal(percentText(0, 2), "0.00%");
  assert.equal(percentText(1, 2), "100.00%");
  assert.equal(percentText(18.2941, 2), "1829.41%");
});
