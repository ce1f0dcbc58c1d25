import assert from "node:assert/strict";
import { counted } from "./_text.ts";

Deno.test("counted() is singular for exactly one, plural otherwise", () => {
  assert.equal(counted(1, "tool"), "1 tool");
  assert.equal(counted(0, "tool"), "0 tools");
  assert.equal(counted(2, "case"), "2 cases");
  assert.equal(counted(1, "query", "queries"), "1 query");
  assert.equal(counted(12345, "query", "queries"), "12345 queries");
});
