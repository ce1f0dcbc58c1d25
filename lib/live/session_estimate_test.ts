import assert from "node:assert/strict";
import { DEFAULT_RETRY_RATES, sessionEstimates } from "./session_estimate.ts";

Deno.test("sessionEstimates() applies proxy menu + calls × mean × (1 + retry)", () => {
  const rows = sessionEstimates({
    proxyMenuTokens: 400,
    directMenuTokens: 20_000,
    responses: [
      { encoding: "json", meanResponseTokens: 2_000 },
      { encoding: "toon", meanResponseTokens: 1_200 },
    ],
  });
  // json: 400 + c × 2000; toon: 400 + c × 1200 × 1.05 = 400 + c × 1260.
  assert.deepEqual(
    rows.map((r) => [r.encoding, r.calls, r.retryRate, Math.round(r.tokens * 1e6) / 1e6]),
    [
      ["json", 1, 0, 2_400],
      ["json", 3, 0, 6_400],
      ["json", 5, 0, 10_400],
      ["json", 10, 0, 20_400],
      ["toon", 1, 0.05, 1_660],
      ["toon", 3, 0.05, 4_180],
      ["toon", 5, 0.05, 6_700],
      ["toon", 10, 0.05, 13_000],
    ],
  );
  for (const r of rows) {
    assert.equal(r.provenance, "estimated");
    assert.equal(r.proxyMenuTokens, 400);
    assert.equal(r.directMenuTokens, 20_000);
  }
});

Deno.test("sessionEstimates() default retry rates are 0, 0 and 0.05", () => {
  assert.deepEqual(DEFAULT_RETRY_RATES, { json: 0, compact: 0, toon: 0.05 });
  const [row] = sessionEstimates({
    proxyMenuTokens: 0,
    calls: [2],
    responses: [{ encoding: "compact", meanResponseTokens: 300 }],
  });
  assert.equal(row.tokens, 600);
  assert.equal(row.directMenuTokens, null);
});

Deno.test("sessionEstimates() rejects bad calls, counts and rates", () => {
  const responses = [{ encoding: "json" as const, meanResponseTokens: 1 }];
  assert.throws(() => sessionEstimates({ proxyMenuTokens: 1, responses, calls: [0] }), RangeError);
  assert.throws(
    () => sessionEstimates({ proxyMenuTokens: 1, responses, calls: [1.5] }),
    RangeError,
  );
  assert.throws(() => sessionEstimates({ proxyMenuTokens: -1, responses }), RangeError);
  assert.throws(
    () =>
      sessionEstimates({
        proxyMenuTokens: 1,
        responses,
        retryRates: { json: 1, compact: 0, toon: 0 },
      }),
    RangeError,
  );
});
