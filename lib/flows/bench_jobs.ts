/**
 * The bench's independent jobs (catalog cost per corpus, encoding arms per corpus (in groups of
 * arms when lanes share them), each over every tokenizer; retrieval per golden set × retriever ×
 * index, cost-quality frontier per golden set × retriever, then the paired tests per scored
 * row), how one lane runs them, and how their results merge back in a fixed order.
 *
 * A job is plain data (indices into a {@linkcode BenchJobContext} and names, or the two rows a
 * comparison reads), so a lane may be
 * the calling thread or a worker that received the context once. Each job's result depends on
 * the job and the context alone, never on which lane ran it or what ran before it there (the
 * caches a lane keeps, tokenizer memos, indexes, searched hits and the frontier's item counts,
 * are exact); so a
 * {@linkcode BenchPool} that runs jobs in any order on any lanes yields the same report as the
 * in-process {@linkcode inProcessBenchPool}, byte for byte.
 *
 * @module
 */
import type { CatalogFormat, Corpus, Tool } from "../catalog/types.ts";
import { type CatalogCostSections, measureCatalogCost } from "../modes/catalog_cost.ts";
import {
  type ArmRow,
  type EncodingArm,
  loadArms,
  measureArms,
  type UnavailableArm,
} from "../encodings/mod.ts";
import type { GoldenSet, Hit, Retriever } from "../retrieval/types.ts";
import { alignGolden } from "../retrieval/align.ts";
import { docsFromTools } from "../retrieval/docs.ts";
import {
  type BaselineComparison,
  compareToBaseline,
  evaluateRetrieval,
  evaluateRetrievalAsync,
  type IndexArm,
  type PackageInfo,
  packageInfoArm,
  type RetrievalResult,
  retrieverEntry,
  type RetrieverName,
} from "../retrieval/mod.ts";
import { FRONTIER_MAX_K, type FrontierRow, measureFrontier } from "../live/frontier.ts";
import { createDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import { forgetCounts } from "../tokens/shared_counts.ts";
import type { Tokenizer, TokenizerName } from "../tokens/types.ts";
import { endpointContext, type RetrieverModels } from "./retriever_models.ts";

/**
 * What every job reads, loaded once by the bench and handed to each lane once (a worker gets a
 * structured clone, once per worker, never per job). Plain data only: arms and tokenizers are
 * named, each lane builds its own.
 */
export interface BenchJobContext {
  /** The measured corpora, overrides applied. */
  readonly corpora: readonly Corpus[];
  /** The golden sets scored. */
  readonly goldenSets: readonly GoldenSet[];
  /** Tokenizer names, in report column order. */
  readonly tokenizerNames: readonly TokenizerName[];
  /** Encoding arm names, in report order. */
  readonly armNames: readonly string[];
  /** `--package-info` parsed (server → info): adds the `package_info` index arm. */
  readonly packageInfo?: ReadonlyMap<string, PackageInfo>;
  /** The `proxy` mode's catalog. */
  readonly proxyTools: readonly Tool[];
  /** The `code` mode's catalog. */
  readonly codeTools: readonly Tool[];
  /** Seed of every random draw. */
  readonly seed: number;
  /** Bootstrap resamples per metric. */
  readonly resamples: number;
}

/**
 * A corpus as a file a lane may load itself (lib/catalog's `loadCatalog` of `path` with `format`)
 * instead of receiving a copy: the same bytes parse to the same corpus. `sha256` (once the
 * calling thread has loaded it) is the hash of the bytes it measured: a lane that reads other
 * bytes (the file changed) fails the run.
 */
export interface CorpusFile {
  /** The path, as the calling thread loads it. */
  readonly path: string;
  /** `--format`, when given. */
  readonly format?: CatalogFormat;
  /** `provenance.sha256` of the calling thread's corpus; absent before it loaded. */
  readonly sha256?: string;
}

/**
 * One independent unit of bench work. `label` is its progress line; `local` jobs (retrievers
 * that call an endpoint, whose keys, caches and fetch stay in the calling thread) run on the
 * calling thread's lane only.
 */
export type BenchJob =
  & { readonly label: string; readonly local: boolean }
  & (
    | {
      readonly kind: "modes";
      readonly corpus: number;
      /** Indices into `tokenizerNames`, in order. */
      readonly tokenizers: readonly number[];
    }
    | {
      readonly kind: "arms";
      readonly corpus: number;
      /** Indices into `tokenizerNames`, in order. */
      readonly tokenizers: readonly number[];
      /**
       * Indices into `armNames`, in order: one group of `armGroups` (lib/flows/bench_plan.ts;
       * each job measures `baseline_json` for its savings whether listed or not).
       * @default {every arm}
       */
      readonly arms?: readonly number[];
    }
    | {
      readonly kind: "retrieval";
      readonly golden: number;
      readonly corpus: number;
      readonly retriever: RetrieverName;
      /** Index arm name, null for the plain index. */
      readonly arm: string | null;
    }
    | {
      readonly kind: "frontier";
      readonly golden: number;
      readonly corpus: number;
      readonly retriever: RetrieverName;
    }
    | {
      /** Paired tests of one scored row against its baseline row (both carried by the job). */
      readonly kind: "compare";
      readonly row: RetrievalResult;
      readonly baseline: RetrievalResult;
    }
  );

/**
 * What a job returns, by kind: sections, arm rows, one retrieval result, one frontier row, the
 * comparisons of one row.
 */
export type BenchJobResult =
  | CatalogCostSections
  | ArmRow[]
  | RetrievalResult
  | FrontierRow
  | BaselineComparison[];

/** The retriever every other is compared against (paired tests). */
export const COMPARISON_BASELINE = "bm25";

/** Runs one job on the lane that built it (see {@linkcode benchJobRunner}). */
export type BenchJobRunner = (
  job: BenchJob,
  say: (message: string) => void,
) => Promise<BenchJobResult>;

/**
 * Runs a batch of jobs. `local` is the calling thread's runner (it alone runs `local` jobs);
 * results come back in job order whatever lane ran each. `say` takes progress lines.
 */
export interface BenchPool {
  /** Parallel lanes (1: the calling thread alone); final once `load` has returned. */
  readonly lanes: number;
  /**
   * Tells the lanes which files the corpora will be loaded from, before the calling thread
   * loads them, so other lanes may load them meanwhile; only when the corpora are the files as
   * they are (no overrides). Optional, at most once, before `load`.
   *
   * @param files Per corpus, in order.
   */
  prefetch?(files: readonly CorpusFile[]): void;
  /**
   * Hands the lanes the context every job reads; called once, before the first `run`. A pool
   * may settle its lanes here (e.g. one lane for a small catalog).
   *
   * @param context The context.
   * @param files Per corpus, the file it is exactly as loaded (with its sha256), or undefined:
   *   the lanes may load such a corpus from its file instead of copying it. Absent: every
   *   corpus copied.
   */
  load(context: BenchJobContext, files?: readonly (CorpusFile | undefined)[]): void;
  /**
   * Runs every job and resolves to their results in job order.
   *
   * @throws {Error} The first job failure (its message), after the other lanes stopped.
   */
  run(
    jobs: readonly BenchJob[],
    local: BenchJobRunner,
    say: (message: string) => void,
  ): Promise<BenchJobResult[]>;
  /** Releases the lanes (workers); the pool is not used after. */
  close(): void;
}

/**
 * Makes the pool of one bench run; the bench calls it once, first thing (so workers start
 * while it reads its inputs), loads it with the context, and closes it when done or failed.
 */
export type BenchPoolFactory = () => BenchPool;

/**
 * The pool of one lane, the calling thread: jobs in order, one at a time (today's
 * single-threaded bench).
 *
 * @returns A pool factory.
 */
export function inProcessBenchPool(): BenchPoolFactory {
  return () => ({
    lanes: 1,
    load() {},
    async run(jobs, local, say) {
      const out: BenchJobResult[] = [];
      for (const job of jobs) {
        say(job.label);
        out.push(await local(job, say));
      }
      return out;
    },
    close() {},
  });
}

/** What a lane holds to run jobs: the context with its arms and tokenizers built. */
export interface BenchLane {
  /** The shared context. */
  readonly context: BenchJobContext;
  /** Tokenizers in `context.tokenizerNames` order. */
  readonly tokenizers: readonly Tokenizer[];
  /** Arms in `context.armNames` order. */
  readonly arms: readonly (EncodingArm | UnavailableArm)[];
  /** The index arms (arms that alter the index, then `package_info`). */
  readonly indexArms: readonly IndexArm[];
  /** The endpoint models (only the calling thread's lane has any). */
  readonly endpoints: RetrieverModels | undefined;
}

/**
 * Builds a lane: loads the arms (and makes the tokenizers unless given).
 *
 * @param context The shared context.
 * @param tokenizers Tokenizers in `context.tokenizerNames` order. @default {made by lib/tokens createTokenizer}
 * @param endpoints The endpoint models, on the calling thread's lane.
 * @returns The lane.
 */
export async function benchLane(
  context: BenchJobContext,
  tokenizers: readonly Tokenizer[] = context.tokenizerNames.map((n) => createDefaultTokenizer(n)),
  endpoints?: RetrieverModels,
): Promise<BenchLane> {
  const arms = await loadArms(context.armNames);
  const indexArms: IndexArm[] = arms.filter((a): a is EncodingArm =>
    !("unavailable" in a) && a.altersIndex
  );
  if (context.packageInfo !== undefined) indexArms.push(packageInfoArm(context.packageInfo));
  return {
    context,
    tokenizers,
    arms,
    indexArms,
    endpoints,
  };
}

/**
 * The runner of one lane. The frontier's per-item token counts are cached per corpus within
 * the lane (exact: a cache of a pure function).
 *
 * @param lane The lane.
 * @returns A runner of any job of the lane's context.
 */
export function benchJobRunner(lane: BenchLane): BenchJobRunner {
  const { context, tokenizers } = lane;
  const itemCaches = new Map<string, Map<string, number>>();
  // Per corpus, the analysis its indexes share (tfidf_classic's names and descriptions, taken by
  // the index-arm builds after the plain one): exact, see RetrieverContext.analysisCache.
  const analysisCaches = new Map<number, Map<string, unknown>>();
  const analysisCache = (corpus: number) => {
    let cache = analysisCaches.get(corpus);
    if (cache === undefined) analysisCaches.set(corpus, cache = new Map());
    return cache;
  };
  // A local retriever's index, built once on this lane and taken by every later job over the
  // same documents: the retrieval job of each golden set and the frontier jobs (same corpus,
  // arm and seed; a retriever that reads the golden set, oracle, is keyed by its set too). Their
  // searches are pure, so a taken index answers as a fresh build would. The newest index is
  // always kept; older ones while all kept hold at most INDEX_CACHE_DOCS documents, so on a
  // large catalog one index waits at a time. Room is made before a build (older indexes let
  // go as keeping the new one would), so a large catalog's index is not built beside the last.
  const indexes = new Map<string, { readonly retriever: Retriever; readonly docs: number }>();
  const indexKey = (golden: number, corpus: number, arm: string | null, retriever: string) =>
    `${corpus}/${arm ?? ""}/${retriever}` +
    (retrieverEntry(retriever).needsGolden ? `/${golden}` : "");
  // `heavy`: the index about to be built or kept reads the documents' fields (a baseline's,
  // random's or oracle's, reads none and is a few small arrays: no collection is worth it).
  const makeRoom = (docs: number, heavy: boolean) => {
    let held = docs;
    for (const kept of indexes.values()) held += kept.docs;
    let dropped = false;
    for (const [k, kept] of indexes) {
      if (held <= INDEX_CACHE_DOCS) break;
      indexes.delete(k);
      held -= kept.docs;
      dropped = true;
    }
    // The index let go is garbage now: collected before the next large one is built beside it.
    if (dropped && heavy) settle();
  };
  const keepIndex = (key: string, retriever: Retriever, docs: number, heavy: boolean) => {
    makeRoom(docs, heavy);
    indexes.set(key, { retriever, docs });
  };
  // The hits of each query on the plain index of a retriever whose hits nest (`nestedHits`),
  // searched at the frontier's depth or deeper: the frontier job (limit 20) answers from the
  // retrieval job's searches (limit 10), so each query is searched once and the frontier needs
  // no index (on a large catalog the index was let go by then). Kept for the lane's life: a
  // few hits per query, never an index.
  const searched = new Map<string, {
    readonly name: string;
    readonly config: Retriever["config"];
    readonly hosted?: Retriever["hosted"];
    readonly hits: Map<string, { readonly depth: number; readonly hits: readonly Hit[] }>;
  }>();
  const remembering = (
    key: string,
    kept: Retriever | undefined,
    index: () => Retriever,
  ): Retriever => {
    let inner = kept;
    let memo = searched.get(key);
    if (memo === undefined) {
      inner ??= index();
      memo = {
        name: inner.name,
        config: inner.config,
        ...(inner.hosted === undefined ? {} : { hosted: inner.hosted }),
        hits: new Map(),
      };
      searched.set(key, memo);
    }
    const { hits } = memo;
    return {
      name: memo.name,
      config: memo.config,
      ...(memo.hosted === undefined ? {} : { hosted: memo.hosted }),
      search(query, limit) {
        const known = hits.get(query);
        if (Number.isInteger(limit) && limit >= 1) {
          if (known !== undefined && limit <= known.depth) return known.hits.slice(0, limit);
        }
        inner ??= index();
        // A bad limit goes to the index as it is, so it throws as it would have.
        if (!(Number.isInteger(limit) && limit >= 1)) return inner.search(query, limit);
        const depth = Math.max(limit, FRONTIER_MAX_K);
        const found = inner.search(query, depth);
        hits.set(query, { depth, hits: found });
        return found.slice(0, limit);
      },
    };
  };
  const settle = heapSettler();
  const run: BenchJobRunner = async (job, say) => {
    switch (job.kind) {
      case "modes":
        return measureCatalogCost({
          corpora: [context.corpora[job.corpus]],
          proxyTools: context.proxyTools,
          codeTools: context.codeTools,
          tokenizers: job.tokenizers.map((t) => tokenizers[t]),
          seed: context.seed,
        });
      case "arms":
        return measureArms({
          corpus: context.corpora[job.corpus],
          arms: job.arms === undefined ? lane.arms : job.arms.map((a) => lane.arms[a]),
          tokenizers: job.tokenizers.map((t) => tokenizers[t]),
        });
      case "retrieval": {
        const golden = context.goldenSets[job.golden];
        const arm = job.arm === null ? undefined : lane.indexArms.find((a) => a.name === job.arm);
        if (job.arm !== null && arm === undefined) {
          throw new Error(`bench job: no index arm "${job.arm}" on this lane`);
        }
        const entry = retrieverEntry(job.retriever);
        const keep = !entry.asyncBuild && entry.endpoint === undefined;
        const key = indexKey(job.golden, job.corpus, job.arm, job.retriever);
        const common = {
          corpus: context.corpora[job.corpus],
          golden,
          retriever: keep
            ? (
              docs: Parameters<typeof entry.create>[0],
              ctx: Parameters<typeof entry.create>[1],
            ) => {
              const index = () => {
                const kept = indexes.get(key)?.retriever;
                if (kept !== undefined) return kept;
                const heavy = entry.reads.length > 0;
                makeRoom(docs.length, heavy);
                const built = entry.create(docs, ctx) as Retriever;
                keepIndex(key, built, docs.length, heavy);
                return built;
              };
              return entry.nestedHits && job.arm === null
                ? remembering(key, undefined, index)
                : index();
            }
            : job.retriever,
          arm,
          seed: context.seed,
          resamples: context.resamples,
          ...(keep ? { analysisCache: analysisCache(job.corpus) } : {}),
        };
        return entry.asyncBuild
          ? await evaluateRetrievalAsync({
            ...common,
            ...endpointContext(job.retriever, endpointsOf(lane)),
            progress: (m) => say(`${golden.id}: ${m}`),
          })
          : evaluateRetrieval(common);
      }
      case "compare":
        // The row, then its baseline (skipped as a row): the comparisons of the row alone.
        return compareToBaseline([job.row, job.baseline], {
          seed: context.seed,
          baseline: COMPARISON_BASELINE,
        });
      case "frontier": {
        const golden = context.goldenSets[job.golden];
        const corpus = context.corpora[job.corpus];
        const aligned = alignGolden(golden, new Set(corpus.tools.map((t) => t.id)));
        const entry = retrieverEntry(job.retriever);
        const key = indexKey(job.golden, job.corpus, null, job.retriever);
        let built = indexes.get(key)?.retriever;
        if (entry.nestedHits && !entry.asyncBuild && entry.endpoint === undefined) {
          built = remembering(key, built, () => {
            makeRoom(corpus.tools.length, entry.reads.length > 0);
            const made = entry.create(docsFromTools(corpus.tools), {
              seed: context.seed,
              golden: aligned,
              ...endpointContext(job.retriever, endpointsOf(lane)),
            }) as Retriever;
            keepIndex(key, made, corpus.tools.length, entry.reads.length > 0);
            return made;
          });
        } else if (built === undefined) {
          built = await entry.create(docsFromTools(corpus.tools), {
            seed: context.seed,
            golden: aligned,
            ...endpointContext(job.retriever, endpointsOf(lane)),
          });
          if (!entry.asyncBuild && entry.endpoint === undefined) {
            keepIndex(key, built, corpus.tools.length, entry.reads.length > 0);
          }
        }
        await built.prepare?.([...aligned.queries.values()]);
        if (!itemCaches.has(corpus.id)) itemCaches.set(corpus.id, new Map());
        return measureFrontier({
          retriever: built,
          golden: aligned,
          corpus,
          tokenizer: tokenizers[0],
          itemCache: itemCaches.get(corpus.id),
        });
      }
    }
  };
  return async (job, say) => {
    const result = await run(job, say);
    if (job.kind === "arms") {
      // With at least SETTLE_MIN_HEAP_BYTES of heap in use the counting memos go too (a later
      // job that counts fills them again, with the same counts): the retrieval jobs after the
      // arms count little. synth_40000_s1: live heap after the arms job 265 MB against 329 MB.
      if (heapUsed() >= SETTLE_MIN_HEAP_BYTES) forgetCounts(tokenizers);
      // Rendering every tool under every arm leaves garbage several times the corpus.
      settle();
    }
    return result;
  };
}

/** Heap in use (bytes), as V8 reports it. */
function heapUsed(): number {
  return Deno.memoryUsage().heapUsed;
}

/**
 * Memory in use (bytes) that a collection can free: the heap in use and the array buffers
 * outside it (`external`), which a typed array holds until its wrapper is collected; an index
 * of arrays (tfidf_classic's) is mostly the latter.
 */
function memoryInUse(): number {
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * Memory in use (bytes: heap and array buffers) below which {@linkcode heapSettler} leaves the
 * collector alone.
 */
export const SETTLE_MIN_HEAP_BYTES = 256 << 20;

/**
 * Growth of the memory in use (bytes: heap and array buffers) since the settler's last
 * collection below which {@linkcode heapSettler} leaves the collector alone: less garbage than
 * this cannot have piled up since, so a full collection would free little for its cost.
 */
export const SETTLE_MIN_GROWTH_BYTES = 128 << 20;

/** Options of {@linkcode heapSettler}. */
export interface HeapSettlerOptions {
  /**
   * A full collection: V8's `gc`, which the bench's `deno.json` task line exposes with
   * `--expose-gc`. Absent (e.g. `deno test`): the settler does nothing.
   * @default {globalThis.gc}
   */
  readonly gc?: () => void;
  /**
   * Memory in use (bytes): the heap in use and the array buffers outside it.
   * @default {Deno.memoryUsage().heapUsed + Deno.memoryUsage().external}
   */
  readonly inUse?: () => number;
  /** As {@linkcode SETTLE_MIN_HEAP_BYTES}. @default {SETTLE_MIN_HEAP_BYTES} */
  readonly minBytes?: number;
  /** As {@linkcode SETTLE_MIN_GROWTH_BYTES}. @default {SETTLE_MIN_GROWTH_BYTES} */
  readonly minGrowth?: number;
}

/**
 * A full garbage collection where a job has just left much garbage (after an arms job, and when
 * a large index was let go before the next is built), on a large heap only. V8 sizes the heap it
 * lets grow before its next full collection from what was live at the last one (half as much
 * again, deno.json's `--heap-growing-percent=50`); left alone, its last full collection falls
 * inside the arms job, where a whole arm's texts are live, and the retrievers' garbage then
 * grows to that larger limit: on synth_40000_s1 (`--workers 1`) the heap's last full collection
 * in the arms job found 598 MB live and the heap grew to 842 MB in the tfidf_classic build,
 * peak RSS 1,225 MB; collected after the arms job (281 MB live) and when bm25's index is let go
 * before tfidf_classic's build, peak RSS 902 MB, the report the same bytes (loaded machine).
 * Only when the memory in use has grown by `minGrowth` since the settler's last collection: on
 * synth_40000_s1 the collections at the five index drops after the arms job each freed 0-120
 * MB of a 360-457 MB heap and took 166-321 ms (1.3 s in all), as V8 had collected on its own in
 * between; the one after the arms job freed 415 MB of 753. The memory in use counts the array
 * buffers outside the heap too: a tfidf_classic index is mostly typed arrays, so with the heap
 * alone its drop did not count as growth and the next index was built beside it (100,000 tools:
 * 510 MB of array buffers in the compact_sig build). Counted: synth_40000_s1 peak RSS 882-895 MB
 * against 929-944 MB, synth_100000_s1 (`--workers 1`) 1,629 MB against 1,727 MB.
 * What is measured does not change: only when memory is freed.
 *
 * @param options The collector and memory reader (for tests), and the floors.
 * @returns Collects when the memory in use is at least `minBytes` and has grown by at least
 * `minGrowth` since its last collection; answers whether it did.
 */
export function heapSettler(options: HeapSettlerOptions = {}): () => boolean {
  const gc = options.gc ?? (globalThis as { gc?: () => void }).gc;
  const inUse = options.inUse ?? memoryInUse;
  const minBytes = options.minBytes ?? SETTLE_MIN_HEAP_BYTES;
  const minGrowth = options.minGrowth ?? SETTLE_MIN_GROWTH_BYTES;
  let settled = 0; // memory in use after the last collection
  return () => {
    if (gc === undefined) return false;
    const used = inUse();
    if (used < minBytes || used - settled < minGrowth) return false;
    gc();
    settled = inUse();
    return true;
  };
}

/**
 * Documents the kept indexes of a lane may hold in all, beyond the newest index.
 */
const INDEX_CACHE_DOCS = 20_000;

/**
 * Tools (all corpora together) from which the bench's default `--workers` runs every lane
 * (`workerBenchPool`'s `minTools`); one lane below. A second lane starts its own modules,
 * tokenizers and arms, loads its own copy of the corpus and collects its own garbage; on 2 cores
 * the V8 helper threads of one lane already use much of the second core. Per-thread CPU with the
 * cost-planned lanes (lib/flows/bench_plan.ts, load 7-11): synth_40000_s1 one lane 75.0 s
 * user+sys (main thread 63.0 s), 1,204 MB, two lanes 95.5 s (main 31.4 s, worker 46.4 s, V8
 * helpers 16.0 s), 1,769 MB, so about 0.75x the wall on an idle machine for 1.47x the memory;
 * 10,000 tools 20.6 s (main 15.8 s) against 23.9 s (main 7.5 s, worker 10.4 s), 1.53x the
 * memory; the default bench 6.2 s against 7.7 s (main 2.6 s, worker 2.2 s). Not moved on these
 * loaded-machine estimates. Measured earlier on this 2-core machine, idle (load 0.3-1.6),
 * `deno task scale --workers 1,2` (seed 1), one lane against two: the reference corpus (1,389
 * tools) 4.3 s, 294 MB against 5.1 s, 423 MB; 5,000 tools 8.3 s against 9.1 s; 25,000 tools
 * 37.1 s, 930 MB against 33.7 s, 1,536 MB; 40,000 tools 51.8 s, 1,396 MB against 49.6 s,
 * 2,166 MB; 70,000 tools 98.7 s, 2,167 MB against 79.0 s, 3,077 MB; 100,000 tools 137.6 s,
 * 2,187 MB against 112.0 s, 4,248 MB. Up to 40,000 tools the second lane saves under a tenth of
 * the time for about 60% more memory; from 70,000 it saves a fifth.
 */
export const AUTO_LANES_MIN_TOOLS = 50_000;

const NO_ENDPOINTS = (): RetrieverModels => ({
  plan: {} as RetrieverModels["plan"],
  embedding: undefined,
  chat: new Map(),
  chatStore: undefined,
});

function endpointsOf(lane: BenchLane): RetrieverModels {
  return lane.endpoints ?? NO_ENDPOINTS();
}

/**
 * Merges the {@linkcode measureArms} rows of one corpus's arms jobs (one per group of
 * `armGroups`, lib/flows/bench_plan.ts) into the rows of one call over every arm: arms in
 * `armNames` order, each arm's rows (tokenizers inner, or its one skip row) as its group's job
 * gave them.
 *
 * @param armNames The arms, in report order.
 * @param parts Each group's rows.
 * @returns The merged rows.
 * @throws {Error} When an arm has rows in no part or in two.
 */
export function mergeArmRows(
  armNames: readonly string[],
  parts: readonly (readonly ArmRow[])[],
): ArmRow[] {
  if (parts.length === 1) return [...parts[0]];
  const byArm = new Map<string, ArmRow[]>();
  for (const rows of parts) {
    const mine = new Set<string>();
    for (const row of rows) {
      if (!mine.has(row.arm) && byArm.has(row.arm)) {
        throw new Error(`bench: two arms jobs measured arm ${row.arm}`);
      }
      mine.add(row.arm);
      let list = byArm.get(row.arm);
      if (list === undefined) byArm.set(row.arm, list = []);
      list.push(row);
    }
  }
  return armNames.flatMap((name) => {
    const rows = byArm.get(name);
    if (rows === undefined) throw new Error(`bench: no arms job measured arm ${name}`);
    return rows;
  });
}

/**
 * Concatenates per corpus catalog-cost sections, in job order.
 *
 * @param parts Sections in corpus order.
 * @returns The sections of one call over every corpus and tokenizer.
 */
export function mergeCatalogCost(parts: readonly CatalogCostSections[]): CatalogCostSections {
  return {
    modes: parts.flatMap((p) => p.modes),
    scaling: parts.flatMap((p) => p.scaling),
    crossovers: parts.flatMap((p) => p.crossovers),
    heaviest: parts.flatMap((p) => p.heaviest),
  };
}
