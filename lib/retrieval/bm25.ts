/**
 * BM25F retriever over tool documents, backed by `wink-bm25-text-search`.
 *
 * @module
 */

import winkBm25 from "wink-bm25-text-search";
import { identifierTokens } from "./_analysis.ts";
import { ContentTokens } from "./_terms.ts";
import { docWords, type FieldWords } from "./_doc_words.ts";
import { checkLimit } from "./_limit.ts";
import { TopHits } from "./_top_hits.ts";
import { compareHits } from "./metrics.ts";
import {
  type Hit,
  INDEX_FIELD_NAMES,
  type IndexFieldName,
  type IndexFieldsFn,
  type RetrievalDoc,
  type Retriever,
  type RetrieverEntry,
} from "./types.ts";
import type { Tool } from "../catalog/types.ts";
import { defaultIndexFields } from "./docs.ts";

/** Per-field weights; a weight of 0 leaves the field out of the index. */
export interface Bm25FieldWeights {
  /** Tool name (split into words). */
  readonly name: number;
  /** Description text. */
  readonly description: number;
  /** Parameter text (schema JSON or an arm's parameter rendering). */
  readonly params: number;
  /** Server name. */
  readonly server: number;
}

/** Options of {@linkcode createBm25Retriever}. */
export interface Bm25Options {
  /**
   * Field weights (BM25F: a token in a field with weight w counts w times toward term frequency
   * and document length).
   * @default {DEFAULT_BM25_WEIGHTS}
   */
  readonly weights?: Partial<Bm25FieldWeights>;
  /**
   * BM25 parameters: k1 (term-frequency saturation), b (length normalisation), k (added inside
   * the idf log).
   * @default {{k1: 1.2, b: 0.75, k: 1}}
   */
  readonly params?: { readonly k1?: number; readonly b?: number; readonly k?: number };
  /**
   * Stem tokens with Porter2 (Snowball English). Off by default: stemming lowered dev nDCG@10.
   * @default {false}
   */
  readonly stem?: boolean;
  /**
   * Drop English stop words (Snowball list).
   * @default {true}
   */
  readonly stopWords?: boolean;
  /**
   * Decimals kept per term score by wink's `consolidate(fp)` (4 to 9); the summed score is
   * rounded to the same precision so equal scores tie exactly and fall back to id order.
   * @default {4}
   */
  readonly precision?: number;
  /**
   * The text indexed as each document's `params`, by position, in place of `doc.params` (e.g. an
   * emulation's argument names and descriptions): the documents' own names and descriptions are
   * then read from their shared word table.
   */
  readonly paramsTexts?: readonly string[];
}

/**
 * Default field weights, chosen on the reference dev set (`fixtures/golden/reference_v1.dev.json`,
 * two grids: name {1,2,3,5} × params {0,0.25,0.5,1} × server {0,1,2} × stem {on,off}, then name
 * {3,5,8} × params {0,0.05,0.1} × server {2,3} without stemming; description fixed at 1). The
 * plateau (nDCG@10 0.896) starts at name 5, server 2; the smallest such weights were kept. Parameter text is
 * off by default: with schema JSON as parameter text every positive weight lowered dev nDCG@10.
 */
export const DEFAULT_BM25_WEIGHTS: Bm25FieldWeights = {
  name: 5,
  description: 1,
  params: 0,
  server: 2,
};

const FIELDS = ["name", "description", "params", "server"] as const;

/**
 * Build a BM25F index over `docs` with wink-bm25-text-search.
 *
 * Scoring (wink's implementation of BM25F, Robertson & Zaragoza 2009, "The Probabilistic
 * Relevance Framework: BM25 and Beyond", §3.4 with field weights folded into tf):
 * score(d, q) = Σ_{t ∈ q} idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·len(d)/avglen)),
 * idf(t) = ln((N − n(t) + 0.5) / (n(t) + 0.5) + k), where tf and len are field-weighted.
 * Tokens: camelCase and snake_case split, lower-cased, stop words dropped, optionally
 * Porter2-stemmed. Query tokens that repeat count repeatedly.
 *
 * wink builds the index (its `addDoc` given each field's tokens, made once per distinct text,
 * through an identity pipeline) and computes every term's score (`consolidate`); `search` sums
 * those scores per document as wink's own search does, same terms in the same order, over
 * postings read once from wink's documents, and keeps the best `limit` in a short sorted list
 * instead of sorting every hit (`bm25_test.ts` checks it against wink's search).
 *
 * @param docs Documents, ids unique. wink's `consolidate()` refuses fewer than 3; one or two are
 *   consolidated here with wink's own formula and the true N, so a catalog of 1 or 2 tools is
 *   scored as BM25 defines it (no padding documents, which would change N and the mean length).
 * @param options Field weights, BM25 parameters, stemming, stop words, score precision.
 * @returns A {@linkcode Retriever} named `bm25`; `search` ranks by score desc, then id asc.
 * @throws {RangeError} when a weight is negative or all are 0, or precision is outside 4..9.
 *
 * @example Usage
 * ```ts
 * import { createBm25Retriever } from "./bm25.ts";
 * const docs = ["create_issue", "list_pull_requests", "read_file"].map((name) => ({
 *   id: `gh:${name}`, name, server: "gh", description: "", params: "",
 * }));
 * const hits = createBm25Retriever(docs).search("pull request", 3);
 * if (hits[0].id !== "gh:list_pull_requests") throw new Error("unexpected");
 * ```
 */
export function createBm25Retriever(
  docs: readonly RetrievalDoc[],
  options: Bm25Options = {},
): Retriever {
  const weights: Bm25FieldWeights = { ...DEFAULT_BM25_WEIGHTS, ...options.weights };
  for (const f of FIELDS) {
    if (!(weights[f] >= 0)) {
      throw new RangeError(`Cannot build a bm25 index: weight of "${f}" is ${weights[f]}`);
    }
  }
  const active = FIELDS.filter((f) => weights[f] > 0);
  if (active.length === 0) throw new RangeError("Cannot build a bm25 index: all weights are 0");
  const precision = options.precision ?? 4;
  if (!Number.isInteger(precision) || precision < 4 || precision > 9) {
    throw new RangeError(`Cannot build a bm25 index: precision must be 4..9, got ${precision}`);
  }
  const k1 = options.params?.k1 ?? 1.2;
  const b = options.params?.b ?? 0.75;
  const k = options.params?.k ?? 1;
  const stem = options.stem ?? false;
  const stopWords = options.stopWords ?? true;

  const stemCache = new Map<string, string>();
  const tokenize = (text: string) => identifierTokens(text, { stem, stopWords, stemCache });
  // Built in a function of its own: a closure holds its whole scope, so `search` below would
  // otherwise keep wink's engine (a dictionary of scores per document, larger than the index)
  // alive as long as the index.
  const index = buildPostings(docs, active, weights, { k1, b, k }, precision, tokenize, {
    stem,
    stopWords,
    paramsTexts: options.paramsTexts,
  });
  const scale = 10 ** precision;
  const ids = docs.map((d) => d.id);
  // Scratch space reused across queries (reset through `touched`).
  const sums = new Float64Array(docs.length);
  const isTouched = new Uint8Array(docs.length);
  const touched = new Int32Array(docs.length);

  return {
    name: "bm25",
    config: { weights: { ...weights }, k1, b, k, stem, stopWords, precision },
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      // wink's search, summed here: per document, its consolidated score of each query token
      // that the index holds, in query order (a repeated token counts again), added as wink
      // adds them; then the best `limit` by score rounded to `precision`, ties by id.
      let count = 0;
      for (const token of tokenize(query)) {
        const t = index.tokens[token];
        if (t === undefined) continue;
        const end = index.starts[t + 1];
        for (let j = index.starts[t]; j < end; j++) {
          const d = index.docs[j];
          sums[d] = index.scores[j] + sums[d];
          if (isTouched[d] === 0) {
            isTouched[d] = 1;
            touched[count++] = d;
          }
        }
      }
      if (Math.min(limit, count) > WIDE_LIMIT) {
        // A deep search: every hit, then one sort (inserting into a long list would be slower).
        const all: Hit[] = new Array(count);
        for (let i = 0; i < count; i++) {
          const d = touched[i];
          all[i] = { id: ids[d], score: Math.round(sums[d] * scale) / scale };
          sums[d] = 0;
          isTouched[d] = 0;
        }
        all.sort(compareHits);
        if (all.length > limit) all.length = limit;
        return all;
      }
      const top = new TopHits(ids, Math.min(limit, count));
      for (let i = 0; i < count; i++) {
        const d = touched[i];
        top.offer(d, Math.round(sums[d] * scale) / scale);
        sums[d] = 0;
        isTouched[d] = 0;
      }
      return top.hits();
    },
  };
}

/**
 * Adds every document to a wink engine (its fields given as wink's pipeline would make their
 * tokens) and reads the consolidated engine into postings (private).
 */
function buildPostings(
  docs: readonly RetrievalDoc[],
  active: readonly (typeof FIELDS)[number][],
  weights: Bm25FieldWeights,
  params: { readonly k1: number; readonly b: number; readonly k: number },
  precision: number,
  tokenize: (text: string) => string[],
  { stem, stopWords, paramsTexts }: {
    readonly stem: boolean;
    readonly stopWords: boolean;
    readonly paramsTexts: readonly string[] | undefined;
  },
): Bm25Postings {
  const engine = winkBm25();
  const fldWeights: Record<string, number> = {};
  for (const f of active) fldWeights[f] = weights[f];
  engine.defineConfig({ fldWeights, bm25Params: params });
  // wink's own pipeline (the one its search would use); each field is given its tokens through
  // an identity pipeline, what wink's addDoc would have made (a server's name tokenized once).
  engine.definePrepTasks([tokenize]);
  const prepared = (tokens: string[]) => tokens;
  for (const f of active) engine.definePrepTasks([prepared], f);
  const serverTokens = new Map<string, string[]>();
  // wink's token numbers, filled as documents are added; each document's distinct ones are
  // kept (numbers, not the strings: those die young), to read its scores from once consolidated.
  const numbers = engine.getTokens();
  const terms = new DocTerms(docs.length);
  // With the default tokenization, names and descriptions are read from the documents' shared
  // word table (the same tokens, tokenized once per document array; the bench's unreachable
  // tools read it too), and each word's wink number is looked up once.
  const table = !stem && stopWords ? docWords(docs) : undefined;
  const winkNumber = new Int32Array(table?.words.length ?? 0).fill(-1);
  const tabled = (f: string): f is "name" | "description" =>
    table !== undefined && (f === "name" || f === "description");
  // Without stemming, parameter text is tokenized into the numbers of a term table: each
  // distinct token is one string, made once, and its wink number is looked up once.
  const paramWords = stem ? undefined : new ContentTokens(stopWords);
  let paramsWink = new Int32Array(0);
  docs.forEach((doc, d) => {
    const fields: Record<string, string[]> = {};
    for (const f of active) {
      if (tabled(f)) fields[f] = tableTokens(table!.words, table![f], d);
      else if (f === "params" && paramWords !== undefined) {
        paramWords.read(paramsTexts === undefined ? doc.params : paramsTexts[d]);
        const { ids, used } = paramWords.ids;
        const tokens = new Array<string>(used);
        for (let j = 0; j < used; j++) tokens[j] = paramWords.table.terms[ids[j]];
        fields[f] = tokens;
      } else if (f === "params" && paramsTexts !== undefined) fields[f] = tokenize(paramsTexts[d]);
      else if (f !== "server") fields[f] = tokenize(doc[f]);
      else {
        let tokens = serverTokens.get(doc.server);
        if (tokens === undefined) serverTokens.set(doc.server, tokens = tokenize(doc.server));
        fields[f] = tokens;
      }
    }
    engine.addDoc(fields, doc.id);
    for (const f of active) {
      if (tabled(f)) {
        const { starts, ids } = table![f];
        for (let j = starts[d]; j < starts[d + 1]; j++) {
          const w = ids[j];
          let t = winkNumber[w];
          if (t < 0) winkNumber[w] = t = numbers[table!.words[w]];
          terms.add(d, t);
        }
      } else if (f === "params" && paramWords !== undefined) {
        const { ids, used } = paramWords.ids;
        if (paramsWink.length < paramWords.table.size) {
          const grown = new Int32Array(Math.max(1024, 2 * paramWords.table.size)).fill(-1);
          grown.set(paramsWink);
          paramsWink = grown;
        }
        for (let j = 0; j < used; j++) {
          const w = ids[j];
          let t = paramsWink[w];
          if (t < 0) paramsWink[w] = t = numbers[paramWords.table.terms[w]];
          terms.add(d, t);
        }
      } else for (const token of fields[f]) terms.add(d, numbers[token]);
    }
    terms.end(d);
  });
  if (docs.length >= WINK_MIN_DOCS) engine.consolidate(precision);
  else consolidateSmall(engine.getDocs(), params, precision);
  return Bm25Postings.of(engine, docs, terms);
}

/** Smallest collection wink's `consolidate()` accepts. */
const WINK_MIN_DOCS = 3;

/**
 * wink's consolidation (wink-bm25-text-search 3.1.2, `consolidate`) for the 1 or 2 documents it
 * refuses: each field-weighted term frequency becomes
 * tf·(k1 + 1) / (k1·(1 − b + b·len/avglen) + tf) · ln((N − n + 0.5) / (n + 0.5) + k), rounded to
 * `precision` decimals, in place.
 */
function consolidateSmall(
  documents: Record<string, { freq: Record<number, number>; length: number }>,
  { k1, b, k }: { readonly k1: number; readonly b: number; readonly k: number },
  precision: number,
): void {
  const all = Object.values(documents);
  const df = new Map<number, number>();
  for (const d of all) for (const t in d.freq) df.set(+t, (df.get(+t) ?? 0) + 1);
  const avg = all.reduce((sum, d) => sum + d.length, 0) / all.length;
  for (const d of all) {
    const norm = (1 - b) + b * (d.length / avg);
    for (const t in d.freq) {
      const tf = d.freq[t];
      const n = df.get(+t)!;
      const idf = Math.log((all.length - n + 0.5) / (n + 0.5) + k);
      d.freq[t] = Math.sign(tf) *
        Number((Math.abs((tf * (k1 + 1)) / (k1 * norm + tf)) * idf).toFixed(precision));
    }
  }
}

/** Document d's words of one field, as strings. */
function tableTokens(words: readonly string[], field: FieldWords, d: number): string[] {
  const out: string[] = [];
  for (let j = field.starts[d]; j < field.starts[d + 1]; j++) out.push(words[field.ids[j]]);
  return out;
}

/**
 * The distinct wink token numbers of each document (private): document d's at
 * `ids[starts[d]..starts[d + 1])`, in first-seen order.
 */
class DocTerms {
  readonly starts: Int32Array;
  ids = new Int32Array(1 << 16);
  /** One past the largest token number seen. */
  size = 0;
  #used = 0;
  /** Per token number, the last document it was added for. */
  #last = new Int32Array(1 << 12).fill(-1);

  constructor(docs: number) {
    this.starts = new Int32Array(docs + 1);
  }

  /** Adds token number `t` to document `d` (the document being added), unless it holds it. */
  add(d: number, t: number): void {
    while (t >= this.#last.length) {
      const last = new Int32Array(this.#last.length * 2).fill(-1);
      last.set(this.#last);
      this.#last = last;
    }
    if (this.#last[t] === d) return;
    this.#last[t] = d;
    if (t >= this.size) this.size = t + 1;
    if (this.#used === this.ids.length) {
      const ids = new Int32Array(this.ids.length * 2);
      ids.set(this.ids);
      this.ids = ids;
    }
    this.ids[this.#used++] = t;
  }

  /** Closes document `d`'s run. */
  end(d: number): void {
    this.starts[d + 1] = this.#used;
  }
}

/** Above this limit a search sorts all its hits instead of keeping the best in a sorted list. */
const WIDE_LIMIT = 64;

/** The subset of wink's engine the postings are read from. */
interface WinkConsolidated {
  getDocs(): Record<string, { freq: Record<number, number>; length: number }>;
  getTokens(): Record<string, number>;
}

/**
 * A consolidated wink index by token (private): for wink token number t, the documents holding
 * it and wink's consolidated score of t in each (entries `starts[t]` to `starts[t + 1]`), and
 * wink's token numbers by token. Read once from wink's documents, so a search visits only the
 * documents of its tokens and the engine (a dictionary of scores per document) can be let go.
 */
class Bm25Postings {
  private constructor(
    readonly tokens: Readonly<Record<string, number>>,
    readonly starts: Int32Array,
    readonly docs: Int32Array,
    readonly scores: Float64Array,
  ) {}

  static of(
    engine: WinkConsolidated,
    docs: readonly RetrievalDoc[],
    terms: DocTerms,
  ): Bm25Postings {
    const tokens = engine.getTokens();
    const documents = engine.getDocs();
    const size = terms.size;
    const { starts: rows, ids } = terms;
    const starts = new Int32Array(size + 1);
    for (let j = 0; j < rows[docs.length]; j++) starts[ids[j] + 1]++;
    for (let t = 0; t < size; t++) starts[t + 1] += starts[t];
    const next = starts.slice(0, size);
    const ds = new Int32Array(starts[size]);
    const scores = new Float64Array(starts[size]);
    for (let d = 0; d < docs.length; d++) {
      const freq = documents[docs[d].id].freq;
      for (let j = rows[d]; j < rows[d + 1]; j++) {
        const t = ids[j];
        const at = next[t]++;
        ds[at] = d;
        scores[at] = freq[t];
      }
    }
    return new Bm25Postings(tokens, starts, ds, scores);
  }
}

/**
 * Whether an encoding arm changes what BM25 indexes: true when, for some tool,
 * the arm's index fields differ from the tool's own fields in a field whose
 * weight is above 0. With {@linkcode DEFAULT_BM25_WEIGHTS} (`params` at 0), an
 * arm that only rewrites parameter text gives BM25 the same index, so scoring
 * it again would repeat the plain BM25 row.
 *
 * @param tools The corpus.
 * @param indexFields The arm's `indexFields`.
 * @param weights BM25 field weights. @default {DEFAULT_BM25_WEIGHTS}
 * @returns True when the arm's BM25 index can differ from the plain one.
 *
 * @example Usage
 * ```ts
 * import { bm25SeesArm } from "./bm25.ts";
 * import type { Tool } from "../catalog/types.ts";
 * const tools: Tool[] = [{ id: "s:a", server: "s", name: "a", description: "d", inputSchema: { type: "object" } }];
 * const paramsOnly = (t: Tool) => ({ name: t.name, server: t.server, description: t.description, params: "()" });
 * if (bm25SeesArm(tools, paramsOnly)) throw new Error("params carry weight 0 by default");
 * ```
 */
export function bm25SeesArm(
  tools: readonly Tool[],
  indexFields: IndexFieldsFn,
  weights: Bm25FieldWeights = DEFAULT_BM25_WEIGHTS,
): boolean {
  const weighted = FIELDS.filter((f) => weights[f] > 0);
  return tools.some((tool) => {
    const own = defaultIndexFields(tool);
    const arm = indexFields(tool);
    return weighted.some((f) => own[f] !== arm[f]);
  });
}

/**
 * The index fields a BM25F weighting reads: those weighted above 0, in
 * {@linkcode INDEX_FIELD_NAMES} order (an entry's `reads`).
 *
 * @param weights Field weights.
 * @returns The fields.
 */
export function weightedFields(weights: Bm25FieldWeights): IndexFieldName[] {
  return INDEX_FIELD_NAMES.filter((f) => weights[f] > 0);
}

/**
 * Registry entry of `bm25` with {@linkcode DEFAULT_BM25_WEIGHTS}: it reads the fields weighted
 * above 0 (name, server, description; not params).
 */
export const bm25Entry: RetrieverEntry = {
  name: "bm25",
  label: "BM25",
  summary: "BM25F over name, server and description (wink-bm25-text-search, tuned weights)",
  reads: weightedFields(DEFAULT_BM25_WEIGHTS),
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  create: (docs) => createBm25Retriever(docs),
};
