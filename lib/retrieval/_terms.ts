/**
 * A table that numbers the terms of an index by their characters (private): looking up a stretch
 * of a text makes no string unless the term is new, so an index build does not allocate and hash
 * one string per token.
 *
 * @module
 */
import {
  identifierWordsByRegex,
  isDigit,
  isLetter,
  isStopWord,
  isWordChar,
  segmenterWords,
  separatorWidth,
} from "./_analysis.ts";

/** A growing list of term numbers: the first `used` of `ids`. */
export interface TermIds {
  /** The numbers (and room for more). */
  ids: Int32Array<ArrayBuffer>;
  /** How many of `ids` are numbers. */
  used: number;
}

/**
 * Terms numbered 0, 1, 2, ... in the order they were first seen. Open addressing over one array
 * of (hash, number) pairs, each term's code units kept side by side in one pool, so a lookup
 * reads two or three places in memory rather than the slot, the hash, the list of terms and the
 * term string.
 */
export class TermTable {
  /** The terms by number. */
  readonly terms: string[] = [];
  /** Per slot: the hash of its term, then the term's number + 1 (0 when empty). */
  #slots = new Int32Array(4096);
  /** Slots - 1 (a power of two - 1). */
  #mask = 2047;
  /** Term t's code units are `#pool[#ends[t], #ends[t + 1])`. */
  #ends = new Int32Array(1024);
  #pool = new Uint16Array(16384);
  /** The numbers of each non-ASCII chunk {@linkcode TermTable.wordIds} has met, by its text. */
  #chunks = new Map<string, Int32Array>();

  /** Number of terms. */
  get size(): number {
    return this.terms.length;
  }

  /**
   * The number of the term `text.slice(start, end)`, or -1 when the table does not hold it.
   *
   * @param text Any text.
   * @param start First character of the term.
   * @param end One past its last character.
   * @returns The term's number, or -1.
   */
  find(text: string, start: number, end: number): number {
    return this.#probe(text, start, end, hashRange(text, start, end), false);
  }

  /**
   * Numbers a term the table does not hold yet.
   *
   * @param term The new term.
   * @returns Its number (the table's size before).
   */
  add(term: string): number {
    return this.#add(term, hashRange(term, 0, term.length));
  }

  /** {@linkcode TermTable.add} of a term whose hash is `h`. */
  #add(term: string, h: number): number {
    const id = this.terms.length;
    this.terms.push(term);
    if (id + 2 > this.#ends.length) {
      const ends = new Int32Array(this.#ends.length * 2);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    const from = this.#ends[id];
    if (from + term.length > this.#pool.length) {
      const pool = new Uint16Array(Math.max(this.#pool.length * 2, from + term.length));
      pool.set(this.#pool);
      this.#pool = pool;
    }
    for (let i = 0; i < term.length; i++) this.#pool[from + i] = term.charCodeAt(i);
    this.#ends[id + 1] = from + term.length;
    this.#place(this.#slots, this.#mask, h, id);
    if (4 * this.terms.length > this.#slots.length) this.#grow();
    return id;
  }

  /** Puts term `id`, hashed `h`, in the first free slot from its own. */
  #place(slots: Int32Array, mask: number, h: number, id: number): void {
    let slot = h & mask;
    while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    slots[2 * slot] = h;
    slots[2 * slot + 1] = id + 1;
  }

  /**
   * The number of `term`, numbered now when it is new.
   *
   * @param term A term.
   * @returns Its number.
   */
  id(term: string): number {
    const id = this.find(term, 0, term.length);
    return id === -1 ? this.add(term) : id;
  }

  /**
   * Appends to `out` the number of each word segment of `text` lower-cased, in text order, adding
   * the new terms: for each segment of `wordSegments(text)` (`_analysis.ts`), what
   * `id(segment.toLowerCase())` gives. One pass over the text's UTF-8 bytes (`encodeInto`, so
   * the scan reads a byte array whatever the string's representation): ASCII is scanned in place
   * (the segments of `scanAsciiWords`, hashed as they are scanned, no string made unless the term
   * is new); a white-space-delimited chunk holding a character outside ASCII goes to
   * `segmenterWords`, as `eachWordStretch` sends it, its numbers kept per chunk text (a pure
   * function of it). The segments of such a chunk scanned before its first non-ASCII character
   * are dropped, but a new term among them stays in the table (numbered, never given a posting).
   *
   * @param text Any text.
   * @param out Where the numbers go: `out.ids[out.used++]`, `ids` replaced by a longer copy
   *   when full.
   */
  wordIds(text: string, out: TermIds): void {
    // Each UTF-16 code unit takes at most 3 bytes (a surrogate pair 4 for 2, a lone one 3).
    if (bytes.length < 3 * text.length) {
      bytes = new Uint8Array(Math.max(3 * text.length, 2 * bytes.length));
    }
    const b = bytes;
    const n = UTF8.encodeInto(text, b).written;
    let ids = out.ids;
    let used = out.used;
    let slots = this.#slots;
    let ends = this.#ends;
    let pool = this.#pool;
    let mask = this.#mask;
    // Segments before byte `mark` are final: it is where the current chunk (white space
    // delimited) starts; `markUsed` is `used` there. Code unit = byte + `shift` in ASCII stretches.
    let mark = 0;
    let markUsed = used;
    let shift = 0;
    let i = 0;
    while (i < n) {
      let c = b[i];
      let l = WORD_LOWER[c];
      if (l <= 1) {
        if (l === 1) {
          mark = i + 1;
          markUsed = used;
        } else if (c >= 128) {
          used = markUsed;
          out.used = used;
          out.ids = ids;
          const at = i + shift;
          const end = this.#chunkIds(text, mark + shift, at, out);
          ids = out.ids;
          used = out.used;
          i += utf8Length(text, at, end);
          shift = end - i;
          mark = i;
          markUsed = used;
          slots = this.#slots;
          ends = this.#ends;
          pool = this.#pool;
          mask = this.#mask;
          continue;
        }
        i++;
        continue;
      }
      const start = i;
      let h = Math.imul(FNV_OFFSET ^ l, FNV_PRIME);
      for (i++; i < n; i++) {
        c = b[i];
        l = WORD_LOWER[c];
        if (l > 1) {
          h = Math.imul(h ^ l, FNV_PRIME);
          continue;
        }
        if (i + 1 >= n) break;
        const prev = b[i - 1];
        const next = b[i + 1];
        // ' (39) . (46) : (58) between letters; . , (44) ; (59) ' between digits (none is a
        // letter, so lower case leaves it).
        if (
          ((c === 39 || c === 46 || c === 58) && isLetter(prev) && isLetter(next)) ||
          ((c === 46 || c === 44 || c === 59 || c === 39) && isDigit(prev) && isDigit(next))
        ) {
          h = Math.imul(Math.imul(h ^ c, FNV_PRIME) ^ lower(next), FNV_PRIME);
          i++;
        } else break;
      }
      // A lone `_` is no word; a segment cut by a non-ASCII character is the chunk's (next turn).
      const len = i - start;
      if ((len === 1 && b[start] === 95) || c >= 128) continue;
      let id = -1;
      for (let slot = h & mask;; slot = (slot + 1) & mask) {
        const e = slots[2 * slot + 1];
        if (e === 0) break;
        if (slots[2 * slot] !== h) continue;
        const from = ends[e - 1];
        if (ends[e] - from !== len) continue;
        let j = 0;
        while (j < len && pool[from + j] === lower(b[start + j])) j++;
        if (j === len) {
          id = e - 1;
          break;
        }
      }
      if (id === -1) {
        id = this.#add(text.slice(start + shift, i + shift).toLowerCase(), h);
        slots = this.#slots;
        ends = this.#ends;
        pool = this.#pool;
        mask = this.#mask;
      }
      if (used === ids.length) {
        const longer = new Int32Array(ids.length * 2);
        longer.set(ids);
        ids = longer;
      }
      ids[used++] = id;
    }
    out.ids = ids;
    out.used = used;
  }

  /**
   * Appends to `out` the number of each word of `text` as `identifierTokens` splits it before
   * stop words and stemming (`_analysis.ts`: camelCase and snake_case split, lower-cased), in
   * text order, adding the new terms. The text is scanned in place by the rules of
   * `scannedIdentifierWords`, each word hashed as it is scanned (no string made unless the term
   * is new); text where that scanner gives up (a letter or number outside ASCII) is split by
   * `identifierWordsByRegex`, as `identifierTokens` splits it.
   *
   * @param text Any text.
   * @param out Where the numbers go, as in {@linkcode TermTable.wordIds}.
   */
  identifierIds(text: string, out: TermIds): void {
    const from = out.used;
    let ids = out.ids;
    let used = from;
    const n = text.length;
    let i = 0;
    while (i < n) {
      const first = text.charCodeAt(i);
      if (first >= 128) {
        // A separator (as `scannedIdentifierWords` reads it) is stepped over; any other
        // character outside ASCII sends the whole text through the regular expressions.
        const width = separatorWidth(text, i);
        if (width > 0) {
          i += width;
          continue;
        }
        out.used = from;
        for (const word of identifierWordsByRegex(text)) {
          if (out.used === out.ids.length) out.ids = grownIds(out.ids);
          out.ids[out.used++] = this.id(word);
        }
        return;
      }
      if (!isAsciiAlnum(first)) {
        i++;
        continue;
      }
      const start = i;
      let h = Math.imul(FNV_OFFSET ^ lower(first), FNV_PRIME);
      let upper = first <= 90 && first >= 65;
      for (i++; i < n; i++) {
        const c = text.charCodeAt(i);
        if (!isAsciiAlnum(c)) break;
        if (c <= 90 && c >= 65) {
          const prev = text.charCodeAt(i - 1);
          if ((prev >= 97 && prev <= 122) || (prev >= 48 && prev <= 57)) break;
          if (prev <= 90 && prev >= 65 && i + 1 < n) {
            const next = text.charCodeAt(i + 1);
            if (next >= 97 && next <= 122) break;
          }
          upper = true;
        }
        h = Math.imul(h ^ lower(c), FNV_PRIME);
      }
      const id = this.#probe(text, start, i, h, true);
      if (used === ids.length) ids = grownIds(ids);
      ids[used++] = id === -1
        ? this.#add(upper ? text.slice(start, i).toLowerCase() : text.slice(start, i), h)
        : id;
    }
    out.ids = ids;
    out.used = used;
  }

  /**
   * The number of `text.slice(start, end)`, lower-cased (ASCII) when `fold`, whose hash is `h`;
   * -1 when the table does not hold it.
   */
  #probe(text: string, start: number, end: number, h: number, fold: boolean): number {
    const slots = this.#slots;
    const ends = this.#ends;
    const pool = this.#pool;
    const len = end - start;
    for (let slot = h & this.#mask;; slot = (slot + 1) & this.#mask) {
      const e = slots[2 * slot + 1];
      if (e === 0) return -1;
      if (slots[2 * slot] !== h) continue;
      const from = ends[e - 1];
      if (ends[e] - from !== len) continue;
      let j = 0;
      while (j < len) {
        const c = text.charCodeAt(start + j);
        if (pool[from + j] !== (fold ? lower(c) : c)) break;
        j++;
      }
      if (j === len) return e - 1;
    }
  }

  /**
   * Appends the numbers of the chunk of `text` from `start` (after white space, or the end of
   * the last chunk) through the non-ASCII character at `at` to the next white space (`\s`, as
   * `eachWordStretch` ends it): its `segmenterWords`, lower-cased.
   *
   * @returns Where the chunk ends.
   */
  #chunkIds(text: string, start: number, at: number, out: TermIds): number {
    let end = at + 1;
    while (end < text.length && !SPACE.test(text[end])) end++;
    const chunk = text.slice(start, end);
    let got = this.#chunks.get(chunk);
    if (got === undefined) {
      got = Int32Array.from(segmenterWords(chunk), (s) => this.id(s.toLowerCase()));
      this.#chunks.set(chunk, got);
    }
    if (out.used + got.length > out.ids.length) {
      const longer = new Int32Array(Math.max(out.ids.length * 2, out.used + got.length));
      longer.set(out.ids);
      out.ids = longer;
    }
    out.ids.set(got, out.used);
    out.used += got.length;
    return end;
  }

  /** Twice the slots, every term placed again (load factor at most 1/2 before, 1/4 after). */
  #grow(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length / 2 - 1;
    const old = this.#slots;
    for (let s = 0; s < old.length; s += 2) {
      if (old[s + 1] !== 0) this.#place(slots, mask, old[s], old[s + 1] - 1);
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

/**
 * `identifierTokens` without stemming (`_analysis.ts`), as the numbers of one term table: the
 * tokens of the last text read are `ids`, each one's string `table.terms[id]` (made once per
 * distinct token); stop words are dropped when asked.
 */
export class ContentTokens {
  /** The table the numbers are of (stop words are numbered too, and never in `ids`). */
  readonly table: TermTable = new TermTable();
  /** The tokens of the last text read. */
  readonly ids: TermIds = { ids: new Int32Array(1024), used: 0 };
  /** Per term number: 1 for a stop word; set for the first `#flagged` terms. */
  #stop = new Uint8Array(1024);
  #flagged = 0;

  /** @param stopWords Drop English stop words. */
  constructor(readonly stopWords: boolean) {}

  /**
   * Tokenizes a text into `ids` (replacing the last text's).
   *
   * @param text Any text.
   */
  read(text: string): void {
    const out = this.ids;
    out.used = 0;
    this.table.identifierIds(text, out);
    if (!this.stopWords) return;
    const terms = this.table.terms;
    if (terms.length > this.#stop.length) {
      const grown = new Uint8Array(2 * terms.length);
      grown.set(this.#stop);
      this.#stop = grown;
    }
    const stop = this.#stop;
    for (let t = this.#flagged; t < terms.length; t++) stop[t] = isStopWord(terms[t]) ? 1 : 0;
    this.#flagged = terms.length;
    const ids = out.ids;
    let kept = 0;
    for (let j = 0; j < out.used; j++) if (stop[ids[j]] === 0) ids[kept++] = ids[j];
    out.used = kept;
  }
}

/**
 * Per byte: the ASCII code lower-cased when it joins a word segment (a letter, digit or `_`:
 * {@linkcode isWordChar}, all above 1), 1 for white space (`\s`: tab, line feed, vertical tab,
 * form feed, carriage return, space), else 0 (other ASCII, and every byte of a non-ASCII
 * character: 128 and above).
 */
const WORD_LOWER = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  if (isWordChar(c)) WORD_LOWER[c] = lower(c);
  else if (/\s/.test(String.fromCharCode(c))) WORD_LOWER[c] = 1;
}

const SPACE = /\s/;
const UTF8 = new TextEncoder();
/** The bytes of the text {@linkcode TermTable.wordIds} scans (grown, never shrunk). */
let bytes = new Uint8Array(1 << 16);

/**
 * Bytes of `text[from, to)` in UTF-8 as `TextEncoder` writes it: a lone surrogate as U+FFFD
 * (3 bytes), a pair as one 4-byte character.
 */
function utf8Length(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (
      c >= 0xd800 && c <= 0xdbff && i + 1 < to && text.charCodeAt(i + 1) >= 0xdc00 &&
      text.charCodeAt(i + 1) <= 0xdfff
    ) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** FNV-1a over the UTF-16 code units of `text[start, end)`, as a signed 32-bit integer. */
function hashRange(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Whether code unit `c` is an ASCII letter or digit. */
function isAsciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** `ids` copied into an array twice as long. */
function grownIds(ids: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const longer = new Int32Array(ids.length * 2);
  longer.set(ids);
  return longer;
}

/** An ASCII code unit lower-cased. */
function lower(c: number): number {
  return c >= 65 && c <= 90 ? c | 32 : c;
}
