/**
 * Score a retriever on a golden set: build the index, search each query once, compute per-query
 * metrics, their means and bootstrap intervals; and compare two results with a paired test.
 *
 * @module
 */

import type { Corpus } from "../catalog/types.ts";
import { bootstrapMeanCi } from "../stats/bootstrap.ts";
import { pairedTest, type PairedTestResult } from "../stats/paired.ts";
import { deriveSeed } from "../stats/prng.ts";
import { alignGolden, diagnoseIdMismatch } from "./align.ts";
import { docsFromTools, sharedDocs } from "./docs.ts";
import { IdMismatchError } from "./errors.ts";
import {
  meanMetrics,
  METRIC_KEYS,
  type MetricKey,
  type MetricValues,
  queryMetrics,
} from "./metrics.ts";
import { type IndexArm, retrieverEntry } from "./registry.ts";
import type {
  GoldenSet,
  HostedSearchInfo,
  QueryCost,
  RetrievalDoc,
  Retriever,
  RetrieverContext,
  RetrieverCost,
} from "./types.ts";

/** A registered retriever name (see `RETRIEVER_NAMES` in `registry.ts`), e.g. `bm25`. */
export type RetrieverName = string;

/** Builds a retriever over documents; a promise when the build is asynchronous. */
export type RetrieverFactory = (
  docs: readonly RetrievalDoc[],
  context: RetrieverContext,
) => Retriever | Promise<Retriever>;

/**
 * The factory of a registered retriever with default options.
 *
 * @param name A registered name (`RETRIEVER_NAMES`).
 * @returns A factory.
 * @throws {RangeError} for an unknown name (quoted, with the known names).
 */
export function builtinRetriever(name: string): RetrieverFactory {
  const entry = retrieverEntry(name);
  return (docs, context) => entry.create(docs, context);
}

/** Documents without a tool corpus (BEIR, ToolRet). */
export interface DocCorpus {
  /** Corpus identifier for the report. */
  readonly id: string;
  /** Documents, ids as in the labels. */
  readonly docs: readonly RetrievalDoc[];
}

/** Options of {@linkcode evaluateRetrieval}. */
export interface EvaluateRetrievalOptions {
  /** A tool corpus, or documents with an id (BEIR, ToolRet). */
  readonly corpus: Corpus | DocCorpus;
  /** The golden set; its label ids must be corpus ids. */
  readonly golden: GoldenSet;
  /** A registered retriever name or a factory (e.g. bm25 with tuned weights). */
  readonly retriever: RetrieverName | RetrieverFactory;
  /** Settings passed to the retriever (endpoint URL, model, ...); local retrievers ignore them. */
  readonly settings?: RetrieverContext["settings"];
  /** HTTP client for retrievers that call an endpoint. @default {globalThis.fetch} when they do */
  readonly fetch?: typeof fetch;
  /** Vector cache for embedding retrievers (`createFileEmbeddingStore`). */
  readonly embeddingStore?: RetrieverContext["embeddingStore"];
  /** Chat model of a chat retriever (`rerank`, `expand`), built by the caller. */
  readonly chat?: RetrieverContext["chat"];
  /** Answer cache of the chat retrievers (`createFileChatStore`). */
  readonly chatStore?: RetrieverContext["chatStore"];
  /** The hosted search of `anthropic_hosted`, built by the caller. */
  readonly hostedSearch?: RetrieverContext["hostedSearch"];
  /** Progress lines of the retriever's long steps (expansions, reranks). */
  readonly progress?: RetrieverContext["progress"];
  /** Memo shared by the indexes built over this corpus (see `RetrieverContext.analysisCache`). */
  readonly analysisCache?: RetrieverContext["analysisCache"];
  /** Encoding arm whose `indexFields` build the index; absent: the tool's own fields. Tool corpora only. */
  readonly arm?: IndexArm;
  /**
   * The documents of `arm` over the corpus's tools (`docsFromTools(corpus.tools,
   * arm.indexFields)`), when the caller has built them for several evaluations; built here
   * when absent.
   */
  readonly armDocs?: readonly RetrievalDoc[];
  /** Seed for the bootstrap and the random baseline; recorded in the result. */
  readonly seed: number;
  /**
   * Bootstrap resamples per metric (≥ 1,000 recommended).
   * @default {1000}
   */
  readonly resamples?: number;
  /**
   * Unknown label ids: error (true) or counted drops (false).
   * @default {true}
   */
  readonly strict?: boolean;
}

/** One query's outcome. */
export interface PerQueryRow {
  /** Query id. */
  readonly queryId: string;
  /** Query text. */
  readonly query: string;
  /** Number of labels with grade ≥ 1. */
  readonly relevantCount: number;
  /** 1-based rank of the first relevant hit within the top 10, `null` when none. */
  readonly firstRelevantRank: number | null;
  /** Ids of the top 10 hits, best first. */
  readonly topIds: readonly string[];
  /** Metric values of this query. */
  readonly metrics: MetricValues;
  /** What this query cost at the retriever's endpoint (a rerank prompt), when it made a call. */
  readonly cost?: QueryCost;
  /** What the retriever repaired or skipped for this query, when anything (one line each). */
  readonly notes?: readonly string[];
}

/** A result row of the discovery-quality report; JSON-safe (no NaN, no undefined). */
export interface RetrievalResult {
  /** Corpus id. */
  readonly corpusId: string;
  /** Golden set id. */
  readonly goldenSetId: string;
  /** Retriever name. */
  readonly retriever: string;
  /** Encoding arm name, `null` when the index used the tools' own fields. */
  readonly arm: string | null;
  /** Queries scored (after drops). */
  readonly queryCount: number;
  /** Queries left out and why (parsing and id alignment). */
  readonly dropped: { readonly count: number; readonly reasons: { readonly [k: string]: number } };
  /** Mean of each metric over the scored queries. */
  readonly metrics: MetricValues;
  /** 95% percentile-bootstrap interval of each mean, `[lo, hi]`. */
  readonly ci95: { readonly [K in MetricKey]: readonly [number, number] };
  /** Retriever settings (weights, boosts, seed). */
  readonly retrieverConfig: RetrieverConfigJson;
  /** Seed of the bootstrap (and random baseline). */
  readonly seed: number;
  /** Bootstrap resamples. */
  readonly resamples: number;
  /** Search depth: 10. */
  readonly limit: number;
  /** Per-query rows, in golden-set order. */
  readonly perQuery: readonly PerQueryRow[];
  /** What the retriever's endpoint calls cost; present only for retrievers that report one. */
  readonly cost?: RetrieverCost;
  /**
   * The provider tool search the retriever stands for (an emulation, or the hosted search
   * itself), with what differs from the hosted search; absent for other retrievers.
   */
  readonly hosted?: HostedSearchInfo;
}

/** JSON form of a retriever's config. */
export type RetrieverConfigJson = Retriever["config"];

const LIMIT = 10;

/**
 * Evaluate one retriever (optionally over one encoding arm's index fields) on one golden set.
 *
 * Steps: documents from the corpus (through `arm.indexFields` when given); label ids checked
 * against document ids ({@linkcode alignGolden}); the index built once; each query searched once
 * with limit 10; every returned id checked to be a document id; per-query metrics
 * ({@linkcode queryMetrics}); means over all scored queries; a seeded percentile bootstrap per
 * metric (seed derived per metric key from `seed`).
 *
 * @param options Corpus, golden set, retriever, arm, seed, resamples, strictness.
 * @returns A JSON-safe {@linkcode RetrievalResult}.
 * @throws {IdMismatchError} when label ids and index ids are in different id spaces, or the
 * retriever returns an id that is not a document id.
 * @throws {GoldenSetError} when strict and label ids are unknown.
 * @throws {RangeError} when no query is left to score, or a retriever name is unknown.
 */
export function evaluateRetrieval(options: EvaluateRetrievalOptions): RetrievalResult {
  const prepared = prepare(options);
  const retriever = build(options, prepared);
  if (retriever instanceof Promise) {
    throw new TypeError(
      `Cannot evaluate retriever "${
        typeof options.retriever === "string" ? options.retriever : "(factory)"
      }" synchronously: it builds asynchronously; call evaluateRetrievalAsync`,
    );
  }
  return score(options, prepared, retriever);
}

/**
 * {@linkcode evaluateRetrieval} for retrievers with an asynchronous build step (an entry with
 * `asyncBuild`, e.g. embeddings from an endpoint); same steps, same result, plus `cost` when the
 * retriever reports one.
 *
 * @param options Corpus, golden set, retriever, arm, seed, resamples, strictness.
 * @returns A JSON-safe {@linkcode RetrievalResult}.
 * @throws {IdMismatchError} as {@linkcode evaluateRetrieval}; rejects with the build's error.
 * @throws {GoldenSetError} when strict and label ids are unknown.
 * @throws {RangeError} when no query is left to score, or a retriever name is unknown.
 */
export async function evaluateRetrievalAsync(
  options: EvaluateRetrievalOptions,
): Promise<RetrievalResult> {
  const prepared = prepare(options);
  const retriever = await build(options, prepared);
  await retriever.prepare?.([...prepared.golden.queries.values()]);
  return score(options, prepared, retriever);
}

interface Prepared {
  readonly docs: readonly RetrievalDoc[];
  readonly docIds: ReadonlySet<string>;
  readonly golden: ReturnType<typeof alignGolden>;
}

function prepare(options: EvaluateRetrievalOptions): Prepared {
  const corpus = options.corpus;
  let docs: readonly RetrievalDoc[];
  let docIds: ReadonlySet<string>;
  if ("tools" in corpus && options.arm === undefined) {
    // The plain documents, built once per corpus (every retriever is evaluated on them).
    ({ docs, ids: docIds } = sharedDocs(corpus.tools));
  } else if ("tools" in corpus) {
    docs = options.armDocs ?? docsFromTools(corpus.tools, options.arm!.indexFields);
    docIds = new Set(docs.map((d) => d.id));
  } else {
    if (options.arm !== undefined) {
      throw new TypeError(
        `Cannot apply arm "${options.arm.name}" to corpus "${corpus.id}": it has documents, not tools`,
      );
    }
    docs = corpus.docs;
    docIds = new Set(docs.map((d) => d.id));
  }
  const golden = alignGolden(options.golden, docIds, { strict: options.strict ?? true });
  if (golden.queries.size === 0) {
    throw new RangeError(
      `Cannot evaluate on golden set "${golden.id}": no query left to score (${golden.dropped.count} dropped)`,
    );
  }
  return { docs, docIds, golden };
}

function build(
  options: EvaluateRetrievalOptions,
  { docs, golden }: Prepared,
): Retriever | Promise<Retriever> {
  const factory = typeof options.retriever === "string"
    ? builtinRetriever(options.retriever)
    : options.retriever;
  return factory(docs, {
    seed: options.seed,
    golden,
    settings: options.settings,
    fetch: options.fetch,
    ...(options.embeddingStore ? { embeddingStore: options.embeddingStore } : {}),
    ...(options.chat ? { chat: options.chat } : {}),
    ...(options.chatStore ? { chatStore: options.chatStore } : {}),
    ...(options.hostedSearch ? { hostedSearch: options.hostedSearch } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.analysisCache ? { analysisCache: options.analysisCache } : {}),
  });
}

function score(
  options: EvaluateRetrievalOptions,
  { docIds, golden }: Prepared,
  retriever: Retriever,
): RetrievalResult {
  const resamples = options.resamples ?? 1000;
  const perQuery: PerQueryRow[] = [];
  for (const [qid, text] of golden.queries) {
    const labels = golden.qrels.get(qid)!;
    const hits = retriever.search(text, LIMIT);
    const topIds = hits.slice(0, LIMIT).map((h) => h.id);
    const stray = topIds.find((id) => !docIds.has(id));
    if (stray !== undefined) {
      throw new IdMismatchError(
        `Retriever "${retriever.name}" returned id "${stray}" for query "${qid}", which is not a document id`,
        diagnoseIdMismatch([stray], [...labels.keys()]) ||
          diagnoseIdMismatch(docIds, [stray]),
      );
    }
    const metrics = queryMetrics(topIds, labels);
    const first = topIds.findIndex((id) => (labels.get(id) ?? 0) >= 1);
    const cost = retriever.queryCost?.(text);
    const notes = retriever.queryNotes?.(text) ?? [];
    perQuery.push({
      queryId: qid,
      query: text,
      relevantCount: [...labels.values()].filter((g) => g >= 1).length,
      firstRelevantRank: first === -1 ? null : first + 1,
      topIds,
      metrics,
      ...(cost === undefined ? {} : { cost }),
      ...(notes.length === 0 ? {} : { notes: [...notes] }),
    });
  }
  const rows = perQuery.map((r) => r.metrics);
  const ci: Record<string, readonly [number, number]> = {};
  for (const key of METRIC_KEYS) {
    const b = bootstrapMeanCi(rows.map((m) => m[key]), {
      seed: deriveSeed(options.seed, key),
      resamples,
    });
    ci[key] = [b.lo, b.hi];
  }
  return {
    corpusId: options.corpus.id,
    goldenSetId: golden.id,
    retriever: retriever.name,
    arm: options.arm?.name ?? null,
    queryCount: perQuery.length,
    dropped: { count: golden.dropped.count, reasons: golden.dropped.reasons },
    metrics: meanMetrics(rows),
    ci95: ci as RetrievalResult["ci95"],
    retrieverConfig: retriever.config,
    seed: options.seed >>> 0,
    resamples,
    limit: LIMIT,
    perQuery,
    ...(retriever.cost === undefined ? {} : { cost: retriever.cost() }),
    ...(retriever.hosted === undefined ? {} : { hosted: retriever.hosted }),
  };
}

/** Paired comparison of two results on one metric. */
export interface RetrievalComparison extends PairedTestResult {
  /** Metric compared. */
  readonly metric: MetricKey;
  /** `retriever[/arm]` of the first result. */
  readonly a: string;
  /** `retriever[/arm]` of the second result. */
  readonly b: string;
}

/**
 * Paired randomization test of a − b per metric, over the queries both results scored.
 *
 * @param a First result.
 * @param b Second result (same golden set).
 * @param options Seed, resamples (default 10,000) and the metrics to compare (default all of
 * {@linkcode METRIC_KEYS}); each metric's test has its own seed, so leaving metrics out does not
 * change the others.
 * @returns One comparison per metric compared, in {@linkcode METRIC_KEYS} order.
 * @throws {RangeError} when the two results did not score the same query ids in the same order.
 */
export function compareRetrievals(
  a: RetrievalResult,
  b: RetrievalResult,
  options: {
    readonly seed: number;
    readonly resamples?: number;
    readonly metrics?: readonly MetricKey[];
  },
): RetrievalComparison[] {
  const ida = a.perQuery.map((r) => r.queryId).join("\u0000");
  const idb = b.perQuery.map((r) => r.queryId).join("\u0000");
  if (a.goldenSetId !== b.goldenSetId || ida !== idb) {
    throw new RangeError(
      `Cannot compare "${a.retriever}" and "${b.retriever}": they scored different queries ` +
        `("${a.goldenSetId}" ${a.queryCount} vs "${b.goldenSetId}" ${b.queryCount})`,
    );
  }
  const label = (r: RetrievalResult) => r.arm === null ? r.retriever : `${r.retriever}/${r.arm}`;
  const metrics = options.metrics === undefined
    ? METRIC_KEYS
    : METRIC_KEYS.filter((k) => options.metrics!.includes(k));
  return metrics.map((metric) => ({
    metric,
    a: label(a),
    b: label(b),
    ...pairedTest(
      a.perQuery.map((r) => r.metrics[metric]),
      b.perQuery.map((r) => r.metrics[metric]),
      { seed: deriveSeed(options.seed, metric), resamples: options.resamples },
    ),
  }));
}
