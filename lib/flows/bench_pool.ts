/**
 * The bench's worker pool (an I/O edge: it starts Deno workers): the calling thread is one lane
 * and `lanes - 1` module workers (lib/flows/bench_worker.ts) are the others. Each worker gets the
 * job context once (a corpus loaded from a file as that file's name, which the worker loads
 * itself, from `prefetch` on beside the calling thread; any other corpus as one structured
 * clone per worker, never one per job) and
 * builds its own arms and tokenizers; every lane claims the next chain of jobs (a retriever's
 * jobs, an arms group, a corpus's modes and first arms group: `planChains` in
 * lib/flows/bench_plan.ts) from shared counters (Atomics over a SharedArrayBuffer), so no lane
 * waits to be handed work and no lane rebuilds what another's chain keeps: the workers from the
 * front of the claim order (the costliest first), the calling thread from the front or the back,
 * whichever the plan estimates ends sooner (`mainClaimEnd`); results land by job index, so the
 * report is the same bytes as the in-process pool.
 *
 * @module
 */
import type {
  BenchJob,
  BenchJobContext,
  BenchJobResult,
  BenchPool,
  BenchPoolFactory,
  CorpusFile,
} from "./bench_jobs.ts";
import type { FromBenchWorker, SharedBatch, ToBenchWorker } from "./bench_worker.ts";
import { claimChain, mainClaimEnd, newClaim, planChains } from "./bench_plan.ts";

/** Options of {@linkcode workerBenchPool}. */
export interface WorkerBenchPoolOptions {
  /**
   * The calling thread claims its first shared job only once every worker has built its lane
   * (arms and tokenizers), so every lane takes part even when the jobs are few and quick, at the
   * cost of the calling thread idling while the workers start. For tests that must see a
   * worker's results; the report is the same bytes either way. @default {false}
   */
  readonly waitForWorkers?: boolean;
  /**
   * Run on the calling thread alone (`lanes` becomes 1 at `load`) when the corpora hold fewer
   * tools than this in all. The workers start at `prefetch` when the corpus files hold at
   * least {@linkcode PREFETCH_BYTES_PER_TOOL} bytes per tool of this (so they load the corpora
   * beside the calling thread; stopped at `load` should the corpora hold fewer tools after
   * all), else at `load`, so a small bench never pays for them. Below it a second lane costs
   * more than it saves: each lane starts its own modules, arms and tokenizers and loads its
   * own copy of the corpus. @default {0} (always every lane)
   */
  readonly minTools?: number;
}

/**
 * Bytes of a corpus file per tool from which a `minTools` pool starts its workers at `prefetch`
 * (before the corpus is loaded, so they load it beside the calling thread): files of at least
 * `minTools × PREFETCH_BYTES_PER_TOOL` bytes. Files of mcpmeter's catalog formats hold 1.1 KB
 * (LiveMCPBench's tools.json) to 3.9 KB (the reference corpus) per tool, the synthetic
 * catalogs 1.9-2.3 KB; this is above the synthetic catalogs', so a synthetic catalog below
 * `minTools` never starts workers it would stop at `load`: on synth_40000_s1 (92.9 MB, below the
 * 50,000 tools of the bench's default) a worker started at prefetch and stopped at load cost
 * 23.3 s against 19.3-20.2 s without it (this 2-core machine, idle), as the two parsers and
 * collectors shared the cores. A file below this size with `minTools` tools or more starts its
 * workers at `load` (they load after the calling thread); one above it with fewer (a large
 * reference-like file) still starts and stops them.
 */
export const PREFETCH_BYTES_PER_TOOL = 2_500;

/**
 * A pool of `lanes` lanes: the calling thread and `lanes - 1` workers, started when the bench
 * begins (their modules load while it reads its inputs; with `minTools`, at `prefetch` or
 * `load`) and
 * terminated when it closes the pool. Jobs marked `local` (endpoint retrievers) run on the
 * calling thread only. Workers run with the calling process's
 * permissions. Progress lines of a worker's jobs end with `(worker N)`.
 *
 * @param lanes Parallel lanes, ≥ 1 (1: the calling thread alone).
 * @param options When the calling thread starts claiming; below which size one lane runs.
 * @returns A pool factory for `RunBenchOptions.pool`.
 * @throws {RangeError} When `lanes` is not a positive integer.
 */
export function workerBenchPool(
  lanes: number,
  options: WorkerBenchPoolOptions = {},
): BenchPoolFactory {
  if (!Number.isInteger(lanes) || lanes < 1) {
    throw new RangeError(`Cannot start a bench pool as lanes must be a positive integer: ${lanes}`);
  }
  return () => new WorkerPool(lanes - 1, options.waitForWorkers ?? false, options.minTools ?? 0);
}

class WorkerPool implements BenchPool {
  lanes: number;
  readonly #workers: Worker[] = [];
  /** The first uncaught worker error (e.g. its module failed to load), kept for `run`. */
  #failure: Error | undefined;
  #onFailure: ((error: Error) => void) | undefined;
  /** Resolves when every worker has built its lane; waited for only with `waitForWorkers`. */
  #ready: Promise<void> = Promise.resolve();
  /** Per worker, marks it ready (whichever message handler sees its `ready`). */
  readonly #markReady: (() => void)[] = [];
  readonly #waitForWorkers: boolean;
  readonly #minTools: number;
  /** Tools per corpus and the arm names, from `load`: what the claim plan weighs. */
  #tools: readonly number[] = [];
  #armNames: readonly string[] = [];

  constructor(count: number, waitForWorkers: boolean, minTools: number) {
    this.lanes = count + 1;
    this.#waitForWorkers = waitForWorkers;
    this.#minTools = minTools;
    // Started now, so their modules load while the bench reads its inputs; with a minTools,
    // at prefetch when the files are that big, else at load, once the corpora's size says
    // whether they are worth it.
    if (minTools <= 0) this.#start();
  }

  #start(): void {
    const ready: Promise<void>[] = [];
    for (let i = 0; i < this.lanes - 1; i++) {
      const worker = new Worker(new URL("./bench_worker.ts", import.meta.url), {
        type: "module",
      });
      ready.push(new Promise<void>((resolve) => this.#markReady.push(resolve)));
      worker.onmessage = (event: MessageEvent<FromBenchWorker>) => {
        if (event.data.type === "ready") this.#markReady[i]();
      };
      // Handled from the start: an unhandled worker error would end this process too.
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        this.#failure ??= new Error(`bench worker ${i + 1} failed: ${event.message}`);
        this.#onFailure?.(this.#failure);
      };
      this.#workers.push(worker);
    }
    this.#ready = Promise.all(ready).then(() => {});
  }

  prefetch(files: readonly CorpusFile[]): void {
    // With a minTools, files big enough to hold that many tools start the workers now, so they
    // load beside this thread; load() stops them should the corpora hold fewer tools.
    if (this.#minTools > 0 && this.#workers.length === 0 && this.lanes > 1) {
      const bytes = files.reduce((n, f) => n + fileSize(f.path), 0);
      if (bytes >= this.#minTools * PREFETCH_BYTES_PER_TOOL) this.#start();
    }
    for (const worker of this.#workers) {
      worker.postMessage({ type: "prefetch", files } satisfies ToBenchWorker);
    }
  }

  load(context: BenchJobContext, files?: readonly (CorpusFile | undefined)[]): void {
    this.#tools = context.corpora.map((c) => c.tools.length);
    this.#armNames = context.armNames;
    if (this.#minTools > 0) {
      const tools = context.corpora.reduce((n, c) => n + c.tools.length, 0);
      if (tools < this.#minTools) {
        // Started at prefetch on the files' size: not needed after all.
        this.close();
        this.#failure = undefined;
        this.#ready = Promise.resolve();
        this.lanes = 1;
      } else if (this.#workers.length === 0) this.#start();
    }
    if (this.#workers.length === 0) return;
    // A corpus with its file goes by name (each worker loads it, beside this thread, instead
    // of this thread cloning it for each); any other as a copy.
    const message: ToBenchWorker = {
      type: "context",
      context: {
        ...context,
        corpora: context.corpora.map((c, i) => files?.[i] === undefined ? c : null),
      },
      files: context.corpora.map((_, i) => files?.[i] ?? null),
    };
    for (const worker of this.#workers) worker.postMessage(message);
  }

  run(
    jobs: readonly BenchJob[],
    local: (job: BenchJob, say: (m: string) => void) => Promise<BenchJobResult>,
    say: (message: string) => void,
  ): Promise<BenchJobResult[]> {
    // Any lane claims the shared chains; the calling thread alone runs the local ones, first.
    const chains = planChains(jobs, this.#tools, this.#armNames);
    const localOnly = [...chains.local];
    const batch: SharedBatch = {
      chains: chains.shared.map((chain) => chain.map((index) => ({ index, job: jobs[index] }))),
      claim: newClaim(),
    };
    // With no worker the calling thread claims every chain, from the front.
    const end = this.#workers.length === 0 ? "front" : mainClaimEnd(chains.weights, this.lanes).end;
    const results: BenchJobResult[] = new Array(jobs.length);
    let left = jobs.length;
    return new Promise<BenchJobResult[]>((resolve, reject) => {
      let failed = false;
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        Atomics.store(batch.claim, 1, 1);
        reject(error);
      };
      const done = (index: number, result: BenchJobResult) => {
        results[index] = result;
        if (--left === 0) resolve(results);
      };
      if (left === 0) {
        resolve(results);
        return;
      }
      if (this.#failure !== undefined) {
        fail(this.#failure);
        return;
      }
      this.#onFailure = fail;
      for (const [w, worker] of this.#workers.entries()) {
        worker.onmessage = (event: MessageEvent<FromBenchWorker>) => {
          const m = event.data;
          if (m.type === "ready") this.#markReady[w]();
          else if (m.type === "start") say(`${jobs[m.index].label} (worker ${w + 1})`);
          else if (m.type === "progress") say(`${m.message} (worker ${w + 1})`);
          else if (m.type === "error") fail(new Error(m.message));
          else done(m.index, m.result as BenchJobResult);
        };
        worker.postMessage({ type: "batch", batch } satisfies ToBenchWorker);
      }
      (async () => {
        // A worker that fails to start fails the run (onerror, or its first batch's error);
        // the loop below then claims nothing.
        if (this.#waitForWorkers) await this.#ready;
        const claim = () => claimChain(batch, end)?.map((j) => j.index);
        for (let chain = localOnly.shift() ?? claim(); chain !== undefined && !failed;) {
          for (const index of chain) {
            if (failed) break;
            say(jobs[index].label);
            done(index, await local(jobs[index], say));
            // Let the workers' messages in between two jobs here.
            await new Promise((r) => setTimeout(r, 0));
          }
          chain = localOnly.shift() ?? claim();
        }
      })().catch(fail);
    });
  }

  close(): void {
    for (const worker of this.#workers) worker.terminate();
    this.#workers.length = 0;
  }
}

/** A file's size in bytes, 0 when it cannot be read (its loading then says why). */
function fileSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}
