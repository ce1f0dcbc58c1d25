/**
 * Text analysis shared by the retrievers (private).
 *
 * @module
 */

import stem from "wink-porter2-stemmer";
import { ENGLISH_STOP_WORDS } from "./_stop_en.ts";

const SEGMENTER = new Intl.Segmenter("en", { granularity: "word" });

/** UAX #29 MidLetter / MidNumLet characters that CLDR's root tailoring (ICU ≥ 72) splits at. */
const JOINERS = new Set([".", ":", "\uFE13", "\uFE52", "\uFE55", "\uFF0E", "\uFF1A"]);
const LETTER_END = /\p{L}$/u;
const LETTER_START = /^\p{L}/u;

/**
 * Word-like segments per Unicode word segmentation (UAX #29), as Bleve's `unicode` tokenizer
 * produces them. `Intl.Segmenter` follows CLDR's root tailoring, which (since CLDR 42 / ICU 72)
 * breaks at "." and ":" between letters; UAX #29 rule WB6/WB7 does not, so those segments are
 * rejoined here (`github.com`, `server:tool` stay one token; `_` joins already).
 */
export function wordSegments(text: string): string[] {
  if (!HAS_NON_ASCII.test(text)) return asciiWordSegments(text);
  const out: string[] = [];
  eachWordStretch(
    text,
    (from, to) => out.push(...asciiWordSegments(text.slice(from, to))),
    (chunk) => out.push(...segmenterWords(chunk)),
  );
  return out;
}

/**
 * The stretches of `text` that {@linkcode wordSegments} segments apart, in text order: word
 * segmentation never joins across white space (WB3d), so each white-space-delimited chunk holding
 * a non-ASCII character goes to ICU (`other`) and the ASCII stretches between them do not
 * (`ascii`, as offsets into `text`; their segments are those of {@linkcode asciiWordSegments} on
 * the stretch). The segments of the stretches, in order, are the text's.
 *
 * @param text Any text.
 * @param ascii Called with each ASCII stretch's `[from, to)` offsets.
 * @param other Called with each chunk that holds a non-ASCII character.
 */
export function eachWordStretch(
  text: string,
  ascii: (from: number, to: number) => void,
  other: (chunk: string) => void,
): void {
  let last = 0;
  NON_ASCII.lastIndex = 0;
  for (let m = NON_ASCII.exec(text); m !== null; m = NON_ASCII.exec(text)) {
    let start = m.index;
    while (start > last && !SPACE.test(text[start - 1])) start--;
    let end = m.index + 1;
    while (end < text.length && !SPACE.test(text[end])) end++;
    if (start > last) ascii(last, start);
    other(text.slice(start, end));
    last = end;
    // Set again after the callbacks, which may use the expression themselves.
    NON_ASCII.lastIndex = end;
  }
  if (last < text.length) ascii(last, text.length);
}

const HAS_NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII = /[\u0080-\uffff]/g;
const SPACE = /\s/;

/**
 * Whether UTF-16 code unit `c` is an ASCII letter.
 *
 * @param c A code unit.
 * @returns Whether it is `A`-`Z` or `a`-`z`.
 */
export function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Whether UTF-16 code unit `c` is an ASCII digit.
 *
 * @param c A code unit.
 * @returns Whether it is `0`-`9`.
 */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Whether UTF-16 code unit `c` joins an ASCII word segment (UAX #29 ALetter, Numeric, ExtendNumLet).
 *
 * @param c A code unit.
 * @returns Whether it is an ASCII letter, digit or `_`.
 */
export function isWordChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95;
}

/**
 * UAX #29 word segments of ASCII text, with a character scanner instead of ICU (same result, several times faster):
 * letters, digits and `_` join (WB5, WB8–WB10, WB13a/b); `'`, `.`, `:` join two letters (WB6/7);
 * `.`, `,`, `;`, `'` join two digits (WB11/12). ICU counts a run of two or
 * more `_` as word-like, a lone `_` not.
 * Checked against {@linkcode segmenterWords} by a property test.
 */
export function asciiWordSegments(text: string): string[] {
  const out: string[] = [];
  scanAsciiWords(text, (start, end) => void out.push(text.slice(start, end)));
  return out;
}

/**
 * The segments of {@linkcode asciiWordSegments} as `[start, end)` offsets, in text order,
 * without making a string of each.
 *
 * @param text ASCII text.
 * @param each Called with each segment's start and end offsets.
 */
export function scanAsciiWords(text: string, each: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (isWordChar(c)) {
        i++;
        continue;
      }
      if (i + 1 >= n) break;
      const prev = text.charCodeAt(i - 1);
      const next = text.charCodeAt(i + 1);
      // ' (39) . (46) : (58) between letters; . , (44) ; (59) ' between digits.
      if ((c === 39 || c === 46 || c === 58) && isLetter(prev) && isLetter(next)) i += 2;
      else if ((c === 46 || c === 44 || c === 59 || c === 39) && isDigit(prev) && isDigit(next)) {
        i += 2;
      } else break;
    }
    if (i - start !== 1 || text.charCodeAt(start) !== 95) each(start, i);
  }
}

/** {@linkcode wordSegments} through `Intl.Segmenter` plus the WB6/7 repair, for any text. */
export function segmenterWords(text: string): string[] {
  const out: string[] = [];
  let pendingJoiner: string | undefined;
  for (const seg of SEGMENTER.segment(text)) {
    if (seg.isWordLike) {
      const prev = out.length > 0 ? out[out.length - 1] : undefined;
      if (
        pendingJoiner !== undefined && prev !== undefined && LETTER_END.test(prev) &&
        LETTER_START.test(seg.segment)
      ) {
        out[out.length - 1] = prev + pendingJoiner + seg.segment;
      } else {
        out.push(seg.segment);
      }
      pendingJoiner = undefined;
    } else {
      pendingJoiner =
        JOINERS.has(seg.segment) && out.length > 0 && lastWasWord(seg.index, text, out)
          ? seg.segment
          : undefined;
    }
  }
  return out;
}

function lastWasWord(index: number, text: string, out: string[]): boolean {
  const prev = out[out.length - 1];
  return text.slice(index - prev.length, index) === prev;
}

/**
 * Per first code unit (its low 7 bits) × length (below 16): 1 when some stop word has both. A
 * word whose pair has none is no stop word, which spares most words the set lookup (and hashing
 * a fresh string).
 */
const STOP_SHAPES = new Uint8Array(128 * 16);
for (const word of ENGLISH_STOP_WORDS) {
  if (word.length === 0 || word.length >= 16) {
    throw new Error(`stop word "${word}" is 0 or 16+ long`);
  }
  STOP_SHAPES[(word.charCodeAt(0) & 127) * 16 + word.length] = 1;
}

/**
 * Whether `word` is an English stop word ({@linkcode ENGLISH_STOP_WORDS}), the set asked only
 * when its first character and length are a stop word's.
 *
 * @param word A lower-cased word.
 * @returns True for a stop word.
 */
export function isStopWord(word: string): boolean {
  const n = word.length;
  return n > 0 && n < 16 && STOP_SHAPES[(word.charCodeAt(0) & 127) * 16 + n] === 1 &&
    ENGLISH_STOP_WORDS.has(word);
}

/**
 * Bleve's `standard` analyser: {@linkcode wordSegments}, lower-cased, English stop words removed
 * (`stop_en`), no stemming.
 */
export function standardTokens(text: string): string[] {
  const out: string[] = [];
  for (const segment of wordSegments(text)) {
    const token = segment.toLowerCase();
    if (!isStopWord(token)) out.push(token);
  }
  return out;
}

/** Options of {@linkcode identifierTokens}. */
export interface IdentifierTokenOptions {
  /** Drop English stop words. */
  readonly stopWords: boolean;
  /** Apply the Porter2 (Snowball English) stemmer. */
  readonly stem: boolean;
  /** Memo of stems (word → stem) shared across calls; stemming dominates indexing time. */
  readonly stemCache?: Map<string, string>;
}

/**
 * Tokenizer for identifiers and prose: splits camelCase (`listPullRequests` → list pull requests,
 * `HTTPServer` → http server), snake_case, kebab-case, dots and every other non-letter/digit
 * character, then lower-cases, optionally drops stop words and stems. Text whose letters and
 * digits are all ASCII goes through a character scanner ({@linkcode scannedIdentifierWords}),
 * other text through the regular expressions ({@linkcode identifierWordsByRegex}); the two agree
 * (a property test).
 */
export function identifierTokens(text: string, options: IdentifierTokenOptions): string[] {
  const words = scannedIdentifierWords(text) ?? identifierWordsByRegex(text);
  if (!options.stopWords && !options.stem) return words;
  const out: string[] = [];
  for (const raw of words) {
    if (options.stopWords && isStopWord(raw)) continue;
    if (!options.stem) {
      out.push(raw);
      continue;
    }
    let stemmed = options.stemCache?.get(raw);
    if (stemmed === undefined) {
      stemmed = String(stem(raw));
      options.stemCache?.set(raw, stemmed);
    }
    out.push(stemmed);
  }
  return out;
}

/**
 * The words of {@linkcode identifierTokens} before stop words and stemming, by its definition:
 * a space before an upper-case letter that follows a lower-case letter or digit, and before an
 * upper-case letter that follows one and precedes a lower-case one (`HTTPServer`), then lower
 * case, split at every run of characters that are neither letters nor numbers. Any text.
 *
 * @param text Any text.
 * @returns The lower-cased words, in order.
 */
export function identifierWordsByRegex(text: string): string[] {
  const spaced = text
    .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase();
  return spaced.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

/**
 * {@linkcode identifierWordsByRegex} with a character scanner, for text whose letters and numbers
 * are all ASCII: a word is a run of ASCII letters and digits, cut before an upper-case letter that
 * follows a lower-case letter or digit, or that follows an upper-case letter and precedes a
 * lower-case one (neither regular-expression pass can make or break the other's matches: the
 * spaces the first inserts sit before upper-case letters that follow lower-case letters or
 * digits, where the second never matches). A character outside ASCII that is neither a letter
 * nor a number (and that lower case leaves as it is) separates words as ASCII punctuation does.
 *
 * @param text Any text.
 * @returns The lower-cased words in order, or `undefined` when the text holds a letter or number
 *   outside ASCII (or a character lower case changes): then only the regular expressions apply.
 */
export function scannedIdentifierWords(text: string): string[] | undefined {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const first = text.charCodeAt(i);
    if (!isAlnum(first)) {
      if (first < 128) i++;
      else {
        const width = separatorWidth(text, i);
        if (width === 0) return undefined;
        i += width;
      }
      continue;
    }
    const start = i;
    let upper = isUpper(first);
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (!isAlnum(c)) break;
      if (isUpper(c)) {
        const prev = text.charCodeAt(i - 1);
        if (isLower(prev) || isDigit(prev)) break;
        if (isUpper(prev) && i + 1 < n && isLower(text.charCodeAt(i + 1))) break;
        upper = true;
      }
    }
    const word = text.slice(start, i);
    out.push(upper ? word.toLowerCase() : word);
  }
  return out;
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/**
 * Code units of the non-ASCII character at `i` (2 for a surrogate pair) when it is neither a
 * letter nor a number and lower case leaves it as it is; else 0.
 */
export function separatorWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
  const width = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  const ch = text.slice(i, i + width);
  return LETTER_OR_NUMBER.test(ch) || ch.toLowerCase() !== ch ? 0 : width;
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isAlnum(c: number): boolean {
  return isLetter(c) || isDigit(c);
}
