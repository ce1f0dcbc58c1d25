/**
 * A table that numbers the terms of an index by their characters (private): looking up a stretch
 * of a text makes no string unless the term is new, so an index build does not allocate and hash
 * one string per token.
 *
 * @module
 */
import { isDigit, isLetter, isWordChar } from "./_analysis.ts";

/** Terms numbered 0, 1, 2, ... in the order they were first seen. */
export class TermTable {
  /** The terms by number. */
  readonly terms: string[] = [];
  #hashes = new Int32Array(1024);
  /** Open addressing: term number + 1, 0 when empty. */
  #slots = new Int32Array(2048);
  #mask = 2047;

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
    const h = hashRange(text, start, end);
    let slot = h & this.#mask;
    for (let e = this.#slots[slot]; e !== 0; e = this.#slots[slot]) {
      if (this.#hashes[e - 1] === h && sameRange(this.terms[e - 1], text, start, end)) return e - 1;
      slot = (slot + 1) & this.#mask;
    }
    return -1;
  }

  /**
   * Numbers a term the table does not hold yet.
   *
   * @param term The new term.
   * @returns Its number (the table's size before).
   */
  add(term: string): number {
    const h = hashRange(term, 0, term.length);
    let slot = h & this.#mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask;
    const id = this.terms.length;
    this.terms.push(term);
    if (id === this.#hashes.length) {
      const hashes = new Int32Array(id * 2);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[id] = h;
    this.#slots[slot] = id + 1;
    if (2 * this.terms.length > this.#slots.length) this.#grow();
    return id;
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
   * Numbers each word segment of ASCII `text` (the segments of `scanAsciiWords` in
   * `_analysis.ts`), lower-cased, in text order, adding the new ones: for each segment, what
   * `id(segment.toLowerCase())` gives, without a lower-cased copy of the text, a string per
   * segment already held, or a second pass to hash it.
   *
   * @param text Text, ASCII from `from` to `to`.
   * @param each Called with each segment's term number.
   * @param from Where the stretch segmented starts. @default {0}
   * @param to Where it ends (exclusive): its segments are those of the stretch alone.
   * @default {text.length}
   */
  lowerAsciiWords(
    text: string,
    each: (id: number) => void,
    from = 0,
    to = text.length,
  ): void {
    const n = to;
    let i = from;
    while (i < n) {
      let c = text.charCodeAt(i);
      let l = WORD_LOWER[c];
      if (!(l > 0)) {
        i++;
        continue;
      }
      const start = i;
      let h = Math.imul(FNV_OFFSET ^ l, FNV_PRIME);
      for (i++; i < n; i++) {
        c = text.charCodeAt(i);
        l = WORD_LOWER[c];
        if (l > 0) {
          h = Math.imul(h ^ l, FNV_PRIME);
          continue;
        }
        if (i + 1 >= n) break;
        const prev = text.charCodeAt(i - 1);
        const next = text.charCodeAt(i + 1);
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
      // A lone `_` is no word.
      if (i - start === 1 && text.charCodeAt(start) === 95) continue;
      each(this.#findLower(text, start, i, h));
    }
  }

  /** The number of `text[start, end)` lower-cased (ASCII), hashed `h`; numbered now when new. */
  #findLower(text: string, start: number, end: number, h: number): number {
    let slot = h & this.#mask;
    for (let e = this.#slots[slot]; e !== 0; e = this.#slots[slot]) {
      if (this.#hashes[e - 1] === h && sameLowerRange(this.terms[e - 1], text, start, end)) {
        return e - 1;
      }
      slot = (slot + 1) & this.#mask;
    }
    return this.add(text.slice(start, end).toLowerCase());
  }

  #grow(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let slot = this.#hashes[id] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

/**
 * Per ASCII code unit: the code lower-cased when it joins a word segment (a letter, digit or
 * `_`: {@linkcode isWordChar}), else 0; past ASCII the lookup gives `undefined` (no word char).
 */
const WORD_LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (isWordChar(c)) WORD_LOWER[c] = lower(c);

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/** FNV-1a over the UTF-16 code units of `text[start, end)`, as a signed 32-bit integer. */
function hashRange(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** An ASCII code unit lower-cased. */
function lower(c: number): number {
  return c >= 65 && c <= 90 ? c | 32 : c;
}

/** Whether `term` is `text[start, end)` lower-cased (ASCII). */
function sameLowerRange(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = 0; i < term.length; i++) {
    if (term.charCodeAt(i) !== lower(text.charCodeAt(start + i))) return false;
  }
  return true;
}

function sameRange(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = 0; i < term.length; i++) {
    if (term.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  }
  return true;
}
