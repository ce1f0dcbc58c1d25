/**
 * The data contract of discovery quality, after BEIR: documents (tools), {@linkcode Queries},
 * graded {@linkcode Qrels} and a {@linkcode Run}. Every retriever returns hits; metrics only see
 * runs and qrels, never the retriever.
 *
 * @module
 */

import type { JsonValue, Tool } from "../catalog/types.ts";

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

/** A built index that answers queries. */
export interface Retriever {
  /** Retriever name as reported, e.g. `bm25`. */
  readonly name: string;
  /** The settings that shape its ranking (field weights, seed, ...), for the result record. */
  readonly config: { readonly [key: string]: JsonValue };
  /**
   * Search the index.
   *
   * @param query Free-text query.
   * @param limit Maximum number of hits (≥ 1).
   * @returns Up to `limit` hits, score descending, ties by id ascending (UTF-16 order).
   */
  search(query: string, limit: number): readonly Hit[];
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
export type GoldenFormat = "mcpproxy" | "beir" | "toolret";

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
