/**
 * One case record for tests: a passing one-iteration case (100 input and 10 output tokens,
 * USD 0.01, no tool calls, no cache), with the fields a test cares about given in `fields`.
 *
 * @module
 */
import type { CaseRecord } from "../lib/agent/types.ts";

/**
 * A case record for a test.
 *
 * @param fields Fields that differ from the default passing record.
 * @returns The record.
 */
export function caseRecord(fields: Partial<CaseRecord> = {}): CaseRecord {
  return {
    agentId: "a",
    caseId: "c1",
    repetition: 0,
    passed: true,
    criterion: null,
    finalAnswer: "x",
    wallMs: 0,
    llmMs: 0,
    toolMs: 0,
    iterations: 1,
    inputTokens: 100,
    outputTokens: 10,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    peakContextTokens: 100,
    toolCalls: [],
    costUsd: 0.01,
    judge: null,
    error: null,
    cachedModelCalls: 0,
    usageNotes: [],
    ...fields,
  };
}
