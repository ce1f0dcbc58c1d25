import assert from "node:assert/strict";
import type { CaseRecord } from "../agent/types.ts";
import { caseRecord } from "../../testing/records.ts";
import { firstTurnRows } from "./first_turn.ts";
import type { LoadedRun } from "./runs.ts";

const record = (agentId: string, caseId: string, first?: number | null): CaseRecord =>
  caseRecord({ agentId, caseId, ...(first === undefined ? {} : { firstTurnInputTokens: first }) });

/**
 * Agent a (OpenAI, scripted model): recorded estimate 1,000 [900–1,200]; questions q1 "What is
 * 2 + 2?" (8 o200k tokens) and q2 "List the files in a folder." (7), which the default OpenAI
 * entry prices at one per token at every end. Agent b: not estimated. Agent c: an older run's
 * records, neither estimate nor first-request input.
 */
function run(): LoadedRun {
  return {
    dir: "r",
    runId: "r1",
    status: "complete",
    startedAt: "2026-01-01T00:00:00Z",
    endedAt: null,
    suiteId: "s",
    agents: [{ id: "a", model: "m" }, {
      id: "b",
      model: "claude",
    }] as unknown as LoadedRun["agents"],
    catalogs: {
      a: {
        hash: "h",
        estimate: {
          provider: "openai",
          model: "gpt-5",
          calibration: "default: OpenAI",
          tokens: 1000,
          low: 900,
          high: 1200,
          overhead: 12,
          tools: { tokens: 900, low: 800, high: 1100, count: 3 },
          systemPrompt: { tokens: 88, low: 88, high: 88 },
          format: "openai-responses",
          includes: "overhead, 3 tools, system prompt",
        },
      },
      b: { hash: "h2", estimate: { skipped: "anthropic_search: deferred" } },
    },
    repetitions: 1,
    plannedCases: 5,
    shard: null,
    records: [
      record("a", "q1", 1010),
      record("a", "q2", 1300),
      record("a", "q2", null),
      record("b", "q1", 500),
      record("c", "q1"),
    ],
    sweep: null,
    models: [{ id: "m", pricing: {} as never, simulated: true }],
    questions: { q1: "What is 2 + 2?", q2: "List the files in a folder." },
    warnings: [],
  };
}

Deno.test("firstTurnRows(): measured first requests against the estimate plus each question", () => {
  const rows = firstTurnRows([run()]);
  assert.deepEqual(rows.map((r) => r.agentId), ["a", "b"]);
  const a = rows[0];
  // Per case: q1 1,000 + 8 = 1,008 [908–1,208]; q2 1,000 + 7 = 1,007 [907–1,207].
  assert.deepEqual(a.estimate, { tokens: 1007.5, low: 907.5, high: 1207.5 });
  assert.equal(a.cases, 2); // the record without a reported input is left out
  assert.equal(a.measured, 1155);
  assert.deepEqual(a.measuredRange, [1010, 1300]);
  // 1,010 lies inside [908, 1,208]; 1,300 past 1,207.
  assert.equal(a.inside, 1);
  assert.ok(Math.abs(a.ratio! - (1010 / 1008 + 1300 / 1007) / 2) < 1e-12);
  assert.equal(a.model, "gpt-5");
  assert.equal(a.simulated, true);
  assert.equal(a.calibration, "default: OpenAI");
  assert.equal(a.counts, "12 overhead + 3 tools + system prompt + question");
  const b = rows[1];
  assert.equal(b.estimate, null);
  assert.equal(b.measured, 500);
  assert.equal(b.includes, "not estimated: anthropic_search: deferred");
  assert.equal(b.simulated, false);
});

Deno.test("firstTurnRows(): a run without questions adds none and says so", () => {
  const { questions: _, ...bare } = run();
  const [a] = firstTurnRows([bare]);
  assert.deepEqual(a.estimate, { tokens: 1000, low: 900, high: 1200 });
  assert.match(a.includes, /questions not recorded: not added/);
});

Deno.test("the comparison dashboard shows the check per run and agent, a scripted model labelled", async () => {
  const { renderCompareDashboard } = await import("./compare_dashboard.ts");
  const page = renderCompareDashboard({ runs: [run()] });
  const html = page.html;
  assert.match(html, /<h2 id="first-turn">First request: billed input against the static estimate/);
  // Agent a: measured median 1,155 (1,010–1,300) over 2; estimate 1,008 [908–1,208] (medians,
  // rounded); 1 of 2 inside; b: not estimated.
  assert.match(html, /1,155 \(1,010–1,300\) over 2/);
  assert.match(html, /1,008 \[908–1,208\]/);
  assert.match(html, /1 of 2/);
  assert.match(html, /gpt-5 \(simulated: not a provider(?:'|&#39;|&#x27;)s bill\)/);
  assert.match(html, /12 overhead \+ 3 tools \+ system prompt \+ question/);
});
