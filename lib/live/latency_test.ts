import assert from "node:assert/strict";
import { summarizeLatency } from "./latency.ts";

Deno.test("summarizeLatency() uses nearest-rank percentiles", () => {
  // 1..20 ms: p50 → rank ceil(10) = 10 → 10; p95 → rank ceil(19) = 19 → 19;
  // p99 → rank ceil(19.8) = 20 → 20; mean = 210 / 20 = 10.5.
  const values = Array.from({ length: 20 }, (_, i) => 20 - i);
  assert.deepEqual(summarizeLatency(values), {
    n: 20,
    p50: 10,
    p95: 19,
    p99: 20,
    max: 20,
    mean: 10.5,
  });
});

Deno.test("summarizeLatency() of one call is that call", () => {
  assert.deepEqual(summarizeLatency([3.5]), {
    n: 1,
    p50: 3.5,
    p95: 3.5,
    p99: 3.5,
    max: 3.5,
    mean: 3.5,
  });
});

Deno.test("summarizeLatency() throws RangeError for no calls or NaN", () => {
  assert.throws(() => summarizeLatency([]), RangeError);
  assert.throws(() => summarizeLatency([1, Number.NaN]), RangeError);
});
