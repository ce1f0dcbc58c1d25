/**
 * The bench's worker pool (an I/O edge: it starts Deno workers): the calling thread is one lane
 * and `lanes - 1` module workers (lib/flows/bench_worker.ts) are the others. Each worker gets the
 * job context once (a corpus loaded from a file as that file's name, which the worker loads
 * itself, from `prefetch` on beside the calling thread; any other corpus as one structured
 * clone per worker, never one per job) and
 * builds its own arms and tokenizers; every lane claims the next chain of jobs (a retriever's
 * jobs, one arms group, the modes: {@linkcode jobChain}) from one shared counter (Atomics over
 * a SharedArrayBuffer), the biggest kinds first, so no lane waits to be handed work and no lane
 * rebuilds what another's chain keeps; results land by job index, so the report is the same
 * bytes as the in-process pool.
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

/** Execution order of the job kinds: the biggest first, so the last jobs to finish are small. */
const KIND_ORDER: Record<BenchJob["kind"], number> = {
  arms: 0,
  modes: 1,
  retrieval: 2,
  frontier: 3,
  compare: 4,
};

/**
 * The lane-affinity key of a job: the jobs of one key run on one lane, one after another in
 * list order, so what one leaves in its lane's exact caches is there for the next (a
 * retriever's index for its other golden sets, the saved hits its frontier re-reads); a job
 * of another lane would build them again. Retrieval and frontier jobs key by corpus ×
 * retriever, modes by corpus; each arms job (a group of arms) and paired-test job is its own.
 *
 * @param job A job.
 * @param index Its index in the bench's list.
 * @returns The key.
 */
export function jobChain(job: BenchJob, index: number): string {
  const where = job.local ? "local" : "shared";
  switch (job.kind) {
    case "retrieval":
    case "frontier":
      return `${where}/retrieval/${job.corpus}/${job.retriever}`;
    case "modes":
      return `${where}/modes/${job.corpus}`;
    case "arms":
    case "compare":
      return `${where}/${job.kind}/${index}`;
  }
}

/**
 * The jobs as chains ({@linkcode jobChain}), each chain's jobs in list order, in claim order:
 * by the kind of a chain's first job ({@linkcode KIND_ORDER}, the biggest first), then the
 * longer chain first, then list order. Local chains (endpoint retrievers) are listed apart.
 *
 * @param jobs The bench's jobs.
 * @returns The chains of job indices.
 */
export function planChains(jobs: readonly BenchJob[]): {
  readonly local: readonly (readonly number[])[];
  readonly shared: readonly (readonly number[])[];
} {
  const byKey = new Map<string, number[]>();
  for (const [i, job] of jobs.entries()) {
    const key = jobChain(job, i);
    const chain = byKey.get(key);
    if (chain === undefined) byKey.set(key, [i]);
    else chain.push(i);
  }
  const chains = [...byKey.values()].sort((a, b) =>
    KIND_ORDER[jobs[a[0]].kind] - KIND_ORDER[jobs[b[0]].kind] || b.length - a.length ||
    a[0] - b[0]
  );
  return {
    local: chains.filter((c) => jobs[c[0]].local),
    shared: chains.filter((c) => !jobs[c[0]].local),
  };
}

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
   * tools than this in all; the workers then start at `load`, not when the pool is made, so a
   * small bench never pays for them. Below it a second lane costs more than it saves: each
   * lane starts its own modules, arms and tokenizers and builds its own retrieval indexes, which
   * one lane builds once and reuses. @default {0} (always every lane)
   */
  readonly minTools?: number;
}

/**
 * A pool of `lanes` lanes: the calling thread and `lanes - 1` workers, started when the bench
 * begins (their modules load while it reads its inputs; with `minTools`, at `load`) and
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

  constructor(count: number, waitForWorkers: boolean, minTools: number) {
    this.lanes = count + 1;
    this.#waitForWorkers = waitForWorkers;
    this.#minTools = minTools;
    // Started now, so their modules load while the bench reads its inputs; with a minTools,
    // at load, once the corpora's size says whether they are worth it.
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
    // Only workers started with the pool: with a minTools, the corpora's size decides first.
    for (const worker of this.#workers) {
      worker.postMessage({ type: "prefetch", files } satisfies ToBenchWorker);
    }
  }

  load(context: BenchJobContext, files?: readonly (CorpusFile | undefined)[]): void {
    if (this.#minTools > 0) {
      const tools = context.corpora.reduce((n, c) => n + c.tools.length, 0);
      if (tools < this.#minTools) this.lanes = 1;
      else this.#start();
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
    const chains = planChains(jobs);
    const localOnly = [...chains.local];
    const batch: SharedBatch = {
      chains: chains.shared.map((chain) => chain.map((index) => ({ index, job: jobs[index] }))),
      claim: new Int32Array(new SharedArrayBuffer(8)),
    };
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
        const claim = () => {
          const k = Atomics.add(batch.claim, 0, 1);
          return k < batch.chains.length ? batch.chains[k].map((j) => j.index) : undefined;
        };
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
