/**
 * The worker side of {@linkcode import("./bench_pool.ts").workerBenchPool}: receives the bench's
 * job context once, builds its own lane (arms and tokenizers), then for each batch claims chains
 * of jobs from the batch's shared counter (the same counter the calling thread claims from, so no
 * lane waits on another to be handed work), runs each chain's jobs in order and posts each result
 * back with the job's index. Runs
 * with the permissions of the process that started it (Deno's default for workers); it reads
 * only the corpus files the pool names (lib/catalog's `loadCatalog`, as the calling thread
 * loads them), each checked against the sha256 the calling thread measured.
 *
 * Messages in: `{ type: "prefetch", files }` (optional: start loading the corpora's files),
 * `{ type: "context", context, files }` once, then `{ type: "batch", batch }`.
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
  type CorpusFile,
} from "./bench_jobs.ts";
import { type ClaimableBatch, claimChain } from "./bench_plan.ts";
import { loadCatalog } from "../catalog/load.ts";
import type { Corpus } from "../catalog/types.ts";

/**
 * A batch as the lanes share it: `chains[k]` is a chain of jobs (each job `index` of the
 * bench's list) that one lane runs in order; a worker claims chains from the front
 * (lib/flows/bench_plan.ts `claimChain`) until none is left, and stops when `claim[1]` is set
 * (a lane failed).
 */
export type SharedBatch = ClaimableBatch<
  readonly { readonly index: number; readonly job: BenchJob }[]
>;

/**
 * The context as sent to a worker: a corpus with a file in `files` is `null` here (the worker
 * loads it), any other is a copy.
 */
export type WorkerContext = Omit<BenchJobContext, "corpora"> & {
  readonly corpora: readonly (Corpus | null)[];
};

/** A message the pool sends to a worker. */
export type ToBenchWorker =
  | { readonly type: "prefetch"; readonly files: readonly CorpusFile[] }
  | {
    readonly type: "context";
    readonly context: WorkerContext;
    /** Per corpus, its file (loaded here, checked against its sha256) or null (copied). */
    readonly files: readonly (CorpusFile | null)[];
  }
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
// The corpora being loaded from their files, by path and format, one file at a time.
const loading = new Map<string, Promise<Corpus>>();
let lastLoad: Promise<unknown> = Promise.resolve();
const fileKey = (f: CorpusFile) => `${f.format ?? ""}\n${f.path}`;
const loadFile = (file: CorpusFile): Promise<Corpus> => {
  let corpus = loading.get(fileKey(file));
  if (corpus === undefined) {
    corpus = lastLoad.then(() =>
      loadCatalog(file.path, file.format === undefined ? {} : { format: file.format })
    );
    lastLoad = corpus.catch(() => {});
    loading.set(fileKey(file), corpus);
  }
  return corpus;
};

/** The context with every corpus: copied, or loaded here and checked against its sha256. */
async function fullContext(
  context: WorkerContext,
  files: readonly (CorpusFile | null)[],
): Promise<BenchJobContext> {
  const corpora: Corpus[] = [];
  for (const [i, copied] of context.corpora.entries()) {
    const file = files[i];
    if (copied !== null) corpora.push(copied);
    else if (file === null || file === undefined) {
      throw new Error(`bench worker: corpus ${i} came with neither a copy nor a file`);
    } else {
      const corpus = await loadFile(file);
      if (corpus.provenance.sha256 !== file.sha256) {
        throw new Error(
          `bench worker: ${file.path} changed while the bench read it (sha256 ${corpus.provenance.sha256}, measured ${file.sha256})`,
        );
      }
      corpora.push(corpus);
    }
  }
  loading.clear();
  return { ...context, corpora };
}
// Batches run one after another, in arrival order.
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === "prefetch") {
    // Started now, awaited (and any failure met) when the context names the file.
    for (const file of message.files) loadFile(file).catch(() => {});
    return;
  }
  if (message.type === "context") {
    runner = fullContext(message.context, message.files).then(benchLane).then(benchJobRunner);
    // Ready once its arms and tokenizers are built (a failure surfaces with the first batch).
    runner.then(() => scope.postMessage({ type: "ready" }), () => {});
    return;
  }
  const { batch } = message;
  const { claim } = batch;
  queue = queue.then(async () => {
    let index = -1;
    try {
      if (runner === undefined) throw new Error("bench worker: a batch arrived before its context");
      const run = await runner;
      for (let chain = claimChain(batch, "front"); chain; chain = claimChain(batch, "front")) {
        for (const { index: i, job } of chain) {
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
