import assert from "node:assert/strict";
import * as aq from "arquero";
import { writeSyntheticRun } from "../../testing/synthetic_runs.ts";
import { loadRun, loadRuns, RunInputError } from "./load_runs.ts";
import { filterRuns, runsTable } from "./runs.ts";
import { agentRows, caseRows, errorRows, flakyRows, sweepGroupRows, toolRows } from "./compare.ts";
import { renderCompareDashboard, tablesToCsv } from "./compare_dashboard.ts";
import { forecastLoadedRun } from "./forecast.ts";

const CASES = ["c1", "c2", "c3", "c4", "c5"];

async function fixture(root: string) {
  for (const [i, day] of ["2025-03-01", "2025-03-02"].entries()) {
    await writeSyntheticRun(root, {
      runId: `r${i}`,
      startedAt: `${day}T02:00:00.000Z`,
      cases: CASES,
      repetitions: 4,
      agents: [
        {
          id: "alpha",
          // c1–c3 always pass, c4 passes on even repetitions, c5 always fails.
          outcome: (c, r) => ({
            passed: c < 3 || (c === 3 && r % 2 === 0),
            costUsd: 0.002 + i * 0.001,
            wallMs: 100 * (c + 1),
            tools: c > 2 ? ["fs:read", "fs:list"] : ["fs:read"],
          }),
        },
        {
          id: "beta",
          // c1, c2 pass; c5 rep 1 is a model error; other c5 reps hit the iteration limit.
          outcome: (c, r) =>
            c === 4 && r === 1
              ? { passed: null, error: "model" }
              : c === 4
              ? { passed: false, error: "iteration_limit" }
              : { passed: c < 2 },
        },
      ],
    });
  }
}

Deno.test("comparison rows match hand counts on synthetic runs", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-compare-" });
  try {
    await fixture(root);
    const runs = await loadRuns([root]);
    assert.deepEqual(runs.map((r) => r.runId), ["r0", "r1"]);
    const agents = agentRows(runs);
    const alpha = agents.find((a) => a.agentId === "alpha")!;
    // Latest run r1: 12 + 2 passes of 20.
    assert.equal(alpha.runId, "r1");
    assert.equal(alpha.passRate, 14 / 20);
    assert.ok(Math.abs(alpha.meanCostUsd! - 0.003) < 1e-12);
    // Nearest-rank p95 of 4 × {100..500}: rank ceil(0.95·20) = 19 → 500; p50 rank 10 → 300.
    assert.equal(alpha.wallP50Ms, 300);
    assert.equal(alpha.wallP95Ms, 500);
    const beta = agents.find((a) => a.agentId === "beta")!;
    assert.equal(beta.scored, 19);
    assert.equal(beta.passRate, 8 / 19);
    assert.equal(beta.errorRate, 1 / 20);
    assert.equal(beta.iterationLimitRate, 3 / 19);

    const cases = caseRows(runs);
    const c4 = cases.find((c) => c.agentId === "alpha" && c.caseId === "c4")!;
    assert.deepEqual([c4.passRate, c4.flaky, c4.flakinessScore, c4.flipRate], [0.5, true, 1, 1]);
    assert.deepEqual(flakyRows(cases).map((c) => `${c.agentId}/${c.caseId}`), ["alpha/c4"]);

    assert.deepEqual(
      errorRows(runs).map((e) => [e.agentId, e.kind, e.count]),
      [["beta", "iteration_limit", 3], ["beta", "model", 1]],
    );
    const tools = toolRows(runs).filter((t) => t.agentId === "alpha");
    // fs:read in all 20 records, fs:list in c4 and c5 (8 records).
    assert.deepEqual(tools.map((t) => [t.tool, t.calls, t.callsPerCase]), [
      ["fs:read", 20, 1],
      ["fs:list", 8, 0.4],
    ]);

    // Filters: agent and date (r1 started 2025-03-02).
    const onlyFirst = filterRuns(runs, { to: "2025-03-01", agents: ["beta"] });
    assert.deepEqual(onlyFirst.map((r) => [r.runId, r.records.length]), [["r0", 20]]);
    assert.throws(() => filterRuns(runs, { from: "yesterday" }), RangeError);

    // The arquero table for notebooks: 2 runs × 2 agents × 20 records.
    const t = runsTable(runs);
    assert.equal(t.numRows(), 80);
    assert.equal(t.filter((d: { passed: number | null }) => d.passed === null).numRows(), 2);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("renderCompareDashboard() draws every section, is deterministic, and exports CSV", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-compare-" });
  try {
    await fixture(root);
    const runs = await loadRuns([root]);
    const a = renderCompareDashboard({ runs, csvBase: "dashboard" });
    const b = renderCompareDashboard({ runs, csvBase: "dashboard" });
    assert.equal(a.html, b.html);
    for (const id of ["runs", "agents", "trends", "reliability"]) {
      assert.ok(a.html.includes(`<h2 id="${id}">`), id);
    }
    // pass-rate interval, cost/accuracy, tokens, latency, 3 trends, heatmap, tool frequency
    const charts = a.html.split('<figure class="chart">').slice(1);
    assert.equal(charts.length, 9);
    for (const c of charts) assert.match(c, /^(<figure[^>]*>.*?)?<svg/s);
    assert.ok(!/https?:\/\/(?!www\.w3\.org)/.test(a.html), "no network references");
    const csv = tablesToCsv(a.tables);
    const flaky = aq.fromCSV(csv.flaky);
    assert.equal(flaky.numRows(), 1);
    assert.equal(flaky.get("case", 0), "c4");
    const agentsCsv = aq.fromCSV(csv.agents);
    assert.equal(agentsCsv.numRows(), 2);
    assert.equal(agentsCsv.get("pass_rate", 0), 0.7);
    // Forecast of 10,000 questions from the latest run (r1): alpha costs $0.003 on every record,
    // so $30 with a point interval; wall (100 + 200 + 300 + 400 + 500) / 5 ms × 10,000.
    assert.ok(a.html.includes(`<h2 id="forecast">`));
    assert.match(a.html, /Assumes future questions are like the suite&#39;s/);
    const fc = aq.fromCSV(csv.forecast);
    assert.deepEqual(fc.array("agent"), ["alpha", "beta"]);
    assert.equal(fc.get("run", 0), "r1");
    assert.equal(fc.get("usd_total", 0), 30);
    assert.equal(fc.get("usd_total_lo95", 0), 30);
    assert.equal(fc.get("usd_total_hi95", 0), 30);
    assert.equal(fc.get("wall_ms", 0), 3_000_000);
    assert.ok(fc.get("wall_ms_lo95", 0) < 3_000_000 && fc.get("wall_ms_hi95", 0) > 3_000_000);
    assert.equal(fc.get("provenance", 0), "estimated");
    // The interval is deno task forecast's with its defaults (seed 0, DEFAULT_FORECAST_RESAMPLES
    // = 2,000 draws): the CLI on the same run reproduces the page. Its wall interval has spread.
    const r1 = runs.find((r) => r.runId === "r1")!;
    const [cli] = forecastLoadedRun(r1, { questions: 10_000, agentId: "alpha", seed: 0 });
    assert.equal(fc.get("wall_ms_lo95", 0), cli.wallMs.lo);
    assert.equal(fc.get("wall_ms_hi95", 0), cli.wallMs.hi);
    const [other] = forecastLoadedRun(r1, {
      questions: 10_000,
      agentId: "alpha",
      seed: 0,
      resamples: 1000,
    });
    assert.notEqual(other.wallMs.lo, cli.wallMs.lo, "1,000 draws give another interval");
    assert.match(a.html, /seed 0, 2,000 resamples, as <code>deno task forecast --questions 10000/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("renderCompareDashboard() lists an agent with only infrastructure errors as not forecast", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-compare-" });
  try {
    await writeSyntheticRun(root, {
      runId: "r",
      startedAt: "2025-03-01T00:00:00Z",
      cases: ["c1", "c2"],
      repetitions: 1,
      agents: [
        { id: "down", outcome: () => ({ passed: null, error: "mcp" }) },
        { id: "up", outcome: () => ({ passed: true, costUsd: 0.001 }) },
      ],
    });
    const page = renderCompareDashboard({ runs: await loadRuns([root]), csvBase: "d" });
    assert.match(
      page.html,
      /<p class="note">Not forecast: down \(suite\): all 2 records are infrastructure errors \(mcp\), so nothing measured what answering costs\.<\/p>/,
    );
    // $0.001 on every record × 10,000 questions.
    const fc = aq.fromCSV(tablesToCsv(page.tables).forecast);
    assert.deepEqual(fc.array("agent"), ["up"]);
    assert.equal(fc.get("usd_total", 0), 10);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("sweepGroupRows() pools agents by varied parameter value", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-compare-" });
  try {
    const pass = (rate: number) => (_c: number, r: number) => ({ passed: r < rate * 4 });
    await writeSyntheticRun(root, {
      runId: "sweep",
      startedAt: "2025-03-01T00:00:00Z",
      cases: ["c1"],
      repetitions: 4,
      agents: [
        { id: "model=a,exposure=direct", outcome: pass(1) },
        { id: "model=a,exposure=proxy", outcome: pass(0.5) },
        { id: "model=b,exposure=direct", outcome: pass(0.25) },
        { id: "model=b,exposure=proxy", outcome: pass(0) },
      ],
      sweep: {
        base: "base",
        parameters: ["model", "exposure"],
        agents: {
          "model=a,exposure=direct": { model: "a", exposure: "direct" },
          "model=a,exposure=proxy": { model: "a", exposure: "proxy" },
          "model=b,exposure=direct": { model: "b", exposure: "direct" },
          "model=b,exposure=proxy": { model: "b", exposure: "proxy" },
        },
      },
    });
    const rows = sweepGroupRows(await loadRuns([root]));
    // model=a: 4 + 2 of 8; model=b: 1 + 0 of 8; direct: 4 + 1; proxy: 2 + 0.
    assert.deepEqual(rows.map((r) => [r.parameter, r.value, r.passed, r.scored]), [
      ["model", "a", 6, 8],
      ["model", "b", 1, 8],
      ["exposure", "direct", 5, 8],
      ["exposure", "proxy", 2, 8],
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loadRun() throws RunInputError naming the file and line", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-compare-" });
  try {
    await assert.rejects(() => loadRun(root), (e: Error) => {
      assert.ok(e instanceof RunInputError);
      assert.match(e.message, /run\.json": file not found/);
      return true;
    });
    const dir = await writeSyntheticRun(root, {
      runId: "bad",
      startedAt: "2025-01-01T00:00:00Z",
      cases: ["c"],
      repetitions: 1,
      agents: [{ id: "a", outcome: () => ({ passed: true }) }],
    });
    await Deno.writeTextFile(`${dir}/cases.jsonl`, '{"agentId":"a","caseId":"c"}\n', {
      append: true,
    });
    await assert.rejects(
      () => loadRun(dir),
      /cases\.jsonl": line 2: field "repetition" is missing/,
    );
    const good = (await Deno.readTextFile(`${dir}/cases.jsonl`)).split("\n")[0];
    await Deno.writeTextFile(
      `${dir}/cases.jsonl`,
      `${good}\n${good.replace('"repetition":0', '"repetition":"0"')}\n`,
    );
    await assert.rejects(() => loadRun(dir), /line 2: field "repetition" is not an integer/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("sweepGroupRows() carries the lever figures: input tokens, context saved, summarizer cost, retries", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-compare-" });
  try {
    const ctx = (tokensSaved: number) => ({
      strategy: "drop-old-tool-results" as const,
      requestsReduced: 1,
      tokensSaved,
      tokenizer: "o200k_base",
      provenance: "computed" as const,
    });
    await writeSyntheticRun(root, {
      runId: "levers",
      startedAt: "2025-03-01T00:00:00Z",
      cases: ["c1"],
      repetitions: 2,
      agents: [
        { id: "cs-none", outcome: () => ({ passed: true, extra: { inputTokens: 1000 } }) },
        {
          id: "cs-drop",
          outcome: (_c, r) => ({
            passed: true,
            extra: {
              inputTokens: r === 0 ? 400 : 600,
              context: ctx(r === 0 ? 600 : 400),
              summarizer: { model: "h", calls: 1, inputTokens: 9, outputTokens: 1, costUsd: 0.002 },
              toolRetries: { attempted: r + 1, succeeded: 0, refused: 0 },
            },
          }),
        },
      ],
      sweep: {
        base: "base",
        parameters: ["contextStrategy"],
        agents: {
          "cs-none": { contextStrategy: "none" },
          "cs-drop": { contextStrategy: "drop:1" },
        },
      },
    });
    const rows = sweepGroupRows(await loadRuns([root]));
    assert.deepEqual(
      rows.map((r) => [
        r.value,
        r.meanInputTokens,
        r.meanContextTokensSaved,
        r.meanSummarizerCostUsd,
        r.toolRetries,
      ]),
      [
        // drop:1: (400 + 600) / 2 in, (600 + 400) / 2 saved, 0.002 per record, 1 + 2 retries.
        ["drop:1", 500, 500, 0.002, 3],
        ["none", 1000, null, null, 0],
      ],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
