/**
 * Per-agent-per-run records from loaded runs: the input of every visualization. One record per
 * (run, agent id), with the agent's cases, summary, the nine metrics, the tool cost of each case
 * and whether the configuration changed since the agent's previous record. Pure.
 *
 * @module
 */
import { summarizeRecords } from "../../agent/summary.ts";
import type { AgentConfig, CaseRecord } from "../../agent/types.ts";
import { stableJson } from "../../core/json.ts";
import { byStart, type LoadedRun } from "../runs.ts";
import type { AgentMetrics, AgentRunRecord } from "./types.ts";

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
const nonNull = <T>(xs: readonly (T | null | undefined)[]) =>
  xs.filter((x): x is T => x !== null && x !== undefined);

/** Splits `id@N` into the agent id and version N; any other id has version `null`. */
export function parseAgentRef(
  id: string,
): { readonly agentId: string; readonly version: number | null } {
  const m = /^(.*)@(\d+)$/.exec(id);
  return m ? { agentId: m[1], version: Number(m[2]) } : { agentId: id, version: null };
}

/**
 * Tool cost of one case, USD: the sum over its tool calls (upstream `via` calls included, as
 * the runner prices them) of the run's price for the routed `server:tool` (0 when unpriced or
 * unknown), the same sum the runner adds to `costUsd`.
 *
 * @param record Case record.
 * @param prices USD per call by `server:tool`.
 * @returns USD.
 */
export function caseToolCostUsd(
  record: CaseRecord,
  prices: Readonly<Record<string, number>>,
): number {
  return record.toolCalls.reduce((s, c) => s + (c.tool === null ? 0 : prices[c.tool] ?? 0), 0);
}

/**
 * The nine metrics and extras of one agent's cases (see {@linkcode AgentMetrics}). "Scored"
 * records have a verdict (`passed` not `null`); infrastructure errors are left out of every
 * mean and of the pass-rate denominator, and counted in `errorRate`.
 *
 * @param cases The agent's case records.
 * @param toolCosts Tool cost of each case, USD, index-aligned.
 * @param agent The configuration (for the iteration budget), or `null`.
 * @returns The metrics.
 */
export function agentMetrics(
  cases: readonly CaseRecord[],
  toolCosts: readonly number[],
  agent: AgentConfig | null,
): AgentMetrics {
  const idx = cases.map((_, i) => i).filter((i) => cases[i].passed !== null);
  const scored = idx.map((i) => cases[i]);
  const passed = scored.filter((r) => r.passed === true).length;
  const priced = idx.filter((i) => cases[i].costUsd !== null);
  const judge = nonNull(cases.map((r) => r.judge?.costUsd));
  return {
    passRate: scored.length === 0 ? null : passed / scored.length,
    avgDurationMs: mean(scored.map((r) => r.wallMs)),
    avgInputTokens: mean(nonNull(scored.map((r) => r.inputTokens))),
    avgOutputTokens: mean(nonNull(scored.map((r) => r.outputTokens))),
    avgToolCalls: mean(scored.map((r) => r.toolCalls.filter((c) => c.via === undefined).length)),
    avgPeakContextTokens: mean(nonNull(scored.map((r) => r.peakContextTokens))),
    maxPeakContextTokens: nonNull(cases.map((r) => r.peakContextTokens)).reduce<number | null>(
      (m, x) => m === null || x > m ? x : m,
      null,
    ),
    tokenCostUsd: mean(priced.map((i) => cases[i].costUsd! - toolCosts[i])),
    toolCostUsd: mean(idx.map((i) => toolCosts[i])),
    overallCostUsd: mean(priced.map((i) => cases[i].costUsd!)),
    judgeCostUsd: mean(judge),
    avgCacheReadTokens: mean(nonNull(scored.map((r) => r.cacheReadTokens))),
    avgCacheWriteTokens: mean(nonNull(scored.map((r) => r.cacheWriteTokens))),
    avgIterations: mean(scored.map((r) => r.iterations)),
    iterationLimitRate: scored.length === 0
      ? null
      : scored.filter((r) => r.error?.kind === "iteration_limit").length / scored.length,
    errorRate: cases.length === 0 ? null : (cases.length - scored.length) / cases.length,
    iterationBudgetUse: agent === null || !(agent.maxIterations > 0)
      ? null
      : mean(scored.map((r) => Math.min(1, r.iterations / agent.maxIterations))),
  };
}

/**
 * One {@linkcode AgentRunRecord} per (run, agent id), sorted by run start, run id, agent id.
 * `configChanged` compares the agent's configuration (sorted JSON of the snapshot in run.json)
 * with the same agent id's previous record of the same suite.
 *
 * @param runs Loaded (and filtered) runs.
 * @returns The records.
 *
 * @example Usage
 * ```ts
 * import { agentRunRecords } from "./records.ts";
 * if (agentRunRecords([]).length !== 0) throw new Error();
 * ```
 */
export function agentRunRecords(runs: readonly LoadedRun[]): AgentRunRecord[] {
  const out: AgentRunRecord[] = [];
  const lastConfig = new Map<string, string>();
  for (const run of [...runs].sort(byStart)) {
    const prices = run.toolPrices ?? {};
    const byAgent = new Map<string, CaseRecord[]>();
    for (const r of run.records) {
      const list = byAgent.get(r.agentId) ?? [];
      list.push(r);
      byAgent.set(r.agentId, list);
    }
    for (const agentId of [...byAgent.keys()].sort()) {
      const cases = byAgent.get(agentId)!;
      const agent = run.agents.find((a) => a.id === agentId) ?? null;
      const ref = parseAgentRef(agentId);
      const v = run.agentVersions?.[agentId];
      const toolCosts = cases.map((c) => caseToolCostUsd(c, prices));
      const key = `${run.suiteId}\u0000${agentId}`;
      const config = agent === null ? "" : stableJson({ ...agent, id: ref.agentId }, { indent: 0 });
      const before = lastConfig.get(key);
      lastConfig.set(key, config);
      out.push({
        suiteId: run.suiteId,
        runId: run.runId,
        startedAt: run.startedAt,
        agentId,
        baseAgentId: v?.agentId ?? ref.agentId,
        version: v ? v.version : ref.version,
        equalsVersion: v?.equalsVersion ?? null,
        snapshotSha256: v?.snapshotSha256 ?? null,
        agent,
        catalog: run.catalogs[agentId] ?? null,
        cases,
        caseToolCostUsd: toolCosts,
        summary: summarizeRecords(cases)[0],
        metrics: agentMetrics(cases, toolCosts, agent),
        configChanged: before === undefined ? null : before !== config,
        ...(run.models?.some((m) => m.simulated === true) ? { simulated: true } : {}),
      });
    }
  }
  return out;
}
