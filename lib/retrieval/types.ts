/**
 * The data contract of discovery quality, after BEIR: documents (tools), {@linkcode Queries},
 * graded {@linkcode Qrels} and a {@linkcode Run}. Every retriever returns hits; metrics only see
 * runs and qrels, never the retriever.
 *
 * @module
 */

import type { JsonValue, Tool } from "../catalog/types.ts";
import type { EmbeddingStore } from "./embeddings.ts";
import type { ChatModel, ChatStore } from "./chat.ts";

/** Graded relevance: 0 = judged not relevant (hard negative), 1 = acceptable, 2 = the best tool. */
export type Grade = 0 | 1 | 2;

/** Query id → query text, in file order. */
export type Queries = ReadonlyMap<string, string>;

/** Query id → (document id → grade). Documents not listed are not judged (treated as 0). */
export type Qrels = ReadonlyMap<string, ReadonlyMap<string, Grade>>;

/** One ranked result: a document id and the retriever's score (higher is better). */
export interface Hit {
  /** Document id, the same id space as the qrels (e.g. `server:tool`). */
  readonly id: string;
  /** Retriever score; only the order matters to the metrics. */
  readonly score: number;
}

/** Query id → hits ranked best first (score descending, then id ascending). */
export type Run = ReadonlyMap<string, readonly Hit[]>;

/**
 * The text a retriever indexes for one tool: the same contract as an encoding
 * arm's `indexFields(tool)` (defined in `lib/encodings/types.ts`).
 */
export type { IndexFields } from "../encodings/types.ts";
import type { IndexFields } from "../encodings/types.ts";

/** One indexed document: its id plus the indexed fields. */
export interface RetrievalDoc extends IndexFields {
  /** Document id; must be the id the labels use. */
  readonly id: string;
}

/** Function that gives the index fields of a tool (an encoding arm's `indexFields`). */
export type IndexFieldsFn = (tool: Tool) => IndexFields;

/**
 * What building and querying an index cost outside this process (embedding calls to a paid
 * endpoint), for the result record. Retrievers that run locally report none.
 */
export interface RetrieverCost {
  /** HTTP requests made to the endpoint (requests). */
  readonly requests: number;
  /** Input tokens the endpoint billed (tokens). */
  readonly inputTokens: number;
  /** Output tokens a chat model billed (tokens); absent for embedding endpoints. */
  readonly outputTokens?: number;
  /** Price of those tokens in USD, `null` when the model's price is not known. */
  readonly usd: number | null;
  /**
   * The same figures split by phase: `index` (building: document embeddings or expansions) and
   * `queries` (per-query calls), when the retriever tells them apart.
   */
  readonly phases?: {
    readonly [phase: string]: {
      readonly requests: number;
      readonly inputTokens: number;
      readonly outputTokens?: number;
      readonly usd: number | null;
    };
  };
  /** Texts answered from an on-disk cache instead of the endpoint, when a cache is used. */
  readonly cachedTexts?: number;
  /**
   * Calls that failed after the retries (the retriever went on without them: base order for a
   * rerank, no expansion for a tool), with up to 5 one-line causes.
   */
  readonly failures?: { readonly count: number; readonly examples: readonly string[] };
}

/** What one query cost at an endpoint (a rerank prompt), for its per-query row. */
export interface QueryCost {
  /** HTTP requests sent for this query (0 when answered from the cache). */
  readonly requests: number;
  /** Input tokens billed for it in this run (0 when cached), `null` when not reported. */
  readonly inputTokens: number | null;
  /** Output tokens billed for it in this run (0 when cached), `null` when not reported. */
  readonly outputTokens: number | null;
  /** USD spent on it in this run (0 when cached), `null` when not known. */
  readonly usd: number | null;
  /** True when answered from the on-disk cache. */
  readonly cached: boolean;
}

/**
 * The provider tool search a retriever stands for (`anthropic_bm25`, `anthropic_regex` and
 * `openai_search` emulate one; `hosted_anthropic` asks the real one), recorded with its results.
 */
export interface HostedSearchInfo {
  /** Provider whose search this is. */
  readonly provider: "anthropic" | "openai";
  /** The search tool's wire type, e.g. `tool_search_tool_bm25_20251119` or `tool_search`. */
  readonly tool: string;
  /**
   * `emulated`: mcpmeter's rendition of the documented behaviour, run locally; `hosted`: what
   * the provider's API returned.
   */
  readonly kind: "emulated" | "hosted";
  /** Most tools one search returns, as documented (`null`: not documented). */
  readonly maxResults: number | null;
  /** Where the documented behaviour comes from (a URL). */
  readonly source: string;
  /** What differs from the hosted search (emulations), or how it was asked (hosted), one line each. */
  readonly differences: readonly string[];
}

/** One search the model made for a query, as the response reported it. */
export interface HostedSearchCall {
  /** The search input as the model wrote it (`{query}`, `{pattern}`). */
  readonly input: JsonValue;
  /** Document ids of the tools it returned, in order. */
  readonly ids: readonly string[];
  /** The provider's error code when the search failed. */
  readonly error?: string;
}

/** What the hosted search answered for one query. */
export interface HostedSearchAnswer {
  /** The searches the model made, in order (none: it did not search). */
  readonly searches: readonly HostedSearchCall[];
  /** What the request cost (0 requests when answered from the cache). */
  readonly cost: QueryCost;
}

/** A provider's hosted tool search, as the caller injects it. */
export interface HostedSearchClient {
  /** What it is (provider, search tool, `kind: "hosted"`, how it is asked). */
  readonly info: HostedSearchInfo;
  /** Settings recorded with the results (model, variant, ...). */
  readonly config: { readonly [key: string]: JsonValue };
  /**
   * Asks the hosted search for one query over the documents' tools.
   *
   * @param docs The corpus (same array for every query of a build).
   * @param query The user request.
   * @returns The searches and the cost.
   * @throws {Error} When the request fails after the provider's retries.
   */
  search(docs: readonly RetrievalDoc[], query: string): Promise<HostedSearchAnswer>;
}

/** A built index that answers queries. */
export interface Retriever {
  /** Retriever name as reported, e.g. `bm25`. */
  readonly name: string;
  /** The settings that shape its ranking (field weights, seed, ...), for the result record. */
  readonly config: { readonly [key: string]: JsonValue };
  /** The provider tool search it emulates or asks, when it stands for one. */
  readonly hosted?: HostedSearchInfo;
  /**
   * What the index cost so far (build plus searches), when it calls an endpoint; read after the
   * searches. Absent for local retrievers.
   */
  readonly cost?: () => RetrieverCost;
  /**
   * Fetches whatever `search` needs per query from an endpoint (query embeddings, a reranking)
   * before the queries are searched; `search` throws for a query that was not prepared. Absent
   * for retrievers whose search is local.
   *
   * @param queries The query texts about to be searched.
   */
  readonly prepare?: (queries: readonly string[]) => Promise<void>;
  /**
   * What one prepared query cost at the endpoint (a rerank prompt); `undefined` for a query
   * that made no call. Absent for retrievers without per-query calls.
   */
  readonly queryCost?: (query: string) => QueryCost | undefined;
  /**
   * What the retriever had to repair or skip for one prepared query (ids the model invented,
   * ids it left out, a failed call), one line each; empty when nothing. Absent: never any.
   */
  readonly queryNotes?: (query: string) => readonly string[];
  /**
   * Search the index.
   *
   * @param query Free-text query.
   * @param limit Maximum number of hits (≥ 1).
   * @returns Up to `limit` hits, score descending, ties by id ascending (UTF-16 order).
   */
  search(query: string, limit: number): readonly Hit[];
}

/**
 * A {@linkcode Retriever} whose optional members `K` are present: `"prepare" | "cost"` for one
 * that fetches from an endpoint per query, `"cost"` for one that paid only at build time.
 */
export type RetrieverWith<K extends "cost" | "prepare" | "queryCost" | "queryNotes"> =
  & Retriever
  & Required<Pick<Retriever, K>>;

/** Name of one index field: `name`, `server`, `description` or `params`. */
export type IndexFieldName = keyof IndexFields;

/** Every index field, in the order results and messages list them. */
export const INDEX_FIELD_NAMES: readonly IndexFieldName[] = [
  "name",
  "server",
  "description",
  "params",
];

/** What a retriever factory receives besides the documents. */
export interface RetrieverContext {
  /** Seed of the evaluation (the random baseline uses it). */
  readonly seed: number;
  /** The aligned golden set (the oracle uses it); absent where no labels exist (the proxy). */
  readonly golden?: GoldenSet;
  /**
   * Settings for this retriever from the caller (endpoint URL, model name, ...), JSON so they
   * can be recorded. Local retrievers ignore them.
   */
  readonly settings?: { readonly [key: string]: JsonValue };
  /** HTTP client for retrievers that call an endpoint (injected so tests and runs choose it). */
  readonly fetch?: typeof fetch;
  /** Vector cache for embedding retrievers (`createFileEmbeddingStore` in `embedding_cache.ts`). */
  readonly embeddingStore?: EmbeddingStore;
  /**
   * The chat model of a retriever whose entry has `endpoint: "chat"` (`rerank`, `expand`),
   * built by the caller from the provider registry (retrieval never imports the providers).
   */
  readonly chat?: ChatModel;
  /** Answer cache of the chat retrievers (`createFileChatStore` in `embedding_cache.ts`). */
  readonly chatStore?: ChatStore;
  /**
   * The hosted search of `anthropic_hosted` (`--hosted-search anthropic:ID`), built by the
   * caller over the provider registry (retrieval never imports the providers).
   */
  readonly hostedSearch?: HostedSearchClient;
  /** Progress lines of a long build or prepare step (e.g. `expand: 400/1389 tools`). */
  readonly progress?: (message: string) => void;
  /**
   * A memo that the indexes one caller builds over the tools of one corpus share (e.g. the
   * bench's plain and index-arm indexes), one map per corpus: a retriever keeps its own entry
   * under its name (tfidf_classic: the analysed names and descriptions). Exact: what an entry
   * holds is a pure function of the texts. Absent: nothing shared.
   */
  readonly analysisCache?: Map<string, unknown>;
}

/**
 * One registered retriever: its name and the capabilities the bench, the proxy, `--help` and
 * the README read instead of switching on names. Adding a retriever is one module exporting an
 * entry (plus its test) and one line in `registry.ts`.
 */
export interface RetrieverEntry {
  /** Registry key and reported name, snake_case, e.g. `bm25`. */
  readonly name: string;
  /** Short label used in messages, e.g. `BM25`. */
  readonly label: string;
  /** One line for `--help` and the extension-points table. */
  readonly summary: string;
  /**
   * Index fields whose text can change the ranking, in {@linkcode INDEX_FIELD_NAMES} order.
   * Empty: the retriever ignores the index (baselines), so no encoding arm's index is scored.
   */
  readonly reads: readonly IndexFieldName[];
  /** True when it needs the golden labels (the oracle): never usable in the proxy. */
  readonly needsGolden: boolean;
  /**
   * True when {@linkcode RetrieverEntry.create} returns a promise (an async build step, e.g.
   * embeddings fetched from an endpoint); such retrievers go through `evaluateRetrievalAsync`.
   */
  readonly asyncBuild: boolean;
  /** True when the built retriever reports a {@linkcode RetrieverCost} (`Retriever.cost`). */
  readonly reportsCost: boolean;
  /**
   * The kind of model-registry entry the retriever calls: `embedding` (`dense`, `hybrid`: the
   * caller supplies `settings.embeddingModel`), `chat` (`rerank`, `expand`: the caller supplies
   * `context.chat`, chosen with `--<name>-model`) or `hosted` (`anthropic_hosted`: the caller
   * supplies `context.hostedSearch`, chosen with `--hosted-search`); absent for local retrievers.
   */
  readonly endpoint?: "embedding" | "chat" | "hosted";
  /**
   * Why the retriever is scored on its plain index only, when it is: what it stands for never
   * reads an encoding arm's rendering of the tools (a provider's hosted tool search indexes the
   * definitions the client sends). Absent: scored on each arm that changes a field it reads.
   */
  readonly plainIndexOnly?: string;
  /**
   * Builds the index with default options.
   *
   * @param docs Documents to index.
   * @param context Seed, golden set, settings, fetch.
   * @returns The retriever (a promise when `asyncBuild`).
   */
  create(docs: readonly RetrievalDoc[], context: RetrieverContext): Retriever | Promise<Retriever>;
}

/** Counted drops: how many items were left out and why. */
export interface Drops {
  /** Total number of dropped items. */
  readonly count: number;
  /** Reason → count, keys sorted. */
  readonly reasons: { readonly [reason: string]: number };
  /** Up to 20 human-readable details, e.g. `query "q7": label id "x" is not in the corpus`. */
  readonly examples: readonly string[];
}

/** Golden-set file formats the loaders read. */
export type GoldenFormat = "mcpproxy";

/** A graded query set with its provenance. */
export interface GoldenSet {
  /** Identifier such as `reference_v1.test`. */
  readonly id: string;
  /** Format it was read from. */
  readonly format: GoldenFormat;
  /** `corpus_version` of the file, when it names one. */
  readonly corpusVersion?: string;
  /** Query id → text. */
  readonly queries: Queries;
  /** Query id → graded labels. */
  readonly qrels: Qrels;
  /** Query id → free-text note (why a hard negative is one, ...). */
  readonly notes: ReadonlyMap<string, string>;
  /** Items dropped while parsing (empty queries, duplicate ids, bad grades) when not strict. */
  readonly dropped: Drops;
  /** Lower-case hex SHA-256 of the file's bytes, set by the file loaders (`loadGolden`). */
  readonly sha256?: string;
}
