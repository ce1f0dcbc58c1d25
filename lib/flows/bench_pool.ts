/**
 * The bench's worker pool (an I/O edge: it starts Deno workers): the calling thread is one lane
 * and `lanes - 1` module workers (lib/flows/bench_worker.ts) are the others. Each worker gets the
 * job context once (one structured clone of the corpora per worker, never one per job) and
 * builds its own arms and tokenizers; jobs go to whichever lane is free, the biggest kinds
 * first, and results land by job index, so the report is the same bytes as the in-process pool.
 *
 * @module
 */
import type {
  BenchJob,
  BenchJobContext,
  BenchJobResult,
  BenchPool,
  BenchPoolFactory,
} from "./bench_jobs.ts";
import type { FromBenchWorker, ToBenchWorker } from "./bench_worker.ts";

/** Jobs a worker holds at once: the one it runs and the next, so it never waits on the caller. */
const WORKER_DEPTH = 2;

/** Execution order of the job kinds: the biggest first, so the last jobs to finish are small. */
const KIND_ORDER: Record<BenchJob["kind"], number> = {
  arms: 0,
  modes: 1,
  retrieval: 2,
  frontier: 3,
  compare: 4,
};

/**
 * A pool of `lanes` lanes: the calling thread and `lanes - 1` workers, started when the bench
 * hands over its context and terminated when it closes the pool. Jobs marked `local` (endpoint
 * retrievers) run on the calling thread only. Workers run with the calling process's
 * permissions. Progress lines of a worker's jobs end with `(worker N)`.
 *
 * @param lanes Parallel lanes, ≥ 1 (1: the calling thread alone).
 * @returns A pool factory for `RunBenchOptions.pool`.
 * @throws {RangeError} When `lanes` is not a positive integer.
 */
export function workerBenchPool(lanes: number): BenchPoolFactory {
  if (!Number.isInteger(lanes) || lanes < 1) {
    throw new RangeError(`Cannot start a bench pool as lanes must be a positive integer: ${lanes}`);
  }
  return (context) => new WorkerPool(context, lanes - 1);
}

class WorkerPool implements BenchPool {
  readonly #workers: Worker[] = [];

  constructor(context: BenchJobContext, count: number) {
    for (let i = 0; i < count; i++) {
      const worker = new Worker(new URL("./bench_worker.ts", import.meta.url), {
        type: "module",
      });
      worker.postMessage({ type: "context", context } satisfies ToBenchWorker);
      this.#workers.push(worker);
    }
  }

  run(
    jobs: readonly BenchJob[],
    local: (job: BenchJob, say: (m: string) => void) => Promise<BenchJobResult>,
    say: (message: string) => void,
  ): Promise<BenchJobResult[]> {
    const pending = jobs.map((_, i) => i).sort((a, b) =>
      KIND_ORDER[jobs[a].kind] - KIND_ORDER[jobs[b].kind] || a - b
    );
    const results: BenchJobResult[] = new Array(jobs.length);
    let left = jobs.length;
    return new Promise<BenchJobResult[]>((resolve, reject) => {
      let failed = false;
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        reject(error);
      };
      const done = (index: number, result: BenchJobResult) => {
        results[index] = result;
        if (--left === 0) resolve(results);
      };
      const take = (localLane: boolean): number | undefined => {
        const at = pending.findIndex((i) => localLane || !jobs[i].local);
        return at < 0 ? undefined : pending.splice(at, 1)[0];
      };
      if (left === 0) {
        resolve(results);
        return;
      }
      for (const [w, worker] of this.#workers.entries()) {
        let held = 0;
        const feed = () => {
          while (!failed && held < WORKER_DEPTH) {
            const index = take(false);
            if (index === undefined) return;
            held++;
            worker.postMessage({ type: "job", index, job: jobs[index] } satisfies ToBenchWorker);
          }
        };
        worker.onmessage = (event: MessageEvent<FromBenchWorker>) => {
          const m = event.data;
          if (m.type === "start") say(`${jobs[m.index].label} (worker ${w + 1})`);
          else if (m.type === "progress") say(`${m.message} (worker ${w + 1})`);
          else if (m.type === "error") fail(new Error(m.message));
          else {
            held--;
            done(m.index, m.result as BenchJobResult);
            feed();
          }
        };
        worker.onerror = (event: ErrorEvent) => {
          event.preventDefault();
          fail(new Error(`bench worker ${w + 1} failed: ${event.message}`));
        };
        feed();
      }
      (async () => {
        for (let index = take(true); index !== undefined && !failed; index = take(true)) {
          say(jobs[index].label);
          done(index, await local(jobs[index], say));
          // Let the workers' replies in (and their next jobs out) between two jobs here.
          await new Promise((r) => setTimeout(r, 0));
        }
      })().catch(fail);
    });
  }

  close(): void {
    for (const worker of this.#workers) worker.terminate();
    this.#workers.length = 0;
  }
}
