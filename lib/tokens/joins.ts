/**
 * Counting a text from its parts: where the pre-tokenizers of `cl100k_base` and `o200k_base`
 * always cut, so that the tokens of a concatenation are the sum of the tokens of its pieces.
 *
 * BPE merges within the pieces its split regex cuts the text into, never across them. The split
 * is a leftmost match from the start, each alternative a run of one character class with an
 * optional one-character prefix and suffix, and no look-behind; so when the characters on both
 * sides of a position stop every run that could cross it, the pieces of `x` are the pieces of
 * `x.slice(0, i)` followed by those of `x.slice(i)`, whatever comes before and after. A
 * {@linkcode isHardCut} position is one of those (judged on the two ASCII characters around it):
 *
 * - after a letter: a digit, white space, or punctuation other than `'` (`'s` joins a word);
 * - after a digit: anything ASCII but a digit (digits group in threes);
 * - after punctuation: a digit, or a space or tab (a punctuation run takes the letters and line
 *   breaks that follow it);
 * - after a line break: a letter, a digit, or punctuation other than `/` (o200k_base's
 *   punctuation piece takes trailing `/`);
 * - never after a space or tab (`\s+(?!\S)` looks ahead), never next to a non-ASCII character.
 *
 * `joins_test.ts` checks every ASCII pair the rule accepts, in many contexts, against
 * js-tiktoken.
 *
 * @module
 */
import type { Tokenizer, TokenizerName } from "./types.ts";

const LETTER = 1;
const DIGIT = 2;
const PUNCT = 3;
const BLANK = 4; // space, \t, \v, \f
const NEWLINE = 5; // \n, \r

const KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  KIND[c] = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
    ? LETTER
    : c >= 0x30 && c <= 0x39
    ? DIGIT
    : c === 0x0a || c === 0x0d
    ? NEWLINE
    : c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c
    ? BLANK
    : PUNCT; // the other printable ASCII characters and the C0 controls
}

const APOSTROPHE = 0x27;
const SLASH = 0x2f;

/**
 * Whether a cut between characters `before` and `after` (UTF-16 code units) is a piece boundary
 * of both encodings in every context (see the module doc).
 *
 * @param before Code unit before the cut.
 * @param after Code unit after the cut.
 * @returns True when the tokens of `x + y` are those of `x` plus those of `y` for every `x`
 *   ending in `before` and `y` starting with `after`.
 */
export function isHardCutBetween(before: number, after: number): boolean {
  if (before >= 128 || after >= 128) return false;
  const b = KIND[after];
  switch (KIND[before]) {
    case LETTER:
      return b !== LETTER && after !== APOSTROPHE;
    case DIGIT:
      return b !== DIGIT;
    case PUNCT:
      return b === DIGIT || b === BLANK;
    case NEWLINE:
      return b === LETTER || b === DIGIT || (b === PUNCT && after !== SLASH);
    default:
      return false;
  }
}

/**
 * Whether `index` (0 < index < text.length) is a hard cut of `text`: see
 * {@linkcode isHardCutBetween}.
 *
 * @param text Any text.
 * @param index Position between two code units.
 * @returns Whether the tokens of `text` are those of its two sides added.
 */
export function isHardCut(text: string, index: number): boolean {
  return index > 0 && index < text.length &&
    isHardCutBetween(text.charCodeAt(index - 1), text.charCodeAt(index));
}

/** How far into a part the cut search looks from each end (code units). */
const CUT_WINDOW = 64;

/**
 * The first hard cut of the part `text[start, end)` ({@linkcode isHardCutBetween}), looked for
 * within 64 code units of its start: where its middle, counted apart from its edges, begins.
 *
 * @param text The whole text.
 * @param start The part's start (code units).
 * @param end Its end (exclusive).
 * @returns The cut's index (`start < cut < end`), or -1 when there is none in the window.
 */
export function firstHardCut(text: string, start: number, end: number): number {
  const stop = Math.min(end, start + CUT_WINDOW);
  for (let k = start + 1; k < stop; k++) {
    if (isHardCutBetween(text.charCodeAt(k - 1), text.charCodeAt(k))) return k;
  }
  return -1;
}

/**
 * The last hard cut of the part ending at `end`, after its first cut `first`, looked for within 64
 * code units of its end: where its middle ends.
 *
 * @param text The whole text.
 * @param first The part's first hard cut ({@linkcode firstHardCut}, not -1).
 * @param end The part's end (exclusive).
 * @returns The cut's index (`first < cut < end`), or `first` when there is none in the window.
 */
export function lastHardCut(text: string, first: number, end: number): number {
  const low = Math.max(first, end - CUT_WINDOW);
  for (let k = end - 1; k > low; k--) {
    if (isHardCutBetween(text.charCodeAt(k - 1), text.charCodeAt(k))) return k;
  }
  return first;
}

const piecewise = new WeakSet<Tokenizer>();

/**
 * Marks a tokenizer as counting piece by piece with the pre-tokenizer of `cl100k_base` or
 * `o200k_base` (its `name`), so that {@linkcode countSpans} may add the counts of parts cut at
 * hard cuts. `createTokenizer` marks what it creates; a test double is never marked.
 *
 * @param tokenizer A tokenizer whose count is exactly that of its named BPE encoding.
 * @returns The same tokenizer.
 */
export function markPiecewise<T extends Tokenizer>(tokenizer: T): T {
  piecewise.add(tokenizer);
  return tokenizer;
}

/**
 * The encoding whose pieces `tokenizer` counts, when it is marked (see
 * {@linkcode markPiecewise}) and named `cl100k_base` or `o200k_base`; else undefined.
 *
 * @param tokenizer Any tokenizer.
 * @returns The encoding name, or undefined.
 */
export function piecewiseEncoding(tokenizer: Tokenizer): TokenizerName | undefined {
  if (!piecewise.has(tokenizer)) return undefined;
  return tokenizer.name === "cl100k_base" || tokenizer.name === "o200k_base"
    ? tokenizer.name
    : undefined;
}

/*
 * Counting short texts from a memo: the arm runner and the modes count the same short strings
 * over and over (the ends of a span cut at its hard cuts, the glue between known strings, e.g.
 * `"}`, `\n\n`, `description":"`): at 10,000 tools nine in ten of their count calls are of 32
 * code units or fewer, of about 76,000 distinct strings. A memo hit costs one hash of a short
 * string instead of a call into the tokenizer (its UTF-8 encoding, scan and piece lookups).
 */

/** Texts up to this length (code units) are memoized. */
export const SHORT_MAX = 32;

/** Short texts memoized per tokenizer before the memo starts over (bounds memory). */
const MAX_SHORT = 1 << 17;

const byTokenizer = new WeakMap<Tokenizer, (text: string) => number>();

/**
 * `tokenizer.count`, with texts of up to {@linkcode SHORT_MAX} code units memoized, one memo per
 * tokenizer object; for a tokenizer that is not marked piecewise (see `joins.ts`
 * `piecewiseEncoding`) it is `tokenizer.count` itself, so a test double sees every call.
 * Exact: a tokenizer's count is a function of the text alone.
 *
 * @param tokenizer Counts tokens.
 * @returns A function giving exactly `tokenizer.count(text)`.
 *
 * @example Usage
 * ```ts
 * import { shortCounts } from "./joins.ts";
 * import { createTokenizer } from "./tokenizers.ts";
 * const tok = createTokenizer("cl100k_base");
 * const count = shortCounts(tok);
 * if (count('"}}') !== tok.count('"}}') || count("") !== 0) throw new Error();
 * ```
 */
export function shortCounts(tokenizer: Tokenizer): (text: string) => number {
  let out = byTokenizer.get(tokenizer);
  if (out !== undefined) return out;
  if (piecewiseEncoding(tokenizer) === undefined) {
    out = (text) => tokenizer.count(text);
  } else {
    const memo = new Map<string, number>();
    out = (text) => {
      if (text.length > SHORT_MAX) return tokenizer.count(text);
      let n = memo.get(text);
      if (n === undefined) {
        n = tokenizer.count(text);
        if (memo.size >= MAX_SHORT) memo.clear();
        // A copy: a slice may be a view that keeps its whole parent text alive.
        memo.set(text.length > 12 ? (" " + text).slice(1) : text, n);
      }
      return n;
    };
  }
  byTokenizer.set(tokenizer, out);
  return out;
}

/** Token counts of a text's spans and of the whole text. */
export interface SpanCounts {
  /** Tokens of each span's text, in span order. */
  readonly spans: number[];
  /** Tokens of the whole text. */
  readonly total: number;
}

/**
 * Tokens of each span of `text` and of the whole `text`, counting most characters once.
 *
 * For a marked tokenizer (see {@linkcode piecewiseEncoding}) each span is cut at its first and
 * last hard cut (within 64 code units of its ends): its middle is counted once and serves both
 * the span and the whole text; the short ends and the glue between spans are counted on their
 * own (a glue text once per call). A span without a hard cut there is counted whole and lies
 * in a glue. Any other tokenizer counts each span and the whole text directly. Either way the
 * figures equal `count(text.slice(start, end))` and `count(text)`.
 *
 * A span whose tokens the caller already knows (`known[i]`, e.g. from `sharedCounts`) is not
 * counted: its middle's tokens are the known count less its short ends'.
 *
 * @param tokenizer Counts tokens.
 * @param text The whole text.
 * @param starts Start offset of each span (ascending, spans do not overlap).
 * @param ends End offset (exclusive) of each span.
 * @param known Optional: the tokens of span `i`, exactly `count(text.slice(starts[i], ends[i]))`,
 *   or undefined where not known.
 * @returns The span counts and the total (tokens).
 * @throws {RangeError} When the spans are out of order, overlap or leave the text.
 *
 * @example Usage
 * ```ts
 * import { countSpans } from "./joins.ts";
 * import { createTokenizer } from "./tokenizers.ts";
 * const tok = createTokenizer("cl100k_base");
 * const text = "read_file\n\nwrite_file";
 * const out = countSpans(tok, text, [0, 11], [9, 21]);
 * if (out.total !== tok.count(text) || out.spans[1] !== tok.count("write_file")) throw new Error();
 * ```
 */
export function countSpans(
  tokenizer: Tokenizer,
  text: string,
  starts: readonly number[],
  ends: readonly number[],
  known?: readonly (number | undefined)[],
): SpanCounts {
  let previous = 0;
  for (let i = 0; i < starts.length; i++) {
    if (!(starts[i] >= previous && ends[i] >= starts[i] && ends[i] <= text.length)) {
      throw new RangeError(
        `Cannot count spans: span ${i} [${starts[i]}, ${
          ends[i]
        }) is out of order or outside the text (length ${text.length})`,
      );
    }
    previous = ends[i];
  }
  const short = shortCounts(tokenizer);
  const count = (s: string) => (s === "" ? 0 : short(s));
  if (piecewiseEncoding(tokenizer) === undefined) {
    return {
      spans: starts.map((s, i) => known?.[i] ?? count(text.slice(s, ends[i]))),
      total: count(text),
    };
  }
  const glues = new Map<string, number>();
  const glue = (from: number, to: number) => {
    const s = text.slice(from, to);
    let n = glues.get(s);
    if (n === undefined) glues.set(s, n = count(s));
    return n;
  };
  const spans: number[] = [];
  let total = 0;
  let open = 0; // start of the glue not yet counted
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i];
    const end = ends[i];
    const first = firstHardCut(text, start, end);
    const given = known?.[i];
    if (first < 0) {
      spans.push(given ?? count(text.slice(start, end)));
      continue;
    }
    const last = lastHardCut(text, first, end);
    const edges = count(text.slice(start, first)) + count(text.slice(last, end));
    const middle = given === undefined ? count(text.slice(first, last)) : given - edges;
    spans.push(edges + middle);
    total += glue(open, first) + middle;
    open = last;
  }
  total += glue(open, text.length);
  return { spans, total };
}
