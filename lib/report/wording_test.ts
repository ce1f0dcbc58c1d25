import assert from "node:assert/strict";
import { savingsPhrase } from "./wording.ts";

Deno.test("savingsPhrase() words a negative saving as costing more, never 'saves -N%'", () => {
  const two = (v: number) => `${(v * 100).toFixed(2)}%`;
  // A one-tool catalog of 17 tokens against a 328-token proxy: 1 − 328/17 = −18.2941...
  assert.equal(savingsPhrase(1 - 328 / 17, two), "costs 1,829.41% more");
  assert.equal(savingsPhrase(1 - 233 / 17, two), "costs 1,270.59% more");
  assert.equal(savingsPhrase(1 - 328 / 607923, two), "saves 99.95%");
  assert.equal(savingsPhrase(-0.116, (v) => `${(v * 100).toFixed(1)}%`), "costs 11.6% more");
  assert.equal(savingsPhrase(0, two), "costs the same");
  // Thousands grouped in the integer part only: 1 − 123457/1 = −123456 = 12,345,600%.
  assert.equal(savingsPhrase(-123456, two), "costs 12,345,600.00% more");
  // The default format is percentText's (one decimal, two near 0% and 100%).
  assert.equal(savingsPhrase(0.9996), "saves 99.96%");
  assert.equal(savingsPhrase(-0.5), "costs 50.0% more");
});
