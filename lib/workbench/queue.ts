/**
 * The run queue: FIFO, at most `maxConcurrentRuns` runs at once. State lives in the run folders
 * (the queue only knows what it holds right now), so a page reload shows the same thing and a
 * restart shows an unfinished run as `interrupted`, ready to resume.
 *
 * @module
 */

import type { AgentConfig, CaseRecord, Suite } from "../agent/types.ts";
import type { RunSidecar, RunStore } from "./run_store.ts";

/** One run to execute. */
export interface RunJob {
  /** Run id (its folder exists, with `workbench.json`). */
  readonly runId: string;
  /** Folder of the run. */
  readonly runDir: string;
  /** The request and its frozen suite and agents. */
  readonly sidecar: RunSidecar;
  /** Continue a run: skip recorded cases, duplicate none. */
  readonly resume: boolean;
}

/** Executes a run (the `lib/agent` runner in production). */
export interface Runner {
  /**
   * Runs a job to its end. Finished cases are appended to `cases.jsonl` as they finish.
   *
   * @param job The run.
   * @param onRecord Called after each finished case.
   * @throws Anything that stops the run as a whole; the queue records it as a failure.
   */
  run(job: RunJob, onRecord: (record: CaseRecord) => void): Promise<void>;
  /**
   * Checks, before a run is created, what would make it fail at once: a model not in the
   * registry, an API key variable that is not set. No network.
   *
   * @param agents The agents the run would use (versions and overrides applied).
   * @param suite The suite (its judge models count).
   * @returns What is wrong, one line, or `null`.
   */
  preflight?(agents: readonly AgentConfig[], suite: Suite): Promise<string | null>;
}

/** Inputs of {@linkcode RunQueue}. */
export interface RunQueueOptions {
  /** Runs in flight at once (≥ 1). @default 1 */
  readonly maxConcurrentRuns?: number;
  /** Executes runs. */
  readonly runner: Runner;
  /** The runs folder. */
  readonly store: RunStore;
  /** ISO time for failure records. */
  readonly isoNow: () => string;
}

/** FIFO run queue with bounded concurrency. */
export class RunQueue {
  readonly #max: number;
  readonly #runner: Runner;
  readonly #store: RunStore;
  readonly #isoNow: () => string;
  readonly #waiting: { runId: string; resume: boolean }[] = [];
  readonly #running = new Set<string>();
  readonly #done = new Map<string, Promise<void>>();
  readonly #listeners = new Set<(runId: string) => void>();

  /**
   * Creates an empty queue and tells the store what it holds.
   *
   * @param options See {@linkcode RunQueueOptions}.
   */
  constructor(options: RunQueueOptions) {
    const max = options.maxConcurrentRuns ?? 1;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(
        `Cannot create the run queue: maxConcurrentRuns must be >= 1, got ${max}`,
      );
    }
    this.#max = max;
    this.#runner = options.runner;
    this.#store = options.store;
    this.#isoNow = options.isoNow;
    this.#store.held = (id) => this.held(id);
  }

  /** `queued`/`running` while the queue holds the run, else `undefined`. */
  held(runId: string): "queued" | "running" | undefined {
    if (this.#running.has(runId)) return "running";
    if (this.#waiting.some((w) => w.runId === runId)) return "queued";
    return undefined;
  }

  /** Runs the queue holds, running first. */
  snapshot(): { running: string[]; queued: string[] } {
    return { running: [...this.#running], queued: this.#waiting.map((w) => w.runId) };
  }

  /**
   * Adds a run (its folder and `workbench.json` must exist).
   *
   * @param runId Run id.
   * @param resume Skip the cases already recorded.
   * @returns Settles when the run has ended (completed or failed).
   */
  enqueue(runId: string, resume = false): Promise<void> {
    const held = this.#done.get(runId);
    if (held !== undefined) return held;
    let resolve!: () => void;
    const done = new Promise<void>((r) => resolve = r);
    this.#done.set(runId, done);
    this.#resolvers.set(runId, resolve);
    this.#waiting.push({ runId, resume });
    this.#emit(runId);
    this.#pump();
    return done;
  }

  readonly #resolvers = new Map<string, () => void>();

  /** Subscribes to "something changed for run X" (state or a new record). */
  subscribe(listener: (runId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Settles when nothing is queued or running. */
  async idle(): Promise<void> {
    while (this.#done.size > 0) await Promise.all([...this.#done.values()]);
  }

  #emit(runId: string) {
    for (const l of this.#listeners) {
      try {
        l(runId);
      } catch { /* a listener's problem */ }
    }
  }

  #pump() {
    while (this.#running.size < this.#max && this.#waiting.length > 0) {
      const { runId, resume } = this.#waiting.shift()!;
      this.#running.add(runId);
      this.#emit(runId);
      this.#start(runId, resume).finally(() => {
        this.#running.delete(runId);
        this.#emit(runId);
        this.#done.delete(runId);
        this.#resolvers.get(runId)?.();
        this.#resolvers.delete(runId);
        this.#pump();
      });
    }
  }

  async #start(runId: string, resume: boolean): Promise<void> {
    let sidecar: RunSidecar | null = null;
    try {
      sidecar = await this.#store.sidecar(runId);
      if (sidecar === null) throw new Error(`run "${runId}" has no workbench.json`);
      if (sidecar.failure !== undefined) {
        const { failure: _f, ...rest } = sidecar;
        sidecar = rest;
        await this.#store.writeSidecar(sidecar);
      }
      await this.#runner.run(
        { runId, runDir: this.#store.runDir(runId), sidecar, resume },
        () => this.#emit(runId),
      );
    } catch (e) {
      const message = String((e as Error)?.message ?? e).split("\n")[0];
      if (sidecar !== null) {
        await this.#store.writeSidecar({ ...sidecar, failure: { at: this.#isoNow(), message } })
          .catch(() => {});
      }
    }
  }
}
