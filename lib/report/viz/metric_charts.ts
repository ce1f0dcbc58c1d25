/**
 * The nine per-agent metrics as visualizations: `agent-average-<metric>` (one bar per agent,
 * averaged over the agent's selected records) and `runs-over-time-<metric>` (one line per agent
 * over run start, with a dashed ring where the agent's configuration changed), plus
 * `runs-over-time-iteration-limit-rate`.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import type {
  AgentMetrics,
  AgentRunRecord,
  Visualization,
  VizContext,
  VizOutput,
} from "./types.ts";
import { agentBars } from "./_plot.ts";
import { avgMetric, byAgent, EMPTY, int, note, pct, usd } from "./_shared.ts";

/** One metric: its id suffix, label, record field, unit formatter and fixed domain. */
export interface MetricDef {
  /** Id suffix, e.g. `input-tokens`. */
  readonly key: string;
  /** Human name, e.g. `Input tokens per case`. */
  readonly label: string;
  /** Axis label with unit. */
  readonly axis: string;
  /** Field of {@linkcode AgentMetrics}. */
  readonly field: keyof AgentMetrics;
  /** Formats a value for labels. */
  readonly format: (v: number | null) => string;
  /** Fixed y/x domain, e.g. `[0, 1]` for rates. */
  readonly domain?: readonly [number, number];
  /** What to say when no record has the value. */
  readonly missing: string;
}

const ms = (v: number | null) => v === null ? "–" : `${int(v)} ms`;
const tok = (v: number | null) => v === null ? "–" : int(v);
const calls = (v: number | null) => v === null ? "–" : v.toFixed(2);

/** The nine metrics, in MAVERIK's order. */
export const METRICS: readonly MetricDef[] = [
  {
    key: "correctness",
    label: "Pass rate",
    axis: "pass rate",
    field: "passRate",
    format: pct,
    domain: [0, 1],
    missing: "No scored case in the selected runs.",
  },
  {
    key: "duration",
    label: "Duration per case",
    axis: "mean wall time per case (ms)",
    field: "avgDurationMs",
    format: ms,
    missing: "No scored case in the selected runs.",
  },
  {
    key: "input-tokens",
    label: "Input tokens per case",
    axis: "mean uncached input tokens per case",
    field: "avgInputTokens",
    format: tok,
    missing: "Input tokens not reported by the provider in these runs.",
  },
  {
    key: "output-tokens",
    label: "Output tokens per case",
    axis: "mean output tokens per case",
    field: "avgOutputTokens",
    format: tok,
    missing: "Output tokens not reported by the provider in these runs.",
  },
  {
    key: "tool-calls",
    label: "Tool calls per case",
    axis: "mean tool calls per case",
    field: "avgToolCalls",
    format: calls,
    missing: "No scored case in the selected runs.",
  },
  {
    key: "context-window",
    label: "Peak context per case",
    axis: "mean peak context tokens (largest single request)",
    field: "avgPeakContextTokens",
    format: tok,
    missing: "Peak context not recorded by these runs.",
  },
  {
    key: "token-cost",
    label: "Token cost per case",
    axis: "mean model-token cost per case (USD)",
    field: "tokenCostUsd",
    format: usd,
    missing: "No priced case: the model has no pricing or usage was not reported.",
  },
  {
    key: "tool-cost",
    label: "Tool cost per case",
    axis: "mean tool cost per case (USD)",
    field: "toolCostUsd",
    format: usd,
    missing: "No scored case in the selected runs.",
  },
  {
    key: "overall-cost",
    label: "Overall cost per case",
    axis: "mean agent cost per case, tokens + tools (USD)",
    field: "overallCostUsd",
    format: usd,
    missing: "No priced case: the model has no pricing or usage was not reported.",
  },
];

/** The iteration-limit rate as a metric (trend only). */
export const ITERATION_LIMIT_METRIC: MetricDef = {
  key: "iteration-limit-rate",
  label: "Iteration-limit rate",
  axis: "share of scored cases that hit the iteration limit",
  field: "iterationLimitRate",
  format: pct,
  domain: [0, 1],
  missing: "No scored case in the selected runs.",
};

/**
 * Bars by agent: the metric averaged over each agent's selected records (every record weighs
 * one), value printed at the bar's end; an agent none of whose records has it shows –.
 *
 * @param m The metric.
 * @param records Records.
 * @param ctx Context.
 * @returns A Plot element, or a note when no record has the value.
 */
export function metricBars(
  m: MetricDef,
  records: readonly AgentRunRecord[],
  ctx: VizContext,
): VizOutput {
  if (records.length === 0) return EMPTY;
  // An agent without the value (e.g. no scored case) keeps its row, marked –: never a 0 bar.
  const data = byAgent(records).map(([agent, rs]) => ({ agent, value: avgMetric(rs, m.field) }));
  if (data.every((d) => d.value === null)) return note(m.missing);
  return agentBars(records, ctx, data, {
    x: { label: `${m.axis} →`, domain: m.domain },
    format: m.format,
    marginRight: 80,
    textFill: ctx.theme.ink,
    extra: [Plot.ruleX([0])],
  });
}

/**
 * Lines over run start, one per agent, a dot per record; a dashed ring marks a record whose
 * agent configuration differs from the agent's previous record (hover title says so).
 *
 * @param m The metric.
 * @param records Records.
 * @param ctx Context.
 * @returns A Plot element, or a note.
 */
export function metricTrend(
  m: MetricDef,
  records: readonly AgentRunRecord[],
  ctx: VizContext,
): VizOutput {
  if (records.length === 0) return EMPTY;
  // One line per agent; per suite and agent when the selection spans suites (a line that
  // jumps between suites would mix case sets).
  const multiSuite = new Set(records.map((r) => r.suiteId)).size > 1;
  const series = (r: AgentRunRecord) => multiSuite ? `${r.suiteId} / ${r.agentId}` : r.agentId;
  const data = records.filter((r) => r.metrics[m.field] !== null).map((r) => ({
    date: new Date(r.startedAt),
    agent: series(r),
    value: r.metrics[m.field] as number,
    run: r.runId,
    changed: r.configChanged === true,
  }));
  if (data.length === 0) return note(m.missing);
  const domain = [...new Set(records.map(series))].sort();
  const changed = data.filter((d) => d.changed);
  return Plot.plot({
    document: ctx.document,
    width: ctx.width,
    height: 300,
    marginRight: 20,
    x: { type: "utc", label: "run start →", grid: true },
    y: { label: `↑ ${m.axis}`, grid: true, ...(m.domain ? { domain: [...m.domain] } : {}) },
    color: { legend: true, domain, range: domain.map((d) => ctx.theme.colorOf(d, domain)) },
    marks: [
      Plot.line(data, { x: "date", y: "value", stroke: "agent", z: "agent" }),
      Plot.dot(data, {
        x: "date",
        y: "value",
        fill: "agent",
        r: 3,
        title: (d: (typeof data)[number]) => `${d.agent} · ${d.run}: ${m.format(d.value)}`,
      }),
      Plot.dot(changed, {
        x: "date",
        y: "value",
        r: 8,
        stroke: ctx.theme.bad,
        strokeDasharray: "3,2",
        fill: "none",
        title: (d: (typeof data)[number]) =>
          `${d.agent} · ${d.run}: configuration changed since the previous run`,
      }),
      ...(changed.length > 0
        ? [
          Plot.text(changed, {
            x: "date",
            y: "value",
            text: () => "config changed",
            dy: -14,
            fontSize: 9,
            fill: ctx.theme.bad,
          }),
        ]
        : []),
    ],
  }) as unknown as Element;
}

/** `agent-average-<metric>` and `runs-over-time-<metric>` for the nine metrics, and the limit trend. */
export const METRIC_VISUALIZATIONS: readonly Visualization[] = [
  ...METRICS.map((m): Visualization => ({
    id: `agent-average-${m.key}`,
    title: `${m.label} by agent`,
    layout: "half",
    description: `${m.label}, averaged over each agent's selected runs.`,
    render: (records, ctx) => metricBars(m, records, ctx),
  })),
  ...[...METRICS, ITERATION_LIMIT_METRIC].map((m): Visualization => ({
    id: `runs-over-time-${m.key}`,
    title: `${m.label} over time`,
    layout: "half",
    description:
      `${m.label} per run, one line per agent; a dashed ring marks a configuration change.`,
    render: (records, ctx) => metricTrend(m, records, ctx),
  })),
];
