// Pre-tokenization: where the next piece of a text ends, exactly as the
// encoding's split regex (js-tiktoken's `pat_str`) would match it.
//
// The text is read as its UTF-8 bytes (one `TextEncoder.encodeInto` per text,
// the bytes BPE merges anyway). A hand-written scanner over the bytes decides
// every piece made only of ASCII characters whose boundaries depend only on
// ASCII characters (nearly all of a tool catalog); whenever it would have to
// classify a non-ASCII character (a byte from 0x80: a letter? a digit? a
// space?) it gives up, and a second scanner, out of line, scans the piece again
// decoding non-ASCII characters and classifying each by a table filled from the
// regex engine itself (letters and punctuation: CJK text, accented words,
// fullwidth punctuation, arrows). Where that one gives up too (non-ASCII
// digits and white space; marks in o200k_base) the encoding's own regex,
// sticky at the same position of the string, matches the piece, whose bytes
// follow from its UTF-16 length. The split is a leftmost match from each
// position, and every character starts some alternative, so matching piece by
// piece from position 0 yields the same pieces as the regex's global matchAll.
// The scanner follows the regex's alternatives in order, with its backtracking
// worked out by hand (see the comments); `tokenizers_test.ts` checks it against
// the regex on random and adversarial strings.

// One bit per class, so "a letter" is one test (`& LETTER`).
const OTHER = 0; // ASCII not a letter, digit or white space
const LOWER = 1;
const UPPER = 2;
const LETTER = LOWER | UPPER;
const DIGIT = 4;
const SPACE = 8; // \t \v \f and " "
const NEWLINE = 16; // \r \n
const NON_ASCII = 32; // must be classified by the regex
const END = 64; // past the end of the text
/** o200k_base: a letter in both of its letter sets (\p{Lm}, \p{Lo}: CJK, kana, Hangul, ...). */
const BOTH = LOWER | UPPER;

/**
 * Class of every byte: the ASCII classes above, NON_ASCII for every byte from
 * 0x80 (read with `CLASS[bytes[j]]`, no branch on the byte's range).
 */
const CLASS = new Uint8Array(256).fill(NON_ASCII);
for (let c = 0; c < 128; c++) {
  CLASS[c] = c >= 0x61 && c <= 0x7a
    ? LOWER
    : c >= 0x41 && c <= 0x5a
    ? UPPER
    : c >= 0x30 && c <= 0x39
    ? DIGIT
    : c === 0x0a || c === 0x0d
    ? NEWLINE
    : c === 0x09 || c === 0x0b || c === 0x0c || c === 0x20
    ? SPACE
    : OTHER;
}

/**
 * End of the piece starting at byte `i` of `text` (UTF-8, `n` bytes), or -1
 * when only the regex can tell.
 */
export type PieceScanner = (text: Uint8Array, i: number, n: number) => number;

/**
 * End of `'s|'t|'re|'ve|'m|'ll|'d` (any case) at `i` (an apostrophe), or -1.
 * Only the letters right after the apostrophe are read, so a non-ASCII
 * character after them does not matter (the alternative is tried first).
 */
function contraction(text: Uint8Array, i: number, n: number): number {
  if (i + 1 >= n) return -1;
  const a = text[i + 1] | 0x20; // ASCII lower case (harmless for others)
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return i + 2; // s t m d
  if (i + 2 >= n) return -1;
  const b = text[i + 2] | 0x20;
  if ((a === 0x72 || a === 0x76) && b === 0x65) return i + 3; // re ve
  if (a === 0x6c && b === 0x6c) return i + 3; // ll
  return -1;
}

/** End of the white-space alternatives `\s*[\r\n]+|\s+(?!\S)|\s+` at `i`, or -1. */
function whitespace(text: Uint8Array, i: number, n: number): number {
  let j = i;
  let lastNewline = -1;
  for (; j < n; j++) {
    const d = CLASS[text[j]];
    if (d === NEWLINE) lastNewline = j;
    else if (d !== SPACE) {
      if (d === NON_ASCII) return -1; // might be white space (U+00A0, U+3000, ...)
      break;
    }
  }
  // \s* takes the run, then backs off to its last \r or \n for [\r\n]+.
  if (lastNewline >= 0) return lastNewline + 1;
  // \s+(?!\S): the whole run at the end of the text, else all but its last char.
  if (j >= n) return j;
  if (j - i >= 2) return j - 1;
  return j; // \s+: a single white-space char before a non-space
}

/**
 * End of `[^\s\p{L}\p{N}]+` from `j` (just after its first char) followed by
 * `[\r\n]*` (and `/` too when `slash`), or -1.
 */
function punctuation(text: Uint8Array, j: number, n: number, slash: boolean): number {
  for (; j < n; j++) {
    const d = CLASS[text[j]];
    if (d !== OTHER) {
      if (d === NON_ASCII) return -1;
      break;
    }
  }
  for (; j < n; j++) {
    const x = text[j];
    if (x !== 0x0a && x !== 0x0d && (!slash || x !== 0x2f)) break;
  }
  return j;
}

/** End of `\p{N}{1,3}` at `i` (a digit), or -1. */
function digits(text: Uint8Array, i: number, n: number): number {
  let j = i + 1;
  const stop = i + 3 < n ? i + 3 : n;
  for (; j < stop; j++) {
    const d = CLASS[text[j]];
    if (d !== DIGIT) {
      if (d === NON_ASCII) return -1;
      break;
    }
  }
  return j;
}

/**
 * cl100k_base: `('s|'S|…|'D)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
 * ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
 */
export const scanCl100k: PieceScanner = (text, i, n) => {
  const c = text[i];
  const k = CLASS[c];
  let j = i + 1; // end of the letters run, scanned from here
  if ((k & LETTER) === 0) {
    if (k === NON_ASCII) return -1;
    if (k === DIGIT) return digits(text, i, n);
    if (k === NEWLINE) return whitespace(text, i, n);
    // OTHER or SPACE: a letter next starts [^\r\n\p{L}\p{N}]?\p{L}+.
    const d = j < n ? CLASS[text[j]] : END;
    if (c === 0x27) {
      const e = contraction(text, i, n);
      if (e >= 0) return e;
    }
    if (d === NON_ASCII) return -1;
    if ((d & LETTER) !== 0) j++;
    else if (k === OTHER) return punctuation(text, j, n, false);
    else if (c === 0x20 && d === OTHER) return punctuation(text, j + 1, n, false);
    else return whitespace(text, i, n);
  }
  for (; j < n; j++) {
    const d = CLASS[text[j]];
    if ((d & LETTER) === 0) {
      if (d === NON_ASCII) return -1;
      break;
    }
  }
  return j;
};

/**
 * o200k_base: `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(
 * 's|…)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|…)?|
 * \p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
 *
 * In ASCII the upper class is [A-Z] and the lower class [a-z] (Lt, Lm, Lo and
 * M have no ASCII members), so the first alternative is `[A-Z]*[a-z]+` and,
 * when no lower-case letter follows the capitals, the second one `[A-Z]+`.
 */
export const scanO200k: PieceScanner = (text, i, n) => {
  const c = text[i];
  const k = CLASS[c];
  let j = i; // start of the letters
  if ((k & LETTER) === 0) {
    if (k === NON_ASCII) return -1;
    if (k === DIGIT) return digits(text, i, n);
    if (k === NEWLINE) return whitespace(text, i, n);
    const d = i + 1 < n ? CLASS[text[i + 1]] : END;
    if (d === NON_ASCII) return -1;
    if ((d & LETTER) !== 0) j = i + 1;
    else if (k === OTHER) return punctuation(text, i + 1, n, true);
    else if (c === 0x20 && d === OTHER) return punctuation(text, i + 2, n, true);
    else return whitespace(text, i, n);
  }
  let d = OTHER;
  for (; j < n; j++) if ((d = CLASS[text[j]]) !== UPPER) break;
  if (j < n) {
    if (d === NON_ASCII) return -1; // could be Lu/Lt/Lm/Lo/M or Ll
    if (d === LOWER) {
      for (j++; j < n; j++) if ((d = CLASS[text[j]]) !== LOWER) break;
      if (j < n && d === NON_ASCII) return -1;
    }
    if (j + 1 < n && text[j] === 0x27) {
      const e = contraction(text, j, n);
      if (e >= 0) return e;
    }
  }
  return j;
};

// ---- Past ASCII: the scanners the counter asks when the ASCII ones give up. ----

// Non-ASCII characters: each code point's class, asked once of the regex
// engine that runs the split pattern (same Unicode tables), then kept. The
// classes the scanners handle past ASCII are the unambiguous ones: for
// cl100k_base, letters (\p{L}, any case: one class there) and
// "punctuation" (not \p{L}, \p{N} or \s, so marks too); for o200k_base,
// upper (\p{Lu}, \p{Lt}), lower (\p{Ll}), both (\p{Lm}, \p{Lo}) and the same
// punctuation minus the marks (\p{M}, in both letter sets and in the
// optional leading char: left to the regex). Digits (\p{N}) and white
// space (\s) past ASCII stay NON_ASCII: the regex decides.

/** Bit set on a known entry of the class tables (0 = not asked yet). */
const KNOWN = 128;
/** cl100k_base class of every BMP code point asked so far, | KNOWN. */
const WIDE_CL = new Uint8Array(0x10000);
/** o200k_base class of every BMP code point asked so far, | KNOWN. */
const WIDE_O2 = new Uint8Array(0x10000);
/** Both classes of the astral code points asked so far (cl100k | o200k << 8). */
const WIDE_ASTRAL = new Map<number, number>();
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
const IS_SPACE = /^\s$/u;
const IS_MARK = /^\p{M}$/u;
const IS_UPPER = /^[\p{Lu}\p{Lt}]$/u;
const IS_LOWER = /^\p{Ll}$/u;

/** Both classes of code point `cp` (cl100k | o200k << 8), from the regex engine. */
function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (IS_NUMBER.test(ch) || IS_SPACE.test(ch)) return NON_ASCII | (NON_ASCII << 8);
  if (IS_LETTER.test(ch)) {
    const o2 = IS_UPPER.test(ch) ? UPPER : IS_LOWER.test(ch) ? LOWER : BOTH;
    return LETTER | (o2 << 8);
  }
  return OTHER | ((IS_MARK.test(ch) ? NON_ASCII : OTHER) << 8);
}

/** Code point of the UTF-8 sequence at `j` (a lead byte from 0xc0; valid UTF-8). */
function codePointAt(text: Uint8Array, j: number): number {
  const x = text[j];
  if (x < 0xe0) return ((x & 0x1f) << 6) | (text[j + 1] & 0x3f);
  if (x < 0xf0) return ((x & 0x0f) << 12) | ((text[j + 1] & 0x3f) << 6) | (text[j + 2] & 0x3f);
  return ((x & 0x07) << 18) | ((text[j + 1] & 0x3f) << 12) | ((text[j + 2] & 0x3f) << 6) |
    (text[j + 3] & 0x3f);
}

/** Bytes of the UTF-8 sequence starting with lead byte `x` (from 0xc0). */
function seqBytes(x: number): number {
  return x < 0xe0 ? 2 : x < 0xf0 ? 3 : 4;
}

/** Class of the astral code point `cp` for one encoding (`shift` 0: cl100k_base, 8: o200k_base). */
function astralClass(cp: number, shift: number): number {
  let both = WIDE_ASTRAL.get(cp);
  if (both === undefined) WIDE_ASTRAL.set(cp, both = classify(cp));
  return (both >>> shift) & 0xff;
}

/** cl100k_base class of the non-ASCII char at byte `j` | its byte length << 8. */
function wideCl(text: Uint8Array, j: number): number {
  const x = text[j];
  const len = seqBytes(x);
  const cp = codePointAt(text, j);
  if (len === 4) return astralClass(cp, 0) | (len << 8);
  let k = WIDE_CL[cp];
  if (k === 0) {
    const both = classify(cp);
    WIDE_CL[cp] = k = (both & 0xff) | KNOWN;
    WIDE_O2[cp] = (both >>> 8) | KNOWN;
  }
  return (k & ~KNOWN) | (len << 8);
}

/** o200k_base class of the non-ASCII char at byte `j` | its byte length << 8. */
function wideO2(text: Uint8Array, j: number): number {
  const x = text[j];
  const len = seqBytes(x);
  const cp = codePointAt(text, j);
  if (len === 4) return astralClass(cp, 8) | (len << 8);
  let k = WIDE_O2[cp];
  if (k === 0) {
    const both = classify(cp);
    WIDE_CL[cp] = (both & 0xff) | KNOWN;
    WIDE_O2[cp] = k = (both >>> 8) | KNOWN;
  }
  return (k & ~KNOWN) | (len << 8);
}

/** End of the white-space alternatives `\s*[\r\n]+|\s+(?!\S)|\s+` at `i`, or -1. */
function whitespaceWide(text: Uint8Array, i: number, n: number): number {
  let j = i;
  let lastNewline = -1;
  for (; j < n; j++) {
    const d = CLASS[text[j]];
    if (d === NEWLINE) lastNewline = j;
    else if (d !== SPACE) {
      // Might be white space (U+00A0, U+3000, ...) unless it is a letter or punctuation.
      if (d === NON_ASCII && (wideCl(text, j) & 0xff) === NON_ASCII) return -1;
      break;
    }
  }
  // \s* takes the run, then backs off to its last \r or \n for [\r\n]+.
  if (lastNewline >= 0) return lastNewline + 1;
  // \s+(?!\S): the whole run at the end of the text, else all but its last char.
  if (j >= n) return j;
  if (j - i >= 2) return j - 1;
  return j; // \s+: a single white-space char before a non-space
}

/**
 * End of `[^\s\p{L}\p{N}]+` from `j` (just after its first char) followed by
 * `[\r\n]*` (and `/` too when `slash`), or -1.
 */
function punctuationWide(text: Uint8Array, j: number, n: number, slash: boolean): number {
  while (j < n) {
    const d = CLASS[text[j]];
    if (d === OTHER) j++;
    else if (d !== NON_ASCII) break;
    else {
      // Not \s, \p{L} or \p{N} (marks too: the run does not ask about letter sets).
      const w = wideCl(text, j);
      const e = w & 0xff;
      if (e === NON_ASCII) return -1;
      if (e !== OTHER) break;
      j += w >>> 8;
    }
  }
  for (; j < n; j++) {
    const x = text[j];
    if (x !== 0x0a && x !== 0x0d && (!slash || x !== 0x2f)) break;
  }
  return j;
}

/** End of `\p{N}{1,3}` at `i` (a digit), or -1. */
function digitsWide(text: Uint8Array, i: number, n: number): number {
  let j = i + 1;
  const stop = i + 3 < n ? i + 3 : n;
  for (; j < stop; j++) {
    const d = CLASS[text[j]];
    if (d !== DIGIT) {
      if (d === NON_ASCII && (wideCl(text, j) & 0xff) === NON_ASCII) return -1; // \p{N}?
      break;
    }
  }
  return j;
}

/**
 * {@linkcode scanCl100k} past ASCII: also decides pieces with non-ASCII letters and
 * punctuation (see the class tables above), -1 only for non-ASCII digits and
 * white space (and, in o200k_base, marks). cl100k_base: `('s|'S|…|'D)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
 * ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
 */
export const scanWideCl100k: PieceScanner = (text, i, n) => {
  const c = text[i];
  let k = CLASS[c];
  let j = i + 1; // end of the letters run, scanned from here
  if (k === NON_ASCII) {
    const w = wideCl(text, i);
    k = w & 0xff;
    if (k === NON_ASCII) return -1;
    j = i + (w >>> 8);
  }
  if ((k & LETTER) === 0) {
    if (k === DIGIT) return digitsWide(text, i, n);
    if (k === NEWLINE) return whitespaceWide(text, i, n);
    // OTHER or SPACE: a letter next starts [^\r\n\p{L}\p{N}]?\p{L}+.
    let d = j < n ? CLASS[text[j]] : END;
    let dl = 1;
    if (c === 0x27) {
      const e = contraction(text, i, n);
      if (e >= 0) return e;
    }
    if (d === NON_ASCII) {
      const w = wideCl(text, j);
      d = w & 0xff;
      if (d === NON_ASCII) return -1;
      dl = w >>> 8;
    }
    if ((d & LETTER) !== 0) j += dl;
    else if (k === OTHER) return punctuationWide(text, j, n, false);
    else if (c === 0x20 && d === OTHER) return punctuationWide(text, j + dl, n, false);
    else return whitespaceWide(text, i, n);
  }
  while (j < n) {
    const d = CLASS[text[j]];
    if ((d & LETTER) !== 0) j++;
    else if (d !== NON_ASCII) break;
    else {
      const w = wideCl(text, j);
      const e = w & 0xff;
      if (e === NON_ASCII) return -1;
      if ((e & LETTER) === 0) break;
      j += w >>> 8;
    }
  }
  return j;
};

/**
 * {@linkcode scanO200k} past ASCII (as {@linkcode scanWideCl100k}). o200k_base: `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(
 * 's|…)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|…)?|
 * \p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
 *
 * In ASCII the upper class is [A-Z] and the lower class [a-z] (Lt, Lm, Lo and
 * M have no ASCII members), so the first alternative is `[A-Z]*[a-z]+` and,
 * when no lower-case letter follows the capitals, the second one `[A-Z]+`.
 */
export const scanWideO200k: PieceScanner = (text, i, n) => {
  const c = text[i];
  let k = CLASS[c];
  let kl = 1; // bytes of the first char
  if (k === NON_ASCII) {
    const w = wideO2(text, i);
    k = w & 0xff;
    if (k === NON_ASCII) return -1;
    kl = w >>> 8;
  }
  let j = i; // start of the letters
  if ((k & LETTER) === 0) {
    if (k === DIGIT) return digitsWide(text, i, n);
    if (k === NEWLINE) return whitespaceWide(text, i, n);
    let d = i + kl < n ? CLASS[text[i + kl]] : END;
    let dl = 1;
    if (d === NON_ASCII) {
      const w = wideO2(text, i + kl);
      d = w & 0xff;
      if (d === NON_ASCII) return -1;
      dl = w >>> 8;
    }
    if ((d & LETTER) !== 0) j = i + kl;
    else if (k === OTHER) return punctuationWide(text, i + kl, n, true);
    else if (c === 0x20 && d === OTHER) return punctuationWide(text, i + 1 + dl, n, true);
    else return whitespaceWide(text, i, n);
  }
  // The upper-set run (upper or both); `lastBoth` is where its last "both" char starts.
  let d = END;
  let dl = 1;
  let lastBoth = -1;
  while (j < n) {
    d = CLASS[text[j]];
    dl = 1;
    if (d === NON_ASCII) {
      const w = wideO2(text, j);
      d = w & 0xff;
      if (d === NON_ASCII) return -1; // a mark, a digit or white space: the regex decides
      dl = w >>> 8;
    }
    if (d === UPPER) j += dl;
    else if (d === BOTH) {
      lastBoth = j;
      j += dl;
    } else break;
  }
  if (j >= n) d = END;
  if (d === LOWER) {
    // [U]*[L]+: the lower-set run (lower or both) after the upper-set run.
    j += dl;
    while (j < n) {
      d = CLASS[text[j]];
      dl = 1;
      if (d === NON_ASCII) {
        const w = wideO2(text, j);
        d = w & 0xff;
        if (d === NON_ASCII) return -1;
        dl = w >>> 8;
      }
      if (d === LOWER || d === BOTH) j += dl;
      else break;
    }
  } else if (lastBoth >= 0) {
    // [U]*[L]+ backs off to the upper-set run's last "both" char, the [L]+ alone
    // (what follows it is upper-only, or ends the run): no contraction can follow
    // unless it ends the run.
    j = lastBoth + seqBytes(text[lastBoth]);
  } // else [U]+[L]*, [L]* empty: the upper-set run.
  if (j + 1 < n && text[j] === 0x27) {
    const e = contraction(text, j, n);
    if (e >= 0) return e;
  }
  return j;
};

/** An encoding's pre-tokenizer: its byte scanner and its split regex (sticky). */
export interface Pretokenizer {
  /** The ASCII scanner. */
  readonly scan: PieceScanner;
  /** The scanner asked where the ASCII one gives up (-1: only the regex can tell). */
  readonly wide: PieceScanner;
  /** The split regex (js-tiktoken's `pat_str`), flags `uy`. */
  readonly sticky: RegExp;
}

/**
 * Creates the pre-tokenizer of an encoding from its scanner and its split
 * regex source (js-tiktoken's `pat_str`).
 */
export function createPretokenizer(scan: PieceScanner, pattern: string): Pretokenizer {
  const wide = scan === scanCl100k ? scanWideCl100k : scan === scanO200k ? scanWideO200k : scan;
  return { scan, wide, sticky: new RegExp(pattern, "uy") };
}

/**
 * UTF-16 end of the regex's piece at `u` of `text`.
 *
 * @throws {Error} When the regex matches nothing at `u`, which a split
 *   pattern covering every character never does.
 */
export function regexPieceEnd(pre: Pretokenizer, text: string, u: number): number {
  // test(), not exec(): a sticky regex leaves lastIndex at the end of its
  // match, so no match array (nor the piece's string) is made per piece.
  const sticky = pre.sticky;
  sticky.lastIndex = u;
  if (!sticky.test(text) || sticky.lastIndex === u) {
    throw new Error(`Cannot split the text at offset ${u}: the split regex did not match`);
  }
  return sticky.lastIndex;
}

/**
 * Byte offset reached from byte `b` of a UTF-8 text after `units` UTF-16
 * code units (a four-byte sequence is two units, a surrogate pair).
 */
export function utf8Advance(bytes: Uint8Array, b: number, units: number): number {
  while (units > 0) {
    const x = bytes[b];
    if (x < 0x80) b++;
    else if (x < 0xe0) b += 2;
    else if (x < 0xf0) b += 3;
    else {
      b += 4;
      units--;
    }
    units--;
  }
  return b;
}

/**
 * UTF-16 code units of the UTF-8 bytes `bytes[from, to)` (whole sequences:
 * one unit per sequence, two for a four-byte one).
 */
export function utf16Units(bytes: Uint8Array, from: number, to: number): number {
  let units = 0;
  for (let b = from; b < to; b++) {
    const x = bytes[b];
    if ((x & 0xc0) !== 0x80) units += x >= 0xf0 ? 2 : 1;
  }
  return units;
}

const encoder = new TextEncoder();

/**
 * The UTF-8 bytes of `text` (lone surrogates as U+FFFD, as `TextEncoder`),
 * written into `into` when it is large enough (3 bytes per UTF-16 unit), else
 * into a new array; returns the array and the byte length.
 */
export function utf8Into(text: string, into: Uint8Array): [Uint8Array, number] {
  const buf = into.length >= 3 * text.length ? into : new Uint8Array(3 * text.length);
  return [buf, encoder.encodeInto(text, buf).written];
}

/**
 * The pieces of `text`, in order, as the counter splits it (tests and tools;
 * the counter does not allocate them).
 *
 * @throws {Error} When the scanner returns an end outside the rest of the text.
 */
export function splitPieces(pre: Pretokenizer, text: string): string[] {
  const out: string[] = [];
  const [bytes, n] = utf8Into(text, new Uint8Array(0));
  let b = 0;
  let u = 0;
  while (b < n) {
    let end = pre.scan(bytes, b, n);
    if (end < 0) end = pre.wide(bytes, b, n);
    let uEnd: number;
    if (end >= 0) uEnd = u + utf16Units(bytes, b, end);
    else {
      uEnd = regexPieceEnd(pre, text, u);
      end = utf8Advance(bytes, b, uEnd - u);
    }
    if (end <= b || end > n) {
      throw new Error(
        `Cannot split the text at offset ${u}: the piece would end at byte ${end} of ${n}`,
      );
    }
    out.push(text.substring(u, uEnd));
    b = end;
    u = uEnd;
  }
  return out;
}
