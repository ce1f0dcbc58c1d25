/**
 * Comparisons across agent runs: per agent and suite (latest run), trends over runs, per case
 * pass rates and flakiness, error kinds, tool-call frequency, and pass rates grouped by the
 * parameters a sweep varied. Pure functions of loaded runs; rows are plain objects ready for
 * arquero (`aq.from(rows)`) and the figures in `compare_figures.ts`.
 *
 * @module
 */
import { type AgentSummary, summarizeRecords } from "../agent/summary.ts";
import type { CaseRecord } from "../agent/types.ts";
import { flakiness } from "../stats/flakiness.ts";
import { wilsonInterval } from "../stats/wilson.ts";
import { byStart, type LoadedRun } from "./runs.ts";

/** One agent of one suite in one run: its summary and where it comes from. */
export interface AgentRunRow extends AgentSummary {
  /** Suite id. */
  readonly suiteId: string;
  /** Run id. */
  readonly runId: string;
  /** Run start, ISO 8601. */
  readonly startedAt: string;
  /** Varied sweep parameters of this agent (empty outside sweeps). */
  readonly params: Readonly<Record<string, string>>;
}

const cmp = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

function recordsByAgent(records: readonly CaseRecord[]): Map<string, CaseRecord[]> {
  const m = new Map<string, CaseRecord[]>();
  for (const r of records) {
    const list = m.get(r.agentId) ?? [];
    list.push(r);
    m.set(r.agentId, list);
  }
  return m;
}

/**
 * Every (run, agent) summary, in run order then agent id: the points of the trend charts.
 *
 * @param runs Loaded runs (any order).
 * @returns Rows with the {@linkcode AgentSummary} fields plus suite, run, start time and sweep
 *   parameters.
 */
export function trendRows(runs: readonly LoadedRun[]): AgentRunRow[] {
  return [...runs].sort(byStart).flatMap((run) =>
    summarizeRecords(run.records).map((s) => ({
      ...s,
      suiteId: run.suiteId,
      runId: run.runId,
      startedAt: run.startedAt,
      params: run.sweep?.agents[s.agentId] ?? {},
    }))
  );
}

/**
 * For each suite and agent, the latest run holding that agent's records (by start time, ties
 * by run id) and those records. Comparisons use the latest run, not a pool of runs made with
 * different code.
 *
 * @param runs Loaded runs.
 * @returns Entries sorted by suite then agent.
 */
export function latestBySuiteAgent(
  runs: readonly LoadedRun[],
): { suiteId: string; agentId: string; run: LoadedRun; records: CaseRecord[] }[] {
  const latest = new Map<string, { run: LoadedRun; records: CaseRecord[] }>();
  for (const run of [...runs].sort(byStart)) {
    for (const [agentId, records] of recordsByAgent(run.records)) {
      latest.set(`${run.suiteId}\u0000${agentId}`, { run, records });
    }
  }
  return [...latest.entries()]
    .map(([k, v]) => {
      const [suiteId, agentId] = k.split("\u0000");
      return { suiteId, agentId, ...v };
    })
    .sort((a, b) => cmp(a.suiteId, b.suiteId) || cmp(a.agentId, b.agentId));
}

/**
 * Agent comparison rows: the summary of each agent on each suite, from its latest run.
 *
 * @param runs Loaded runs.
 * @returns One row per suite × agent, sorted by suite then agent.
 */
export function agentRows(runs: readonly LoadedRun[]): AgentRunRow[] {
  return latestBySuiteAgent(runs).map(({ suiteId, agentId, run, records }) => ({
    ...summarizeRecords(records)[0],
    suiteId,
    runId: run.runId,
    startedAt: run.startedAt,
    params: run.sweep?.agents[agentId] ?? {},
  }));
}

/** Pass rate and flakiness of one case for one agent (latest run). */
export interface CaseRow {
  /** Suite id. */
  readonly suiteId: string;
  /** Agent id. */
  readonly agentId: string;
  /** Case id. */
  readonly caseId: string;
  /** Repetitions recorded. */
  readonly records: number;
  /** Scored repetitions (infrastructure errors excluded). */
  readonly scored: number;
  /** Passing repetitions. */
  readonly passed: number;
  /** passed / scored, `null` when nothing was scored. */
  readonly passRate: number | null;
  /** Passed in some scored repetitions and failed in others. */
  readonly flaky: boolean;
  /** Flakiness score 4p(1 − p) (lib/stats `flakiness`), `null` when unscored. */
  readonly flakinessScore: number | null;
  /** Pass↔fail flips between consecutive repetitions / (n − 1), `null` when unscored. */
  readonly flipRate: number | null;
  /** Infrastructure errors. */
  readonly errors: number;
  /** Iteration-limit failures. */
  readonly iterationLimits: number;
}

/**
 * Per case × agent pass rates and flakiness, from each agent's latest run per suite: the
 * heatmap cells and the flaky-case list.
 *
 * @param runs Loaded runs.
 * @returns Rows sorted by suite, case, agent.
 */
export function caseRows(runs: readonly LoadedRun[]): CaseRow[] {
  const out: CaseRow[] = [];
  for (const { suiteId, agentId, records } of latestBySuiteAgent(runs)) {
    const byCase = new Map<string, CaseRecord[]>();
    for (const r of records) {
      const list = byCase.get(r.caseId) ?? [];
      list.push(r);
      byCase.set(r.caseId, list);
    }
    for (const [caseId, rs] of byCase) {
      const scored = rs.filter((r) => r.passed !== null).sort((a, b) =>
        a.repetition - b.repetition
      );
      const f = scored.length > 0 ? flakiness(scored.map((r) => r.passed === true)) : null;
      out.push({
        suiteId,
        agentId,
        caseId,
        records: rs.length,
        scored: scored.length,
        passed: f?.passes ?? 0,
        passRate: f?.passRate ?? null,
        flaky: f?.flaky ?? false,
        flakinessScore: f?.score ?? null,
        flipRate: f?.flipRate ?? null,
        errors: rs.length - scored.length,
        iterationLimits: rs.filter((r) => r.error?.kind === "iteration_limit").length,
      });
    }
  }
  return out.sort((a, b) =>
    cmp(a.suiteId, b.suiteId) || cmp(a.caseId, b.caseId) || cmp(a.agentId, b.agentId)
  );
}

/**
 * The flaky cases: passed in some repetitions and failed in others, most flaky first (score
 * descending, then suite, case, agent).
 *
 * @param rows Rows from {@linkcode caseRows}.
 * @returns The flaky rows.
 */
export function flakyRows(rows: readonly CaseRow[]): CaseRow[] {
  return rows.filter((r) => r.flaky).sort((a, b) =>
    (b.flakinessScore ?? 0) - (a.flakinessScore ?? 0) || cmp(a.suiteId, b.suiteId) ||
    cmp(a.caseId, b.caseId) || cmp(a.agentId, b.agentId)
  );
}

/** Count of one error kind for one agent on one suite (latest run). */
export interface ErrorRow {
  /** Suite id. */
  readonly suiteId: string;
  /** Agent id. */
  readonly agentId: string;
  /** Error kind (`iteration_limit`, `model`, `timeout`, `mcp`, `judge`). */
  readonly kind: string;
  /** Records with this error. */
  readonly count: number;
  /** count / all records of the agent on the suite. */
  readonly rate: number;
}

/**
 * Error and iteration-limit counts per kind, from each agent's latest run per suite.
 *
 * @param runs Loaded runs.
 * @returns Rows sorted by suite, agent, kind; kinds that never occurred are absent.
 */
export function errorRows(runs: readonly LoadedRun[]): ErrorRow[] {
  return latestBySuiteAgent(runs).flatMap(({ suiteId, agentId, records }) => {
    const counts = new Map<string, number>();
    for (const r of records) {
      if (r.error) counts.set(r.error.kind, (counts.get(r.error.kind) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => cmp(a[0], b[0])).map(([kind, count]) => ({
      suiteId,
      agentId,
      kind,
      count,
      rate: count / records.length,
    }));
  });
}

/** How often an agent called one tool (latest run per suite). */
export interface ToolRow {
  /** Suite id. */
  readonly suiteId: string;
  /** Agent id. */
  readonly agentId: string;
  /** `server:tool`, or the name the model used when it matched no tool. */
  readonly tool: string;
  /** Calls in all records. */
  readonly calls: number;
  /** Calls that errored. */
  readonly errors: number;
  /** calls / records of the agent on the suite. */
  readonly callsPerCase: number;
}

/**
 * Tool-call frequency per suite × agent × tool, from each agent's latest run per suite.
 *
 * @param runs Loaded runs.
 * @returns Rows sorted by suite, agent, calls descending, tool.
 */
export function toolRows(runs: readonly LoadedRun[]): ToolRow[] {
  return latestBySuiteAgent(runs).flatMap(({ suiteId, agentId, records }) => {
    const m = new Map<string, { calls: number; errors: number }>();
    for (const c of records.flatMap((r) => r.toolCalls)) {
      const key = c.tool ?? c.name;
      const s = m.get(key) ?? { calls: 0, errors: 0 };
      s.calls += 1;
      if (c.isError) s.errors += 1;
      m.set(key, s);
    }
    return [...m.entries()]
      .map(([tool, s]) => ({
        suiteId,
        agentId,
        tool,
        calls: s.calls,
        errors: s.errors,
        callsPerCase: s.calls / records.length,
      }))
      .sort((a, b) => b.calls - a.calls || cmp(a.tool, b.tool));
  });
}

/** Mean of the non-null values, `null` when there are none. */
function meanOf(xs: readonly (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

/** Pooled outcome of all agents sharing one value of one varied parameter. */
export interface SweepGroupRow {
  /** Suite id. */
  readonly suiteId: string;
  /** Parameter name, e.g. `model`. */
  readonly parameter: string;
  /** Parameter value, e.g. `claude`. */
  readonly value: string;
  /** Agents with this value. */
  readonly agents: number;
  /** Scored records pooled over those agents. */
  readonly scored: number;
  /** Passing records. */
  readonly passed: number;
  /** passed / scored, `null` when nothing was scored. */
  readonly passRate: number | null;
  /** 95% Wilson interval, lower bound (treats records as independent: descriptive only). */
  readonly passRateLo: number | null;
  /** 95% Wilson interval, upper bound. */
  readonly passRateHi: number | null;
  /** Mean agent cost per record, USD, over records that report it. */
  readonly meanCostUsd: number | null;
  /** Mean uncached input tokens per record (provider-reported), over records that report them. */
  readonly meanInputTokens: number | null;
  /**
   * Mean context tokens a `contextStrategy` saved per record (computed), over records with a
   * strategy; `null` when none has one.
   */
  readonly meanContextTokensSaved: number | null;
  /** Mean summarizer cost per record, USD (apart from `meanCostUsd`); `null` without any. */
  readonly meanSummarizerCostUsd: number | null;
  /** Retries after tool errors, summed over the records (see `retryOnToolError`). */
  readonly toolRetries: number;
}

/**
 * Groups sweep agents by each varied parameter's value (the marginal effect of the parameter,
 * pooling the other parameters' values), per suite. Agents without sweep parameters are left
 * out.
 *
 * @param runs Loaded runs (only runs with `sweep.json` contribute).
 * @returns Rows sorted by suite, parameter (command-line order), value.
 */
export function sweepGroupRows(runs: readonly LoadedRun[]): SweepGroupRow[] {
  const latest = latestBySuiteAgent(runs).filter((e) => e.run.sweep?.agents[e.agentId]);
  const out: SweepGroupRow[] = [];
  for (const suiteId of [...new Set(latest.map((e) => e.suiteId))].sort()) {
    const entries = latest.filter((e) => e.suiteId === suiteId);
    const params = [...new Set(entries.flatMap((e) => e.run.sweep!.parameters))];
    for (const parameter of params) {
      const values = [
        ...new Set(entries.map((e) => e.run.sweep!.agents[e.agentId][parameter])),
      ].filter((v) => v !== undefined).sort();
      for (const value of values) {
        const group = entries.filter((e) => e.run.sweep!.agents[e.agentId][parameter] === value);
        const recs = group.flatMap((e) => e.records);
        const scored = recs.filter((r) => r.passed !== null);
        const passed = scored.filter((r) => r.passed).length;
        const w = scored.length > 0 ? wilsonInterval(passed, scored.length) : null;
        const costs = recs.map((r) => r.costUsd).filter((c): c is number => c !== null);
        out.push({
          suiteId,
          parameter,
          value,
          agents: group.length,
          scored: scored.length,
          passed,
          passRate: w?.p ?? null,
          passRateLo: w?.lo ?? null,
          passRateHi: w?.hi ?? null,
          meanCostUsd: meanOf(costs),
          meanInputTokens: meanOf(recs.map((r) => r.inputTokens)),
          meanContextTokensSaved: meanOf(recs.map((r) => r.context?.tokensSaved ?? null)),
          meanSummarizerCostUsd: meanOf(recs.map((r) => r.summarizer?.costUsd ?? null)),
          toolRetries: recs.reduce((n, r) => n + (r.toolRetries?.attempted ?? 0), 0),
        });
      }
    }
  }
  return out;
}
