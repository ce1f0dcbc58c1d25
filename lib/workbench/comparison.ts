/**
 * The run summary the workbench shows and `GET /api/runs/{id}/summary` returns: the CLI's
 * per-agent summary ({@linkcode summarizeRecords}, unchanged), plus the comparison columns of
 * the run page (token sums, cache tokens, cases without usage, tool count and catalog hash),
 * pass rate by criterion type, the tool-usage profile and agent against judge cost. Pure.
 *
 * @module
 */

import type { CaseRecord, Suite } from "../agent/types.ts";
import { type AgentSummary, summarizeRecords } from "../agent/summary.ts";
import { wilsonInterval } from "../stats/wilson.ts";

/**
 * One agent's comparison row: its id and pass counts as in {@linkcode AgentSummary} (`records`,
 * `scored`, `passed`, `passRate` with its 95% Wilson interval), plus the run page's columns.
 */
export interface AgentComparison extends
  Pick<
    AgentSummary,
    "agentId" | "records" | "scored" | "passed" | "passRate" | "passRateLo" | "passRateHi"
  > {
  /** Model registry id the agent ran with (from `run.json`). */
  readonly model: string | null;
  /** Exposure mode. */
  readonly exposure: string | null;
  /** Infrastructure errors (unscored records). */
  readonly errors: number;
  /** Mean wall time per record, ms. */
  readonly meanWallMs: number | null;
  /** Input tokens summed over records that report them. */
  readonly inputTokens: number;
  /** Output tokens summed over records that report them. */
  readonly outputTokens: number;
  /** Cache-read tokens summed. */
  readonly cacheReadTokens: number;
  /** Cache-write tokens summed. */
  readonly cacheWriteTokens: number;
  /** Records (errors excluded) whose input or output tokens were not reported. */
  readonly casesWithoutUsage: number;
  /** Agent cost, USD, summed over records that report one (judge excluded). */
  readonly costUsd: number;
  /** Tools offered to the model (`run.json` catalogs). */
  readonly toolCount: number | null;
  /** Catalog hash of the offered tools (`run.json` catalogs). */
  readonly catalogHash: string | null;
}

/** Pass rate of one agent on cases of one top-level criterion type. */
export interface CriterionRow {
  /** Agent id. */
  readonly agentId: string;
  /** Criterion type (`regex`, `contains`, `all`, `llm_judge`, ...). */
  readonly criterion: string;
  /** Scored records. */
  readonly scored: number;
  /** Passed. */
  readonly passed: number;
  /** passed / scored. */
  readonly passRate: number | null;
}

/** Calls of one tool by one agent. */
export interface ToolUsageRow {
  /** Agent id. */
  readonly agentId: string;
  /** `server:tool`, or the exposed name when it maps to no tool (unknown or a meta tool). */
  readonly tool: string;
  /** Exposed name of the model's call this one was made on behalf of (proxy/code), else `null`. */
  readonly via: string | null;
  /** Calls. */
  readonly calls: number;
  /** Calls that errored. */
  readonly errors: number;
  /** Mean call time, ms. */
  readonly meanMs: number;
}

/** Agent against judge cost, whole run. */
export interface CostSplit {
  /** Agent cost, USD. */
  readonly agentUsd: number;
  /** Judge cost, USD. */
  readonly judgeUsd: number;
  /** Judge input tokens. */
  readonly judgeInputTokens: number;
  /** Judge output tokens. */
  readonly judgeOutputTokens: number;
}

/** `GET /api/runs/{id}/summary`. */
export interface RunSummary {
  /** Run id. */
  readonly runId: string;
  /** The CLI's per-agent summary (what `deno task agents` prints and writes to summary.csv). */
  readonly agents: readonly AgentSummary[];
  /** Comparison rows, one per agent, plan order. */
  readonly comparison: readonly AgentComparison[];
  /** Pass rate by agent and criterion type. */
  readonly byCriterion: readonly CriterionRow[];
  /** Tool calls by agent and tool, most called first. */
  readonly toolProfile: readonly ToolUsageRow[];
  /** Agent against judge cost. */
  readonly cost: CostSplit;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Builds the run summary.
 *
 * @param runId Run id.
 * @param records Case records (any order).
 * @param run `run.json` (for agents, catalogs), or `null`.
 * @param suite The suite (criterion types of unscored cases), or `undefined`.
 * @returns The summary.
 */
export function summarizeRun(
  runId: string,
  records: readonly CaseRecord[],
  run: Record<string, unknown> | null,
  suite?: Suite,
): RunSummary {
  const agentsJson = (run?.agents as { id: string; model?: string; exposure?: string }[]) ?? [];
  const catalogs = (run?.catalogs as Record<string, { hash?: string; tools?: number }>) ?? {};
  const order = [
    ...agentsJson.map((a) => a.id),
    ...[...new Set(records.map((r) => r.agentId))].sort(),
  ].filter((id, i, all) => all.indexOf(id) === i);
  const comparison = order.map((agentId): AgentComparison => {
    const rs = records.filter((r) => r.agentId === agentId);
    const scored = rs.filter((r) => r.passed !== null);
    const passed = scored.filter((r) => r.passed === true).length;
    const ci = scored.length === 0 ? null : wilsonInterval(passed, scored.length);
    const a = agentsJson.find((x) => x.id === agentId);
    const notErrored = rs.filter((r) => r.passed !== null);
    return {
      agentId,
      model: a?.model ?? null,
      exposure: a?.exposure ?? null,
      records: rs.length,
      scored: scored.length,
      passed,
      passRate: scored.length === 0 ? null : passed / scored.length,
      passRateLo: ci?.lo ?? null,
      passRateHi: ci?.hi ?? null,
      errors: rs.length - scored.length,
      meanWallMs: rs.length === 0 ? null : sum(rs.map((r) => r.wallMs)) / rs.length,
      inputTokens: sum(rs.map((r) => r.inputTokens ?? 0)),
      outputTokens: sum(rs.map((r) => r.outputTokens ?? 0)),
      cacheReadTokens: sum(rs.map((r) => r.cacheReadTokens ?? 0)),
      cacheWriteTokens: sum(rs.map((r) => r.cacheWriteTokens ?? 0)),
      casesWithoutUsage: notErrored.filter((r) => r.inputTokens === null || r.outputTokens === null)
        .length,
      costUsd: sum(rs.map((r) => r.costUsd ?? 0)),
      toolCount: catalogs[agentId]?.tools ?? null,
      catalogHash: catalogs[agentId]?.hash ?? null,
    };
  });
  const typeOf = (r: CaseRecord) =>
    r.criterion?.type ?? suite?.cases.find((c) => c.id === r.caseId)?.criterion.type ?? "unknown";
  const byCriterion: CriterionRow[] = [];
  for (const agentId of order) {
    const rs = records.filter((r) => r.agentId === agentId && r.passed !== null);
    for (const criterion of [...new Set(rs.map(typeOf))].sort()) {
      const of = rs.filter((r) => typeOf(r) === criterion);
      const passed = of.filter((r) => r.passed === true).length;
      byCriterion.push({
        agentId,
        criterion,
        scored: of.length,
        passed,
        passRate: of.length === 0 ? null : passed / of.length,
      });
    }
  }
  const tools = new Map<
    string,
    { agentId: string; tool: string; via: string | null; ms: number[]; errors: number }
  >();
  for (const r of records) {
    for (const c of r.toolCalls) {
      const tool = c.tool ?? c.name;
      const key = `${r.agentId}\u0000${tool}\u0000${c.via ?? ""}`;
      const row = tools.get(key) ??
        { agentId: r.agentId, tool, via: c.via ?? null, ms: [], errors: 0 };
      row.ms.push(c.ms);
      if (c.isError) row.errors++;
      tools.set(key, row);
    }
  }
  const toolProfile = [...tools.values()].map((t) => ({
    agentId: t.agentId,
    tool: t.tool,
    via: t.via,
    calls: t.ms.length,
    errors: t.errors,
    meanMs: sum(t.ms) / t.ms.length,
  })).sort((a, b) =>
    order.indexOf(a.agentId) - order.indexOf(b.agentId) || b.calls - a.calls ||
    (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0)
  );
  return {
    runId,
    agents: summarizeRecords(records),
    comparison,
    byCriterion,
    toolProfile,
    cost: {
      agentUsd: sum(records.map((r) => r.costUsd ?? 0)),
      judgeUsd: sum(records.map((r) => r.judge?.costUsd ?? 0)),
      judgeInputTokens: sum(records.map((r) => r.judge?.inputTokens ?? 0)),
      judgeOutputTokens: sum(records.map((r) => r.judge?.outputTokens ?? 0)),
    },
  };
}
