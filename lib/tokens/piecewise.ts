/**
 * mcpmeter's own BPE counter: exact `cl100k_base` / `o200k_base` counts, fast
 * on catalogs and near-linear on any input.
 *
 * Counting works piece by piece, as BPE does: the text is split with the
 * encoding's pre-tokenizer (a hand-written ASCII scanner, falling back to
 * js-tiktoken's split regex for anything non-ASCII), and each piece is merged
 * on its own. Each piece of three or more characters is merged once per
 * counter and its count memoized (exact, since the count of a piece does not
 * depend on its neighbours). ASCII pieces of up to eight characters (most
 * pieces of a catalog) go to a short memo keyed by their characters packed in
 * two ints, so a lookup packs the piece once and compares two ints; longer
 * pieces go to an open-addressing table whose keys are copied into one
 * code-unit arena, so a lookup hashes and compares the piece in place. A new
 * ASCII piece is merged in place; no lookup cuts a substring. Merging looks ranges up in the shared rank table (`_bpe.ts`:
 * packed 16-byte slots behind a Bloom filter) through a small per-counter rank
 * cache. Long pieces (one character repeated a million times, a 10 MB
 * description without spaces) are merged with a heap in O(n log n) instead of
 * the quadratic scan.
 *
 * The mergeable ranks are the encodings' public rank tables as gpt-tokenizer
 * ships them (`gpt-tokenizer/bpeRanks/<name>`); the split regexes are
 * js-tiktoken's (`js-tiktoken/ranks/<name>`, `pat_str`). `tokenizers_test.ts`
 * proves identical counts to js-tiktoken on both corpora and on random and
 * adversarial strings.
 *
 * @module
 */
import cl100kRanks from "gpt-tokenizer/bpeRanks/cl100k_base";
import o200kRanks from "gpt-tokenizer/bpeRanks/o200k_base";
import cl100kData from "js-tiktoken/ranks/cl100k_base";
import o200kData from "js-tiktoken/ranks/o200k_base";
import {
  createRankCache,
  mergePiece,
  mergeRange,
  NO_RANK,
  type RankTable,
  rankTableFrom,
} from "./_bpe.ts";
import {
  createSplitter,
  type PieceScanner,
  type PieceSplitter,
  scanCl100k,
  scanO200k,
} from "./_pretokenize.ts";
import type { Tokenizer, TokenizerName } from "./types.ts";

/** A {@linkcode Tokenizer} with a per-instance memo of merged pieces. */
export interface PiecewiseTokenizer extends Tokenizer {
  /** Encoding name. */
  readonly name: TokenizerName;
  /**
   * UTF-8 byte offset at which each token of `text` starts (length = token
   * count), in text order.
   */
  tokenStarts(text: string): number[];
  /** Forgets every memoized piece (the next count starts cold). */
  clear(): void;
}

interface Encoding {
  readonly table: RankTable;
  /** The ASCII pre-tokenizer (-1 where only the regex can tell). */
  readonly scan: PieceScanner;
  /** The scanner with the split regex behind it. */
  readonly split: PieceSplitter;
}

const encodings = new Map<TokenizerName, Encoding>();

/** The rank table and pre-tokenizer of an encoding, built once per process. */
function encodingOf(name: TokenizerName): Encoding {
  let enc = encodings.get(name);
  if (enc === undefined) {
    const cl = name === "cl100k_base";
    const decoder = (cl ? cl100kRanks : o200kRanks) as readonly (
      | string
      | readonly number[]
      | undefined
    )[];
    const scan = cl ? scanCl100k : scanO200k;
    enc = {
      table: rankTableFrom(decoder),
      scan,
      split: createSplitter(scan, (cl ? cl100kData : o200kData).pat_str),
    };
    encodings.set(name, enc);
  }
  return enc;
}

/** Memoized pieces kept per counter before the memo is emptied (bounds memory). */
const MEMO_LIMIT = 1 << 18;
/** UTF-16 code units of memoized pieces kept per counter before the memo is emptied. */
const ARENA_LIMIT = 1 << 23;
/** Longer pieces are merged every time they occur (each merge is O(n log n) anyway). */
const MEMO_MAX_PIECE = 1 << 12;

/** Hash of a short ASCII piece from its packed chars and length. */
function packedHash(w0: number, w1: number, len: number): number {
  let h = Math.imul(w0, 0xcc9e2d51) ^ Math.imul(w1 ^ len, 0x1b873593);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** The byte string (one char per UTF-8 byte) of `text`; lone surrogates as U+FFFD. */
function byteString(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out += text[i];
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out += String.fromCharCode(
          0xf0 | (cp >> 18),
          0x80 | ((cp >> 12) & 0x3f),
          0x80 | ((cp >> 6) & 0x3f),
          0x80 | (cp & 0x3f),
        );
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // lone surrogate, as TextEncoder
    out += c < 0x800
      ? String.fromCharCode(0xc0 | (c >> 6), 0x80 | (c & 0x3f))
      : String.fromCharCode(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return out;
}

/**
 * The per-counter state: both memos and the rank cache. One object of one
 * shape for every counter, and the functions that use it live at module level,
 * so every counter runs the same optimized code (closures made per counter
 * would each start cold in the JIT and deoptimize the code they are inlined in).
 */
class Memo {
  readonly table: RankTable;
  readonly scan: PieceScanner;
  readonly split: PieceSplitter;
  // The memo: an open-addressing hash table over pieces (FNV-1a of the UTF-16
  // code units), probed without cutting the piece out of the text. Slot s at
  // [4s, 4s + 4): hash, length (0 = empty), offset of the piece's code units in
  // `arena`, token count.
  bits = 12;
  mask = (1 << 12) - 1;
  slots: Int32Array = new Int32Array(4 << 12);
  size = 0;
  arena: Uint16Array = new Uint16Array(1 << 16);
  used = 0;
  cache: Int32Array = createRankCache();
  // The short memo: ASCII pieces of three to eight characters (most pieces of a
  // catalog), keyed by their code units packed in two ints, so a lookup packs
  // the piece once and compares two ints, with no hash loop and no arena.
  // Slot s at [4s, 4s + 4): chars 0-3, chars 4-7 (one byte each, little-endian),
  // length << 8 | token count (0 = empty), unused.
  shortBits = 12;
  shortMask = (1 << 12) - 1;
  shortSlots: Int32Array = new Int32Array(4 << 12);
  shortSize = 0;

  constructor(enc: Encoding) {
    this.table = enc.table;
    this.scan = enc.scan;
    this.split = enc.split;
  }
}

/** Empties the short memo, `2^newBits` slots. */
function resetShort(m: Memo, newBits: number): void {
  m.shortBits = newBits;
  m.shortMask = (1 << newBits) - 1;
  m.shortSlots = new Int32Array(4 << newBits);
  m.shortSize = 0;
}

function placeShort(m: Memo, w0: number, w1: number, meta: number): void {
  const slots = m.shortSlots;
  const mask = m.shortMask;
  let slot = packedHash(w0, w1, meta >>> 8) & mask;
  while (slots[4 * slot + 2] !== 0) slot = (slot + 1) & mask;
  const b = 4 * slot;
  slots[b] = w0;
  slots[b + 1] = w1;
  slots[b + 2] = meta;
  m.shortSize++;
}

/** Memoizes the count `c` of the packed short piece `w0`, `w1` of `len` chars. */
function rememberShort(m: Memo, w0: number, w1: number, len: number, c: number): void {
  if (m.shortSize + 1 > MEMO_LIMIT) resetShort(m, 12);
  else if (2 * (m.shortSize + 1) > m.shortMask) {
    const old = m.shortSlots;
    resetShort(m, m.shortBits + 1);
    for (let b = 0; b < old.length; b += 4) {
      if (old[b + 2] !== 0) placeShort(m, old[b], old[b + 1], old[b + 2]);
    }
  }
  placeShort(m, w0, w1, (len << 8) | c);
}

/** Empties the hashed memo, `2^newBits` slots (the arena is kept). */
function reset(m: Memo, newBits: number): void {
  m.bits = newBits;
  m.mask = (1 << newBits) - 1;
  m.slots = new Int32Array(4 << newBits);
  m.size = 0;
}

function place(m: Memo, h: number, len: number, at: number, c: number): void {
  const slots = m.slots;
  const mask = m.mask;
  let slot = (h ^ (h >>> 15)) & mask;
  while (slots[4 * slot + 1] !== 0) slot = (slot + 1) & mask;
  const b = 4 * slot;
  slots[b] = h;
  slots[b + 1] = len;
  slots[b + 2] = at;
  slots[b + 3] = c;
  m.size++;
}

/** Memoizes the count of `text[i, end)` (hash `h`). */
function remember(m: Memo, h: number, text: string, i: number, end: number, c: number): void {
  const len = end - i;
  if (m.size + 1 > MEMO_LIMIT || m.used + len > ARENA_LIMIT) {
    reset(m, 12);
    m.used = 0;
  } else if (2 * (m.size + 1) > m.mask) {
    const old = m.slots;
    reset(m, m.bits + 1);
    for (let b = 0; b < old.length; b += 4) {
      if (old[b + 1] !== 0) place(m, old[b], old[b + 1], old[b + 2], old[b + 3]);
    }
  }
  let arena = m.arena;
  let used = m.used;
  if (used + len > arena.length) {
    let cap = arena.length * 2;
    while (cap < used + len) cap *= 2;
    const grown = new Uint16Array(cap);
    grown.set(arena.subarray(0, used));
    m.arena = arena = grown;
  }
  for (let j = i; j < end; j++) arena[used++] = text.charCodeAt(j);
  m.used = used;
  place(m, h, len, used - len, c);
}

/** Empties both memos and the rank cache. */
function clearMemo(m: Memo): void {
  reset(m, 12);
  resetShort(m, 12);
  m.used = 0;
  m.cache = createRankCache();
}

/** Tokens of `text`, through the memos of `m`. */
function countText(m: Memo, text: string): number {
  const { table, scan } = m;
  const pairs = table.pairs;
  const n = text.length;
  let total = 0;
  let i = 0;
  while (i < n) {
    let end = scan(text, i, n);
    let ascii = true;
    if (end < 0) {
      end = m.split(text, i, n);
      ascii = end >= 0;
      if (!ascii) end = -end - 1;
    }
    const len = end - i;
    if (ascii && len <= 2) {
      // Every byte is a token; two bytes are one token or two (the rank table's pair entry).
      total += len === 1 || pairs[(text.charCodeAt(i) << 8) | text.charCodeAt(i + 1)] !== NO_RANK
        ? 1
        : 2;
      i = end;
      continue;
    }
    if (ascii && len <= 8) {
      let w0 = 0;
      let w1 = 0;
      const mid = len < 4 ? end : i + 4;
      for (let j = i, shift = 0; j < mid; j++, shift += 8) w0 |= text.charCodeAt(j) << shift;
      for (let j = mid, shift = 0; j < end; j++, shift += 8) w1 |= text.charCodeAt(j) << shift;
      const shortSlots = m.shortSlots;
      const shortMask = m.shortMask;
      let slot = packedHash(w0, w1, len) & shortMask;
      let c = -1;
      for (;;) {
        const b = 4 * slot;
        const meta = shortSlots[b + 2];
        if (meta === 0) break;
        if (shortSlots[b] === w0 && shortSlots[b + 1] === w1 && meta >>> 8 === len) {
          c = meta & 0xff;
          break;
        }
        slot = (slot + 1) & shortMask;
      }
      if (c < 0) {
        c = mergeRange(text, i, end, table, undefined, m.cache);
        rememberShort(m, w0, w1, len, c);
      }
      total += c;
      i = end;
      continue;
    }
    let h = 0x811c9dc5 | 0;
    for (let j = i; j < end; j++) h = Math.imul(h ^ text.charCodeAt(j), 16777619);
    const slots = m.slots;
    const mask = m.mask;
    const arena = m.arena;
    let slot = (h ^ (h >>> 15)) & mask;
    let c = -1;
    for (;;) {
      const b = 4 * slot;
      const l = slots[b + 1];
      if (l === 0) break;
      if (slots[b] === h && l === len) {
        let o = slots[b + 2];
        let j = i;
        while (j < end && arena[o] === text.charCodeAt(j)) {
          j++;
          o++;
        }
        if (j === end) {
          c = slots[b + 3];
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
    if (c < 0) {
      if (ascii) c = mergeRange(text, i, end, table, undefined, m.cache);
      else {
        const bytes = byteString(text.substring(i, end));
        c = mergeRange(bytes, 0, bytes.length, table, undefined, m.cache);
      }
      if (len <= MEMO_MAX_PIECE) remember(m, h, text, i, end, c);
    }
    total += c;
    i = end;
  }
  return total;
}

/** UTF-8 start offsets of the tokens of `text` (no memo: every piece is merged). */
function tokenStartsOf(m: Memo, text: string): number[] {
  const n = text.length;
  const starts: number[] = [];
  const local: number[] = [];
  let offset = 0;
  let i = 0;
  while (i < n) {
    let end = m.split(text, i, n);
    if (end < 0) end = -end - 1;
    const bytes = byteString(text.substring(i, end));
    i = end;
    local.length = 0;
    mergePiece(bytes, m.table, local);
    for (const s of local) starts.push(offset + s);
    offset += bytes.length;
  }
  return starts;
}

/**
 * Creates a piecewise BPE counter for an encoding.
 *
 * Each instance memoizes the count of every piece of three or more characters
 * it merged (ASCII pieces of up to eight characters in a short memo of up to
 * 262,144 pieces; other pieces up to 262,144 pieces or 8 Mi code units of
 * keys; each memo starts over when full; pieces over 4,096 code units are not
 * kept), so counting many
 * texts of one catalog reuses work within the instance; a fresh instance (or
 * `clear()`) starts cold, its memo and rank cache empty. Special-token text such as `<|endoftext|>` is plain text.
 *
 * @param name `cl100k_base` or `o200k_base`.
 * @returns A {@linkcode PiecewiseTokenizer}.
 * @throws {RangeError} When `name` is not a known encoding.
 *
 * @example Usage
 * ```ts
 * import { createPiecewiseTokenizer } from "./piecewise.ts";
 * const tok = createPiecewiseTokenizer("cl100k_base");
 * if (tok.count("tiktoken is great!") !== 6) throw new Error("unexpected count");
 * ```
 */
export function createPiecewiseTokenizer(name: TokenizerName): PiecewiseTokenizer {
  if (name !== "cl100k_base" && name !== "o200k_base") {
    throw new RangeError(
      `Cannot create tokenizer as the name is not known: current value is "${name}" (expected one of cl100k_base, o200k_base)`,
    );
  }
  const m = new Memo(encodingOf(name));
  return {
    name,
    count: (text: string) => countText(m, text),
    tokenStarts: (text: string) => tokenStartsOf(m, text),
    clear: () => clearMemo(m),
  };
}
