import assert from "node:assert/strict";
import { quantileSorted } from "simple-statistics";
import { forecastRun, parsePriceFile, priceableKeys } from "./forecast.ts";
import { bootstrapMeanCi } from "../stats/bootstrap.ts";
import { createRng } from "../stats/prng.ts";
import type { CaseRecord, ModelPricing, ToolCallRecord } from "./types.ts";

// A tiny synthetic run. Agent "a" on model "m" ($3 in / $15 out per M), tool fs:read $0.001,
// judge "j" ($1 / $5 per M). Values below are worked out by hand in the comments.
const M: ModelPricing = {
  inputUsdPerMTok: 3,
  outputUsdPerMTok: 15,
  cacheReadUsdPerMTok: 0.3,
  cacheWriteUsdPerMTok: 3.75,
};
const J: ModelPricing = {
  inputUsdPerMTok: 1,
  outputUsdPerMTok: 5,
  cacheReadUsdPerMTok: 0,
  cacheWriteUsdPerMTok: 0,
};
const call = (tool: string | null): ToolCallRecord => ({
  name: "read",
  tool,
  args: {},
  ms: 5,
  isError: false,
});
const rec = (
  caseId: string,
  repetition: number,
  o: Partial<CaseRecord> & { inputTokens: number; outputTokens: number },
): CaseRecord => ({
  agentId: "a",
  caseId,
  repetition,
  passed: true,
  criterion: null,
  finalAnswer: "x",
  wallMs: 1000,
  llmMs: 900,
  toolMs: 10,
  iterations: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  peakContextTokens: o.inputTokens,
  toolCalls: [],
  costUsd: 0,
  judge: null,
  error: null,
  cachedModelCalls: 0,
  usageNotes: [],
  ...o,
});
const judge = { inputTokens: 500, outputTokens: 50, costUsd: 0.00075 }; // 500×1 + 50×5 per M
const RECORDS: CaseRecord[] = [
  // 1000×3 + 100×15 = 4500 µ$ = 0.0045 agent; one call 0.001
  rec("c1", 0, {
    inputTokens: 1000,
    outputTokens: 100,
    wallMs: 1000,
    toolCalls: [call("fs:read")],
    costUsd: 0.0055,
  }),
  // 2000×3 + 200×15 = 0.009 agent; two calls 0.002; an unrouted call costs nothing
  rec("c1", 1, {
    inputTokens: 2000,
    outputTokens: 200,
    wallMs: 2000,
    toolCalls: [call("fs:read"), call("fs:read"), call(null)],
    costUsd: 0.011,
  }),
  rec("c2", 0, { inputTokens: 1000, outputTokens: 100, wallMs: 3000, judge, costUsd: 0.0045 }),
  rec("c2", 1, { inputTokens: 1000, outputTokens: 100, wallMs: 3000, judge, costUsd: 0.0045 }),
  { ...rec("c9", 0, { inputTokens: 1, outputTokens: 1 }), agentId: "other" },
];
const BASE = {
  records: RECORDS,
  agentId: "a",
  agent: { model: "m" },
  models: [{ id: "m", pricing: M }, { id: "j", pricing: J }],
  toolPrices: { "fs:read": 0.001 },
  criteria: {
    c1: { type: "exact" as const, value: "x" },
    c2: { type: "llm_judge" as const, rubric: "r", model: "j" },
  },
  questions: 10_000,
  seed: 42,
};
const close = (a: number | null, b: number, what: string) =>
  assert.ok(
    a !== null && Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b)),
    `${what}: ${a} ≠ ${b}`,
  );

Deno.test("forecastRun() gives the plug-in means × N, split into agent, judge and tool", () => {
  const f = forecastRun(BASE);
  assert.equal(f.provenance, "estimated");
  assert.match(f.assumption, /future questions are like the suite's/);
  assert.deepEqual(f.basis, { records: 4, cases: 2, maxRepetitions: 2 });
  // agent: (0.0045 + 0.009 + 0.0045 + 0.0045) / 4 = 0.005625 per question → $56.25
  close(f.usd.agent.perQuestion, 0.005625, "agent per question");
  close(f.usd.agent.total, 56.25, "agent total");
  // tool: (0.001 + 0.002 + 0 + 0) / 4 → $7.50; judge: (0 + 0 + 0.00075 × 2) / 4 → $3.75
  close(f.usd.tool.total, 7.5, "tool");
  close(f.usd.judge.total, 3.75, "judge");
  close(f.usd.total.total, 67.5, "total");
  // tokens: input (1000 + 2000 + 1000 + 1000) / 4 = 1250 → 12.5 M; judge input 1000/4 → 2.5 M
  close(f.tokens.input.total, 12_500_000, "input tokens");
  close(f.tokens.output.total, 1_250_000, "output tokens");
  close(f.tokens.judgeInput.total, 2_500_000, "judge input tokens");
  close(f.tokens.cacheRead.total, 0, "cache read");
  // wall: (1000 + 2000 + 3000 + 3000) / 4 = 2250 ms per question
  close(f.wallMs.perQuestion, 2250, "wall per question");
  close(f.wallMs.total, 22_500_000, "wall total");
  for (const e of [f.usd.agent, f.usd.total, f.tokens.input, f.wallMs]) {
    assert.ok(e.lo! <= e.total! && e.total! <= e.hi!, `interval holds the plug-in value`);
    assert.ok(e.lo! < e.hi!, "cases differ, so the interval is not a point");
  }
  assert.equal(f.prices.source, "run");
  assert.deepEqual(f.prices.pricing, M);
});

Deno.test("forecastRun() re-prices the agent and its judge under a price file", () => {
  const f = forecastRun({
    ...BASE,
    prices: {
      models: {
        m: {
          inputUsdPerMTok: 1,
          outputUsdPerMTok: 5,
          cacheReadUsdPerMTok: 0,
          cacheWriteUsdPerMTok: 0,
        },
        j: {
          inputUsdPerMTok: 2,
          outputUsdPerMTok: 10,
          cacheReadUsdPerMTok: 0,
          cacheWriteUsdPerMTok: 0,
        },
      },
      toolPrices: { "fs:read": 0.01 },
    },
  });
  // agent: 0.0015, 0.003, 0.0015, 0.0015 → mean 0.001875 → $18.75
  close(f.usd.agent.total, 18.75, "repriced agent");
  // judge: 500×2 + 50×10 = 0.0015 per judged record → 0.003 / 4 → $7.50
  close(f.usd.judge.total, 7.5, "repriced judge");
  // tool: 3 priced calls × 0.01 / 4 → $75
  close(f.usd.tool.total, 75, "repriced tools");
  assert.equal(f.prices.source, "override");
});

Deno.test("forecastRun() re-prices a judge panel call by call from its verdicts", () => {
  const v = (model: string, costUsd: number) => ({
    criterion: "criterion",
    model,
    vote: 0,
    pass: true,
    reasoning: "",
    inputTokens: 1000,
    outputTokens: 100,
    costUsd,
  });
  // Two judge calls: "j" recorded $0.0015 (1000×1 + 100×5 per M), "k" recorded $0.01.
  const r = rec("c2", 0, {
    inputTokens: 0,
    outputTokens: 0,
    judge: { inputTokens: 2000, outputTokens: 200, costUsd: 0.0115 },
    judgeVerdicts: [v("j", 0.0015), v("k", 0.01)],
  });
  const run = { ...BASE, records: [r], questions: 1 };
  close(forecastRun(run).usd.judge.total, 0.0115, "as recorded");
  // Only "j" re-priced to $10/$20 per M: 1000×10 + 100×20 = $0.012; "k" keeps $0.01.
  const f = forecastRun({
    ...run,
    prices: {
      models: {
        j: {
          inputUsdPerMTok: 10,
          outputUsdPerMTok: 20,
          cacheReadUsdPerMTok: 0,
          cacheWriteUsdPerMTok: 0,
        },
      },
    },
  });
  close(f.usd.judge.total, 0.022, "j re-priced, k as recorded");
});

Deno.test("forecastRun() adds the context summarizer's cost apart, re-priced by its model", () => {
  const r = rec("c1", 0, {
    inputTokens: 0,
    outputTokens: 0,
    summarizer: { model: "s", calls: 2, inputTokens: 4000, outputTokens: 400, costUsd: 0.006 },
  });
  const f = forecastRun({ ...BASE, records: [r], questions: 10 });
  close(f.usd.summarizer.total, 0.06, "recorded summarizer USD × 10");
  close(f.usd.total.total, 0.06, "total includes it");
  const g = forecastRun({
    ...BASE,
    records: [r],
    questions: 10,
    prices: {
      models: {
        s: {
          inputUsdPerMTok: 2,
          outputUsdPerMTok: 10,
          cacheReadUsdPerMTok: 0,
          cacheWriteUsdPerMTok: 0,
        },
      },
    },
  });
  // 4000 × 2 + 400 × 10 per M = $0.012 per question → $0.12 for 10
  close(g.usd.summarizer.total, 0.12, "re-priced");
});

Deno.test("forecastRun() prices one-hour cache writes at 1.6× for a 1h agent", () => {
  const r = rec("c1", 0, { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 1_000_000 });
  const f = forecastRun({
    ...BASE,
    records: [r],
    agent: { model: "m", promptCaching: { enabled: true, ttl: "1h" } },
    questions: 1,
  });
  close(f.usd.agent.total, 3.75 * 1.6, "1h write price");
});

Deno.test("forecastRun() falls back to the recorded cost minus tools when the run has no prices", () => {
  const f = forecastRun({ ...BASE, models: [] });
  // recorded costUsd − tool: 0.0045, 0.009, 0.0045, 0.0045: the same as priced from tokens
  close(f.usd.agent.total, 56.25, "recorded agent cost");
  assert.deepEqual(f.prices.notes, ['no price for model "m": agent USD as recorded']);
});

Deno.test("forecastRun() leaves a record without usage out of the token and USD means only", () => {
  const f = forecastRun({
    ...BASE,
    records: [...RECORDS, rec("c3", 0, { inputTokens: 0, outputTokens: 0 })].map((r) =>
      r.caseId === "c3" ? { ...r, inputTokens: null, costUsd: null, wallMs: 5000 } : r
    ),
  });
  assert.equal(f.tokens.input.records, 4);
  close(f.tokens.input.perQuestion, 1250, "input mean without the unreported record");
  assert.equal(f.wallMs.records, 5);
  close(f.wallMs.perQuestion, (9000 + 5000) / 5, "wall over all five");
  // A record replayed from the response cache has no real latency: out of the wall mean only.
  const g = forecastRun({
    ...BASE,
    records: RECORDS.map((r) => r.caseId === "c1" ? { ...r, cachedModelCalls: 1 } : r),
  });
  assert.equal(g.wallMs.records, 2);
  close(g.wallMs.perQuestion, 3000, "wall of the two uncached records");
  close(g.usd.agent.total, 56.25, "their cost still counts");
});

Deno.test("forecastRun() with one record per case is exactly bootstrapMeanCi over the cases", () => {
  const values = [0.01, 0.02, 0.05, 0.03, 0.2, 0.0];
  const records = values.map((v, i) =>
    rec(`c${i}`, 0, { inputTokens: 0, outputTokens: 0, costUsd: v })
  );
  const f = forecastRun({ records, agentId: "a", questions: 100, seed: 7, resamples: 500 });
  const ci = bootstrapMeanCi(values, { seed: 7, resamples: 500 });
  close(f.usd.total.lo, ci.lo * 100, "lo");
  close(f.usd.total.hi, ci.hi * 100, "hi");
  close(f.usd.total.total, ci.mean * 100, "mean");
  assert.equal(f.seed, 7);
});

Deno.test("forecastRun() draws cases, then repetitions within each drawn case, in a fixed order", () => {
  // One resample, so lo = hi = that resample's mean; the draws are replayed here by hand.
  const f = forecastRun({ ...BASE, resamples: 1, questions: 1 });
  const rng = createRng(42);
  const agentUsd = [[0.0045, 0.009], [0.0045, 0.0045]]; // c1 reps 0,1; c2 reps 0,1
  let sum = 0;
  for (let k = 0; k < 2; k++) {
    const g = agentUsd[rng.int(2)];
    for (let j = 0; j < 2; j++) sum += g[rng.int(2)];
  }
  close(f.usd.agent.lo, sum / 4, "replayed resample");
  close(f.usd.agent.hi, sum / 4, "replayed resample");
});

Deno.test("forecastRun() degenerates to a point when every case costs the same", () => {
  const records = ["c1", "c2", "c3"].flatMap((c) =>
    [0, 1].map((i) => rec(c, i, { inputTokens: 1000, outputTokens: 100, costUsd: 0.0045 }))
  );
  const f = forecastRun({ ...BASE, records });
  close(f.usd.total.lo, 45, "lo");
  close(f.usd.total.hi, 45, "hi");
  close(f.usd.total.total, 45, "total");
});

Deno.test("forecastRun() is the same for the same seed and record order, and moves with the seed", () => {
  const a = forecastRun(BASE);
  const b = forecastRun({ ...BASE, records: [...RECORDS].reverse() });
  assert.deepEqual(a, b);
  // Six distinct cases have many distinct resample means: another seed moves the bounds.
  const records = [0.01, 0.02, 0.05, 0.03, 0.2, 0.0].map((v, i) =>
    rec(`c${i}`, 0, { inputTokens: 0, outputTokens: 0, costUsd: v })
  );
  const x = forecastRun({ records, agentId: "a", questions: 1, seed: 1, resamples: 300 });
  const y = forecastRun({ records, agentId: "a", questions: 1, seed: 2, resamples: 300 });
  assert.notDeepEqual([x.usd.total.lo, x.usd.total.hi], [y.usd.total.lo, y.usd.total.hi]);
});

Deno.test("forecastRun() percentile bounds match an independent quantile of the resampled means", () => {
  // Two cases of one record each: every resample mean is one of {x, (x+y)/2, y}.
  const records = [
    rec("c1", 0, { inputTokens: 0, outputTokens: 0, costUsd: 1 }),
    rec("c2", 0, { inputTokens: 0, outputTokens: 0, costUsd: 3 }),
  ];
  const rng = createRng(5);
  const means = Array.from({ length: 200 }, () => {
    const v = [1, 3];
    return (v[rng.int(2)] + v[rng.int(2)]) / 2;
  }).sort((x, y) => x - y);
  const f = forecastRun({ records, agentId: "a", questions: 1, seed: 5, resamples: 200 });
  close(f.usd.total.lo, quantileSorted(means, 0.025), "lo");
  close(f.usd.total.hi, quantileSorted(means, 0.975), "hi");
});

Deno.test("forecastRun() refuses bad input with a RangeError naming it", async (t) => {
  await t.step("no records of the agent", () => {
    assert.throws(() => forecastRun({ ...BASE, agentId: "nobody" }), /agent "nobody".*no records/);
  });
  await t.step("questions 0", () => {
    assert.throws(
      () => forecastRun({ ...BASE, questions: 0 }),
      /questions must be an integer >= 1/,
    );
  });
  await t.step("level 1", () => {
    assert.throws(() => forecastRun({ ...BASE, level: 1 }), /level must be in \(0, 1\)/);
  });
});

Deno.test("parsePriceFile() reads a registry-shaped file and names the bad field", () => {
  const p = parsePriceFile({
    models: [{
      id: "m",
      provider: "anthropic",
      pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 },
    }],
    toolPrices: { "fs:read": 0.5 },
  }, "p.json");
  assert.deepEqual(p.models?.m, {
    inputUsdPerMTok: 1,
    outputUsdPerMTok: 2,
    cacheReadUsdPerMTok: 0,
    cacheWriteUsdPerMTok: 0,
  });
  assert.equal(p.toolPrices?.["fs:read"], 0.5);
  assert.throws(
    () => parsePriceFile({ models: [{ id: "m", pricing: { inputUsdPerMTok: -1 } }] }, "p.json"),
    /price file "p.json": field "models\[0\].pricing.inputUsdPerMTok" must be a number >= 0/,
  );
  assert.throws(() => parsePriceFile([], "p.json"), /must be a JSON object/);
  assert.throws(
    () => parsePriceFile({ models: [{ id: "m", pricing: { outputUsdPerMTok: 1 } }] }, "p.json"),
    /inputUsdPerMTok" is required/,
  );
  assert.throws(() => parsePriceFile({ prices: {} }, "p.json"), /"prices" is not a known field/);
});

Deno.test("priceableKeys() lists the agents' and judges' models and the tools the records called", () => {
  const verdict = (model: string) => ({ criterion: "criterion", model, vote: 0 }) as never;
  const records = [
    rec("c1", 0, { inputTokens: 1, outputTokens: 1, toolCalls: [call("fs:read"), call(null)] }),
    rec("c2", 0, { inputTokens: 1, outputTokens: 1, judgeVerdicts: [verdict("k"), verdict("j")] }),
    rec("c3", 0, {
      inputTokens: 1,
      outputTokens: 1,
      toolCalls: [call("db:query"), call("fs:read")],
    }),
  ];
  const criteria = {
    c3: {
      type: "all",
      criteria: [{ type: "llm_judge", rubric: "r", model: "q" }, {
        type: "llm_judge",
        rubric: "r",
        judges: ["p", "k"],
      }],
    },
    // A case with no record: its judges are not the run's.
    c9: { type: "llm_judge", rubric: "r", model: "unused" },
  } as never;
  assert.deepEqual(priceableKeys({ records, agents: [{ model: "m" }], criteria }), {
    models: ["j", "k", "m", "p", "q"],
    tools: ["db:query", "fs:read"],
  });
  assert.deepEqual(priceableKeys({ records: [], agents: [] }), { models: [], tools: [] });
});
