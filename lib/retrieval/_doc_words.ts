/**
 * The content words of a document array's names and descriptions, tokenized once and numbered
 * (private): BM25's index (default tokenization) and the bench's unreachable-tools listing read
 * the same words of the same corpus.
 *
 * @module
 */

import { ContentTokens } from "./_terms.ts";
import type { RetrievalDoc } from "./types.ts";

/**
 * The content-word tokenization (`identifierTokens` options): stop words dropped, no stemming;
 * BM25's default, `contentWords` (audit.ts) and {@linkcode docWords}.
 */
export const CONTENT_TOKENS = { stopWords: true, stem: false } as const;

/**
 * One field's words per document: document d's word numbers (repeats kept, text order) are
 * `ids[starts[d]..starts[d + 1])`.
 */
export interface FieldWords {
  /** Per document, where its run starts; `starts[docs.length]` is the total. */
  readonly starts: Int32Array;
  /** Word numbers into {@linkcode DocWords.words}. */
  readonly ids: Int32Array;
}

/** The words of the `name` and `description` fields of every document, one vocabulary. */
export interface DocWords {
  /**
   * The vocabulary, by word number (first-seen order: names and descriptions, document by
   * document; stop words are numbered too, and never in a field's words).
   */
  readonly words: readonly string[];
  /** Words of each document's `name`. */
  readonly name: FieldWords;
  /** Words of each document's `description`. */
  readonly description: FieldWords;
}

const TABLES = new WeakMap<readonly RetrievalDoc[], DocWords>();

/**
 * The words of `docs`' names and descriptions (`identifierTokens` with stop words dropped and no
 * stemming), made once per array and kept as long as it lives. Exact: a pure function of the
 * texts, and a document array is not changed after it is made (`sharedDocs`).
 *
 * @param docs Documents.
 * @returns Their words.
 */
export function docWords(docs: readonly RetrievalDoc[]): DocWords {
  let table = TABLES.get(docs);
  if (table === undefined) TABLES.set(docs, table = tokenized(docs));
  return table;
}

function tokenized(docs: readonly RetrievalDoc[]): DocWords {
  const tokens = new ContentTokens(CONTENT_TOKENS.stopWords);
  const fields = [new Growing(docs.length), new Growing(docs.length)];
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d];
    for (let f = 0; f < 2; f++) {
      const field = fields[f];
      tokens.read(f === 0 ? doc.name : doc.description);
      const { ids, used } = tokens.ids;
      for (let j = 0; j < used; j++) field.push(ids[j]);
      field.end(d);
    }
  }
  return { words: tokens.table.terms, name: fields[0].done(), description: fields[1].done() };
}

/** A {@linkcode FieldWords} being filled (private). */
class Growing {
  readonly starts: Int32Array;
  ids = new Int32Array(1 << 16);
  used = 0;

  constructor(docs: number) {
    this.starts = new Int32Array(docs + 1);
  }

  push(id: number): void {
    if (this.used === this.ids.length) {
      const ids = new Int32Array(this.ids.length * 2);
      ids.set(this.ids);
      this.ids = ids;
    }
    this.ids[this.used++] = id;
  }

  end(d: number): void {
    this.starts[d + 1] = this.used;
  }

  done(): FieldWords {
    return { starts: this.starts, ids: this.ids.slice(0, this.used) };
  }
}
