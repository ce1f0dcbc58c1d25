// Pre-tokenization: where the next piece of a text ends, exactly as the
// encoding's split regex (js-tiktoken's `pat_str`) would match it.
//
// The text is read as its UTF-8 bytes (one `TextEncoder.encodeInto` per text,
// the bytes BPE merges anyway). A hand-written scanner over the bytes decides
// every piece made only of ASCII characters whose boundaries depend only on
// ASCII characters (nearly all of a tool catalog); whenever it would have to
// classify a non-ASCII character (a byte from 0x80: a letter? a digit? a
// space?) it gives up and the encoding's own regex, sticky at the same
// position of the string, matches the piece, whose bytes follow from its
// UTF-16 length. The split is a leftmost match from each
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

/** An encoding's pre-tokenizer: its byte scanner and its split regex (sticky). */
export interface Pretokenizer {
  /** The ASCII scanner. */
  readonly scan: PieceScanner;
  /** The split regex (js-tiktoken's `pat_str`), flags `uy`. */
  readonly sticky: RegExp;
}

/**
 * Creates the pre-tokenizer of an encoding from its scanner and its split
 * regex source (js-tiktoken's `pat_str`).
 */
export function createPretokenizer(scan: PieceScanner, pattern: string): Pretokenizer {
  return { scan, sticky: new RegExp(pattern, "uy") };
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
    let uEnd: number;
    if (end >= 0) uEnd = u + end - b;
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
