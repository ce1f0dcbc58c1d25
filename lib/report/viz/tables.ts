/**
 * Tables as visualizations: metrics by agent and by run, per-case details, the case × agent
 * pass-rate matrix (worst rows first), reliability by agent and catalog stability by agent.
 *
 * @module
 */
import type { AgentRunRecord, Visualization, VizTable } from "./types.ts";
import { avgMetric, builtinViz, byAgent, mean, pct, r6, shortHash, uniq } from "./_shared.ts";

type Row = Record<string, string | number | boolean | null>;
const table = (rows: Row[], extra: Partial<VizTable> = {}): VizTable => ({
  type: "table",
  rows,
  ...extra,
});
const PCT = (v: never) => pct(v as number | null);

function metricCells(get: (k: Parameters<typeof avgMetric>[1]) => number | null): Row {
  return {
    pass_rate: r6(get("passRate")),
    duration_ms: r6(get("avgDurationMs")),
    input_tokens: r6(get("avgInputTokens")),
    output_tokens: r6(get("avgOutputTokens")),
    tool_calls: r6(get("avgToolCalls")),
    peak_context_tokens: r6(get("avgPeakContextTokens")),
    token_cost_usd: r6(get("tokenCostUsd")),
    tool_cost_usd: r6(get("toolCostUsd")),
    overall_cost_usd: r6(get("overallCostUsd")),
    cache_read_tokens: r6(get("avgCacheReadTokens")),
    cache_write_tokens: r6(get("avgCacheWriteTokens")),
  };
}

/** `metrics-by-agent`: the nine metrics (per case) and cache averages, averaged per agent. */
export const metricsByAgent: Visualization = builtinViz({
  id: "metrics-by-agent",
  title: "Metrics by agent",
  layout: "full",
  description: "The nine metrics per case and cache averages, averaged over each agent's runs.",
}, (records) => {
  return table(
    byAgent(records).map(([agent, rs]) => ({
      agent,
      runs: rs.length,
      cases: rs.reduce((n, r) => n + r.cases.length, 0),
      ...metricCells((k) => avgMetric(rs, k)),
    })),
    { format: { pass_rate: PCT } },
  );
});

/** `metrics-by-run`: one row per agent per run, no aggregation. */
export const metricsByRun: Visualization = builtinViz({
  id: "metrics-by-run",
  title: "Metrics by run",
  layout: "full",
  description: "The nine metrics of every agent in every selected run.",
}, (records) => {
  return table(
    records.map((r) => ({
      suite: r.suiteId,
      run: r.runId,
      started: r.startedAt,
      agent: r.agentId,
      version: r.version ?? (r.equalsVersion === null ? "live" : `live = ${r.equalsVersion}`),
      cases: r.cases.length,
      ...metricCells((k) => r.metrics[k]),
    })),
    { format: { pass_rate: PCT } },
  );
});

/** `question-details`: one row per case record. */
export const questionDetails: Visualization = builtinViz({
  id: "question-details",
  title: "Per-case details",
  layout: "full",
  description: "Every case record: outcome, duration, tokens, peak context, turns, tool calls.",
}, (records) => {
  return table(records.flatMap((r) =>
    r.cases.map((c) => ({
      suite: r.suiteId,
      agent: r.agentId,
      run: r.runId,
      started: r.startedAt,
      case: c.caseId,
      rep: c.repetition,
      outcome: c.passed === true ? "pass" : c.passed === false ? "fail" : `error`,
      duration_ms: c.wallMs,
      input_tokens: c.inputTokens,
      output_tokens: c.outputTokens,
      peak_context_tokens: c.peakContextTokens,
      iterations: c.iterations,
      tool_calls: c.toolCalls.filter((t) => t.via === undefined).length,
      error: c.error ? `${c.error.kind}: ${c.error.message}` : null,
    }))
  ));
});

/**
 * Rows of the case × agent pass-rate matrix: per `suite / case`, each agent's pass rate over
 * its scored records of that case (an infrastructure error has no verdict and is left out, as
 * in every other pass rate); rows sorted by their mean over agents, worst first, then by name.
 *
 * @param records Records.
 * @returns `{columns, rows}` with one numeric cell per agent (`null` when never run or never
 *   scored: no pass rate, never 0).
 */
export function passRateMatrix(
  records: readonly AgentRunRecord[],
): { columns: string[]; rows: Record<string, string | number | boolean | null>[] } {
  const agents = uniq(records.map((r) => r.agentId));
  const cells = new Map<string, { n: number; p: number }>();
  const cases = new Set<string>();
  for (const r of records) {
    for (const c of r.cases) {
      const row = `${r.suiteId} / ${c.caseId}`;
      cases.add(row);
      if (c.passed === null) continue;
      const k = `${row}\u0000${r.agentId}`;
      const s = cells.get(k) ?? { n: 0, p: 0 };
      s.n += 1;
      if (c.passed === true) s.p += 1;
      cells.set(k, s);
    }
  }
  const rows = [...cases].map((row) => {
    const out: Row = { case: row };
    for (const a of agents) {
      const s = cells.get(`${row}\u0000${a}`);
      out[a] = s ? r6(s.p / s.n) : null;
    }
    return out;
  });
  const avg = (row: Row) => mean(agents.map((a) => row[a] as number | null)) ?? 2;
  rows.sort((a, b) => avg(a) - avg(b) || (String(a.case) < String(b.case) ? -1 : 1));
  return { columns: ["case", ...agents], rows };
}

/** `question-pass-rate-matrix`: the case × agent heatmap table, worst rows first. */
export const questionPassRateMatrix: Visualization = builtinViz({
  id: "question-pass-rate-matrix",
  title: "Pass rate per case and agent (worst first)",
  layout: "full",
  description:
    "Case × agent pass rate over the selected scored records; infrastructure errors are left out, and a cell with none scored shows –.",
}, (records) => {
  const { columns, rows } = passRateMatrix(records);
  const agents = columns.slice(1);
  return table(rows, {
    columns,
    heat: agents,
    format: Object.fromEntries(agents.map((a) => [a, PCT])),
  });
});

/** `reliability-by-agent`: errors and iteration limits per agent. */
export const reliabilityByAgent: Visualization = builtinViz({
  id: "reliability-by-agent",
  title: "Reliability by agent",
  layout: "half",
  description:
    "Cases, infrastructure errors, iteration-limit hits (rate over all cases) and turns.",
}, (records) => {
  return table(
    byAgent(records).map(([agent, rs]) => {
      const cs = rs.flatMap((r) => r.cases);
      const errors = cs.filter((c) => c.passed === null).length;
      const limits = cs.filter((c) => c.error?.kind === "iteration_limit").length;
      return {
        agent,
        cases: cs.length,
        errors,
        error_rate: r6(cs.length ? errors / cs.length : null),
        limit_hits: limits,
        limit_rate: r6(cs.length ? limits / cs.length : null),
        avg_iterations: r6(mean(cs.filter((c) => c.passed !== null).map((c) => c.iterations))),
      };
    }),
    { format: { error_rate: PCT, limit_rate: PCT } },
  );
});

/** `capability-by-agent`: tool count, short catalog digest and stability across the selection. */
export const capabilityByAgent: Visualization = builtinViz({
  id: "capability-by-agent",
  title: "Tool catalog by agent",
  layout: "half",
  description:
    "Tools exposed and the catalog SHA-256 of the latest run; stable or changed across runs.",
}, (records) => {
  return table(
    byAgent(records).map(([agent, rs]) => {
      const latest = rs[rs.length - 1];
      const hashes = uniq(rs.map((r) => r.catalog?.hash ?? "").filter(Boolean));
      return {
        agent,
        exposure: latest.agent?.exposure ?? null,
        tools: latest.catalog?.tools ?? null,
        digest: shortHash(latest.catalog?.hash),
        catalog: hashes.length === 0
          ? "not recorded"
          : hashes.length === 1
          ? "stable"
          : `changed (${hashes.length} distinct)`,
      };
    }),
  );
});

/** The table visualizations. */
export const TABLE_VISUALIZATIONS: readonly Visualization[] = [
  metricsByAgent,
  metricsByRun,
  questionDetails,
  questionPassRateMatrix,
  reliabilityByAgent,
  capabilityByAgent,
];
