/**
 * Runs a suite against agents: plans `agents × cases × repetitions` (optionally one shard),
 * runs the cases with bounded concurrency through {@linkcode runAgentLoop}, scores them, and
 * appends each finished case to `cases.jsonl` so a crash loses nothing finished. A resumed run
 * skips every case already recorded and never writes a case twice. Writes `run.json` and
 * `summary.csv`.
 *
 * File-writing edge of lib/agent; model clients, tool hosts and clocks are passed in.
 *
 * @module
 */

import type { JsonValue } from "../catalog/types.ts";
import type { AgentConfig, CaseRecord, ModelConfig, Suite, ToolPrices } from "./types.ts";
import type { Message, ModelClient } from "./providers/types.ts";
import type { ToolHost } from "./tools.ts";
import type { ExposedTool } from "./expose.ts";
import { catalogHash, toolHashes } from "./tools.ts";
import type { TokenCounter } from "./context.ts";
import { agentPricing } from "./usage.ts";
import { type AgentSummary, casesToCsv, summarizeRecords, summaryToCsv } from "./summary.ts";
import { stableJson } from "../core/json.ts";

/** `cases.jsonl` holds one record per line. */
const LINE = { indent: 0 } as const;
import { disagreementsToCsv, judgeAgreement } from "./judge_agreement.ts";
import type { AgentVersionRef } from "./versions.ts";
import { mapBounded } from "../core/pool.ts";
import { readCaseRecords, redactingFolder, type RunFolder, runFolder } from "./run_folder.ts";
import { Redactor } from "../core/secrets.ts";
import {
  type CaseContext,
  hostErrorRecord,
  INFRA_ERRORS,
  runCase,
  type WorkItem,
} from "./run_case.ts";

export { agentPricing, readCaseRecords, type WorkItem };

/** Version of the `run.json` and `cases.jsonl` shapes. */
export const RUN_SCHEMA_VERSION = 1;

/** Default per-case timeout, ms. */
export const DEFAULT_CASE_TIMEOUT_MS = 300_000;

/** A deterministic slice of the plan: items whose plan index ≡ index − 1 (mod count). */
export interface Shard {
  /** 1-based shard number. */
  readonly index: number;
  /** Number of shards. */
  readonly count: number;
}

/**
 * Parses `i/n` (1 ≤ i ≤ n).
 *
 * @param text E.g. `2/4`.
 * @returns The shard.
 * @throws {RangeError} on anything else.
 */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw new RangeError(`Cannot use shard "${text}": expected i/n with 1 <= i <= n, e.g. 2/4`);
  }
  return { index, count };
}

/**
 * The plan: agents (in the given order) × cases (suite order) × repetitions, then the shard's
 * slice. The same inputs always give the same list.
 *
 * @param agentIds Agent ids.
 * @param suite Suite.
 * @param repetitions Repetitions per case (integer ≥ 1).
 * @param shard Optional slice.
 * @returns Work items.
 * @throws {RangeError} when `repetitions` < 1.
 *
 * @example Usage
 * ```ts
 * import { planWork } from "./run.ts";
 * const suite = { id: "s", description: "", cases: [
 *   { id: "c1", question: "q", criterion: { type: "exact" as const, value: "x" } },
 *   { id: "c2", question: "q", criterion: { type: "exact" as const, value: "x" } },
 * ] };
 * const all = planWork(["a", "b"], suite, 2);
 * const s1 = planWork(["a", "b"], suite, 2, { index: 1, count: 3 });
 * if (all.length !== 8 || s1.length !== 3 || s1[1].caseId !== "c2") throw new Error();
 * ```
 */
export function planWork(
  agentIds: readonly string[],
  suite: Suite,
  repetitions: number,
  shard?: Shard,
): WorkItem[] {
  if (!Number.isInteger(repetitions) || repetitions < 1) {
    throw new RangeError(
      `Cannot plan a run: repetitions must be an integer >= 1, got ${repetitions}`,
    );
  }
  const items: WorkItem[] = [];
  for (const agentId of agentIds) {
    for (const c of suite.cases) {
      for (let repetition = 0; repetition < repetitions; repetition++) {
        items.push({ agentId, caseId: c.id, repetition });
      }
    }
  }
  return shard ? items.filter((_, i) => i % shard.count === shard.index - 1) : items;
}

/** Identity of a record or work item within a run. */
export function workKey(item: WorkItem): string {
  return `${item.agentId}\u0000${item.caseId}\u0000${item.repetition}`;
}

/** Inputs of {@linkcode runSuite}. */
export interface RunSuiteOptions {
  /** `results/runs/<runId>`; created when missing (unless `folder` is given). */
  readonly runDir: string;
  /** Where the run's files go. Default: {@linkcode runFolder}(`runDir`) on disk. */
  readonly folder?: RunFolder;
  /** Run id (folder name under the runs folder). */
  readonly runId: string;
  /** The suite to run. */
  readonly suite: Suite;
  /** Agents to run, in plan order. */
  readonly agents: readonly AgentConfig[];
  /** Registry entries of the agents' models and judge models. */
  readonly models: readonly ModelConfig[];
  /** USD per call by `server:tool`. */
  readonly toolPrices: ToolPrices;
  /** Clients by registry id (agents' and judges'). */
  readonly clients: ReadonlyMap<string, ModelClient>;
  /** Starts an agent's tools; called once per agent with pending work. */
  readonly openTools: (agent: AgentConfig) => Promise<ToolHost & { close(): Promise<void> }>;
  /**
   * The static estimate of an agent's first request from its exposed tools (the flow passes
   * lib/billing's), recorded as `catalogs[agent].estimate` in `run.json` beside the catalog, so
   * each record's `firstTurnInputTokens` can be set against it. Absent: none recorded.
   */
  readonly estimateRequest?: (
    agent: AgentConfig,
    tools: readonly ExposedTool[],
  ) => object;
  /** Repetitions per case (integer ≥ 1). */
  readonly repetitions: number;
  /** Cases in flight at once; default 1. */
  readonly concurrency?: number;
  /** Run only this slice of the plan. */
  readonly shard?: Shard;
  /** Per-case timeout, ms; default {@linkcode DEFAULT_CASE_TIMEOUT_MS}. */
  readonly caseTimeoutMs?: number;
  /** Continue an existing run in `runDir` (skip recorded cases). */
  readonly resume?: boolean;
  /**
   * With `resume`: run again the cases that ended in an infrastructure error (`model`,
   * `timeout`, `mcp`, `judge`), replacing their records and keeping every other record. The
   * rewritten `cases.jsonl` is written to a temporary file and renamed over the old one.
   * @default {false}
   */
  readonly retryErrors?: boolean;
  /**
   * Stop starting new cases after this many consecutive cases whose model call was refused
   * with 401 or 403 (a wrong or missing key); the cases not started stay unrecorded, so
   * `--resume` runs them once the key is fixed. `0` turns it off.
   * @default {DEFAULT_AUTH_FAILURE_STOP}
   */
  readonly stopAfterAuthFailures?: number;
  /**
   * Interrupts the run when aborted (Ctrl-C): no new case starts, the cases in flight are
   * aborted and those that end in an infrastructure error are left unrecorded (so `--resume`
   * runs them again), the files are written and `run.json` gets status `stopped`; the outcome's
   * `stopped.interrupted` is true.
   */
  readonly stop?: AbortSignal;
  /** Recorded in `run.json`; nothing in the loop is random, the seed is kept for provenance. */
  readonly seed?: number;
  /** ms clock for durations (e.g. `performance.now`). */
  readonly now: () => number;
  /** Epoch ms for `run.json` timestamps. */
  readonly epochNow: () => number;
  /** Extra provenance for `run.json` (git commit, arguments, config paths). */
  readonly meta?: Readonly<Record<string, JsonValue>>;
  /**
   * Which version each agent id is (lib/agent `resolveAgentSelections`), written to run.json as
   * `agentVersions`; absent: not recorded.
   */
  readonly agentVersions?: Readonly<Record<string, AgentVersionRef>>;
  /**
   * Counts context tokens for agents with a `contextStrategy` other than `none` (e.g. lib/tokens
   * `createTokenizer("o200k_base")`); required when such an agent runs.
   */
  readonly tokenizer?: TokenCounter;
  /**
   * The run's secrets (lib/agent `runRedactor`): every file of the run folder is written through
   * it, and the records and transcripts handed to the callbacks are redacted with it. Criteria
   * are scored before, on what the model and tools really said.
   * @default {a redactor of nothing}
   */
  readonly redactor?: Redactor;
  /** Called after each finished case. */
  readonly onRecord?: (record: CaseRecord, done: number, total: number) => void;
  /**
   * Called with a case's conversation (question, assistant turns with their tool calls, tool
   * results) once its loop ends, before the record is appended; e.g. to keep transcripts.
   */
  readonly onTranscript?: (item: WorkItem, messages: readonly Message[]) => void | Promise<void>;
}

/** Default of {@linkcode RunSuiteOptions.stopAfterAuthFailures}. */
export const DEFAULT_AUTH_FAILURE_STOP = 3;

/** True for a case whose model (or judge) call was refused with 401 or 403. */
export function isAuthFailure(record: CaseRecord): boolean {
  const e = record.error;
  return e !== null && (e.kind === "model" || e.kind === "judge") && e.code === "http" &&
    (e.status === 401 || e.status === 403);
}

/** What {@linkcode runSuite} returns. */
export interface RunOutcome {
  /** All records of the run (earlier sessions included), in file order. */
  readonly records: readonly CaseRecord[];
  /** Records written by this session. */
  readonly newRecords: number;
  /**
   * Cases of the plan this session did not start (or, interrupted, did not finish) because it
   * stopped early, why, and whether it was interrupted (`stop` aborted) rather than stopped on
   * refused keys.
   */
  readonly stopped: {
    readonly reason: string;
    readonly notStarted: number;
    readonly interrupted?: boolean;
  } | null;
  /** Records of earlier sessions replaced by `retryErrors`. */
  readonly replaced: number;
  /** Per-agent summary over all records. */
  readonly summary: readonly AgentSummary[];
}

/** The agents' tool hosts, each started once on first use. */
interface ToolHosts {
  /** The agent's host (its start's failure, for every case of the agent). */
  get(agent: AgentConfig): Promise<ToolHost & { close(): Promise<void> }>;
  /** Closes every host started. */
  closeAll(): Promise<void>;
}

/** Why a session stopped starting cases (refused keys or an interrupt). */
type Stopped = { reason: string; notStarted: number; interrupted?: boolean };

/**
 * Runs (or resumes) a suite and writes the run folder.
 *
 * Outcomes: a case with a final answer (or an iteration-limit failure) is scored with its
 * criterion; an infrastructure error (`model`, `timeout`, `mcp`, `judge`) is recorded with
 * `passed: null`. Cost = model tokens × the agent model's pricing + tool prices per call; judge
 * usage and cost go to `judge` only, a `summarize` context strategy's to `summarizer` only.
 *
 * @param options See {@linkcode RunSuiteOptions}.
 * @returns Records, how many this session wrote, and the summary.
 * @throws {RangeError} on a bad concurrency, a missing model client, or a non-resume run into a
 *   folder that already has cases.
 */
export async function runSuite(options: RunSuiteOptions): Promise<RunOutcome> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`Cannot run: concurrency must be an integer >= 1, got ${concurrency}`);
  }
  const redactor = options.redactor ?? new Redactor();
  const folder = redactingFolder(options.folder ?? runFolder(options.runDir), redactor);
  const { existing, replaced } = await earlierRecords(folder, options);
  checkClients(options);
  const plan = planWork(
    options.agents.map((a) => a.id),
    options.suite,
    options.repetitions,
    options.shard,
  );
  const done = new Set(existing.map(workKey));
  const pending = plan.filter((w) => !done.has(workKey(w)));
  const doc = await runDocument(folder, options, { concurrency, planned: plan.length, pending });
  await doc.write("running", null);

  const records = [...existing];
  const hosts = toolHosts(options.openTools, doc, options.estimateRequest);
  const { stopped, newRecords } = await runPending(pending, records, hosts, folder, {
    options,
    redactor,
    concurrency,
    finished: plan.length - pending.length,
    total: plan.length,
    warnings: doc.warnings,
  });
  const summary = await writeSummaries(folder, options, records);
  await doc.write(stopped === null ? "complete" : "stopped", options.epochNow(), stopped);
  return { records, newRecords, summary, stopped, replaced };
}

/** The records of earlier sessions; with `retryErrors`, those of infrastructure errors dropped. */
async function earlierRecords(
  folder: RunFolder,
  options: RunSuiteOptions,
): Promise<{ existing: CaseRecord[]; replaced: number }> {
  const existing = await folder.readRecords();
  if (existing.length > 0 && !options.resume) {
    throw new RangeError(
      `Cannot start run "${options.runId}": ${folder.casesPath} already has ${existing.length} cases; use --resume ${options.runId}`,
    );
  }
  if (!(options.retryErrors && options.resume)) return { existing, replaced: 0 };
  const kept = existing.filter((r) => r.error === null || !INFRA_ERRORS.has(r.error.kind));
  const replaced = existing.length - kept.length;
  if (replaced === 0) return { existing, replaced };
  // Rewrite without the infrastructure errors; a crash leaves either file whole.
  await folder.replaceRecords(kept.map((r) => stableJson(r, LINE) + "\n").join(""));
  return { existing: kept, replaced };
}

/** Every model a run's agents call (agent, summarizer) has a client; context strategies a tokenizer. */
function checkClients(options: RunSuiteOptions): void {
  for (const a of options.agents) {
    if (!options.clients.has(a.model)) {
      throw new RangeError(`Cannot run agent "${a.id}": no model client for "${a.model}"`);
    }
    const cs = a.contextStrategy;
    if (cs !== undefined && cs.type !== "none" && options.tokenizer === undefined) {
      throw new RangeError(
        `Cannot run agent "${a.id}": contextStrategy ${cs.type} needs a tokenizer`,
      );
    }
    if (cs?.type === "summarize" && !options.clients.has(cs.model)) {
      throw new RangeError(
        `Cannot run agent "${a.id}": no model client for its summarizer "${cs.model}"`,
      );
    }
  }
}

/** `run.json` of this session: what earlier sessions recorded, and its writer. */
interface RunDocument {
  /** The catalog each agent's tools had, by agent id (earlier sessions' kept). */
  readonly catalogs: Record<string, unknown>;
  /** Earlier catalog hashes by agent id. */
  readonly priorHashes: Readonly<Record<string, string | undefined>>;
  /** Warnings of the whole run (earlier sessions' first); push to add. */
  readonly warnings: string[];
  /**
   * Writes `run.json` with this status (`endedAt` epoch ms, or null while running) and, for a
   * run that stopped early, why.
   */
  write(status: string, endedAt: number | null, stopped?: Stopped | null): Promise<void>;
}

async function runDocument(
  folder: RunFolder,
  options: RunSuiteOptions,
  run: { concurrency: number; planned: number; pending: readonly WorkItem[] },
): Promise<RunDocument> {
  const prior: Record<string, unknown> = (await folder.readRunDoc()) ?? {};
  const sessionStart = options.epochNow();
  const priorCatalogs = (prior.catalogs ?? {}) as Record<string, { hash?: string }>;
  const catalogs: Record<string, unknown> = { ...priorCatalogs };
  const warnings: string[] = [...(prior.warnings as string[] ?? [])];
  const sessions = [...(prior.sessions as unknown[] ?? [])];
  const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();
  const write = async (status: string, endedAt: number | null, stopped: Stopped | null = null) => {
    const doc = {
      schemaVersion: RUN_SCHEMA_VERSION,
      task: "tasks/agents.ts",
      runId: options.runId,
      status,
      // Why a run with status "stopped" stopped (refused keys, an interrupt), for every reader.
      stopped,
      startedAt: (prior.startedAt as string | undefined) ?? iso(sessionStart),
      endedAt: iso(endedAt),
      sessions: [
        ...sessions,
        { startedAt: iso(sessionStart), endedAt: iso(endedAt), planned: run.pending.length },
      ],
      seed: options.seed ?? 0,
      repetitions: options.repetitions,
      shard: options.shard ?? null,
      caseTimeoutMs: options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
      concurrency: run.concurrency,
      plannedCases: run.planned,
      suite: options.suite,
      agents: options.agents,
      // apiKey stays as written (`${VAR}`): a reference, never the secret. A `${VAR:-default}`
      // fallback is a literal that may be a real key, so it is redacted.
      models: options.models.map((m) => ({
        ...m,
        apiKey: m.apiKey.replace(/:-[^}]*\}$/, ":-[REDACTED]}"),
      })),
      toolPrices: options.toolPrices,
      catalogs,
      ...(options.agentVersions ? { agentVersions: options.agentVersions } : {}),
      warnings,
      meta: options.meta ?? {},
    };
    await folder.writeRunDoc(stableJson(doc));
  };
  const priorHashes = Object.fromEntries(
    Object.entries(priorCatalogs).map(([id, c]) => [id, c?.hash]),
  );
  return { catalogs, priorHashes, warnings, write };
}

/** Starts each agent's tools once, recording its catalog (hash, tools, changes) in `run.json`. */
function toolHosts(
  openTools: RunSuiteOptions["openTools"],
  doc: RunDocument,
  estimateRequest: RunSuiteOptions["estimateRequest"],
): ToolHosts {
  const hosts = new Map<string, ReturnType<ToolHosts["get"]>>();
  const open: ToolHosts["get"] = async (agent) => {
    const host = await openTools(agent);
    const hash = await catalogHash(host.tools, host.overrides?.sha256);
    const before = doc.priorHashes[agent.id];
    if (before !== undefined && before !== hash) {
      doc.warnings.push(
        `agent "${agent.id}": tool catalog changed between sessions (${before} → ${hash})`,
      );
    }
    doc.catalogs[agent.id] = {
      hash,
      exposure: agent.exposure,
      tools: host.tools.length,
      toolHashes: await toolHashes(host.tools),
      mapping: Object.fromEntries(host.tools.map((t) => [t.spec.name, `${t.server}:${t.tool}`])),
      // What was changed so the provider accepts each tool (renames, schema changes).
      normalization: host.tools.filter((t) => t.changes !== undefined).map((t) => ({
        exposedName: t.spec.name,
        tool: `${t.server}:${t.tool}`,
        changes: t.changes!,
      })),
      // Tool-description overrides: sha256 (also in the hash), what changed, what named nothing.
      ...(host.overrides === undefined ? {} : { overrides: host.overrides }),
      ...(estimateRequest ? { estimate: estimateRequest(agent, host.tools) } : {}),
      // Each server as it introduced itself: the protocol version negotiated (either era)
      // and its instructions.
      ...(host.servers === undefined ? {} : { servers: host.servers }),
    };
    for (const p of host.overrides?.problems ?? []) {
      const w = `agent "${agent.id}": overrides: ${p.message}`;
      if (!doc.warnings.includes(w)) doc.warnings.push(w);
    }
    return host;
  };
  return {
    get: (agent) => {
      let h = hosts.get(agent.id);
      if (!h) hosts.set(agent.id, h = open(agent));
      return h;
    },
    closeAll: async () => {
      for (const h of hosts.values()) await h.then((x) => x.close(), () => {});
    },
  };
}

/**
 * Runs the pending cases with bounded concurrency, appending each record as it finishes; stops
 * starting cases on an interrupt or after `stopAfterAuthFailures` refused keys in a row.
 */
async function runPending(
  pending: readonly WorkItem[],
  records: CaseRecord[],
  hosts: ToolHosts,
  folder: RunFolder,
  run: {
    options: RunSuiteOptions;
    redactor: Redactor;
    concurrency: number;
    finished: number;
    total: number;
    warnings: string[];
  },
): Promise<{ stopped: Stopped | null; newRecords: number }> {
  const { options, redactor } = run;
  const onTranscript = options.onTranscript;
  const ctx: CaseContext = {
    modelsById: new Map(options.models.map((m) => [m.id, m])),
    clients: options.clients,
    toolPrices: options.toolPrices,
    timeoutMs: options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
    now: options.now,
    ...(options.stop ? { stop: options.stop } : {}),
    ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
    ...(onTranscript
      ? { onTranscript: (item, messages) => onTranscript(item, redactor.json(messages)) }
      : {}),
  };
  const casesById = new Map(options.suite.cases.map((c) => [c.id, c]));
  const agentsById = new Map(options.agents.map((a) => [a.id, a]));
  const runItem = async (item: WorkItem): Promise<CaseRecord> => {
    const agent = agentsById.get(item.agentId)!;
    let host;
    const waitStart = options.now();
    try {
      host = await hosts.get(agent);
    } catch (e) {
      // The case waited for its agent's servers: that wait is its wall time.
      return hostErrorRecord(item, e, Math.round(options.now() - waitStart));
    }
    return await runCase(item, agent, casesById.get(item.caseId)!, host, ctx);
  };
  // Serialized appends: one write per finished case.
  let writeChain: Promise<void> = Promise.resolve();
  const authStop = options.stopAfterAuthFailures ?? DEFAULT_AUTH_FAILURE_STOP;
  let authStreak = 0;
  let finished = run.finished;
  let stopped: Stopped | null = null;
  const interrupt = () => {
    stopped ??= {
      reason: "interrupted: stopped starting new cases and aborted those in flight",
      notStarted: 0,
      interrupted: true,
    };
  };
  if (options.stop?.aborted) interrupt();
  options.stop?.addEventListener("abort", interrupt, { once: true });
  try {
    await mapBounded(pending, run.concurrency, async (item) => {
      if (stopped !== null) {
        stopped.notStarted += 1;
        return;
      }
      // Scored on what was really said; from here on, what is kept and handed out is redacted.
      const record = redactor.json(await runItem(item));
      // Aborted by the interrupt, not measured: left for --resume (a finished case is kept).
      if (options.stop?.aborted && record.passed === null) {
        stopped!.notStarted += 1;
        return;
      }
      records.push(record);
      await (writeChain = writeChain.then(() =>
        folder.appendRecord(stableJson(record, LINE) + "\n")
      ));
      finished += 1;
      authStreak = isAuthFailure(record) ? authStreak + 1 : 0;
      if (authStop > 0 && authStreak >= authStop && stopped === null) {
        stopped = {
          reason: `${authStreak} consecutive cases were refused with HTTP ${
            record.error!.status
          } (the API key is wrong, missing or not allowed): stopped starting new cases; fix the key and resume`,
          notStarted: 0,
        };
        run.warnings.push(stopped.reason);
      }
      options.onRecord?.(record, finished, run.total);
    });
  } finally {
    options.stop?.removeEventListener("abort", interrupt);
    await writeChain.catch(() => {});
    await hosts.closeAll();
  }
  const outcome = stopped as Stopped | null;
  return { stopped: outcome, newRecords: pending.length - (outcome?.notStarted ?? 0) };
}

/** Writes `summary.csv`, `cases.csv`, `summary.json` (and `disagreements.csv` with a judge panel). */
async function writeSummaries(
  folder: RunFolder,
  options: RunSuiteOptions,
  records: readonly CaseRecord[],
): Promise<AgentSummary[]> {
  const summary = summarizeRecords(records);
  await folder.writeFile("summary.csv", summaryToCsv(summary));
  await folder.writeFile("cases.csv", casesToCsv(records));
  const panel = judgeAgreement(records);
  if (panel.items > 0) {
    await folder.writeFile("disagreements.csv", disagreementsToCsv(panel.disagreements));
  }
  await folder.writeFile(
    "summary.json",
    stableJson({
      runId: options.runId,
      suiteId: options.suite.id,
      agents: summary,
      ...(panel.items > 0
        ? { judgePanel: { ...panel, disagreements: panel.disagreements.length } }
        : {}),
    }),
  );
  return summary;
}
