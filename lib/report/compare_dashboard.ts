/**
 * The comparison dashboard (`deno task report`): one self-contained HTML page over agent runs
 * (agent comparison, trends, reliability, sweep groups) and, optionally, the bench report's
 * sections; every table also as CSV text (arquero `toCSV`). Pure: runs and the bench report come
 * in loaded, the page comes out as text.
 *
 * @module
 */
import { csvText } from "../core/csv.ts";
import type { BenchReport } from "./bench_report.ts";
import { headlessDocument, htmlTable, renderBenchSections, renumberPlotIds } from "./dashboard.ts";
import { intervalChart } from "./figures.ts";
import { esc, htmlPage } from "./_html.ts";
import { columnLabel, columnNumberFormat, simulatedNotice } from "./dashboard_page.ts";
import { duration } from "../core/text.ts";
import { judgeAgreement } from "../agent/judge_agreement.ts";
import {
  agentRows,
  caseRows,
  errorRows,
  flakyRows,
  latestBySuiteAgent,
  sweepGroupRows,
  toolRows,
  trendRows,
} from "./compare.ts";
import {
  costAccuracyChart,
  heatmapChart,
  latencyChart,
  tokensChart,
  toolFrequencyChart,
  trendChart,
} from "./compare_figures.ts";
import type { LoadedRun, RunFilter } from "./runs.ts";
import { forecastLoadedRun, notForecastable } from "./forecast.ts";
import { FIRST_TURN_NOTE, firstTurnRows } from "./first_turn.ts";
import {
  DEFAULT_FORECAST_RESAMPLES,
  FORECAST_ASSUMPTION,
  type ForecastEstimate,
} from "../agent/forecast.ts";

/** Questions of the per-agent cost forecast on the comparison dashboard. */
export const DASHBOARD_FORECAST_QUESTIONS = 10_000;

/** Inputs of {@linkcode renderCompareDashboard}. */
export interface CompareDashboardInput {
  /** Runs, already filtered (see `filterRuns`). */
  readonly runs: readonly LoadedRun[];
  /** The filter that was applied, echoed on the page. */
  readonly filter?: RunFilter;
  /** A bench report whose sections are appended. */
  readonly bench?: BenchReport;
  /** Base name of the CSV files written beside the page (links), e.g. `dashboard`. */
  readonly csvBase?: string;
  /** Document to draw into. @default a linkedom document */
  readonly document?: Document;
}

/** A rendered dashboard. */
export interface CompareDashboard {
  /** The complete HTML page. */
  readonly html: string;
  /** Table name → rows shown on the page (CSV-ready, flat values). */
  readonly tables: Readonly<Record<string, readonly Record<string, unknown>[]>>;
}

const r4 = (v: number | null) => v === null ? null : Math.round(v * 1e4) / 1e4;
const r6 = (v: number | null) => v === null ? null : Math.round(v * 1e6) / 1e6;
const pct = (v: never) => v === null ? "" : `${((v as number) * 100).toFixed(1)}%`;
const pct1 = (v: number | null) => v === null ? "n/a" : `${(v * 100).toFixed(1)}%`;
const fixed = (v: number | null, digits: number) => v === null ? "n/a" : v.toFixed(digits);
/** USD with 3 significant digits (small per-case costs stay readable). */
const sig = (v: number | null) => v === null ? "n/a" : v === 0 ? "0" : `$${v.toPrecision(3)}`;
const int = (v: number | null) => v === null ? "n/a" : Math.round(v).toLocaleString("en-US");
const wall = (ms: number | null) => ms === null ? "n/a" : duration(ms);

/** The page being built: its HTML parts, its tables, and how to add to both. */
class Page {
  readonly parts: string[] = [];
  readonly tables: Record<string, Record<string, unknown>[]> = {};

  constructor(readonly document: Document, readonly csvBase: string | undefined) {}

  section(id: string, title: string): void {
    this.parts.push(`<h2 id="${id}">${esc(title)}</h2>`);
  }

  /** Raw HTML (a note, a sub-heading). */
  add(html: string): void {
    this.parts.push(html);
  }

  /**
   * A table: `rows` go to the CSV at full precision; the page shows `view` (a narrower, rounded
   * form that fits the page) when given, else `rows` with `format`; headers in words
   * (`columnLabel`); `wrap` lets a table of long texts wrap its cells to fit the page.
   */
  table(
    name: string,
    rows: Record<string, unknown>[],
    format: Record<string, (v: never) => string> = {},
    view?: Record<string, unknown>[],
    wrap = false,
  ): void {
    this.tables[name] = rows;
    this.parts.push(htmlTable(view ?? rows, view ? {} : format, { label: columnLabel, wrap }));
    if (this.csvBase && rows.length > 0) {
      this.parts.push(
        `<p class="note"><a href="${esc(`${this.csvBase}_${name}.csv`)}">${
          esc(`${this.csvBase}_${name}.csv`)
        }</a></p>`,
      );
    }
  }

  svg(el: Element): void {
    this.parts.push(`<figure class="chart">${el.outerHTML}</figure>`);
  }
}

type AgentRow = ReturnType<typeof agentRows>[number];

/**
 * Renders the comparison dashboard.
 *
 * Sections: runs; agent comparison (latest run per suite × agent: pass rate with 95% Wilson
 * interval, cost against accuracy, tokens per case, latency p50/p95); cost forecast; first
 * request billed against the static estimate; sweep groups when runs came from a sweep; trends
 * (pass rate, cost and p95 per agent and suite over runs); reliability (case × agent heatmap,
 * flaky cases, error and iteration-limit rates, tool-call frequency); judge agreement; the bench
 * sections when a bench report is given; warnings. Deterministic: no clock, Plot ids renumbered.
 *
 * @param input Runs, filter, optional bench report and CSV base name.
 * @returns `{html, tables}`.
 */
export function renderCompareDashboard(input: CompareDashboardInput): CompareDashboard {
  const runs = input.runs;
  const p = new Page(input.document ?? headlessDocument(), input.csvBase);
  runsSection(p, runs);
  const agents = agentRows(runs);
  agentsSection(p, agents);
  forecastSection(p, runs, agents);
  firstTurnSection(p, runs);
  sweepSection(p, runs);
  trendsSection(p, runs);
  reliabilitySection(p, runs);
  judgesSection(p, runs, agents);
  if (input.bench) {
    p.add(`<h2 id="bench">Bench report</h2>`);
    p.add(
      renderBenchSections(input.bench, p.document).replaceAll("<h2>", "<h3>").replaceAll(
        "</h2>",
        "</h3>",
      ),
    );
  }
  const warnings = runs.flatMap((r) => r.warnings.map((w) => `${r.runId}: ${w}`));
  if (warnings.length > 0) {
    p.section("warnings", "Warnings");
    p.add(`<ul>${warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>`);
  }
  return {
    html: renumberPlotIds(page(runs, input.filter ?? {}, p.parts.join("\n"))),
    tables: p.tables,
  };
}

function runsSection(p: Page, runs: readonly LoadedRun[]): void {
  p.section("runs", "Runs");
  p.table(
    "runs",
    runs.map((r) => ({
      run: r.runId,
      suite: r.suiteId,
      started: r.startedAt,
      status: r.status,
      shard: r.shard ?? "",
      repetitions: r.repetitions,
      agents: [...new Set(r.records.map((x) => x.agentId))].length,
      records: r.records.length,
      planned: r.plannedCases,
    })),
  );
}

/** The agent table (latest run per suite × agent) and its four charts. */
function agentsSection(p: Page, agents: readonly AgentRow[]): void {
  p.section("agents", "Agent comparison");
  p.add(
    `<p class="note">Latest run of each agent on each suite. Pass rate over scored records (infrastructure errors excluded) with its 95% Wilson interval; latency is nearest-rank over records without cached model calls; cost is the agent's (judge excluded); the judge's tokens and USD are in their own columns.</p>`,
  );
  p.table("agents", agents.map(agentCsvRow), {}, agentView(agents));
  agentCharts(p, agents);
}

function agentCsvRow(a: AgentRow): Record<string, unknown> {
  return {
    suite: a.suiteId,
    agent: a.agentId,
    ...a.params,
    run: a.runId,
    scored: a.scored,
    passed: a.passed,
    pass_rate: r4(a.passRate),
    pass_rate_lo95: r4(a.passRateLo),
    pass_rate_hi95: r4(a.passRateHi),
    [`pass_at_k`]: r4(a.passAtK),
    pass_hat_k: r4(a.passHatK),
    k: a.k,
    mean_cost_usd: r6(a.meanCostUsd),
    judge_usd: r6(a.judgeCostUsd),
    judge_tokens: a.judgeInputTokens + a.judgeOutputTokens,
    judge_errors: a.judgeErrors,
    judge_agreement: r4(a.judgeAgreement),
    judge_kappa: r4(a.judgeKappa),
    mean_input_tokens: r4(a.meanInputTokens),
    mean_output_tokens: r4(a.meanOutputTokens),
    wall_p50_ms: a.wallP50Ms,
    wall_p95_ms: a.wallP95Ms,
    tool_calls_per_case: r4(a.toolCallsPerCase),
    error_rate: r4(a.errorRate),
    iteration_limit_rate: r4(a.iterationLimitRate),
  };
}

/** The agent table as the page shows it: one format per USD column (the same decimals on every row). */
function agentView(agents: readonly AgentRow[]): Record<string, unknown>[] {
  const usdColumn = (values: readonly (number | null)[]) => {
    const f = columnNumberFormat(values);
    return (v: number | null) => v === null ? "n/a" : `$${f(v)}`;
  };
  const usdCase = usdColumn(agents.map((a) => a.meanCostUsd));
  const usdJudge = usdColumn(agents.map((a) => a.judgeCostUsd));
  return agents.map((a) => ({
    suite: a.suiteId,
    agent: a.agentId,
    ...a.params,
    scored: a.scored,
    "pass rate [95%]": a.passRate === null
      ? "n/a"
      : `${pct1(a.passRate)} [${pct1(a.passRateLo)}–${pct1(a.passRateHi)}]`,
    [`pass@k / pass^k`]: a.k === null
      ? "n/a"
      : `${fixed(a.passAtK, 2)} / ${fixed(a.passHatK, 2)} (k=${a.k})`,
    "USD / case": usdCase(a.meanCostUsd),
    "judge USD / tokens": `${usdJudge(a.judgeCostUsd)} / ${
      int(a.judgeInputTokens + a.judgeOutputTokens)
    }`,
    "tokens in / out": `${int(a.meanInputTokens)} / ${int(a.meanOutputTokens)}`,
    "wall p50 / p95": `${wall(a.wallP50Ms)} / ${wall(a.wallP95Ms)}`,
    "tool calls / case": fixed(a.toolCallsPerCase, 2),
    "errors / iteration limit": `${pct1(a.errorRate)} / ${pct1(a.iterationLimitRate)}`,
  }));
}

/** Pass rate, cost against accuracy, tokens per case and latency, each when it has points. */
function agentCharts(p: Page, agents: readonly AgentRow[]): void {
  const document = p.document;
  const label = (a: { suiteId: string; agentId: string }) => `${a.suiteId} / ${a.agentId}`;
  const scoredAgents = agents.filter((a) => a.passRate !== null);
  if (scoredAgents.length > 0) {
    p.svg(intervalChart(
      scoredAgents.map((a) => ({
        label: a.agentId,
        series: a.suiteId,
        value: a.passRate!,
        lo: a.passRateLo!,
        hi: a.passRateHi!,
      })),
      { document, title: "Pass rate with 95% Wilson interval", valueLabel: "pass rate" },
    ));
  }
  const costed = scoredAgents.filter((a) => a.meanCostUsd !== null);
  if (costed.length > 0) {
    p.svg(costAccuracyChart(
      costed.map((a) => ({
        label: a.agentId,
        series: a.suiteId,
        costUsd: a.meanCostUsd!,
        passRate: a.passRate!,
        lo: a.passRateLo!,
        hi: a.passRateHi!,
      })),
      { document, title: "Cost against accuracy (up and left is better)" },
    ));
  }
  const tokenData = agents.flatMap((a) => [
    ...(a.meanInputTokens === null
      ? []
      : [{ label: label(a), kind: "input", tokens: a.meanInputTokens }]),
    ...(a.meanOutputTokens === null
      ? []
      : [{ label: label(a), kind: "output", tokens: a.meanOutputTokens }]),
  ]);
  if (tokenData.length > 0) {
    p.svg(tokensChart(tokenData, { document, title: "Tokens per case (mean, uncached input)" }));
  }
  const lat = agents.filter((a) => a.wallP50Ms !== null && a.wallP95Ms !== null);
  if (lat.length > 0) {
    p.svg(latencyChart(
      lat.map((a) => ({ label: label(a), p50Ms: a.wallP50Ms!, p95Ms: a.wallP95Ms! })),
      { document, title: "Latency per case: p50 and p95 wall time" },
    ));
  }
}

/** Per-agent forecasts of the latest runs (an agent with only infrastructure errors has none). */
function forecastSection(p: Page, runs: readonly LoadedRun[], agents: readonly AgentRow[]): void {
  const left: string[] = [];
  const forecasts = agents.flatMap((a) => {
    const run = runs.find((r) => r.runId === a.runId && r.suiteId === a.suiteId);
    if (run === undefined) return [];
    const not = notForecastable(run).find((n) => n.agentId === a.agentId);
    if (not !== undefined) {
      left.push(`${a.agentId} (${a.suiteId}): ${not.reason}`);
      return [];
    }
    const [f] = forecastLoadedRun(run, {
      questions: DASHBOARD_FORECAST_QUESTIONS,
      agentId: a.agentId,
      // deno task forecast's defaults, so `--questions N` on the same run gives these figures.
      seed: 0,
      resamples: DEFAULT_FORECAST_RESAMPLES,
    });
    return [{ a, f }];
  });
  if (forecasts.length === 0 && left.length === 0) return;
  p.section("forecast", "Cost forecast");
  if (left.length > 0) {
    p.add(`<p class="note">Not forecast: ${esc(left.join("; "))}.</p>`);
  }
  if (forecasts.length === 0) return;
  p.add(
    `<p class="note">Estimated (provenance <code>estimated</code>): USD, tokens and wall time of ${
      DASHBOARD_FORECAST_QUESTIONS.toLocaleString("en-US")
    } questions for each agent above, from its latest run, with a 95% interval from a seeded bootstrap over cases and repetitions (seed 0, ${
      DEFAULT_FORECAST_RESAMPLES.toLocaleString("en-US")
    } resamples, as <code>deno task forecast --questions ${DASHBOARD_FORECAST_QUESTIONS}</code> gives them; the task for other N, seeds or prices). Assumes ${
      esc(FORECAST_ASSUMPTION)
    }.</p>`,
  );
  const ci = (e: ForecastEstimate, f: (v: number | null) => string) =>
    e.total === null ? "n/a" : `${f(e.total)} [${f(e.lo)}–${f(e.hi)}]`;
  const usd = (v: number | null) => v === null ? "n/a" : `$${v.toFixed(2)}`;
  const mtok = (v: number | null) => v === null ? "n/a" : `${(v / 1e6).toFixed(2)}M`;
  // Wall time in the unit that fits, as deno task forecast writes it (3.1 min, not 0.1 h).
  p.table(
    "forecast",
    forecasts.map(({ a, f }) => ({
      suite: a.suiteId,
      agent: a.agentId,
      run: a.runId,
      questions: f.questions,
      provenance: f.provenance,
      usd_total: r4(f.usd.total.total),
      usd_total_lo95: r4(f.usd.total.lo),
      usd_total_hi95: r4(f.usd.total.hi),
      usd_agent: r4(f.usd.agent.total),
      usd_judge: r4(f.usd.judge.total),
      usd_tool: r4(f.usd.tool.total),
      input_tokens: r4(f.tokens.input.total),
      output_tokens: r4(f.tokens.output.total),
      wall_ms: r4(f.wallMs.total),
      wall_ms_lo95: r4(f.wallMs.lo),
      wall_ms_hi95: r4(f.wallMs.hi),
      seed: f.seed,
    })),
    {},
    forecasts.map(({ a, f }) => ({
      suite: a.suiteId,
      agent: a.agentId,
      "USD total [95%]": ci(f.usd.total, usd),
      "agent / judge / tool USD": `${usd(f.usd.agent.total)} / ${usd(f.usd.judge.total)} / ${
        usd(f.usd.tool.total)
      }`,
      "input tokens [95%]": ci(f.tokens.input, mtok),
      "output tokens": mtok(f.tokens.output.total),
      "wall, one at a time [95%]": ci(f.wallMs, wall),
      basis: `${f.basis.records} records, ${f.basis.cases} cases`,
    })),
  );
}

/** The first request's billed input tokens against the static estimate, per run and agent. */
function firstTurnSection(p: Page, runs: readonly LoadedRun[]): void {
  const firstTurn = firstTurnRows(runs);
  if (firstTurn.length === 0) return;
  p.section("first-turn", "First request: billed input against the static estimate");
  p.add(`<p class="note">${esc(FIRST_TURN_NOTE)}</p>`);
  p.table(
    "first_turn",
    firstTurn.map((r) => ({
      run: r.runId,
      agent: r.agentId,
      model: r.model,
      simulated: r.simulated,
      cases: r.cases,
      measured_median: r.measured,
      estimate: r.estimate?.tokens ?? null,
      estimate_low: r.estimate?.low ?? null,
      estimate_high: r.estimate?.high ?? null,
      ratio_median: r.ratio === null ? null : r4(r.ratio),
      inside_interval: r.inside,
      includes: r.includes,
      calibration: r.calibration ?? "",
    })),
    {},
    firstTurn.map((r) => ({
      run: r.runId,
      agent: r.agentId,
      model: `${r.model}${r.simulated ? " (simulated: not a provider's bill)" : ""}`,
      "billed first request, median (measured)": r.measured === null
        ? "not reported"
        : `${int(r.measured)}${
          r.measuredRange && r.measuredRange[0] !== r.measuredRange[1]
            ? ` (${int(r.measuredRange[0])}–${int(r.measuredRange[1])})`
            : ""
        } over ${r.cases}`,
      "static estimate [interval]": r.estimate === null
        ? "—"
        : `${int(r.estimate.tokens)} [${int(r.estimate.low)}–${int(r.estimate.high)}]`,
      "measured ÷ estimate": r.ratio === null ? "—" : r.ratio.toFixed(2),
      "inside the interval": r.estimate === null || r.cases === 0
        ? "—"
        : `${r.inside} of ${r.cases}`,
      "the estimate counts": r.counts,
    })),
    true,
  );
}

function sweepSection(p: Page, runs: readonly LoadedRun[]): void {
  const sweep = sweepGroupRows(runs);
  if (sweep.length === 0) return;
  p.section("sweep", "Sweep: pass rate by varied parameter");
  p.add(
    `<p class="note">Each value pools every sweep agent that has it (the other parameters' values mixed); the interval treats records as independent and is descriptive only.</p>`,
  );
  p.table(
    "sweep",
    sweep.map((s) => ({
      suite: s.suiteId,
      parameter: s.parameter,
      value: s.value,
      agents: s.agents,
      scored: s.scored,
      passed: s.passed,
      pass_rate: r4(s.passRate),
      pass_rate_lo95: r4(s.passRateLo),
      pass_rate_hi95: r4(s.passRateHi),
      mean_cost_usd: r6(s.meanCostUsd),
      mean_input_tokens: s.meanInputTokens === null ? null : Math.round(s.meanInputTokens),
      mean_context_tokens_saved: s.meanContextTokensSaved === null
        ? null
        : Math.round(s.meanContextTokensSaved),
      mean_summarizer_cost_usd: r6(s.meanSummarizerCostUsd),
      tool_retries: s.toolRetries,
    })),
    { pass_rate: pct, pass_rate_lo95: pct, pass_rate_hi95: pct },
  );
  const pts = sweep.filter((s) => s.passRate !== null);
  if (pts.length > 0) {
    p.svg(intervalChart(
      pts.map((s) => ({
        label: `${s.parameter}=${s.value}`,
        series: s.suiteId,
        value: s.passRate!,
        lo: s.passRateLo!,
        hi: s.passRateHi!,
      })),
      { document: p.document, title: "Pass rate by parameter value", valueLabel: "pass rate" },
    ));
  }
}

function trendsSection(p: Page, runs: readonly LoadedRun[]): void {
  const trends = trendRows(runs);
  p.section("trends", "Trends over runs");
  p.table(
    "trends",
    trends.map((t) => ({
      suite: t.suiteId,
      agent: t.agentId,
      run: t.runId,
      started: t.startedAt,
      scored: t.scored,
      pass_rate: r4(t.passRate),
      pass_rate_lo95: r4(t.passRateLo),
      pass_rate_hi95: r4(t.passRateHi),
      mean_cost_usd: r6(t.meanCostUsd),
      wall_p95_ms: t.wallP95Ms,
    })),
    {},
    trends.map((t) => ({
      suite: t.suiteId,
      agent: t.agentId,
      run: t.runId,
      started: t.startedAt.replace(/\.\d+Z$/, "Z").replace("T", " "),
      scored: t.scored,
      "pass rate [95%]": t.passRate === null
        ? "n/a"
        : `${pct1(t.passRate)} [${pct1(t.passRateLo)}–${pct1(t.passRateHi)}]`,
      "USD / case": sig(t.meanCostUsd),
      "wall p95 ms": fixed(t.wallP95Ms, 0),
    })),
  );
  if (runs.length <= 1) {
    p.add(`<p class="note">One run selected: trends need two or more.</p>`);
    return;
  }
  const document = p.document;
  const points = (value: (t: (typeof trends)[number]) => number | null) =>
    trends.flatMap((t) => {
      const v = value(t);
      return v === null
        ? []
        : [{ date: new Date(t.startedAt), series: t.agentId, panel: t.suiteId, value: v }];
    });
  const pr = points((t) => t.passRate);
  if (pr.length > 0) {
    p.svg(trendChart(pr, {
      document,
      title: "Pass rate over runs",
      valueLabel: "pass rate",
      domain: [0, 1],
    }));
  }
  const cost = points((t) => t.meanCostUsd);
  if (cost.length > 0) {
    p.svg(trendChart(cost, { document, title: "Cost per case over runs", valueLabel: "USD" }));
  }
  const p95 = points((t) => t.wallP95Ms);
  if (p95.length > 0) {
    p.svg(trendChart(p95, { document, title: "p95 wall time over runs", valueLabel: "ms" }));
  }
}

/** Heatmap per suite, the per-case CSV, flaky cases, errors and iteration limits, tool calls. */
function reliabilitySection(p: Page, runs: readonly LoadedRun[]): void {
  p.section("reliability", "Reliability");
  const cases = caseRows(runs);
  for (const suiteId of [...new Set(cases.map((c) => c.suiteId))].sort()) {
    p.svg(heatmapChart(
      cases.filter((c) => c.suiteId === suiteId).map((c) => ({
        column: c.agentId,
        row: c.caseId,
        value: c.passRate,
      })),
      { document: p.document, title: `${suiteId}: pass rate per case and agent` },
    ));
  }
  p.tables.cases = cases.map((c) => ({
    suite: c.suiteId,
    agent: c.agentId,
    case: c.caseId,
    records: c.records,
    scored: c.scored,
    passed: c.passed,
    pass_rate: r4(c.passRate),
    flaky: c.flaky,
    flakiness_score: r4(c.flakinessScore),
    flip_rate: r4(c.flipRate),
    errors: c.errors,
    iteration_limits: c.iterationLimits,
  }));
  if (p.csvBase && cases.length > 0) {
    p.add(
      `<p class="note">Per-case table: <a href="${esc(`${p.csvBase}_cases.csv`)}">${
        esc(`${p.csvBase}_cases.csv`)
      }</a></p>`,
    );
  }
  p.add(
    `<h3>Flaky cases</h3><p class="note">Passed in some repetitions and failed in others. Score 4p(1 − p) (1 when half pass); flip rate = pass↔fail changes between consecutive repetitions ÷ (n − 1).</p>`,
  );
  p.table(
    "flaky",
    flakyRows(cases).map((c) => ({
      suite: c.suiteId,
      case: c.caseId,
      agent: c.agentId,
      passed: c.passed,
      scored: c.scored,
      flakiness_score: r4(c.flakinessScore),
      flip_rate: r4(c.flipRate),
    })),
  );
  p.add(`<h3>Errors and iteration limits</h3>`);
  p.table(
    "errors",
    errorRows(runs).map((e) => ({
      suite: e.suiteId,
      agent: e.agentId,
      kind: e.kind,
      infrastructure: e.kind !== "iteration_limit",
      count: e.count,
      rate: r4(e.rate),
    })),
    { rate: pct },
  );
  toolCalls(p, runs);
}

function toolCalls(p: Page, runs: readonly LoadedRun[]): void {
  p.add(`<h3>Tool calls</h3>`);
  const tools = toolRows(runs);
  p.table(
    "tools",
    tools.map((t) => ({
      suite: t.suiteId,
      agent: t.agentId,
      tool: t.tool,
      calls: t.calls,
      errors: t.errors,
      calls_per_case: r4(t.callsPerCase),
    })),
  );
  if (tools.length > 0) {
    p.svg(toolFrequencyChart(
      tools.map((t) => ({
        tool: t.tool,
        series: `${t.suiteId} / ${t.agentId}`,
        callsPerCase: t.callsPerCase,
      })),
      { document: p.document, title: "Tool calls per case" },
    ));
  }
}

/** Judge-panel agreement per agent, then the cases its judges disagree on. */
function judgesSection(p: Page, runs: readonly LoadedRun[], agents: readonly AgentRow[]): void {
  const panels = agents.filter((a) => a.judgePanelItems > 0);
  if (panels.length === 0) return;
  p.section("judges", "Judge agreement");
  p.add(
    `<p class="note">llm_judge criteria scored by two or more judges (latest run of each agent). A judge's verdict is the majority of its votes, the case's the majority of the judges' (a tie fails). Agreement is the mean share of judge pairs that agree per item; Cohen's kappa corrects it for chance and is given where the panel has exactly two judges (1 = perfect, 0 = chance level).</p>`,
  );
  p.table(
    "judges",
    panels.map((a) => ({
      suite: a.suiteId,
      agent: a.agentId,
      run: a.runId,
      panel_items: a.judgePanelItems,
      agreement: r4(a.judgeAgreement),
      kappa: r4(a.judgeKappa),
      disagreements: a.judgeDisagreements,
    })),
    { agreement: pct },
  );
  const disagreements = latestBySuiteAgent(runs).flatMap(({ suiteId, records }) =>
    judgeAgreement(records).disagreements.map((d) => ({ suiteId, ...d }))
  );
  p.add(
    `<h3>Cases the judges disagree on</h3><p class="note">For a human to settle: each judge's verdict with its passing votes; the full answers and reasonings are in the CSV and in each run's disagreements.csv.</p>`,
  );
  const verdicts = (d: (typeof disagreements)[number]) =>
    d.judges.map((j) => `${j.model} ${j.pass ? "pass" : "fail"} (${j.passes}/${j.votes})`)
      .join(", ");
  const clip = (t: string | null) =>
    t === null ? "(no answer)" : t.length > 160 ? `${t.slice(0, 157)}...` : t;
  p.table(
    "disagreements",
    disagreements.map((d) => ({
      suite: d.suiteId,
      agent: d.agentId,
      case: d.caseId,
      repetition: d.repetition,
      criterion: d.criterion,
      case_verdict: d.pass ? "pass" : "fail",
      judges: verdicts(d),
      reasoning: d.judges.map((j) => `${j.model}: ${j.reasoning.join(" | ")}`).join(" / "),
      final_answer: d.finalAnswer,
    })),
    {},
    disagreements.map((d) => ({
      suite: d.suiteId,
      agent: d.agentId,
      case: d.caseId,
      rep: d.repetition,
      "case verdict": d.pass ? "pass" : "fail",
      judges: verdicts(d),
      answer: clip(d.finalAnswer),
    })),
  );
}

/**
 * CSV text of each table (arquero `toCSV`; `null` as an empty cell; non-integers rounded to 6
 * decimals).
 *
 * @param tables Table name → rows, e.g. {@linkcode CompareDashboard.tables}.
 * @returns Table name → CSV text ending in a newline; empty tables are left out.
 */
export function tablesToCsv(
  tables: Readonly<Record<string, readonly Record<string, unknown>[]>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(tables).sort()) {
    const rows = tables[name];
    if (rows.length === 0) continue;
    // Round non-integers at the write boundary (6 decimals), so 243.66992300000038 reads 243.669923.
    const rounded = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map((
          [k, v],
        ) => [k, typeof v === "number" && !Number.isInteger(v) ? Number(v.toFixed(6)) : v]),
      )
    );
    out[name] = csvText(Object.keys(rows[0]), rounded);
  }
  return out;
}

function page(runs: readonly LoadedRun[], filter: RunFilter, body: string): string {
  const notice = simulatedNotice(
    runs.map((r) => ({ runId: r.runId, simulated: r.models?.some((m) => m.simulated === true) })),
  );
  const f = [
    filter.suites ? `suite ${filter.suites.join(", ")}` : "",
    filter.agents ? `agent ${filter.agents.join(", ")}` : "",
    filter.from ? `from ${filter.from}` : "",
    filter.to ? `to ${filter.to}` : "",
  ].filter(Boolean).join("; ");
  return htmlPage({
    generatedBy: "tasks/report.ts",
    title: "mcpmeter comparison",
    css:
      `body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1340px; padding: 0 1rem; color: #222; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 6px; }
td { white-space: nowrap; }
.wrap td { white-space: normal; }
th { background: #f4f4f4; vertical-align: bottom; }
.note { color: #555; font-size: 13px; }
.notice { background: #fef7e0; border: 1px solid #fde293; border-radius: 4px; padding: 4px 8px; font-size: 13px; }
figure { margin: 1rem 0; }
nav a { margin-right: 1rem; }`,
    body:
      `<nav><a href="#runs">Runs</a><a href="#agents">Agents</a><a href="#trends">Trends</a><a href="#reliability">Reliability</a></nav>
<p class="note">${runs.length} run(s), ${
        runs.reduce((n, r) => n + r.records.length, 0)
      } case records${f ? `; filter: ${esc(f)}` : ""}.</p>
${notice ? `<p class="notice">${esc(notice)}</p>` : ""}
${body}`,
  });
}
