import assert from "node:assert/strict";
import { counted, duration } from "./text.ts";

Deno.test("counted() is singular for exactly one, plural otherwise", () => {
  assert.equal(counted(1, "tool"), "1 tool");
  assert.equal(counted(0, "tool"), "0 tools");
  assert.equal(counted(2, "case"), "2 cases");
  assert.equal(counted(1, "query", "queries"), "1 query");
  assert.equal(counted(12345, "query", "queries"), "12345 queries");
});

Deno.test("duration() picks milliseconds, seconds, minutes or hours, and never rounds up to 60 of a unit", () => {
  assert.equal(duration(0), "0 ms");
  assert.equal(duration(38.4), "38 ms"); // a scripted case: "0.0 s" said nothing
  assert.equal(duration(999.4), "999 ms");
  assert.equal(duration(999.5), "1.0 s"); // not "1000 ms"
  assert.equal(duration(10_240), "10.2 s");
  assert.equal(duration(59_949), "59.9 s");
  assert.equal(duration(59_950), "1.0 min"); // not "60.0 s"
  assert.equal(duration(90_000), "1.5 min");
  assert.equal(duration(3_596_999), "59.9 min");
  assert.equal(duration(3_597_000), "1.0 h"); // not "60.0 min"
  assert.equal(duration(5_400_000), "1.5 h");
});
