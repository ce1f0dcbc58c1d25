/**
 * The postings of an inverted index as they are found, then by term (private, `tfidf_classic`).
 *
 * @module
 */

/** One field's postings by term, and its per-document norms. */
export interface Field {
  /** Term number → its first entry in `docs` and `tfs`; term t's run ends at `starts[t + 1]`. */
  readonly starts: Int32Array;
  /** Documents holding each term, term after term, each term's in document order. */
  readonly docs: Int32Array;
  /** The term's frequency in each of those documents. */
  readonly tfs: Int32Array;
  /** Per document: float32(1 / sqrt(token count)) (Bleve/scorch stores norms as float32), 0 when empty. */
  readonly norms: Float64Array;
}

/** Entries per chunk of a {@linkcode PostingList}. */
const CHUNK = 1 << 16;

/**
 * The postings of up to two fields as they are found, (term, document, tf of each) in document
 * order, kept in fixed-size chunks: no array is copied or outgrown while the index is built, so a
 * large catalog's build leaves little garbage to hold until the next full collection
 * (docs/performance.md, "Smaller mechanisms").
 */
export class PostingList {
  readonly #terms: Int32Array[] = [];
  readonly #docs: Int32Array[] = [];
  readonly #tfs: [Int32Array[], Int32Array[]] = [[], []];
  /** Entries in the last chunk (CHUNK when there is none yet, so the first add makes one). */
  #used = CHUNK;

  /** Adds the entry (term, document d, tf `a` in the first field, `b` in the second). */
  add(term: number, d: number, a: number, b = 0): void {
    if (this.#used === CHUNK) {
      this.#terms.push(new Int32Array(CHUNK));
      this.#docs.push(new Int32Array(CHUNK));
      this.#tfs[0].push(new Int32Array(CHUNK));
      this.#tfs[1].push(new Int32Array(CHUNK));
      this.#used = 0;
    }
    const c = this.#terms.length - 1;
    this.#terms[c][this.#used] = term;
    this.#docs[c][this.#used] = d;
    this.#tfs[0][c][this.#used] = a;
    this.#tfs[1][c][this.#used] = b;
    this.#used++;
  }

  /**
   * One field (0: the first tf, 1: the second): its postings by term, the entries whose tf there
   * is above 0, a stable counting sort by term number (documents stay in order).
   */
  field(which: 0 | 1, terms: readonly unknown[], norms: Float64Array): Field {
    const tf = this.#tfs[which];
    const chunks = this.#terms.length;
    const used = this.#used;
    const start = new Int32Array(terms.length + 1);
    for (let c = 0; c < chunks; c++) {
      const ts = this.#terms[c];
      const fs = tf[c];
      const size = c === chunks - 1 ? used : CHUNK;
      for (let i = 0; i < size; i++) if (fs[i] > 0) start[ts[i] + 1]++;
    }
    for (let t = 0; t < terms.length; t++) start[t + 1] += start[t];
    const next = start.slice(0, terms.length);
    const docs = new Int32Array(start[terms.length]);
    const tfs = new Int32Array(start[terms.length]);
    for (let c = 0; c < chunks; c++) {
      const ts = this.#terms[c];
      const ds = this.#docs[c];
      const fs = tf[c];
      const size = c === chunks - 1 ? used : CHUNK;
      for (let i = 0; i < size; i++) {
        if (fs[i] === 0) continue;
        const k = next[ts[i]]++;
        docs[k] = ds[i];
        tfs[k] = fs[i];
      }
    }
    return { starts: start, docs, tfs, norms };
  }
}
