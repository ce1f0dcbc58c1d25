/**
 * Agent runs as data for comparisons: the parts of `run.json` the reports read, the case
 * records, filters by suite, agent and date, and a flat per-record table (arquero) for
 * dashboards and notebooks. Pure; `load_runs.ts` reads the folders.
 *
 * @module
 */
import { byKeys } from "../core/order.ts";
import * as aq from "arquero";
import type { AgentConfig, CaseRecord, Criterion, ModelConfig, SweepFile } from "../agent/types.ts";
import type { RecordedEstimate } from "../billing/request_estimate.ts";

/** One agent's tool catalog as `run.json` records it. */
export interface RunCatalog {
  /** SHA-256 of the exposed catalog (see `catalogHash` in lib/agent). */
  readonly hash: string;
  /** Number of exposed tools. */
  readonly tools?: number;
  /** Exposed tool name → `server:tool`. */
  readonly mapping?: Readonly<Record<string, string>>;
  /** Exposed tool name → SHA-256 of that tool's spec and route, when the run recorded it. */
  readonly toolHashes?: Readonly<Record<string, string>>;
  /**
   * The static estimate of the agent's first request (its question aside), or why there is
   * none (lib/billing `agentRequestEstimate`); absent in runs made before it was recorded.
   */
  readonly estimate?: RecordedEstimate;
}

/** Parameters a sweep varied, per generated agent: lib/agent's `sweep.json` shape. */
export type SweepInfo = SweepFile;

/** Which version of an agent a run ran (`run.json` `agentVersions`, per record agent id). */
export interface RunAgentVersion {
  /** The agent's own id (without `@N`). */
  readonly agentId: string;
  /** Version run, or `null` for the live configuration. */
  readonly version: number | null;
  /** SHA-256 of the resolved configuration run (lib/agent `snapshotSha256`). */
  readonly snapshotSha256: string;
  /** For the live configuration: the version it equals, or `null` when it equals none. */
  readonly equalsVersion: number | null;
}

/** A run folder read for comparison. */
export interface LoadedRun {
  /** Folder the run was read from. */
  readonly dir: string;
  /** Run id from `run.json`. */
  readonly runId: string;
  /** `run.json` status: `complete`, `incomplete` (merged with gaps), `running` (crashed or live). */
  readonly status: string;
  /** ISO 8601 start time of the run. */
  readonly startedAt: string;
  /** ISO 8601 end time, or `null` while running. */
  readonly endedAt: string | null;
  /** Suite id (the case set). */
  readonly suiteId: string;
  /** Agent configurations snapshotted in `run.json`. */
  readonly agents: readonly AgentConfig[];
  /** Catalog per agent id. */
  readonly catalogs: Readonly<Record<string, RunCatalog>>;
  /** Repetitions per case the run planned. */
  readonly repetitions: number;
  /** Work items the run (or its shard) planned. */
  readonly plannedCases: number;
  /** `i/n` when the run is one shard, else `null`. */
  readonly shard: string | null;
  /** Case records, file order. */
  readonly records: readonly CaseRecord[];
  /** Case id → tags from the suite snapshot (case sets for per-tag checks); absent: none. */
  readonly caseTags?: Readonly<Record<string, readonly string[]>>;
  /** Sweep parameters, when the run came from `deno task sweep`. */
  readonly sweep: SweepInfo | null;
  /** USD per call by `server:tool` as the run priced tools (absent in older runs: none). */
  readonly toolPrices?: Readonly<Record<string, number>>;
  /**
   * Model registry entries as the run priced them (`run.json` `models`; absent: not recorded);
   * `simulated` marks a scripted stand-in, whose USD figures are not a bill.
   */
  readonly models?: readonly Pick<ModelConfig, "id" | "pricing" | "simulated">[];
  /** Case id → criterion from the suite snapshot (absent: not recorded). */
  readonly criteria?: Readonly<Record<string, Criterion>>;
  /** Case id → question (the first user message) from the suite snapshot (absent: not recorded). */
  readonly questions?: Readonly<Record<string, string>>;
  /** Version run per record agent id (absent in runs made before agent versions). */
  readonly agentVersions?: Readonly<Record<string, RunAgentVersion>>;
  /** Non-fatal oddities met while reading (e.g. a torn last line). */
  readonly warnings: readonly string[];
}

/** Filters of comparisons; absent fields do not filter. */
export interface RunFilter {
  /** Keep runs of these suite ids. */
  readonly suites?: readonly string[];
  /** Keep records of these agent ids. */
  readonly agents?: readonly string[];
  /** Keep runs started on or after this date (`YYYY-MM-DD`, UTC, or a full ISO time). */
  readonly from?: string;
  /** Keep runs started on or before this date (a bare date includes the whole UTC day). */
  readonly to?: string;
}

function bound(text: string, end: boolean, name: string): number {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const ms = Date.parse(bare ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms)) {
    throw new RangeError(`Cannot filter runs: ${name} "${text}" is not a date (YYYY-MM-DD)`);
  }
  return bare && end ? ms + 86_400_000 - 1 : ms;
}

/**
 * Applies a {@linkcode RunFilter}: drops runs outside the suites or dates, drops records of
 * other agents, then drops runs left without records.
 *
 * @param runs Loaded runs.
 * @param filter Suites, agents, and an inclusive date range.
 * @returns The kept runs, sorted by start time then run id.
 * @throws {RangeError} when `from` or `to` is not a date.
 *
 * @example Usage
 * ```ts
 * import { filterRuns, type LoadedRun } from "./runs.ts";
 * const run = (runId: string, startedAt: string) => ({ dir: runId, runId, status: "complete",
 *   startedAt, endedAt: null, suiteId: "s", agents: [], catalogs: {}, repetitions: 1,
 *   plannedCases: 1, shard: null, sweep: null, warnings: [],
 *   records: [{ agentId: "a" }] }) as unknown as LoadedRun;
 * const kept = filterRuns([run("r2", "2025-01-02T10:00:00Z"), run("r1", "2025-01-01T23:00:00Z")],
 *   { to: "2025-01-01" });
 * if (kept.length !== 1 || kept[0].runId !== "r1") throw new Error();
 * ```
 */
export function filterRuns(runs: readonly LoadedRun[], filter: RunFilter = {}): LoadedRun[] {
  const from = filter.from === undefined ? -Infinity : bound(filter.from, false, "--from");
  const to = filter.to === undefined ? Infinity : bound(filter.to, true, "--to");
  const suites = filter.suites ? new Set(filter.suites) : null;
  const agents = filter.agents ? new Set(filter.agents) : null;
  return runs
    .filter((r) => {
      const t = Date.parse(r.startedAt);
      return (!suites || suites.has(r.suiteId)) && t >= from && t <= to;
    })
    .map((r) => agents ? { ...r, records: r.records.filter((x) => agents.has(x.agentId)) } : r)
    .filter((r) => r.records.length > 0)
    .sort(byStart);
}

/** Orders runs by start time, then run id. */
export const byStart: (a: LoadedRun, b: LoadedRun) => number = byKeys(
  (r: LoadedRun) => r.startedAt,
  (r) => r.runId,
);

/** One case record flattened for tables (one row of {@linkcode recordRows}). */
export interface RecordRow {
  /** Run id. */
  readonly runId: string;
  /** Suite id. */
  readonly suiteId: string;
  /** Run start, ISO 8601. */
  readonly startedAt: string;
  /** Agent id. */
  readonly agentId: string;
  /** Case id. */
  readonly caseId: string;
  /** 0-based repetition. */
  readonly repetition: number;
  /** 1 passed, 0 failed, `null` infrastructure error (unscored). */
  readonly passed: number | null;
  /** Error kind (`iteration_limit`, `model`, `timeout`, `mcp`, `judge`) or `null`. */
  readonly errorKind: string | null;
  /** Whole case, ms (measured). */
  readonly wallMs: number;
  /** Model calls answered from the response cache (their times are not latencies). */
  readonly cachedModelCalls: number;
  /** Model turns. */
  readonly iterations: number;
  /** Uncached input tokens, or `null` when not reported. */
  readonly inputTokens: number | null;
  /** Output tokens, or `null` when not reported. */
  readonly outputTokens: number | null;
  /** Agent cost, USD (judge excluded), or `null`. */
  readonly costUsd: number | null;
  /**
   * Tool calls the model made. Upstream calls made on its behalf through a
   * proxy's `call_tool` or `run_code` (records with `via`) are not counted.
   */
  readonly toolCalls: number;
  /** Of those, calls that errored. */
  readonly toolErrors: number;
}

/**
 * One flat row per case record of every run, in run then file order.
 *
 * @param runs Loaded (and filtered) runs.
 * @returns Rows; see {@linkcode RecordRow}.
 */
export function recordRows(runs: readonly LoadedRun[]): RecordRow[] {
  return runs.flatMap((run) =>
    run.records.map((r): RecordRow => ({
      runId: run.runId,
      suiteId: run.suiteId,
      startedAt: run.startedAt,
      agentId: r.agentId,
      caseId: r.caseId,
      repetition: r.repetition,
      passed: r.passed === null ? null : r.passed ? 1 : 0,
      errorKind: r.error?.kind ?? null,
      wallMs: r.wallMs,
      cachedModelCalls: r.cachedModelCalls ?? 0,
      iterations: r.iterations,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      costUsd: r.costUsd,
      toolCalls: r.toolCalls.filter((c) => c.via === undefined).length,
      toolErrors: r.toolCalls.filter((c) => c.via === undefined && c.isError).length,
    }))
  );
}

/**
 * The runs as an arquero table of {@linkcode RecordRow}s, for notebooks
 * (`runsTable(runs).groupby("agentId").rollup({...})`).
 *
 * @param runs Loaded runs.
 * @returns An arquero `ColumnTable` (empty with no records).
 */
export function runsTable(runs: readonly LoadedRun[]): aq.ColumnTable {
  return aq.from(recordRows(runs) as unknown as Record<string, unknown>[]);
}
