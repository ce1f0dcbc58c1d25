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
import { createSplitter, type PieceSplitter, scanCl100k, scanO200k } from "./_pretokenize.ts";
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
    enc = {
      table: rankTableFrom(decoder),
      split: createSplitter(cl ? scanCl100k : scanO200k, (cl ? cl100kData : o200kData).pat_str),
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
  const { table, split } = encodingOf(name);
  const pairs = table.pairs;
  // The memo: an open-addressing hash table over pieces (FNV-1a of the UTF-16
  // code units), probed without cutting the piece out of the text. Slot s at
  // [4s, 4s + 4): hash, length (0 = empty), offset of the piece's code units in
  // `arena`, token count.
  let bits = 12;
  let mask = (1 << bits) - 1;
  let slots = new Int32Array(4 << bits);
  let size = 0;
  let arena = new Uint16Array(1 << 16);
  let used = 0;
  let cache = createRankCache();
  // The short memo: ASCII pieces of three to eight characters (most pieces of a
  // catalog), keyed by their code units packed in two ints, so a lookup packs
  // the piece once and compares two ints, with no hash loop and no arena.
  // Slot s at [4s, 4s + 4): chars 0-3, chars 4-7 (one byte each, little-endian),
  // length << 8 | token count (0 = empty), unused.
  let shortBits = 12;
  let shortMask = (1 << shortBits) - 1;
  let shortSlots = new Int32Array(4 << shortBits);
  let shortSize = 0;

  const resetShort = (newBits: number) => {
    shortBits = newBits;
    shortMask = (1 << shortBits) - 1;
    shortSlots = new Int32Array(4 << shortBits);
    shortSize = 0;
  };

  const placeShort = (w0: number, w1: number, meta: number) => {
    let slot = packedHash(w0, w1, meta >>> 8) & shortMask;
    while (shortSlots[4 * slot + 2] !== 0) slot = (slot + 1) & shortMask;
    const b = 4 * slot;
    shortSlots[b] = w0;
    shortSlots[b + 1] = w1;
    shortSlots[b + 2] = meta;
    shortSize++;
  };

  /** Memoizes the count `c` of the packed short piece `w0`, `w1` of `len` chars. */
  const rememberShort = (w0: number, w1: number, len: number, c: number) => {
    if (shortSize + 1 > MEMO_LIMIT) resetShort(12);
    else if (2 * (shortSize + 1) > shortMask) {
      const old = shortSlots;
      resetShort(shortBits + 1);
      for (let b = 0; b < old.length; b += 4) {
        if (old[b + 2] !== 0) placeShort(old[b], old[b + 1], old[b + 2]);
      }
    }
    placeShort(w0, w1, (len << 8) | c);
  };

  const reset = (newBits: number) => {
    bits = newBits;
    mask = (1 << bits) - 1;
    slots = new Int32Array(4 << bits);
    size = 0;
  };

  const place = (h: number, len: number, at: number, c: number) => {
    let slot = (h ^ (h >>> 15)) & mask;
    while (slots[4 * slot + 1] !== 0) slot = (slot + 1) & mask;
    const b = 4 * slot;
    slots[b] = h;
    slots[b + 1] = len;
    slots[b + 2] = at;
    slots[b + 3] = c;
    size++;
  };

  /** Memoizes the count of `text[i, end)` (hash `h`). */
  const remember = (h: number, text: string, i: number, end: number, c: number) => {
    const len = end - i;
    if (size + 1 > MEMO_LIMIT || used + len > ARENA_LIMIT) {
      reset(12);
      used = 0;
    } else if (2 * (size + 1) > mask) {
      const old = slots;
      reset(bits + 1);
      for (let b = 0; b < old.length; b += 4) {
        if (old[b + 1] !== 0) place(old[b], old[b + 1], old[b + 2], old[b + 3]);
      }
    }
    if (used + len > arena.length) {
      let cap = arena.length * 2;
      while (cap < used + len) cap *= 2;
      const grown = new Uint16Array(cap);
      grown.set(arena.subarray(0, used));
      arena = grown;
    }
    for (let j = i; j < end; j++) arena[used++] = text.charCodeAt(j);
    place(h, len, used - len, c);
  };

  const count = (text: string): number => {
    const n = text.length;
    let total = 0;
    let i = 0;
    while (i < n) {
      let end = split(text, i, n);
      const ascii = end >= 0;
      if (!ascii) end = -end - 1;
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
        let slot = packedHash(w0, w1, len) & shortMask;
        let c = -1;
        for (;;) {
          const b = 4 * slot;
          const m = shortSlots[b + 2];
          if (m === 0) break;
          if (shortSlots[b] === w0 && shortSlots[b + 1] === w1 && m >>> 8 === len) {
            c = m & 0xff;
            break;
          }
          slot = (slot + 1) & shortMask;
        }
        if (c < 0) {
          c = mergeRange(text, i, end, table, undefined, cache);
          rememberShort(w0, w1, len, c);
        }
        total += c;
        i = end;
        continue;
      }
      let h = 0x811c9dc5 | 0;
      for (let j = i; j < end; j++) h = Math.imul(h ^ text.charCodeAt(j), 16777619);
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
        if (ascii) c = mergeRange(text, i, end, table, undefined, cache);
        else {
          const bytes = byteString(text.substring(i, end));
          c = mergeRange(bytes, 0, bytes.length, table, undefined, cache);
        }
        if (len <= MEMO_MAX_PIECE) remember(h, text, i, end, c);
      }
      total += c;
      i = end;
    }
    return total;
  };

  const tokenStarts = (text: string): number[] => {
    const n = text.length;
    const starts: number[] = [];
    const local: number[] = [];
    let offset = 0;
    let i = 0;
    while (i < n) {
      let end = split(text, i, n);
      if (end < 0) end = -end - 1;
      const bytes = byteString(text.substring(i, end));
      i = end;
      local.length = 0;
      mergePiece(bytes, table, local);
      for (const s of local) starts.push(offset + s);
      offset += bytes.length;
    }
    return starts;
  };

  const clear = () => {
    reset(12);
    resetShort(12);
    used = 0;
    cache = createRankCache();
  };
  return { name, count, tokenStarts, clear };
}
