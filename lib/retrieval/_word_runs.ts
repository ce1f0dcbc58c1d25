/**
 * Which texts contain a word, without reading every text for every word (private): the
 * `anthropic_regex` emulation's plain-word alternatives. A word of letters and digits only can
 * occur only inside one maximal run of letters and digits (Unicode `L` and `N`, what
 * `/[\p{L}\p{N}]+/gu` matches), so the texts holding it are those of the distinct runs that
 * contain it, found by one substring search over the runs joined.
 *
 * @module
 */

/** Letters and digits below U+0080, by code unit. */
const ASCII_WORD = Uint8Array.from(
  { length: 128 },
  (_, c) => /[\p{L}\p{N}]/u.test(String.fromCharCode(c)) ? 1 : 0,
);

/** One letter or digit at `lastIndex` (a whole code point). */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/uy;

/** Code units of the letter or digit at `i` (0 when it is neither), `c` its first code unit. */
function wordWidth(text: string, i: number, c: number): number {
  if (c < 128) return ASCII_WORD[c];
  LETTER_OR_DIGIT.lastIndex = i;
  return LETTER_OR_DIGIT.test(text) ? LETTER_OR_DIGIT.lastIndex - i : 0;
}

/** The texts of each distinct run of letters and digits, answering substring queries. */
export class WordRuns {
  /** How many texts were read. */
  readonly textCount: number;
  /** The distinct runs, joined by new lines. */
  readonly #joined: string;
  /** Where run `r` starts in `#joined`; one more entry after the last run. */
  readonly #starts: Int32Array;
  /** The texts of run `r` are `#texts[#first[r]..#first[r + 1])`, ascending. */
  readonly #first: Int32Array;
  readonly #texts: Int32Array;

  /**
   * Reads every text once.
   *
   * @param texts The texts, numbered by position.
   */
  constructor(texts: readonly string[]) {
    const runs = new RunTable();
    // (text, run) pairs, each pair once, texts ascending.
    let pairs = new Int32Array(1024);
    let used = 0;
    let lastText = new Int32Array(256).fill(-1);
    for (let t = 0; t < texts.length; t++) {
      const s = texts[t];
      const n = s.length;
      let i = 0;
      while (i < n) {
        let c = s.charCodeAt(i);
        let w = wordWidth(s, i, c);
        if (w === 0) {
          // Not a letter or digit: step over the code point (a surrogate pair at once).
          const pair = c >= 0xd800 && c < 0xdc00 && i + 1 < n &&
            (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
          i += pair ? 2 : 1;
          continue;
        }
        const start = i;
        let h = 0x811c9dc5;
        do {
          for (const end = i + w; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
          if (i >= n) break;
          c = s.charCodeAt(i);
          w = wordWidth(s, i, c);
        } while (w > 0);
        const r = runs.id(s, start, i, h);
        if (r >= lastText.length) {
          const grown = new Int32Array(lastText.length * 2).fill(-1);
          grown.set(lastText);
          lastText = grown;
        }
        if (lastText[r] === t) continue;
        lastText[r] = t;
        if (used + 2 > pairs.length) {
          const grown = new Int32Array(pairs.length * 2);
          grown.set(pairs);
          pairs = grown;
        }
        pairs[used++] = t;
        pairs[used++] = r;
      }
    }
    const count = runs.words.length;
    // Texts by run (counting sort; texts stay ascending within a run).
    const first = new Int32Array(count + 1);
    for (let p = 1; p < used; p += 2) first[pairs[p] + 1]++;
    for (let r = 0; r < count; r++) first[r + 1] += first[r];
    const fill = first.slice(0, count);
    const byRun = new Int32Array(used >> 1);
    for (let p = 0; p < used; p += 2) byRun[fill[pairs[p + 1]]++] = pairs[p];
    const starts = new Int32Array(count + 1);
    for (let r = 0; r < count; r++) starts[r + 1] = starts[r] + runs.words[r].length + 1;
    this.textCount = texts.length;
    this.#joined = runs.words.join("\n");
    this.#starts = starts;
    this.#first = first;
    this.#texts = byRun;
  }

  /**
   * The texts that contain `word`.
   *
   * @param word Letters and digits only (no other character), as the texts are written
   *   (the search is by code units, case-sensitive).
   * @returns Text numbers, ascending, each once.
   */
  textsContaining(word: string): Int32Array {
    const joined = this.#joined;
    const starts = this.#starts;
    const first = this.#first;
    const texts = this.#texts;
    let marks: Uint8Array | undefined;
    let only = -1;
    for (let at = joined.indexOf(word), from = 0; at !== -1; at = joined.indexOf(word, from)) {
      // The run holding `at`: the last start at or before it.
      let lo = 0;
      let hi = starts.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (starts[mid] <= at) lo = mid;
        else hi = mid;
      }
      from = starts[lo + 1];
      if (only === -1) {
        only = lo;
        continue;
      }
      // A second run: the union of their texts, by marks.
      if (marks === undefined) {
        marks = new Uint8Array(this.textCount);
        for (let j = first[only]; j < first[only + 1]; j++) marks[texts[j]] = 1;
      }
      for (let j = first[lo]; j < first[lo + 1]; j++) marks[texts[j]] = 1;
    }
    if (only === -1) return new Int32Array(0);
    if (marks === undefined) return texts.slice(first[only], first[only + 1]);
    let count = 0;
    for (let t = 0; t < marks.length; t++) count += marks[t];
    const out = new Int32Array(count);
    for (let t = 0, k = 0; k < count; t++) if (marks[t] === 1) out[k++] = t;
    return out;
  }
}

/** The distinct runs met, numbered in first-seen order (open addressing on a string hash). */
class RunTable {
  readonly words: string[] = [];
  readonly #hashes: number[] = [];
  #slots = new Int32Array(1 << 10).fill(-1);

  /** The number of `s.slice(start, end)`, whose hash is `h`; numbered when new. */
  id(s: string, start: number, end: number, h: number): number {
    const mask = this.#slots.length - 1;
    let k = h & mask;
    for (let r = this.#slots[k]; r !== -1; r = this.#slots[k]) {
      const w = this.words[r];
      if (this.#hashes[r] === h && w.length === end - start && s.startsWith(w, start)) return r;
      k = (k + 1) & mask;
    }
    const r = this.words.length;
    this.words.push(s.slice(start, end));
    this.#hashes.push(h);
    this.#slots[k] = r;
    if (this.words.length * 2 > this.#slots.length) this.#rehash();
    return r;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let r = 0; r < this.words.length; r++) {
      let k = this.#hashes[r] & mask;
      while (slots[k] !== -1) k = (k + 1) & mask;
      slots[k] = r;
    }
    this.#slots = slots;
  }
}
