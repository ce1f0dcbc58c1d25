/**
 * Lucene classic TF-IDF with the semantics of Bleve's default scorer, laid out the way mcpproxy
 * indexes and queries tools, so numbers published by Bleve-based proxies can be reproduced.
 *
 * @module
 */

import { standardTokens } from "./_analysis.ts";
import { ENGLISH_STOP_WORDS } from "./_stop_en.ts";
import { type Field, PostingList } from "./_postings.ts";
import { type TermIds, TermTable } from "./_terms.ts";
import { checkLimit } from "./_limit.ts";
import { TopHits } from "./_top_hits.ts";
import {
  type Hit,
  INDEX_FIELD_NAMES,
  type RetrievalDoc,
  type Retriever,
  type RetrieverContext,
  type RetrieverEntry,
} from "./types.ts";

/** Query clause boosts (Bleve `SetBoost` values). */
export interface TfidfBoosts {
  /** Term query: the raw query equals the tool name. */
  readonly exactName: number;
  /** Term query: the raw query equals `server:name`. */
  readonly fullName: number;
  /** Prefix query on the tool name. */
  readonly namePrefix: number;
  /** Wildcard `*query*` on the tool name, only when the query contains `_`. */
  readonly nameWildcard: number;
  /** Match query (analysed) against `_all`. */
  readonly all: number;
  /** Match query (analysed) against `searchable_text`. */
  readonly searchableText: number;
}

/** mcpproxy's boosts: 5, 4, 3, 2.5, 1, 1.5. */
export const DEFAULT_TFIDF_BOOSTS: TfidfBoosts = {
  exactName: 5,
  fullName: 4,
  namePrefix: 3,
  nameWildcard: 2.5,
  all: 1,
  searchableText: 1.5,
};

/** Options of {@linkcode createTfidfClassicRetriever}. */
export interface TfidfClassicOptions {
  /**
   * Clause boosts.
   * @default {DEFAULT_TFIDF_BOOSTS}
   */
  readonly boosts?: Partial<TfidfBoosts>;
  /**
   * Analysis shared with other tfidf_classic indexes over documents of the same tools (a bench's
   * plain and index-arm indexes): each document's analysed name and description are recorded by
   * the first build and taken by a later one wherever the text is the same string. Exact: the
   * analysis of a text depends on the text alone, and term numbers never reach a score.
   * @default {a fresh one, not recorded}
   */
  readonly shared?: TfidfSharedAnalysis;
}

/** A record being made: its `used` first `ids` so far (a {@linkcode TermTable.wordIds} list). */
interface Recording extends TermIds {
  texts: string[];
  readonly starts: Int32Array;
}

/** The analysed tokens of one field of every document: document d's at `ids[starts[d]..starts[d+1])`. */
interface FieldRecord {
  /** The text analysed for each document (references, not copies). */
  readonly texts: readonly string[];
  readonly starts: Int32Array;
  readonly ids: Int32Array;
}

/** The keyword term numbers of every document (see `SharedState.keywords`). */
interface KeywordRecord {
  readonly names: readonly string[];
  readonly servers: readonly string[];
  readonly ids: Int32Array;
}

/** Fields whose analysis a {@linkcode TfidfSharedAnalysis} records (an index arm keeps them). */
const RECORDED = ["name", "description"] as const;

/**
 * The term table and the recorded name and description analyses that tfidf_classic indexes
 * over the same tools share ({@linkcode TfidfClassicOptions.shared}); one per corpus. Opaque:
 * the builds that are given it fill it.
 */
export class TfidfSharedAnalysis {
  /** The number of documents of each record, by field (for messages and tests). */
  recordedFields(): Map<string, number> {
    const state = SHARED.get(this);
    return new Map(
      [...(state?.records ?? new Map()).entries()].map(([f, r]) => [f, r.texts.length]),
    );
  }
}

/** What a {@linkcode TfidfSharedAnalysis} holds. */
interface SharedState {
  /** Terms of every index built with it, the English stop words first. */
  readonly table: TermTable;
  /** Number of stop words: a term is one when its number is below. */
  readonly stopWords: number;
  /** Per recorded field, the documents of the first build. */
  readonly records: Map<string, FieldRecord>;
  /**
   * The keyword terms of the first build's documents: document d's tool_name, full_tool_name
   * and server_name numbers at `ids[3d..3d+3)`, taken where its name and server are the same.
   */
  keywords?: KeywordRecord;
}

const SHARED = new WeakMap<TfidfSharedAnalysis, SharedState>();

/** A fresh state: a table of the stop words alone, no record. */
function sharedState(shared: TfidfSharedAnalysis | undefined): SharedState {
  let state = shared === undefined ? undefined : SHARED.get(shared);
  if (state === undefined) {
    const table = new TermTable();
    for (const word of ENGLISH_STOP_WORDS) table.id(word);
    state = { table, stopWords: table.size, records: new Map() };
    if (shared !== undefined) SHARED.set(shared, state);
  }
  return state;
}

/**
 * The shared analysis kept in a bench's cache ({@linkcode RetrieverContext.analysisCache}),
 * made on first use.
 */
function sharedAnalysisOf(
  cache: RetrieverContext["analysisCache"],
): TfidfSharedAnalysis | undefined {
  if (cache === undefined) return undefined;
  let shared = cache.get("tfidf_classic");
  if (!(shared instanceof TfidfSharedAnalysis)) {
    shared = new TfidfSharedAnalysis();
    cache.set("tfidf_classic", shared);
  }
  return shared as TfidfSharedAnalysis;
}

/** A term's postings: entries `start` to `end` (exclusive) of its field's `docs` and `tfs`. */
interface Posting {
  readonly start: number;
  readonly end: number;
}

/** A leaf term query: one field, one term, its boost and idf. */
interface Leaf {
  readonly field: Field;
  readonly posting: Posting | undefined;
  readonly boost: number;
  readonly idf: number;
}

/** A top-level clause: a disjunction of leaves (a lone term query is a one-leaf disjunction). */
interface Clause {
  readonly leaves: readonly Leaf[];
  /** True for Bleve's MatchNoneSearcher (no terms): weight 0, never matches, still counted. */
  readonly none: boolean;
}

/** A copy of `a` twice as long (the rest zero). */
function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const out = new Int32Array(a.length * 2);
  out.set(a);
  return out;
}

/**
 * Build a Lucene-classic TF-IDF index with Bleve's default scorer and mcpproxy's document layout.
 *
 * Documents: `tool_name`, `full_tool_name` (`server:name`) and `server_name` are keyword fields
 * (the whole string is one term); `description` and `params` are analysed; `searchable_text` =
 * name + " " + name + " " + description + " " + params, analysed; `_all` holds every indexed
 * field's tokens (keyword terms included), its length the sum of theirs. Analyser: Unicode word
 * segmentation, lower case, English stop list, no stemming.
 *
 * Query (a Bleve boolean query of should-clauses): term(tool_name = q)^5, term(full_tool_name =
 * q)^4, prefix(tool_name, q)^3, wildcard(tool_name, `*q*`)^2.5 when q contains `_`,
 * match(_all, q)^1, match(searchable_text, q)^1.5. Prefix and wildcard expand to a disjunction of
 * the matching terms; a match query is a disjunction of one term query per analysed token.
 *
 * Scoring (Lucene `TFIDFSimilarity` / `ClassicSimilarity` javadoc; Bleve
 * `search/scorer/scorer_term.go`, `scorer_disjunction.go`):
 * - leaf score = sqrt(tf) × fieldNorm × idf × queryWeight, queryWeight = boost × idf × queryNorm;
 * - fieldNorm = float32(1 / sqrt(number of tokens in the field));
 * - idf = 1 + ln(N / (df + 1)), N = number of documents, df = documents holding the term;
 * - queryNorm = 1 / sqrt(Σ over all leaves of (boost × idf)²) — terms absent from the index count;
 * - disjunction score = (Σ matching children's scores) × matched / total children (coord), at
 *   each level: within a clause and across the top-level clauses.
 * Ties are broken by id ascending.
 *
 * @param docs Documents (ids unique).
 * @param options Clause boosts.
 * @returns A {@linkcode Retriever} named `tfidf_classic`.
 * @throws {RangeError} when `docs` is empty or a boost is not a positive number.
 *
 * @example Usage
 * ```ts
 * import { createTfidfClassicRetriever } from "./tfidf_classic.ts";
 * const docs = ["create_issue", "list_issues", "read_file"].map((name) => ({
 *   id: `gh:${name}`, name, server: "gh", description: "", params: "",
 * }));
 * const hits = createTfidfClassicRetriever(docs).search("create_issue", 3);
 * if (hits[0].id !== "gh:create_issue") throw new Error("unexpected");
 * ```
 */
export function createTfidfClassicRetriever(
  docs: readonly RetrievalDoc[],
  options: TfidfClassicOptions = {},
): Retriever {
  if (docs.length === 0) {
    throw new RangeError("Cannot build a tfidf_classic index over 0 documents");
  }
  const boosts: TfidfBoosts = { ...DEFAULT_TFIDF_BOOSTS, ...options.boosts };
  for (const [k, v] of Object.entries(boosts)) {
    if (!(v > 0)) throw new RangeError(`Cannot build a tfidf_classic index: boost ${k} is ${v}`);
  }
  return {
    name: "tfidf_classic",
    config: { boosts: { ...boosts }, scorer: "bleve-tfidf", analyser: "standard" },
    search: searcher(buildIndex(docs, options.shared), boosts),
  };
}

/** The postings a query reads, over documents `ids` (by number). */
interface TfidfIndex {
  readonly ids: readonly string[];
  readonly table: TermTable;
  readonly toolName: Field;
  readonly fullName: Field;
  readonly searchable: Field;
  readonly all: Field;
  /** The terms of `tool_name`, sorted (prefix and wildcard queries expand over them). */
  readonly nameTerms: readonly string[];
}

/**
 * The index: postings of tool_name, full_tool_name, searchable_text and _all, the only fields
 * queried. searchable_text = name + " " + name + " " + description + " " + params: word
 * segmentation never joins across a space, so its tokens are the parts' tokens, and _all = the
 * three keyword terms + description + params + searchable_text, i.e. per analysed term
 * tf_all = tf_searchable + tf_description + tf_params.
 */
function buildIndex(
  docs: readonly RetrievalDoc[],
  sharedOption: TfidfSharedAnalysis | undefined,
): TfidfIndex {
  const n = docs.length;
  const shared = sharedOption === undefined ? undefined : sharedState(sharedOption);
  const { table, stopWords } = shared ?? sharedState(undefined);
  const tf = new DocFrequencies(table, stopWords);
  const fields = new RecordedFields(shared, n, tf);
  const keywords = new Keywords(shared, docs, table, tf);
  // Names: tool_name (first), full_tool_name (second); analysed: searchable_text (first), _all.
  const names = new PostingList();
  const analysed = new PostingList();
  const norms = { searchable: new Float64Array(n), all: new Float64Array(n) };
  for (let d = 0; d < n; d++) {
    const doc = docs[d];
    keywords.number(d, doc);
    names.add(keywords.name, d, 1, 0);
    names.add(keywords.full, d, 0, 1);
    const name = fields.analyse("name", d, doc.name, 2, 0);
    const description = fields.analyse("description", d, doc.description, 1, 1);
    const params = tf.analyse(doc.params, 1, 1);
    const searchableLength = 2 * name + description + params;
    if (searchableLength > 0) norms.searchable[d] = Math.fround(1 / Math.sqrt(searchableLength));
    norms.all[d] = Math.fround(1 / Math.sqrt(3 + searchableLength + description + params));
    tf.addKeyword(keywords.name);
    tf.addKeyword(keywords.full);
    tf.addKeyword(keywords.server);
    tf.post(d, analysed);
  }
  keywords.keep();
  fields.keep();
  const ones = new Float64Array(n).fill(1);
  const toolName = names.field(0, table.terms, ones);
  return {
    ids: docs.map((d) => d.id),
    table,
    toolName,
    fullName: names.field(1, table.terms, ones),
    searchable: analysed.field(0, table.terms, norms.searchable),
    all: analysed.field(1, table.terms, norms.all),
    nameTerms: table.terms.filter((_, t) => toolName.starts[t + 1] > toolName.starts[t]).sort(),
  };
}

/**
 * The term frequencies of the document being indexed, counted in arrays by term number (every
 * term gets a number on first sight, the stop words first, so a token is one when its number is
 * below theirs), and the list of the terms it holds.
 */
class DocFrequencies {
  searchable: Int32Array<ArrayBuffer>;
  /** In description + params. */
  body: Int32Array<ArrayBuffer>;
  keyword: Int32Array<ArrayBuffer>;
  /** The terms of the current document, each once: `ids[0, used)`. */
  readonly terms: TermIds = { ids: new Int32Array(1024), used: 0 };
  /** The tokens of a field not recorded, numbered here and let go. */
  readonly #scratch: TermIds = { ids: new Int32Array(4096), used: 0 };

  constructor(readonly table: TermTable, readonly stopWords: number) {
    // Sized for the terms a shared table holds already (grown as new ones come).
    const room = Math.max(4096, 2 ** Math.ceil(Math.log2(table.size + 1)));
    this.searchable = new Int32Array(room);
    this.body = new Int32Array(room);
    this.keyword = new Int32Array(room);
  }

  /** Makes room in the frequency arrays for every term of the table. */
  fit(): void {
    while (this.table.size > this.searchable.length) {
      this.searchable = grown(this.searchable);
      this.body = grown(this.body);
      this.keyword = grown(this.keyword);
    }
  }

  #list(t: number): void {
    const terms = this.terms;
    if (terms.used === terms.ids.length) terms.ids = grown(terms.ids);
    terms.ids[terms.used++] = t;
  }

  /**
   * Analyses one field of the current document: each token adds `searchableTf` to its
   * searchable_text frequency and `bodyTf` to its description + params one; with `into`, their
   * numbers are appended to it. Returns their number.
   */
  analyse(text: string, searchableTf: number, bodyTf: number, into?: Recording): number {
    const list = into ?? this.#scratch;
    const from = list.used;
    this.table.wordIds(text, list);
    this.fit();
    // Drops the stop words (numbered below `stopWords`) in place.
    const ids = list.ids;
    const end = list.used;
    const stopWords = this.stopWords;
    const searchable = this.searchable;
    const body = this.body;
    let kept = from;
    for (let j = from; j < end; j++) {
      const t = ids[j];
      if (t < stopWords) continue;
      ids[kept++] = t;
      if (searchable[t] === 0) this.#list(t);
      searchable[t] += searchableTf;
      body[t] += bodyTf;
    }
    list.used = into === undefined ? 0 : kept;
    return kept - from;
  }

  /** Adds the tokens `ids[from, end)` analysed before (stop words dropped), as `analyse` would. */
  addAnalysed(ids: Int32Array, from: number, end: number, searchableTf: number, bodyTf: number) {
    const searchable = this.searchable;
    const body = this.body;
    for (let j = from; j < end; j++) {
      const t = ids[j];
      if (searchable[t] === 0) this.#list(t);
      searchable[t] += searchableTf;
      body[t] += bodyTf;
    }
  }

  addKeyword(t: number): void {
    if (this.searchable[t] === 0 && this.keyword[t] === 0) this.#list(t);
    this.keyword[t]++;
  }

  /**
   * Posts the current document's terms as document `d`: tf in searchable_text first, in _all
   * second (searchable_text + description and params + keyword occurrences); then clears them.
   */
  post(d: number, analysed: PostingList): void {
    const { searchable, body, keyword } = this;
    const terms = this.terms.ids;
    for (let j = 0; j < this.terms.used; j++) {
      const t = terms[j];
      analysed.add(t, d, searchable[t], searchable[t] + body[t] + keyword[t]);
      searchable[t] = 0;
      body[t] = 0;
      keyword[t] = 0;
    }
    this.terms.used = 0;
  }
}

/**
 * The recorded fields (name, description): document d's tokens taken from the shared record
 * where its text is the text recorded, else analysed; the first build with a shared analysis
 * makes the record.
 */
class RecordedFields {
  readonly #takes = new Map<string, FieldRecord>();
  readonly #makes = new Map<string, Recording>();

  constructor(
    readonly shared: SharedState | undefined,
    n: number,
    readonly tf: DocFrequencies,
  ) {
    for (const f of RECORDED) {
      const rec = shared?.records.get(f);
      if (rec !== undefined) {
        if (rec.texts.length === n) this.#takes.set(f, rec);
      } else if (shared !== undefined) {
        this.#makes.set(f, {
          texts: [],
          starts: new Int32Array(n + 1),
          ids: new Int32Array(4096),
          used: 0,
        });
      }
    }
  }

  /** {@linkcode DocFrequencies.analyse} of field `f` of document `d`. */
  analyse(
    f: (typeof RECORDED)[number],
    d: number,
    text: string,
    searchableTf: number,
    bodyTf: number,
  ): number {
    const rec = this.#takes.get(f);
    if (rec !== undefined && rec.texts[d] === text) {
      const from = rec.starts[d];
      const end = rec.starts[d + 1];
      this.tf.addAnalysed(rec.ids, from, end, searchableTf, bodyTf);
      return end - from;
    }
    const make = this.#makes.get(f);
    if (make === undefined) return this.tf.analyse(text, searchableTf, bodyTf);
    const count = this.tf.analyse(text, searchableTf, bodyTf, make);
    make.texts.push(text);
    make.starts[d + 1] = make.used;
    return count;
  }

  /** Hands the records this build made to the shared analysis. */
  keep(): void {
    for (const [f, make] of this.#makes) {
      this.shared!.records.set(f, {
        texts: make.texts,
        starts: make.starts,
        ids: make.ids.slice(0, make.used),
      });
    }
  }
}

/**
 * The keyword term numbers (tool_name, full_tool_name, server_name) of each document: taken
 * from the shared record where name and server are the same, else looked up (and recorded when
 * this build makes the record).
 */
class Keywords {
  name = 0;
  full = 0;
  server = 0;
  readonly #taken: KeywordRecord | undefined;
  readonly #made: KeywordRecord | undefined;

  constructor(
    readonly shared: SharedState | undefined,
    docs: readonly RetrievalDoc[],
    readonly table: TermTable,
    readonly tf: DocFrequencies,
  ) {
    const n = docs.length;
    this.#taken = shared?.keywords?.names.length === n ? shared.keywords : undefined;
    this.#made = shared !== undefined && shared.keywords === undefined
      ? {
        names: docs.map((doc) => doc.name),
        servers: docs.map((doc) => doc.server),
        ids: new Int32Array(3 * n),
      }
      : undefined;
  }

  /** Sets `name`, `full` and `server` to document d's numbers. */
  number(d: number, doc: RetrievalDoc): void {
    const taken = this.#taken;
    if (taken !== undefined && taken.names[d] === doc.name && taken.servers[d] === doc.server) {
      this.name = taken.ids[3 * d];
      this.full = taken.ids[3 * d + 1];
      this.server = taken.ids[3 * d + 2];
      return;
    }
    this.name = this.table.id(doc.name);
    this.full = this.table.id(`${doc.server}:${doc.name}`);
    this.server = this.table.id(doc.server);
    this.tf.fit();
    const made = this.#made;
    if (made !== undefined) {
      made.ids[3 * d] = this.name;
      made.ids[3 * d + 1] = this.full;
      made.ids[3 * d + 2] = this.server;
    }
  }

  /** Hands the record this build made to the shared analysis. */
  keep(): void {
    if (this.#made !== undefined) this.shared!.keywords = this.#made;
  }
}

/**
 * The search over an index: Bleve's boolean query of should-clauses (see
 * {@linkcode createTfidfClassicRetriever}), scored with reused scratch space.
 */
function searcher(index: TfidfIndex, boosts: TfidfBoosts): (query: string, limit: number) => Hit[] {
  const { ids, table, toolName, fullName, searchable, all, nameTerms } = index;
  const n = ids.length;
  const leaf = (field: Field, term: string, boost: number): Leaf => {
    const t = table.find(term, 0, term.length);
    // A term numbered after this index was built (a shared table grows) has no posting here.
    const posting =
      t === -1 || t + 1 >= field.starts.length || field.starts[t + 1] === field.starts[t]
        ? undefined
        : { start: field.starts[t], end: field.starts[t + 1] };
    const df = posting === undefined ? 0 : posting.end - posting.start;
    return { field, posting, boost, idf: 1 + Math.log(n / (df + 1)) };
  };
  const expand = (field: Field, terms: readonly string[], boost: number): Clause => ({
    leaves: terms.map((t) => leaf(field, t, boost)),
    none: terms.length === 0,
  });
  const buildClauses = (q: string): Clause[] => {
    const clauses: Clause[] = [
      expand(toolName, [q], boosts.exactName),
      expand(fullName, [q], boosts.fullName),
      expand(toolName, prefixTerms(nameTerms, q), boosts.namePrefix),
    ];
    if (q.includes("_")) {
      const re = wildcardRegExp(`*${q}*`);
      clauses.push(expand(toolName, nameTerms.filter((t) => re.test(t)), boosts.nameWildcard));
    }
    const tokens = standardTokens(q);
    clauses.push(expand(all, tokens, boosts.all));
    clauses.push(expand(searchable, tokens, boosts.searchableText));
    return clauses;
  };

  // Scratch space reused across queries (reset through `touched`).
  const clauseSum = new Float64Array(n * 6);
  const clauseHits = new Uint32Array(n * 6);
  const touched: number[] = [];
  const isTouched = new Uint8Array(n);

  return (query: string, limit: number): Hit[] => {
    checkLimit(limit);
    if (query === "") return [];
    const clauses = buildClauses(query);
    let sumSquares = 0;
    for (const c of clauses) for (const l of c.leaves) sumSquares += (l.boost * l.idf) ** 2;
    const queryNorm = 1 / Math.sqrt(sumSquares);
    clauses.forEach((clause, c) => {
      for (const l of clause.leaves) {
        if (l.posting === undefined) continue;
        const queryWeight = l.boost * l.idf * queryNorm;
        const { docs: pd, tfs, norms } = l.field;
        for (let j = l.posting.start; j < l.posting.end; j++) {
          const d = pd[j];
          const score = Math.sqrt(tfs[j]) * norms[d] * l.idf * queryWeight;
          clauseSum[d * 6 + c] += score;
          clauseHits[d * 6 + c] += 1;
          if (isTouched[d] === 0) {
            isTouched[d] = 1;
            touched.push(d);
          }
        }
      }
    });
    // The best `limit` documents by score, then id (compareHits), without a hit for every
    // document touched.
    const top = new TopHits(ids, Math.min(limit, touched.length));
    for (const d of touched) {
      let sum = 0;
      let matched = 0;
      for (let c = 0; c < clauses.length; c++) {
        const h = clauseHits[d * 6 + c];
        if (h > 0) {
          sum += clauseSum[d * 6 + c] * (h / clauses[c].leaves.length);
          matched++;
        }
        clauseSum[d * 6 + c] = 0;
        clauseHits[d * 6 + c] = 0;
      }
      isTouched[d] = 0;
      top.offer(d, sum * (matched / clauses.length));
    }
    touched.length = 0;
    return top.hits();
  };
}

/** Terms of a sorted list that start with `prefix` (binary search for the first). */
function prefixTerms(sorted: readonly string[], prefix: string): string[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sorted.length && sorted[i].startsWith(prefix); i++) out.push(sorted[i]);
  return out;
}

/** Bleve wildcard syntax: `*` any run, `?` one character, the whole term must match. */
function wildcardRegExp(pattern: string): RegExp {
  const body = [...pattern].map((ch) =>
    ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[\\^$.|+()[\]{}]/g, "\\$&")
  ).join("");
  return new RegExp(`^${body}$`, "su");
}

/** Registry entry of `tfidf_classic` with {@linkcode DEFAULT_TFIDF_BOOSTS}: it reads every field. */
export const tfidfClassicEntry: RetrieverEntry = {
  name: "tfidf_classic",
  label: "classic TF-IDF",
  summary: "Lucene classic TF-IDF laid out as mcpproxy's Bleve index (every field)",
  reads: INDEX_FIELD_NAMES,
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  create: (docs, context) =>
    createTfidfClassicRetriever(docs, { shared: sharedAnalysisOf(context?.analysisCache) }),
};
