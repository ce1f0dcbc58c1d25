import assert from "node:assert/strict";
import { percentText } from "./_percent.ts";

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
