import assert from "node:assert/strict";
import type { AgentConfig, CaseRecord } from "../../agent/types.ts";
import type { LoadedRun } from "../runs.ts";
import { headlessDocument, renumberPlotIds } from "../dashboard.ts";
import { renderViz, standaloneSvg, vizTableCsv } from "../dashboard_page.ts";
import { compareVersions } from "../compare_versions.ts";
import { agentRunRecords } from "./records.ts";
import { BUILTIN_VISUALIZATIONS, createRegistry } from "./registry.ts";
import { passKCurves } from "./charts.ts";
import { vizContext } from "./theme.ts";
import { isVizNote, isVizTable, type VizOutput } from "./types.ts";

const GOLDEN = new URL("./testdata/", import.meta.url);
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

function agent(id: string, systemPrompt = "p"): AgentConfig {
  return {
    id,
    description: "",
    model: "m",
    systemPrompt,
    mcpServers: ["fs"],
    exposure: id === "b" ? "proxy" : "direct",
    loop: "sequential",
    maxIterations: 4,
    maxOutputTokens: 100,
  };
}

function rec(agentId: string, caseId: string, repetition: number, passed: boolean, o: {
  costUsd: number;
  tools: number;
  wallMs: number;
}): CaseRecord {
  return {
    agentId,
    caseId,
    repetition,
    passed,
    criterion: null,
    finalAnswer: "x",
    wallMs: o.wallMs,
    llmMs: 0,
    toolMs: 0,
    iterations: 1 + o.tools,
    inputTokens: 100 * (1 + o.tools),
    outputTokens: 20,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    peakContextTokens: 300,
    toolCalls: Array.from({ length: o.tools }, () => ({
      name: "read",
      tool: "fs:read",
      args: {},
      ms: 1,
      isError: false,
    })),
    costUsd: o.costUsd,
    judge: null,
    error: null,
    cachedModelCalls: 0,
    usageNotes: [],
  };
}

// Agent a: c1 passes twice, c2 once, c3 never; one tool call per case at $0.0005, $0.002 per
// case in all. Agent b passes everything with two tool calls at $0.004. Run 2 repeats the
// outcomes, with a's prompt changed.
const A_OUTCOMES: Record<string, boolean[]> = {
  c1: [true, true],
  c2: [true, false],
  c3: [false, false],
};
function run(runId: string, startedAt: string, aPrompt: string): LoadedRun {
  const records: CaseRecord[] = [];
  for (const c of ["c1", "c2", "c3"]) {
    for (const rep of [0, 1]) {
      records.push(
        rec("a", c, rep, A_OUTCOMES[c][rep], {
          costUsd: 0.002,
          tools: 1,
          wallMs: 1000 + 100 * rep,
        }),
      );
      records.push(rec("b", c, rep, true, { costUsd: 0.004, tools: 2, wallMs: 2000 }));
    }
  }
  return {
    dir: runId,
    runId,
    status: "complete",
    startedAt,
    endedAt: startedAt,
    suiteId: "s",
    agents: [agent("a", aPrompt), agent("b")],
    catalogs: {
      a: { hash: "aaaa", tools: 3 },
      b: { hash: runId === "r1" ? "b1" : "b2", tools: 3 },
    },
    repetitions: 2,
    plannedCases: 12,
    shard: null,
    records,
    sweep: null,
    toolPrices: { "fs:read": 0.0005 },
    warnings: [],
  };
}

const RUNS = [run("r1", "2025-01-01T10:00:00Z", "p"), run("r2", "2025-01-08T10:00:00Z", "p2")];
const RECORDS = agentRunRecords(RUNS);

function render(id: string): VizOutput {
  const v = createRegistry().get(id)!;
  return v.render(RECORDS, vizContext(headlessDocument(), v.layout));
}

async function golden(name: string, text: string) {
  const url = new URL(name, GOLDEN);
  if (UPDATE) await Deno.writeTextFile(url, text);
  assert.equal(text, await Deno.readTextFile(url), `${name} changed (UPDATE_GOLDEN=1 to accept)`);
}

Deno.test("agentRunRecords() splits token and tool cost with run.json's tool prices and marks the config change", () => {
  const a1 = RECORDS.find((r) => r.runId === "r1" && r.agentId === "a")!;
  const a2 = RECORDS.find((r) => r.runId === "r2" && r.agentId === "a")!;
  const b2 = RECORDS.find((r) => r.runId === "r2" && r.agentId === "b")!;
  assert.equal(a1.metrics.passRate, 3 / 6);
  assert.equal(a1.metrics.toolCostUsd, 0.0005);
  assert.ok(Math.abs(a1.metrics.tokenCostUsd! - 0.0015) < 1e-15);
  assert.equal(a1.metrics.overallCostUsd, 0.002);
  assert.equal(a1.metrics.avgDurationMs, 1050);
  assert.equal(a1.metrics.iterationBudgetUse, 2 / 4);
  assert.equal(a1.configChanged, null);
  assert.equal(a2.configChanged, true);
  assert.equal(b2.configChanged, false);
});

Deno.test("pass@k and pass^k curves pool each case's repetitions over runs (values by hand)", () => {
  const a = passKCurves(RECORDS).filter((p) => p.agent === "a");
  // n = 4 per case; c = 4, 2, 0. pass@1 = (1 + 0.5 + 0)/3; pass@2: c2 gives 1 − C(2,2)/C(4,2) =
  // 5/6, so (1 + 5/6)/3; pass^2: c2 gives C(2,2)/C(4,2) = 1/6, so (1 + 1/6)/3.
  const at = (k: number, m: string) => a.find((p) => p.k === k && p.measure === m)!.value;
  assert.equal(a.length, 8);
  assert.ok(Math.abs(at(1, "pass@k") - 0.5) < 1e-12);
  assert.ok(Math.abs(at(2, "pass@k") - (1 + 5 / 6) / 3) < 1e-12);
  assert.ok(Math.abs(at(2, "pass^k") - (1 + 1 / 6) / 3) < 1e-12);
  assert.ok(Math.abs(at(4, "pass^k") - 1 / 3) < 1e-12);
});

Deno.test("question-pass-rate-matrix puts the worst case first (golden CSV)", async () => {
  const out = render("question-pass-rate-matrix");
  assert.ok(isVizTable(out));
  // Mean over agents: c3 (0 + 1)/2, c2 (0.5 + 1)/2, c1 1.
  assert.deepEqual(out.rows.map((r) => [r.case, r.a, r.b]), [
    ["s / c3", 0, 1],
    ["s / c2", 0.5, 1],
    ["s / c1", 1, 1],
  ]);
  await golden("question-pass-rate-matrix.csv", vizTableCsv(out));
});

// In r2, agent a's two c1 records are infrastructure errors (no verdict) and one of b's c2
// records is: no scored c1 for a in r2, and b's c2 rests on its other records.
const ERR_RUNS = RUNS.map((r) => ({
  ...r,
  records: r.records.map((x): CaseRecord =>
    r.runId === "r2" &&
      ((x.agentId === "a" && x.caseId === "c1") ||
        (x.agentId === "b" && x.caseId === "c2" && x.repetition === 0))
      ? { ...x, passed: null, error: { kind: "mcp", message: "server down" } }
      : x
  ),
}));

Deno.test("question-pass-rate-matrix: a cell with no scored record has no pass rate (–), never 0 %", () => {
  const v = createRegistry().get("question-pass-rate-matrix")!;
  const r2 = agentRunRecords(ERR_RUNS).filter((r) => r.runId === "r2");
  const out = v.render(r2, vizContext(headlessDocument(), v.layout));
  assert.ok(isVizTable(out));
  // a: c1 none scored → null; c2 1 of 2; c3 0 of 2. b: c2 1 of 1 scored (the error left out).
  // Means over agents: c3 (0 + 1)/2, c2 (0.5 + 1)/2, c1 1 (a's null is not averaged in).
  assert.deepEqual(out.rows.map((r) => [r.case, r.a, r.b]), [
    ["s / c3", 0, 1],
    ["s / c2", 0.5, 1],
    ["s / c1", null, 1],
  ]);
  const { html } = renderViz(v, r2, { document: headlessDocument(), name: "m" });
  assert.match(html, /<td>s \/ c1<\/td><td class="num">–<\/td>/);
  assert.doesNotMatch(html, /<td>s \/ c1<\/td><td class="num"[^>]*>0\.0%/);
});

Deno.test("compareVersions(): a case with no scored record in a point has no rate and is no regression", () => {
  const c = compareVersions(agentRunRecords(ERR_RUNS), "s", "a", { points: "runs" });
  const c1 = c.matrix.find((m) => m.caseId === "c1")!;
  // r1: c1 passed twice → 1; r2: both records errors → no rate, so no difference.
  assert.deepEqual(c1.rates, { r1: 1, r2: null });
  assert.deepEqual(c1.diffs, { r1: 0, r2: null });
  assert.equal(c1.regressed, false);
});

Deno.test("capability-by-agent says stable or changed with the count of distinct catalogs", () => {
  const out = render("capability-by-agent");
  assert.ok(isVizTable(out));
  assert.deepEqual(out.rows.map((r) => [r.agent, r.catalog]), [["a", "stable"], [
    "b",
    "changed (2 distinct)",
  ]]);
});

for (
  const id of [
    "agent-average-correctness",
    "runs-over-time-correctness",
    "cost-composition-by-agent",
    "pass-k-curves",
  ]
) {
  Deno.test(`${id}: golden SVG on fixed records`, async () => {
    const out = render(id);
    assert.ok(!isVizTable(out) && !isVizNote(out));
    const svg = renumberPlotIds(standaloneSvg(out as Element));
    assert.equal(
      svg,
      renumberPlotIds(standaloneSvg(render(id) as Element)),
      "same input, same bytes",
    );
    await golden(`${id}.svg`, svg + "\n");
  });
}

Deno.test("agent-average-correctness labels 50.0% and 100.0%; the trend marks a's config change", () => {
  const bars = (render("agent-average-correctness") as Element).outerHTML;
  assert.match(bars, />50\.0%</);
  assert.match(bars, />100\.0%</);
  const trend = (render("runs-over-time-correctness") as Element).outerHTML;
  assert.equal((trend.match(/configuration changed since the previous run/g) ?? []).length, 1);
});

Deno.test("agent-average-correctness keeps an agent with no scored case as a row marked –", () => {
  // Agent b's every case an infrastructure error: no verdict, so no pass rate (not 0%).
  const errored = RUNS.map((r) => ({
    ...r,
    records: r.records.map((c) => c.agentId === "b" ? { ...c, passed: null } : c),
  }));
  const v = createRegistry().get("agent-average-correctness")!;
  const svg = v.render(
    agentRunRecords(errored),
    vizContext(headlessDocument(), v.layout),
  ) as Element;
  const labels = [...svg.querySelectorAll('g[aria-label="text"] text')].map((t) => t.textContent);
  assert.deepEqual(labels, ["50.0%", "–"]);
  assert.equal(svg.querySelectorAll('g[aria-label="bar"] rect').length, 1);
  const ticks = [...svg.querySelectorAll('g[aria-label="y-axis tick label"] text')];
  assert.deepEqual(ticks.map((t) => t.textContent), ["a", "b"]);
});

Deno.test("visualizations whose data is not recorded say so instead of drawing", () => {
  const cache = render("cache-effectiveness-by-agent");
  assert.ok(isVizNote(cache));
  assert.match(cache.text, /not recorded/);
  const flaky = render("flakiness-by-case");
  assert.ok(!isVizNote(flaky), "a's c2 passed once and failed once: it is flaky");
});

Deno.test("every built-in renders the fixed records and an empty selection without throwing", () => {
  const doc = headlessDocument();
  assert.equal(
    new Set(BUILTIN_VISUALIZATIONS.map((v) => v.id)).size,
    BUILTIN_VISUALIZATIONS.length,
  );
  assert.ok(BUILTIN_VISUALIZATIONS.length >= 36);
  for (const v of BUILTIN_VISUALIZATIONS) {
    v.render(RECORDS, vizContext(doc, v.layout));
    assert.ok(isVizNote(v.render([], vizContext(doc, v.layout))), `${v.id} on no records`);
  }
});

Deno.test("createRegistry() refuses a user module reusing a built-in id", () => {
  const dup = { ...BUILTIN_VISUALIZATIONS[0] };
  assert.throws(() => createRegistry([dup]), /already taken by a built-in/);
});

Deno.test("agent bar charts cut a long agent id in the middle so the left margin holds it", () => {
  const long = "baseline__tools-fs-list_-fs-read_text_file"; // a sweep agent's id, 42 characters
  const records = agentRunRecords([{
    ...RUNS[0],
    agents: [agent(long)],
    catalogs: { [long]: { hash: "aaaa", tools: 3 } },
    records: RUNS[0].records.filter((r) => r.agentId === "b").map((r) => ({ ...r, agentId: long })),
  }]);
  for (const id of ["agent-average-correctness", "cost-composition-by-agent"]) {
    const v = createRegistry().get(id)!;
    const svg = (v.render(records, vizContext(headlessDocument(), v.layout)) as Element).outerHTML;
    assert.ok(svg.includes(">baseline__t…ist_-fs-read_text_file<"), `${id}: ${svg.slice(0, 400)}`);
    assert.ok(!svg.includes(`>${long}<`), id);
  }
});

Deno.test("cost-per-question-distribution keeps every dot inside its agent's lane, equal values apart", () => {
  const svg = render("cost-per-question-distribution") as Element;
  const frames = [...svg.querySelectorAll('g[aria-label="frame"] rect')];
  const lanes = [...svg.querySelectorAll('g[aria-label="dot"] > g')];
  // Agents a and b, one lane each; 12 scored cases each (2 runs × 3 cases × 2 repetitions).
  assert.equal(frames.length, 2);
  assert.equal(lanes.length, 2);
  for (const [i, lane] of lanes.entries()) {
    const top = Number(frames[i].getAttribute("y"));
    const bottom = top + Number(frames[i].getAttribute("height"));
    const dots = [...lane.querySelectorAll("circle")];
    assert.equal(dots.length, 12);
    const ys = dots.map((d) => Number(d.getAttribute("cy")));
    for (const y of ys) {
      assert.ok(y - 2.5 >= top && y + 2.5 <= bottom, `${y} in [${top}, ${bottom}]`);
    }
    // Every case of an agent costs the same ($0.002 or $0.004): one x, twelve heights.
    assert.equal(new Set(dots.map((d) => d.getAttribute("cx"))).size, 1);
    assert.equal(new Set(ys).size, 12);
  }
});

Deno.test("exposure-mode-comparison numbers its points and names them in a key, not at the points", () => {
  const svg = render("exposure-mode-comparison") as Element;
  const texts = [...svg.querySelectorAll("text, tspan")].map((t) => t.textContent ?? "");
  // Mean input tokens: a 100 × (1 + 1 tool) = 200, b 100 × (1 + 2) = 300: a is 1, b is 2.
  assert.ok(texts.includes("1  a (direct)"), JSON.stringify(texts));
  assert.ok(texts.includes("2  b (proxy)"), JSON.stringify(texts));
  const marks = [...svg.querySelectorAll('g[aria-label="text"] text')].map((t) => t.textContent);
  assert.ok(marks.includes("1") && marks.includes("2"), JSON.stringify(marks));
  assert.ok(!marks.includes("a") && !marks.includes("b"), JSON.stringify(marks));
});
