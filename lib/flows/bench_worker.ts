/**
 * The worker side of {@linkcode import("./bench_pool.ts").workerBenchPool}: receives the bench's
 * job context once, builds its own lane (arms and tokenizers), then runs the jobs it is sent and
 * posts each result back with the job's index. Runs with the permissions of the process that
 * started it (Deno's default for workers); it reads no file.
 *
 * Messages in: `{ type: "context", context }` once, then `{ type: "job", index, job }`.
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

/** A message the pool sends to a worker. */
export type ToBenchWorker =
  | { readonly type: "context"; readonly context: BenchJobContext }
  | { readonly type: "job"; readonly index: number; readonly job: BenchJob };

/** A message a worker sends to the pool. */
export type FromBenchWorker =
  | { readonly type: "start"; readonly index: number }
  | { readonly type: "progress"; readonly message: string }
  | { readonly type: "result"; readonly index: number; readonly result: unknown }
  | { readonly type: "error"; readonly index: number; readonly message: string };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ToBenchWorker>) => void) | null;
  postMessage(message: FromBenchWorker): void;
};

let runner: Promise<BenchJobRunner> | undefined;
// Jobs run one after another, in arrival order (the pool may send the next before this ends).
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === "context") {
    runner = benchLane(message.context).then(benchJobRunner);
    return;
  }
  const { index, job } = message;
  queue = queue.then(async () => {
    try {
      if (runner === undefined) throw new Error("bench worker: a job arrived before its context");
      const run = await runner;
      scope.postMessage({ type: "start", index });
      const result = await run(job, (m) => scope.postMessage({ type: "progress", message: m }));
      scope.postMessage({ type: "result", index, result });
    } catch (error) {
      scope.postMessage({
        type: "error",
        index,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  });
};
