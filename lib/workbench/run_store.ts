/**
 * The runs folder as the workbench sees it (`results/runs/<runId>/`, the CLI's layout):
 * `run.json` and `cases.jsonl` written by the `lib/agent` runner, plus the workbench's own
 * `workbench.json` (the request, the frozen suite and agents, a failure) and `transcripts/`.
 * Other run folders (the demo's `results/demo/runs`) are shown beside it, read-only, each row
 * labelled with its source. Runs are read with lib/agent's `readRun` (never modifying a file: a
 * torn last line of a live `cases.jsonl` is left out); a malformed line is an error naming the
 * file and line, and such a run is listed as failed with that message.
 *
 * @module
 */

import { join } from "node:path";
import type { AgentConfig, CaseRecord, Suite } from "../agent/types.ts";
import { stableJson } from "../core/json.ts";
import { readRun, type RunDoc, RunInputError } from "../agent/read_run.ts";
import { checkId, WorkbenchError } from "./_paths.ts";
import { claimRunDir } from "../agent/run_folder.ts";
import { Redactor } from "../core/secrets.ts";
import { writeAtomic } from "../core/files.ts";

/** Run states: `queued` and `running` only while this server holds the run. */
export type RunState = "queued" | "running" | "completed" | "failed" | "interrupted";

/** A run as requested through the workbench (`POST /api/runs`). */
export interface RunRequest {
  /** Suite id. */
  readonly suiteId: string;
  /** Agents (and versions) in plan order. */
  readonly agents: readonly { readonly agentId: string; readonly version?: string | null }[];
  /** Repetitions per case (≥ 1). */
  readonly repetitions: number;
  /** Cases in flight at once (≥ 1). */
  readonly concurrency: number;
  /** Exposure mode for every agent, overriding theirs. */
  readonly exposure?: AgentConfig["exposure"];
  /** Registry id of a model for every agent, overriding theirs (e.g. `scripted`). */
  readonly model?: string;
  /** Registry id of the model judging every `llm_judge` criterion, overriding the suite's. */
  readonly judge?: string;
}

/** `workbench.json`: what the workbench needs to run or resume a run. */
export interface RunSidecar {
  /** Shape version. */
  readonly schemaVersion: 1;
  /** Run id. */
  readonly runId: string;
  /** ISO time of the request (UTC). */
  readonly createdAt: string;
  /** The request. */
  readonly request: RunRequest;
  /** The suite as it was when the run was requested. */
  readonly suite: Suite;
  /** The suite's file in the config folder when requested (for provenance). */
  readonly suiteFile: string;
  /** The agents as they will run (versions and overrides applied), plan order. */
  readonly agents: readonly AgentConfig[];
  /** Set when the run failed as a whole (bad model config, servers that would not start). */
  readonly failure?: { readonly at: string; readonly message: string };
}

/** Counts over the records of a run so far. */
export interface RunProgress {
  /** Cases recorded. */
  readonly completed: number;
  /** Cases planned (agents × cases × repetitions). */
  readonly planned: number;
  /** Records that passed. */
  readonly passed: number;
  /** Records that failed (scored, not passed). */
  readonly failed: number;
  /** Infrastructure errors (unscored). */
  readonly errors: number;
  /** Input tokens summed over records that report them. */
  readonly inputTokens: number;
  /** Output tokens summed over records that report them. */
  readonly outputTokens: number;
  /** Agent cost, USD (judge excluded), over records that report one; rounded to 1e-9 USD. */
  readonly costUsd: number;
  /** Judge cost, USD, rounded to 1e-9 USD. */
  readonly judgeCostUsd: number;
}

/** One row of `GET /api/runs`. */
export interface RunListItem extends RunProgress {
  /** Run id. */
  readonly runId: string;
  /** Suite id (`null` when unreadable). */
  readonly suiteId: string | null;
  /** State. */
  readonly state: RunState;
  /** Request time (workbench runs) or first start (CLI runs), ISO UTC. */
  readonly createdAt: string | null;
  /** First session start, ISO UTC. */
  readonly startedAt: string | null;
  /** End of the last session, ISO UTC, `null` while unfinished. */
  readonly endedAt: string | null;
  /** Agent ids in plan order. */
  readonly agentIds: readonly string[];
  /** Why a failed run failed. */
  readonly failure: string | null;
  /** The read-only source it comes from (`demo`), `null` for the runs folder itself. */
  readonly source: string | null;
  /**
   * `true` when an agent or judge of the run used a simulated model (the scripted one): its USD
   * figures are what the pricing would charge, not a bill.
   */
  readonly simulated: boolean;
}

/** A folder of runs the workbench shows but never writes into (the demo's). */
export interface RunSource {
  /** Absolute folder holding `<runId>/` folders. */
  readonly dir: string;
  /** Short name shown beside its runs, e.g. `demo`. */
  readonly label: string;
}

/** A run with its records (`GET /api/runs/{id}`). */
export interface RunDetail extends RunListItem {
  /** Every case record so far, in file order. */
  readonly results: readonly CaseRecord[];
  /** `run.json` as written (absent before the runner started). */
  readonly run: Record<string, unknown> | null;
}

/**
 * Counts the records so far.
 *
 * @param records Case records.
 * @param planned Cases planned.
 * @returns The progress counts.
 */
export function progressOf(records: readonly CaseRecord[], planned: number): RunProgress {
  let passed = 0, failed = 0, errors = 0, inputTokens = 0, outputTokens = 0, cost = 0, judge = 0;
  for (const r of records) {
    if (r.passed === true) passed++;
    else if (r.passed === false) failed++;
    else errors++;
    inputTokens += r.inputTokens ?? 0;
    outputTokens += r.outputTokens ?? 0;
    cost += r.costUsd ?? 0;
    judge += r.judge?.costUsd ?? 0;
  }
  return {
    completed: records.length,
    planned,
    passed,
    failed,
    errors,
    inputTokens,
    outputTokens,
    // Float sums of USD amounts carry noise below a nano-dollar (0.1 + 0.2): rounded there.
    costUsd: nanoUsd(cost),
    judgeCostUsd: nanoUsd(judge),
  };
}

/** `usd` rounded to 1e-9 USD. */
const nanoUsd = (usd: number): number => Math.round(usd * 1e9) / 1e9;

/**
 * The state of a run from its files and whether this server holds it.
 *
 * @param held `queued`/`running` when this server's queue has the run, else `undefined`.
 * @param sidecar `workbench.json`, if any.
 * @param runStatus `run.json`'s `status`, if the file exists.
 * @returns The state: held runs as held; a failure as `failed`; `complete` as `completed`;
 *   anything else (a runner that stopped mid-run, a request never started) as `interrupted`.
 */
export function runState(
  held: "queued" | "running" | undefined,
  sidecar: RunSidecar | null,
  runStatus: string | undefined,
): RunState {
  if (held !== undefined) return held;
  if (sidecar?.failure !== undefined) return "failed";
  if (runStatus === "complete") return "completed";
  return "interrupted";
}

/**
 * Why the runner stopped a run early (`run.json` `stopped.reason`: three refused keys, an
 * interrupt), or `null` when it did not.
 *
 * @param run `run.json` as written, or `null`.
 * @returns The reason, or `null`.
 */
export function stopReason(run: Record<string, unknown> | null): string | null {
  if (run?.status !== "stopped") return null;
  const stopped = run.stopped as { reason?: unknown } | null | undefined;
  return typeof stopped?.reason === "string" ? stopped.reason : "the runner stopped early";
}

/**
 * Whether a run used a simulated model. `run.json` lists the models the run needed (agents,
 * summarizers, judges), so one marked `simulated` means some figure of the run is simulated.
 *
 * @param run `run.json` as written, or `null`.
 * @returns `true` when one of its models is simulated.
 */
export function usedSimulatedModel(run: Record<string, unknown> | null): boolean {
  const models = Array.isArray(run?.models) ? run.models as { simulated?: unknown }[] : [];
  return models.some((m) => m?.simulated === true);
}

/**
 * A run whose files cannot be read (500): the reader's message, with the run's folder named by
 * its id (the answer names no path of this machine).
 */
export class UnreadableRun extends WorkbenchError {
  /**
   * Builds the error.
   *
   * @param message The reader's message, paths relative to the runs folder.
   */
  constructor(message: string) {
    super(500, message);
    this.name = "UnreadableRun";
  }
}

const isDir = (path: string) => Deno.stat(path).then((s) => s.isDirectory, () => false);

const transcriptName = (agentId: string, caseId: string, repetition: number) =>
  `${encodeURIComponent(agentId)}__${encodeURIComponent(caseId)}__${repetition}.json`;

const readText = (path: string) =>
  Deno.readTextFile(path).catch((e) => {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  });

/** The runs folder. */
export class RunStore {
  /** Absolute runs folder. */
  readonly dir: string;
  /** Folders shown beside it, read-only; a run id in `dir` hides the same id in them. */
  readonly sources: readonly RunSource[];
  /** What this server's queue holds (set by the queue). */
  held: (runId: string) => "queued" | "running" | undefined = () => undefined;
  /** The workbench's secrets: `workbench.json` (its failure message too) is written through it. */
  readonly #redactor: Redactor;

  /**
   * Wraps a runs folder.
   *
   * @param dir The runs folder (`results/runs`).
   * @param sources Read-only folders shown beside it.
   * @param redactor The workbench's secrets. @default {a redactor of nothing}
   */
  constructor(dir: string, sources: readonly RunSource[] = [], redactor = new Redactor()) {
    this.dir = dir;
    this.sources = sources;
    this.#redactor = redactor;
  }

  /**
   * Where a run's files are: its folder in the runs folder, or else in the first source that
   * has it.
   *
   * @param runId Run id (checked).
   * @returns The folder (the runs folder's when no one has it) and its source label.
   */
  async locate(runId: string): Promise<{ dir: string; source: string | null }> {
    const own = this.runDir(runId);
    if (await isDir(own)) return { dir: own, source: null };
    for (const s of this.sources) {
      const dir = join(s.dir, runId);
      if (await isDir(dir)) return { dir, source: s.label };
    }
    return { dir: own, source: null };
  }

  /**
   * A run's folder.
   *
   * @param runId Run id (checked).
   * @returns The path.
   * @throws {WorkbenchError} 400 on a malformed id.
   */
  runDir(runId: string): string {
    return join(this.dir, checkId(runId, "runId"));
  }

  /** Writes `workbench.json`. */
  async writeSidecar(sidecar: RunSidecar): Promise<void> {
    const dir = this.runDir(sidecar.runId);
    await Deno.mkdir(dir, { recursive: true });
    await writeAtomic(join(dir, "workbench.json"), stableJson(this.#redactor.json(sidecar)));
  }

  /** Reads `workbench.json` (`null` for a CLI run). */
  async sidecar(runId: string): Promise<RunSidecar | null> {
    const text = await readText(join((await this.locate(runId)).dir, "workbench.json"));
    return text === null ? null : JSON.parse(text) as RunSidecar;
  }

  /**
   * `run.json` and the records so far (`null` and none before the runner started).
   *
   * @param runId Run id.
   * @returns The document and the records.
   * @throws {UnreadableRun} when `run.json` or a line of `cases.jsonl` is malformed.
   */
  async run(runId: string): Promise<{ doc: RunDoc | null; records: CaseRecord[] }> {
    const { dir } = await this.locate(runId);
    if (!(await Deno.stat(join(dir, "run.json")).then(() => true, () => false))) {
      return { doc: null, records: [] };
    }
    try {
      const { doc, records } = await readRun(dir);
      return { doc, records };
    } catch (e) {
      if (e instanceof RunInputError) throw new UnreadableRun(e.message.replaceAll(dir, runId));
      throw e;
    }
  }

  /**
   * Creates a new run's folder if no run has its id: one `mkdir` in the runs folder, atomic
   * (a read-only source's run of that id counts as taken).
   *
   * @param runId Run id (checked).
   * @returns `true` when this call created it, `false` when the id was taken.
   */
  async claim(runId: string): Promise<boolean> {
    checkId(runId, "runId");
    if (await this.exists(runId)) return false;
    return await claimRunDir(this.dir, runId);
  }

  /** `true` when the folder exists (here or in a source). */
  async exists(runId: string): Promise<boolean> {
    return await isDir((await this.locate(runId)).dir);
  }

  /**
   * One run with its records.
   *
   * @param runId Run id.
   * @returns The run.
   * @throws {WorkbenchError} 404 when there is no such run folder.
   */
  async get(runId: string): Promise<RunDetail> {
    const { source } = await this.locate(runId);
    if (!(await this.exists(runId))) throw new WorkbenchError(404, `no run "${runId}"`, "runId");
    const [sidecar, { doc: run, records: results }] = await Promise.all([
      this.sidecar(runId).catch(() => null),
      this.run(runId),
    ]);
    const suite = (run?.suite ?? sidecar?.suite) as Suite | undefined;
    const agents = (run?.agents ?? sidecar?.agents) as { id: string }[] | undefined;
    const repetitions = Number(run?.repetitions ?? sidecar?.request.repetitions ?? 1);
    const planned = typeof run?.plannedCases === "number"
      ? run.plannedCases
      : (agents?.length ?? 0) * (suite?.cases.length ?? 0) * repetitions;
    return {
      runId,
      suiteId: suite?.id ?? null,
      state: runState(this.held(runId), sidecar, run?.status as string | undefined),
      createdAt: sidecar?.createdAt ?? (run?.startedAt as string | undefined) ?? null,
      startedAt: (run?.startedAt as string | undefined) ?? null,
      endedAt: run?.status === "complete" ? (run?.endedAt as string | null) ?? null : null,
      agentIds: agents?.map((a) => a.id) ?? [],
      failure: sidecar?.failure?.message ?? stopReason(run),
      source,
      simulated: usedSimulatedModel(run),
      ...progressOf(results, planned),
      results,
      run,
    };
  }

  /**
   * Every run folder (the runs folder's and the sources'), newest first (by request or start
   * time, then id).
   *
   * @returns One row per run id; a run whose files are malformed is listed as failed, with the
   *   reader's message; a folder that is not a run is left out.
   */
  async list(): Promise<RunListItem[]> {
    const ids = new Set<string>();
    for (const dir of [this.dir, ...this.sources.map((s) => s.dir)]) {
      try {
        for await (const e of Deno.readDir(dir)) {
          if (e.isDirectory && !e.name.startsWith(".")) ids.add(e.name);
        }
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
    }
    const rows: RunListItem[] = [];
    for (const id of ids) {
      try {
        const { results: _r, run: _j, ...row } = await this.get(id);
        rows.push(row);
      } catch (e) {
        if (e instanceof UnreadableRun) rows.push(await this.unreadable(id, e));
      }
    }
    return rows.sort((a, b) =>
      (b.createdAt ?? "").localeCompare(a.createdAt ?? "") || b.runId.localeCompare(a.runId)
    );
  }

  /** The list row of a run whose files cannot be read: failed, with the reader's message. */
  private async unreadable(runId: string, e: UnreadableRun): Promise<RunListItem> {
    return {
      runId,
      suiteId: null,
      state: "failed",
      createdAt: null,
      startedAt: null,
      endedAt: null,
      agentIds: [],
      failure: e.message,
      source: (await this.locate(runId)).source,
      simulated: false,
      ...progressOf([], 0),
    };
  }

  /** Where a case's transcript is kept (in the runs folder). */
  transcriptPath(runId: string, agentId: string, caseId: string, repetition: number): string {
    return join(this.runDir(runId), "transcripts", transcriptName(agentId, caseId, repetition));
  }

  /** A case's transcript (`null` when the run kept none, e.g. a CLI run). */
  async transcript(
    runId: string,
    agentId: string,
    caseId: string,
    repetition: number,
  ): Promise<unknown | null> {
    const { dir } = await this.locate(runId);
    const text = await readText(
      join(dir, "transcripts", transcriptName(agentId, caseId, repetition)),
    );
    return text === null ? null : JSON.parse(text);
  }
}
