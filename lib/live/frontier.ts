/**
 * The cost–quality frontier of discovery: for k = 1…20, what a `retrieve_tools` response with k
 * results costs in context tokens (the proxy's own response text, as the live section measures
 * it) against recall@k, per retriever, so a user can pick k and the retriever on one chart. And
 * the tools discovery cannot reach.
 *
 * @module
 */

import type { Tool } from "../catalog/types.ts";
import { type RetrieveDetail, retrieveResponseText } from "../proxy/responses.ts";
import { docWords } from "../retrieval/_doc_words.ts";
import { sharedDocs } from "../retrieval/docs.ts";
import { recallCurve } from "../retrieval/metrics.ts";
import type { GoldenSet, Retriever } from "../retrieval/types.ts";
import { sharedCounts } from "../tokens/shared_counts.ts";
import type { Tokenizer } from "../tokens/types.ts";

/** Largest k of the frontier. */
export const FRONTIER_MAX_K = 20;

/** One point of a frontier. */
export interface FrontierPoint {
  /** Results per response. */
  readonly k: number;
  /**
   * Mean tokens of the `retrieve_tools` response text over the queries (tokens), estimated as
   * the tokens of the response's envelope plus those of each result rendered alone (counting
   * every k exactly would re-tokenize 210 responses per query); see `check`.
   */
  readonly meanTokens: number;
  /** Mean recall@k over the queries, 0..1. */
  readonly recall: number;
}

/** The frontier of one retriever on one golden set; JSON-safe. */
export interface FrontierRow {
  /** Golden set id. */
  readonly goldenSetId: string;
  /** Corpus id. */
  readonly corpusId: string;
  /** Retriever name. */
  readonly retriever: string;
  /** Tokenizer of the token counts. */
  readonly tokenizer: string;
  /** Response detail priced (`full`: with `inputSchema`, the proxy's default). */
  readonly detail: RetrieveDetail;
  /** Queries averaged. */
  readonly queryCount: number;
  /** k = 1 … {@linkcode FRONTIER_MAX_K}. */
  readonly points: readonly FrontierPoint[];
  /** How `meanTokens` is obtained: estimated (additive over results). */
  readonly provenance: "estimated";
  /**
   * The estimate against the exact count of the whole response text at the largest k, over
   * the same queries: mean exact tokens and the mean relative error of the estimate.
   */
  readonly check: {
    readonly k: number;
    /** Queries counted exactly: every `checkEvery`-th. */
    readonly queries: number;
    readonly meanExactTokens: number;
    readonly meanRelativeError: number;
  };
}

/** Options of {@linkcode measureFrontier}. */
export interface FrontierOptions {
  /** A built retriever over the corpus (prepared for the set's queries when it needs it). */
  readonly retriever: Retriever;
  /** The golden set (aligned with the corpus). */
  readonly golden: GoldenSet;
  /** Corpus id and tools (the ids the retriever returns). */
  readonly corpus: { readonly id: string; readonly tools: readonly Tool[] };
  /** Tokenizer of the response text. */
  readonly tokenizer: Tokenizer;
  /**
   * Response detail.
   * @default {"full"}
   */
  readonly detail?: RetrieveDetail;
  /**
   * Largest k.
   * @default {FRONTIER_MAX_K}
   */
  readonly maxK?: number;
  /**
   * Every how many queries the estimate is checked against the exact count.
   * @default {10}
   */
  readonly checkEvery?: number;
  /**
   * Tokens of each tool's result item (score 0), by tool id, shared across calls with the same
   * corpus, tokenizer and detail so each schema is counted once.
   */
  readonly itemCache?: Map<string, number>;
}

/**
 * Measures one frontier: each query searched once with limit `maxK`; for each k the tokens of
 * the response text of its top k hits ({@linkcode retrieveResponseText}) are estimated as the
 * envelope's (the response with no result) plus each result's own (its JSON item with a comma),
 * and recall@k computed against its labels; both averaged over the queries with a relevant
 * label. The estimate is checked against the exact count of the full response at `maxK` on
 * every `checkEvery`-th query.
 * A retriever that returns fewer than k hits prices the hits it returned.
 *
 * @param options Retriever, golden set, corpus, tokenizer, detail, maxK.
 * @returns The {@linkcode FrontierRow}.
 * @throws {RangeError} when a hit is not a corpus tool or maxK < 1.
 */
export function measureFrontier(options: FrontierOptions): FrontierRow {
  const maxK = options.maxK ?? FRONTIER_MAX_K;
  if (!Number.isInteger(maxK) || maxK < 1) {
    throw new RangeError(`Cannot measure a frontier: maxK must be >= 1, got ${maxK}`);
  }
  const detail = options.detail ?? "full";
  const byId = new Map(options.corpus.tools.map((t) => [t.id, t]));
  const tokens = new Array<number>(maxK).fill(0);
  const recall = new Array<number>(maxK).fill(0);
  const lookup = (id: string) => byId.get(id);
  const envelope = options.tokenizer.count(retrieveResponseText([], lookup, detail));
  const zero = options.tokenizer.count("0");
  // A response text holds each tool's description (as a JSON string) and, in full detail, its
  // schema (the loaders' canonical text, as `JSON.stringify` writes a loaded schema): counted
  // through the tokenizer's shared counts, whose memo the catalog cost and the arms filled with
  // them. Exact whether or not a string is found (lib/tokens/shared_counts.ts).
  const shared = sharedCounts(options.tokenizer);
  const knownOf = new Map<string, readonly string[]>();
  const known = (id: string) => {
    let strings = knownOf.get(id);
    if (strings === undefined) {
      const tool = byId.get(id)!;
      strings = [JSON.stringify(tool.description).slice(1, -1)];
      if (detail === "full" && tool.inputSchema !== undefined) {
        strings = [strings[0], tool.inputSchemaCanonical ?? JSON.stringify(tool.inputSchema)];
      }
      knownOf.set(id, strings);
    }
    return strings;
  };
  const itemBase = options.itemCache ?? new Map<string, number>();
  const checkEvery = options.checkEvery ?? 10;
  let checked = 0;
  let exactSum = 0;
  let errorSum = 0;
  let n = 0;
  for (const [qid, text] of options.golden.queries) {
    const labels = options.golden.qrels.get(qid);
    if (labels === undefined || ![...labels.values()].some((g) => g >= 1)) continue;
    n++;
    const hits = options.retriever.search(text, maxK);
    const ids = hits.map((h) => h.id);
    // One result's share: its item alone (schema and text counted once per tool, the score's
    // digits per hit), without the comma that separates it from the next.
    const item = hits.map((h) => {
      let base = itemBase.get(h.id);
      if (base === undefined) {
        const text = retrieveResponseText([{ id: h.id, score: 0 }], lookup, detail);
        base = shared.count(text, known(h.id)) - envelope - zero;
        itemBase.set(h.id, base);
      }
      return base + options.tokenizer.count(String(h.score));
    });
    const recallAt = recallCurve(ids.slice(0, maxK), labels, maxK);
    let sum = envelope;
    for (let k = 1; k <= maxK; k++) {
      if (k <= item.length) sum += item[k - 1];
      tokens[k - 1] += sum;
      recall[k - 1] += recallAt[k - 1];
    }
    if ((n - 1) % checkEvery === 0) {
      const text = retrieveResponseText(hits, lookup, detail);
      const exact = shared.count(text, hits.flatMap((h) => known(h.id)));
      checked++;
      exactSum += exact;
      errorSum += exact === 0 ? 0 : Math.abs(sum - exact) / exact;
    }
  }
  return {
    goldenSetId: options.golden.id,
    corpusId: options.corpus.id,
    retriever: options.retriever.name,
    tokenizer: options.tokenizer.name,
    detail,
    queryCount: n,
    points: tokens.map((t, i) => ({
      k: i + 1,
      meanTokens: n === 0 ? 0 : t / n,
      recall: n === 0 ? 0 : recall[i] / n,
    })),
    provenance: "estimated",
    check: {
      k: maxK,
      queries: checked,
      meanExactTokens: checked === 0 ? 0 : exactSum / checked,
      meanRelativeError: checked === 0 ? 0 : errorSum / checked,
    },
  };
}

/** Tools discovery cannot reach on one golden set × corpus; JSON-safe. */
export interface UnreachableTools {
  /** Golden set id. */
  readonly goldenSetId: string;
  /** Corpus id. */
  readonly corpusId: string;
  /** Tools in the corpus. */
  readonly toolCount: number;
  /**
   * Tool ids that no query of the set retrieves in any scored retriever's top 10 (the baselines
   * `random` and `oracle` left out), sorted.
   */
  readonly neverRetrieved: readonly string[];
  /**
   * Tool ids whose name and description share no content word with any other tool's
   * description (a description-quality hint: whatever words reach them, no neighbour shares),
   * sorted.
   */
  readonly isolatedVocabulary: readonly string[];
}

/**
 * Lists unreachable tools.
 *
 * @param golden Golden set id.
 * @param corpus Corpus id and tools.
 * @param topIds Top-10 ids of every query of every scored (non-baseline) retriever on the set.
 * @returns The {@linkcode UnreachableTools}.
 *
 * @example Usage
 * ```ts
 * import { unreachableTools } from "./frontier.ts";
 * const tools = [
 *   { id: "a:x", server: "a", name: "read_file", description: "Read a file" },
 *   { id: "a:y", server: "a", name: "write_file", description: "Write a file" },
 *   { id: "a:z", server: "a", name: "zebra", description: "Quagga" },
 * ];
 * const u = unreachableTools("g", { id: "c", tools }, [["a:x"]]);
 * if (u.isolatedVocabulary.join() !== "a:z" || u.neverRetrieved.join() !== "a:y,a:z") throw new Error();
 * ```
 */
export function unreachableTools(
  golden: string,
  corpus: { readonly id: string; readonly tools: readonly Tool[] },
  topIds: Iterable<readonly string[]>,
): UnreachableTools {
  const seen = new Set<string>();
  for (const ids of topIds) for (const id of ids) seen.add(id);
  const sorted = (ids: string[]) => ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let isolated = ISOLATED.get(corpus.tools);
  if (isolated === undefined) {
    ISOLATED.set(corpus.tools, isolated = sorted(isolatedVocabulary(corpus.tools)));
  }
  return {
    goldenSetId: golden,
    corpusId: corpus.id,
    toolCount: corpus.tools.length,
    neverRetrieved: sorted(corpus.tools.map((t) => t.id).filter((id) => !seen.has(id))),
    isolatedVocabulary: [...isolated],
  };
}

/**
 * The sorted `isolatedVocabulary` of each tools array seen, kept as long as the array lives: it
 * depends on the tools alone, and the bench lists the unreachable tools of every golden set
 * scored on a corpus. Exact: a corpus's tools are not changed after loading.
 */
const ISOLATED = new WeakMap<readonly Tool[], readonly string[]>();

/** Ids of the tools whose name and description share no content word with another tool's description. */
function isolatedVocabulary(tools: readonly Tool[]): string[] {
  // The content words of every name and description, numbered once (shared with a BM25 index
  // built over the same documents); per tool its distinct description words (a run of
  // `descWords`), and per word how many tools' descriptions carry it.
  const { words, name, description } = docWords(sharedDocs(tools).docs);
  const descStart = new Int32Array(tools.length + 1);
  const descWords: number[] = [];
  const df = new Int32Array(words.length);
  // Per word, the last tool whose description counted it (a repeat within one text counts once).
  const last = new Int32Array(words.length).fill(-1);
  for (let i = 0; i < tools.length; i++) {
    for (let j = description.starts[i]; j < description.starts[i + 1]; j++) {
      const id = description.ids[j];
      if (last[id] === i) continue;
      last[id] = i;
      descWords.push(id);
      df[id]++;
    }
    descStart[i + 1] = descWords.length;
  }
  // A word is shared when some other tool's description has it: one of the tool's own
  // description words carried by another description too, or one of its name words (not in its
  // description) carried by any description. `last` still marks each tool's own words.
  return tools.filter((_, i) => {
    for (let j = descStart[i]; j < descStart[i + 1]; j++) {
      if (df[descWords[j]] > 1) return false;
    }
    for (let j = name.starts[i]; j < name.starts[i + 1]; j++) {
      const id = name.ids[j];
      if (last[id] !== i && df[id] > 0) return false;
    }
    return true;
  }).map((t) => t.id);
}
