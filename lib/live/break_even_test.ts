import assert from "node:assert/strict";
import { breakEven } from "./break_even.ts";

const both = { directWithSchemas: true, proxyWithSchemas: true };

Deno.test("breakEven() divides menu savings by the mean response", () => {
  // (52,000 − 800) / 1,600 = 32 calls.
  const r = breakEven({
    directMenuTokens: 52_000,
    proxyMenuTokens: 800,
    meanResponseTokens: 1_600,
    ...both,
  });
  assert.deepEqual(r, {
    provenance: "computed",
    directMenuTokens: 52_000,
    proxyMenuTokens: 800,
    meanResponseTokens: 1_600,
    calls: 32,
    noBreakEven: false,
    withheld: false,
    reason: null,
  });
  // Non-integer ratios are kept: (1,000 − 400) / 250 = 2.4.
  assert.equal(
    breakEven({ directMenuTokens: 1_000, proxyMenuTokens: 400, meanResponseTokens: 250, ...both })
      .calls,
    2.4,
  );
});

Deno.test("breakEven() reports no break-even when the proxy menu is not cheaper", () => {
  for (const proxy of [600, 601]) {
    const r = breakEven({
      directMenuTokens: 600,
      proxyMenuTokens: proxy,
      meanResponseTokens: 100,
      ...both,
    });
    assert.equal(r.noBreakEven, true);
    assert.equal(r.calls, null);
    assert.equal(r.withheld, false);
    assert.match(r.reason!, new RegExp(`proxy menu \\(${proxy} tokens\\)`));
  }
});

Deno.test("breakEven() withholds the figure when a menu was counted without schemas", () => {
  const r = breakEven({
    directMenuTokens: 9_000,
    proxyMenuTokens: 500,
    meanResponseTokens: 100,
    directWithSchemas: false,
    proxyWithSchemas: true,
  });
  assert.equal(r.withheld, true);
  assert.equal(r.calls, null);
  assert.equal(r.noBreakEven, false);
  assert.match(r.reason!, /direct menu was counted without input schemas/);
  // Inputs are echoed even when withheld.
  assert.equal(r.directMenuTokens, 9_000);
});

Deno.test("breakEven() withholds when no response was measured; rejects bad counts", () => {
  const r = breakEven({
    directMenuTokens: 900,
    proxyMenuTokens: 100,
    meanResponseTokens: 0,
    ...both,
  });
  assert.equal(r.withheld, true);
  assert.equal(r.calls, null);
  assert.throws(
    () => breakEven({ directMenuTokens: -1, proxyMenuTokens: 0, meanResponseTokens: 1, ...both }),
    RangeError,
  );
  assert.throws(
    () => breakEven({ directMenuTokens: 1, proxyMenuTokens: 0, meanResponseTokens: NaN, ...both }),
    RangeError,
  );
});
