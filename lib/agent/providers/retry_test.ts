import assert from "node:assert/strict";
import { parseRetryAfter, withRetries } from "./retry.ts";
import { ModelCallError } from "./types.ts";
import { redactHeaders, redactText } from "./wire_log.ts";

Deno.test("parseRetryAfter() reads seconds, HTTP dates and retry-after-ms", () => {
  const now = Date.parse("Mon, 30 Nov 2026 00:00:00 GMT");
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "3" }), now), 3000);
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "0.5" }), now), 500);
  assert.equal(
    parseRetryAfter(new Headers({ "retry-after": "Mon, 30 Nov 2026 00:00:07 GMT" }), now),
    7000,
  );
  assert.equal(
    parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now),
    250,
  );
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "soon" }), now), undefined);
  assert.equal(parseRetryAfter(new Headers(), now), undefined);
});

Deno.test("withRetries() caps waits at maxDelayMs and reports attempts", async () => {
  const sleeps: number[] = [];
  let n = 0;
  const r = await withRetries(
    () => ++n < 3 ? Promise.reject(new Error("x")) : Promise.resolve("v"),
    () => ({ retryable: true, code: "http", status: 429, retryAfterMs: 90_000, message: "429" }),
    { sleep: (ms) => (sleeps.push(ms), Promise.resolve()), now: () => 0 },
    { maxDelayMs: 10_000 },
  );
  assert.deepEqual(r, {
    value: "v",
    attempts: 3,
    retries: [
      { status: 429, code: "http", waitMs: 10_000 },
      { status: 429, code: "http", waitMs: 10_000 },
    ],
  });
  assert.deepEqual(sleeps, [10_000, 10_000]);
});

Deno.test("withRetries() turns an aborted wait into an 'aborted' error", async () => {
  const err = await withRetries(
    () => Promise.reject(new Error("x")),
    () => ({ retryable: true, code: "http", status: 503, message: "503" }),
    { sleep: () => Promise.reject(new Error("abort")), now: () => 0 },
  ).catch((e) => e);
  assert.ok(err instanceof ModelCallError);
  assert.equal(err.code, "aborted");
});

Deno.test("redactHeaders() hides auth headers, key-like names and secret values", () => {
  const h = new Headers({
    authorization: "Bearer sk-abc12345",
    "x-api-key": "sk-abc12345",
    "x-goog-api-key": "g",
    "x-trace": "sk-abc12345-suffix",
    accept: "application/json",
  });
  assert.deepEqual(redactHeaders(h, ["sk-abc12345"]), {
    accept: "application/json",
    authorization: "[REDACTED]",
    "x-api-key": "[REDACTED]",
    "x-goog-api-key": "[REDACTED]",
    "x-trace": "[REDACTED]-suffix",
  });
  assert.equal(redactText("key=abc", ["abc"]), "key=abc"); // shorter than 4: ignored
});
