/**
 * The worker side of {@linkcode import("./bench_pool.ts").workerBenchPool}: receives the bench's
 * job context once, builds its own lane (arms and tokenizers), then for each batch claims chains
 * of jobs from the batch's shared counter (the same counter the calling thread claims from, so no
 * lane waits on another to be handed work), runs each chain's jobs in order and posts each result
 * back with the job's index. Runs
 * with the permissions of the process that started it (Deno's default for workers); it reads
 * no file.
 *
 * Messages in: `{ type: "context", context }` once, then `{ type: "batch", chains, claim }`.
 * Messages out: `{ type: "start", index }`, `{ type: "progress", message }`,
 * `{ type: "result", index, result }`, `{ type: "error", index, message }`.
 *
 * @module
 */
import {
  type BenchJob,
  type BenchJobContext,
  type BenchJobRunner,
  benchJobRunner,
  benchLane,
} from "./bench_jobs.ts";

/**
 * A batch as the lanes share it: `chains[k]` is a chain of jobs (each job `index` of the
 * bench's list) that one lane runs in order; a lane claims `k = Atomics.add(claim, 0, 1)`
 * until `k ≥ chains.length`, and stops when `claim[1]` is set (a lane failed).
 */
export interface SharedBatch {
  /** The chains any lane may run, in claim order, each job with its index in the bench's list. */
  readonly chains: readonly (readonly { readonly index: number; readonly job: BenchJob }[])[];
  /** `[next claim, stop flag]` over a SharedArrayBuffer. */
  readonly claim: Int32Array;
}

/** A message the pool sends to a worker. */
export type ToBenchWorker =
  | { readonly type: "context"; readonly context: BenchJobContext }
  | { readonly type: "batch"; readonly batch: SharedBatch };

/** A message a worker sends to the pool. */
export type FromBenchWorker =
  | { readonly type: "ready" }
  | { readonly type: "start"; readonly index: number }
  | { readonly type: "progress"; readonly message: string }
  | { readonly type: "result"; readonly index: number; readonly result: unknown }
  | { readonly type: "error"; readonly index: number; readonly message: string };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ToBenchWorker>) => void) | null;
  postMessage(message: FromBenchWorker): void;
};

let runner: Promise<BenchJobRunner> | undefined;
// Batches run one after another, in arrival order.
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === "context") {
    runner = benchLane(message.context).then(benchJobRunner);
    // Ready once its arms and tokenizers are built (a failure surfaces with the first batch).
    runner.then(() => scope.postMessage({ type: "ready" }), () => {});
    return;
  }
  const { chains, claim } = message.batch;
  queue = queue.then(async () => {
    let index = -1;
    try {
      if (runner === undefined) throw new Error("bench worker: a batch arrived before its context");
      const run = await runner;
      for (let k = Atomics.add(claim, 0, 1); k < chains.length; k = Atomics.add(claim, 0, 1)) {
        for (const { index: i, job } of chains[k]) {
          if (Atomics.load(claim, 1) !== 0) return;
          index = i;
          scope.postMessage({ type: "start", index });
          const result = await run(job, (m) => scope.postMessage({ type: "progress", message: m }));
          scope.postMessage({ type: "result", index, result });
        }
      }
    } catch (error) {
      Atomics.store(claim, 1, 1);
      scope.postMessage({
        type: "error",
        index,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
};
