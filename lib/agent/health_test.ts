import assert from "node:assert/strict";
import { nothingScored, runHealth } from "./health.ts";
import type { CaseRecord } from "./types.ts";

const rec = (over: Partial<CaseRecord>): CaseRecord => ({
  agentId: "a",
  caseId: "c",
  repetition: 0,
  passed: null,
  criterion: null,
  finalAnswer: null,
  wallMs: 0,
  llmMs: 0,
  toolMs: 0,
  iterations: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  peakContextTokens: 0,
  toolCalls: [],
  costUsd: 0,
  judge: null,
  error: null,
  cachedModelCalls: 0,
  usageNotes: [],
  ...over,
});
const unreachable = rec({
  error: { kind: "model", message: "cannot connect", code: "unreachable" },
});

Deno.test("runHealth() tells an endpoint never reached from one that went down", () => {
  const never = runHealth([unreachable, unreachable]);
  assert.equal(never.endpoint, "never_reached");
  assert.equal(nothingScored(never), "no case was scored: 2 infrastructure error(s) (model 2)");
  const down = runHealth([rec({ passed: true, inputTokens: 120 }), unreachable]);
  assert.deepEqual(down, {
    records: 2,
    scored: 1,
    infraErrors: { model: 1 },
    unreachable: 1,
    reachedModel: 1,
    endpoint: "went_down",
  });
  assert.equal(nothingScored(down), null);
  // A case that got tokens before the connection dropped also reached the model.
  const midCase = runHealth([rec({ ...unreachable, inputTokens: 40 })]);
  assert.equal(midCase.endpoint, "went_down");
  assert.equal(
    nothingScored(runHealth([unreachable, rec({ error: { kind: "mcp", message: "x" } })])),
    "no case was scored: 2 infrastructure error(s) (mcp 1, model 1)",
  );
  assert.equal(nothingScored(runHealth([])), "no case was run");
});
