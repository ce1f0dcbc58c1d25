import assert from "node:assert/strict";
import { summarizeRecords, summaryToCsv } from "./summary.ts";
import type { CaseRecord } from "./types.ts";
import { caseRecord } from "../../testing/records.ts";

const base: CaseRecord = caseRecord();

const call = (isError: boolean) => ({ name: "t", tool: "s:t", args: {}, ms: 1, isError });

const records: CaseRecord[] = [
  { ...base, repetition: 0, wallMs: 100, toolCalls: [call(false), call(true)] },
  {
    ...base,
    repetition: 1,
    wallMs: 300,
    judge: { inputTokens: 50, outputTokens: 5, costUsd: 0.002 },
  },
  { ...base, repetition: 2, wallMs: 200, passed: false },
  {
    ...base,
    caseId: "c2",
    repetition: 0,
    wallMs: 400,
    passed: false,
    finalAnswer: null,
    error: { kind: "iteration_limit", message: "" },
  },
  { ...base, caseId: "c2", repetition: 1, wallMs: 1, passed: false, cachedModelCalls: 1 },
  {
    ...base,
    caseId: "c2",
    repetition: 2,
    wallMs: 500,
    passed: null,
    inputTokens: null,
    costUsd: null,
    error: { kind: "model", message: "503" },
  },
  { ...base, agentId: "b", passed: true, wallMs: 7 },
];

const close = (a: number | null, b: number, eps = 1e-4) =>
  assert.ok(a !== null && Math.abs(a - b) <= eps, `${a} is not ${b}`);

Deno.test("summarizeRecords() matches hand-computed figures", () => {
  // Shuffled input must give the same rows.
  const rows = summarizeRecords([...records].reverse());
  assert.deepEqual(rows.map((r) => r.agentId), ["a", "b"]);
  const a = rows[0];
  assert.equal(a.records, 6);
  assert.equal(a.scored, 5);
  assert.equal(a.passed, 2);
  close(a.passRate, 0.4);
  // Wilson 2/5: centre 0.78415/1.76829 = 0.44345, half 1.10839·√0.086415 = 0.32583.
  close(a.passRateLo, 0.1176);
  close(a.passRateHi, 0.7693);
  // c1: n=3, c=2; c2: n=2, c=0 → k=2. pass@2: c1 1 (n−c < k), c2 0 → 0.5.
  // pass^2: c1 C(2,2)/C(3,2) = 1/3, c2 0 → 1/6.
  assert.equal(a.k, 2);
  close(a.passAtK, 0.5, 1e-12);
  close(a.passHatK, 1 / 6, 1e-12);
  // Walls without the cached record: 100, 200, 300, 400, 500 → p50 rank 3, p95 rank 5.
  assert.equal(a.wallP50Ms, 300);
  assert.equal(a.wallP95Ms, 500);
  assert.equal(a.meanInputTokens, 100);
  close(a.meanCostUsd, 0.01, 1e-12);
  close(a.totalCostUsd, 0.05, 1e-12);
  close(a.judgeCostUsd, 0.002, 1e-12);
  // One judged record (50 in, 5 out); no record ended in a judge error (the 503 is the agent's).
  assert.equal(a.judgeInputTokens, 50);
  assert.equal(a.judgeOutputTokens, 5);
  assert.equal(a.judgeErrors, 0);
  close(a.toolCallsPerCase, 2 / 6, 1e-12);
  close(a.toolErrorRate, 0.5, 1e-12);
  close(a.errorRate, 1 / 6, 1e-12);
  close(a.iterationLimitRate, 0.2, 1e-12);
  const b = rows[1];
  assert.equal(b.passRate, 1);
  assert.equal(b.k, 1);
  assert.equal(b.toolErrorRate, null);
});

Deno.test("summaryToCsv() writes a header, rounded numbers and empty cells for null", () => {
  const csv = summaryToCsv(summarizeRecords(records));
  const lines = csv.trimEnd().split("\n");
  assert.equal(lines.length, 3);
  assert.ok(lines[0].startsWith("agent_id,records,scored,passed,pass_rate,pass_rate_lo95"));
  const header = lines[0].split(",");
  const b = lines[2].split(",");
  assert.equal(b[header.indexOf("agent_id")], "b");
  assert.equal(b[header.indexOf("tool_error_rate")], "");
  const a = lines[1].split(",");
  assert.equal(a[header.indexOf("pass_hat_k")], "0.166667");
  assert.equal(summaryToCsv([]).split("\n").length, 2);
});

Deno.test("summarizeRecords() sums tool retries; cases.csv and summary.csv carry them", async () => {
  const { casesToCsv } = await import("./summary.ts");
  const rs: CaseRecord[] = [
    { ...base, repetition: 0, toolRetries: { attempted: 3, succeeded: 1, refused: 1 } },
    { ...base, repetition: 1, toolRetries: { attempted: 1, succeeded: 1, refused: 0 } },
    // A record written before retries were counted.
    { ...base, repetition: 2 },
  ];
  const [row] = summarizeRecords(rs);
  assert.equal(row.toolRetries, 4);
  assert.equal(row.toolRetrySuccessRate, 2 / 4);
  assert.equal(row.toolRetriesRefused, 1);
  assert.equal(summarizeRecords([base])[0].toolRetrySuccessRate, null);
  const [head, line] = summaryToCsv([row]).trimEnd().split("\n").map((l) => l.split(","));
  assert.deepEqual(
    ["tool_retries", "tool_retry_success_rate", "tool_retries_refused"].map((c) =>
      line[head.indexOf(c)]
    ),
    ["4", "0.5", "1"],
  );
  const cases = casesToCsv(rs).trimEnd().split("\n").map((l) => l.split(","));
  const col = (name: string) => cases.slice(1).map((r) => r[cases[0].indexOf(name)]);
  assert.deepEqual(col("tool_retries"), ["3", "1", ""]);
  assert.deepEqual(col("tool_retries_succeeded"), ["1", "1", ""]);
  assert.deepEqual(col("tool_retries_refused"), ["1", "0", ""]);
});

Deno.test("summarizeRecords() keeps context savings and summarizer cost apart from the agent's", async () => {
  const { casesToCsv } = await import("./summary.ts");
  const ctx = (tokensSaved: number) => ({
    strategy: "summarize" as const,
    requestsReduced: 1,
    tokensSaved,
    tokenizer: "o200k_base",
    provenance: "computed" as const,
  });
  const sum = { model: "h", calls: 1, inputTokens: 300, outputTokens: 40, costUsd: 0.0005 };
  const rs: CaseRecord[] = [
    { ...base, repetition: 0, context: ctx(120), summarizer: sum },
    { ...base, repetition: 1, context: ctx(-20), summarizer: { ...sum, costUsd: 0.00025 } },
    { ...base, repetition: 2 },
  ];
  const [row] = summarizeRecords(rs);
  // Mean over the two records with a strategy: (120 − 20) / 2.
  assert.equal(row.meanContextTokensSaved, 50);
  assert.equal(row.summarizerInputTokens, 600);
  assert.equal(row.summarizerOutputTokens, 80);
  close(row.summarizerCostUsd, 0.00075, 1e-12);
  // The agent's own cost is untouched: 3 × 0.01.
  close(row.totalCostUsd, 0.03, 1e-12);
  assert.equal(summarizeRecords([base])[0].meanContextTokensSaved, null);
  const cases = casesToCsv(rs).trimEnd().split("\n").map((l) => l.split(","));
  const col = (name: string) => cases.slice(1).map((r) => r[cases[0].indexOf(name)]);
  assert.deepEqual(col("context_strategy"), ["summarize", "summarize", ""]);
  assert.deepEqual(col("context_tokens_saved"), ["120", "-20", ""]);
  assert.deepEqual(col("summarizer_cost_usd"), ["0.0005", "0.00025", ""]);
});
