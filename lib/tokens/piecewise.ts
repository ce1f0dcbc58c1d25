/**
 * mcpmeter's own BPE counter: exact `cl100k_base` / `o200k_base` counts, fast
 * on catalogs and near-linear on any input.
 *
 * Counting works piece by piece, as BPE does, on the text's UTF-8 bytes (one
 * native `TextEncoder.encodeInto` per text, into a scratch array shared by all
 * counters, so no per-char string access and no per-piece byte string): the
 * bytes are split with the encoding's pre-tokenizer (a hand-written ASCII
 * scanner; past ASCII a second scanner that classifies letters and punctuation
 * by a table the regex engine fills; js-tiktoken's split regex on the string
 * for what is left: non-ASCII digits and white space), and each piece is
 * merged on its own. Each piece of three or more
 * bytes is merged once per counter and its count memoized (exact, since the
 * count of a piece does not depend on its neighbours). Pieces of up to eight
 * bytes (most pieces of a catalog) go to a short memo keyed by their bytes
 * packed in two ints, so a lookup packs the piece once (two unaligned reads
 * and two masks) and compares two ints; a two-byte piece is one token or two
 * by one bit of an 8 KB pair bitmap;
 * longer pieces go to an open-addressing table whose keys are copied into one
 * byte arena, so a lookup hashes and compares the piece in place. In front of
 * both sit two small direct-mapped hot caches (pieces of up to 8 bytes, and of
 * 9 to 16 bytes packed in four ints), which stay in the CPU's nearest caches
 * where a large catalog's memos do not. Merging looks
 * ranges up in the shared rank table (`_bpe.ts`: packed 16-byte slots behind a
 * Bloom filter) through a small per-counter rank cache. Long pieces (one
 * character repeated a million times, a 10 MB description without spaces) are
 * merged with a heap in O(n log n) instead of the quadratic scan.
 *
 * The mergeable ranks and the split regexes are the encodings' public ones as
 * js-tiktoken ships them (`js-tiktoken/ranks/<name>`: `bpe_ranks`, decoded from
 * base64 straight into the rank table, and `pat_str`). `tokenizers_test.ts`
 * proves identical counts to js-tiktoken on both corpora and on random and
 * adversarial strings.
 *
 * `countRegions` counts a text split into regions (each token credited to the region of its
 * first byte, what attributing a JSON text's tokens to its members needs) through the same memo:
 * only the pieces crossing a region's start are split token by token (a short piece's token
 * starts kept in a small split cache, as the hot cache keeps counts), and ranges whose tokens
 * the caller knows (a string's middle between two hard cuts, `joins.ts`) are skipped.
 *
 * @module
 */
import cl100kData from "js-tiktoken/ranks/cl100k_base";
import o200kData from "js-tiktoken/ranks/o200k_base";
import { createRankCache, mergeRange, type RankTable, rankTableFromTiktoken } from "./_bpe.ts";
import {
  createPretokenizer,
  type Pretokenizer,
  regexPieceEnd,
  scanCl100k,
  scanO200k,
  scanWideCl100k,
  scanWideO200k,
  utf16Units,
  utf8Advance,
  utf8Into,
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
  /**
   * Tokens of `text` per region, through the memo: region `r` holds the tokens whose first
   * UTF-8 byte lies in `[cuts[r - 1], cuts[r])` (from the start for the first region, to the end
   * for the last), so there are `cuts.length + 1` regions and they sum to `count(text)`.
   *
   * @param text Any text.
   * @param cuts Positions in `text` (UTF-16 code units), ascending (equal ones make empty
   *   regions); one inside a surrogate pair stands for the end of the pair.
   * @param options `nonAscii`: also count, per region, the tokens holding a byte from 0x80.
   *   `known`: ranges whose tokens are known, skipped and their tokens added (see
   *   {@linkcode RegionOptions.known}).
   */
  countRegions(text: string, cuts: ArrayLike<number>, options?: RegionOptions): TokenRegions;
  /** Forgets every memoized piece (the next count starts cold). */
  clear(): void;
}

/** Options of {@linkcode PiecewiseTokenizer.countRegions}. */
export interface RegionOptions {
  /** Count the tokens holding a byte from 0x80 apart, per region. @default {false} */
  readonly nonAscii?: boolean;
  /**
   * Ranges of the text whose tokens are known, as flat triples `from, to, tokens` (UTF-16 code
   * units, ascending, not overlapping): each range must start and end at piece boundaries (hard
   * cuts, `joins.ts`), so its tokens are exactly those counted on its own; it is skipped and its
   * tokens credited to the region it starts in. A range that crosses a cut, or that the pieces
   * do not meet at its start, is counted as usual. Not combined with `nonAscii` on a range
   * holding non-ASCII text (its tokens holding such bytes are not known).
   */
  readonly known?: ArrayLike<number>;
}

/** Tokens per region of a text ({@linkcode PiecewiseTokenizer.countRegions}). */
export interface TokenRegions {
  /** Tokens whose first byte lies in each region (length `cuts.length + 1`). */
  readonly tokens: Int32Array;
  /** Of those, the tokens holding a byte from 0x80, when asked for. */
  readonly nonAscii?: Int32Array;
  /** UTF-8 bytes of the text. */
  readonly byteLength: number;
}

interface Encoding {
  readonly table: RankTable;
  readonly pre: Pretokenizer;
}

const encodings = new Map<TokenizerName, Encoding>();

/** The rank table and pre-tokenizer of an encoding, built once per thread. */
function encodingOf(name: TokenizerName): Encoding {
  let enc = encodings.get(name);
  if (enc === undefined) {
    const data = name === "cl100k_base" ? cl100kData : o200kData;
    enc = {
      table: rankTableFromTiktoken(data.bpe_ranks),
      pre: createPretokenizer(name === "cl100k_base" ? scanCl100k : scanO200k, data.pat_str),
    };
    encodings.set(name, enc);
  }
  return enc;
}

/** Memoized pieces kept per counter before the memo is emptied (bounds memory). */
const MEMO_LIMIT = 1 << 18;
/** Bytes of memoized pieces kept per counter before the memo is emptied. */
const ARENA_LIMIT = 1 << 23;
/**
 * Slots each memo starts with (a power of two; each memo grows, doubling,
 * when it would be more than three quarters full): 2^13 short (12-byte slots,
 * 96 KB) and 2^12 long (64 KB) hold the distinct pieces of a catalog like
 * LiveMCPBench (about 4,500 and 2,500) without growing. Dense tables keep the
 * memo lookups, one per piece, in the CPU's caches: a catalog's pieces are
 * mostly memo hits, each probing a random slot.
 */
const SHORT_BITS = 13;
const LONG_BITS = 12;

/** Whether a memo of `mask + 1` slots holding `size` pieces must grow to take one more. */
function mustGrow(size: number, mask: number): boolean {
  return 4 * (size + 1) > 3 * (mask + 1);
}
/** Entries of the hot cache (a power of two): 2,048 of 12 bytes, 24 KB. */
const HOT_SIZE = 1 << 11;
const HOT_MASK = HOT_SIZE - 1;
/** Longer pieces are merged every time they occur (each merge is O(n log n) anyway). */
const MEMO_MAX_PIECE = 1 << 12;

/** Hash of a short piece from its packed bytes and length. */
function packedHash(w0: number, w1: number, len: number): number {
  let h = Math.imul(w0, 0xcc9e2d51) ^ Math.imul(w1 ^ len, 0x1b873593);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  return h ^ (h >>> 13);
}

/**
 * Scratch space for the UTF-8 bytes of the text being counted, shared by every
 * counter (it holds only the current text: nothing carries over between
 * counts); a text of more than a third of it gets its own array.
 */
let scratch = new Uint8Array(1 << 16);
/** `scratch` as a DataView: a piece's first eight bytes are packed with two unaligned reads. */
let scratchView = new DataView(scratch.buffer);
const encoder = new TextEncoder();
/**
 * Bytes past the text a scratch array keeps, so the four 4-byte reads that
 * pack a piece of up to 16 bytes never leave the array (the bytes past
 * the piece are masked off with {@linkcode LOW} and {@linkcode HIGH}).
 */
const SLACK = 16;
/** Mask of the bytes 0-3 of a piece of `len` bytes (index `len`, up to 8). */
const LOW = Int32Array.of(0, 0xff, 0xffff, 0xffffff, -1, -1, -1, -1, -1);
/** Mask of the bytes 4-7 of a piece of `len` bytes (index `len`, up to 8). */
const HIGH = Int32Array.of(0, 0, 0, 0, 0, 0xff, 0xffff, 0xffffff, -1);
/** The scratch array grows (doubling) up to this many bytes. */
const SCRATCH_MAX_BYTES = 1 << 22;

/**
 * The per-counter state: both memos and the rank cache. One object of one
 * shape for every counter, and the functions that use it live at module level,
 * so every counter runs the same optimized code (closures made per counter
 * would each start cold in the JIT and deoptimize the code they are inlined in).
 */
class Memo {
  readonly table: RankTable;
  readonly pre: Pretokenizer;
  // The memo: an open-addressing hash table over pieces of more than eight
  // bytes (FNV-1a of the bytes), probed without cutting the piece out of the
  // text. Slot s at [4s, 4s + 4): hash, length (0 = empty), offset of the
  // piece's bytes in `arena`, token count.
  bits = LONG_BITS;
  mask = (1 << LONG_BITS) - 1;
  slots: Int32Array = new Int32Array(4 << LONG_BITS);
  size = 0;
  arena: Uint8Array = new Uint8Array(1 << 16);
  used = 0;
  cache: Int32Array = createRankCache();
  // The short memo: pieces of three to eight bytes (most pieces of a catalog),
  // keyed by their bytes packed in two ints, so a lookup packs the piece once
  // and compares two ints, with no hash loop and no arena.
  // Slot s at [3s, 3s + 3): bytes 0-3, bytes 4-7 (little-endian),
  // length << 8 | token count (0 = empty).
  shortBits = SHORT_BITS;
  shortMask = (1 << SHORT_BITS) - 1;
  shortSlots: Int32Array = new Int32Array(3 << SHORT_BITS);
  shortSize = 0;
  // The hot cache: a small direct-mapped copy of recently used short-memo entries (same slot
  // layout), checked first. It stays in the CPU's nearest cache where the short memo of a large
  // catalog (hundreds of KB) does not: most pieces of a catalog are a few thousand frequent ones.
  hot: Int32Array = new Int32Array(3 * HOT_SIZE);
  // The hot cache of pieces of 9 to 16 bytes (the long memo hashes and compares them byte by
  // byte): entry e at [5e, 5e + 5): bytes 0-3, 4-7, 8-11, 12-15, length << 8 | token count.
  hotLong: Int32Array = new Int32Array(5 * HOT_SIZE);
  // The split cache: where the tokens of a piece of up to eight bytes start, for the pieces a
  // region boundary (or a non-ASCII count) splits token by token; direct-mapped as `hot`.
  // Entry e at [3e, 3e + 3): bytes 0-3, bytes 4-7, length << 8 | a bit per token start.
  splits: Int32Array = new Int32Array(3 * HOT_SIZE);

  constructor(enc: Encoding) {
    this.table = enc.table;
    this.pre = enc.pre;
  }
}

/** Empties the short memo, `2^newBits` slots. */
function resetShort(m: Memo, newBits: number): void {
  m.shortBits = newBits;
  m.shortMask = (1 << newBits) - 1;
  m.shortSlots = new Int32Array(3 << newBits);
  m.shortSize = 0;
}

function placeShort(m: Memo, w0: number, w1: number, meta: number): void {
  const slots = m.shortSlots;
  const mask = m.shortMask;
  let slot = packedHash(w0, w1, meta >>> 8) & mask;
  while (slots[3 * slot + 2] !== 0) slot = (slot + 1) & mask;
  const b = 3 * slot;
  slots[b] = w0;
  slots[b + 1] = w1;
  slots[b + 2] = meta;
  m.shortSize++;
}

/** Memoizes the count `c` of the packed short piece `w0`, `w1` of `len` chars. */
function rememberShort(m: Memo, w0: number, w1: number, len: number, c: number): void {
  if (m.shortSize + 1 > MEMO_LIMIT) resetShort(m, SHORT_BITS);
  else if (mustGrow(m.shortSize, m.shortMask)) {
    const old = m.shortSlots;
    resetShort(m, m.shortBits + 1);
    for (let b = 0; b < old.length; b += 3) {
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

/** Memoizes the count of the bytes `text[i, end)` (hash `h`). */
function remember(m: Memo, h: number, text: Uint8Array, i: number, end: number, c: number): void {
  const len = end - i;
  if (m.size + 1 > MEMO_LIMIT || m.used + len > ARENA_LIMIT) {
    reset(m, LONG_BITS);
    m.used = 0;
  } else if (mustGrow(m.size, m.mask)) {
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
    const grown = new Uint8Array(cap);
    grown.set(arena.subarray(0, used));
    m.arena = arena = grown;
  }
  for (let j = i; j < end; j++) arena[used++] = text[j];
  m.used = used;
  place(m, h, len, used - len, c);
}

/** Empties both memos and the rank cache. */
function clearMemo(m: Memo): void {
  reset(m, LONG_BITS);
  resetShort(m, SHORT_BITS);
  m.used = 0;
  m.cache = createRankCache();
  m.hot = new Int32Array(3 * HOT_SIZE);
  m.hotLong = new Int32Array(5 * HOT_SIZE);
  m.splits = new Int32Array(3 * HOT_SIZE);
}

/** No cut ahead: a byte offset past any text (a small integer, as the offsets it is compared to). */
const NO_CUT = 0x7fffffff;

/** A copy of `from` in `into` when it fits, else in a new array twice as large (scratch). */
function fill(into: Int32Array, from: ArrayLike<number>, n: number, at = 0, step = 1): Int32Array {
  const out = into.length >= n ? into : new Int32Array(2 * n);
  for (let k = 0; k < n; k++) out[k] = from[at + step * k];
  return out;
}

/**
 * Where {@linkcode countText} is in the regions of a text it splits. One object serves every
 * call (`countText` never runs inside another): its position lists are scratch arrays, grown
 * as needed and filled per call, so a caller counting a catalog tool by tool allocates only the
 * arrays it gets back.
 */
class Regions {
  /** Region starts (the first `cutCount`), then (once the text is encoded) in UTF-8 bytes. */
  cuts: Int32Array = new Int32Array(64);
  cutCount = 0;
  /** Known ranges (the first `skipCount`): starts, ends (as `cuts`) and tokens. */
  skipFrom: Int32Array = new Int32Array(16);
  skipTo: Int32Array = new Int32Array(16);
  skipTokens: Int32Array = new Int32Array(16);
  skipCount = 0;
  tokens: Int32Array = new Int32Array(0);
  nonAscii: Int32Array | undefined = undefined;
  /** The current region. */
  region = 0;
  /** Start of the next region (NO_CUT after the last cut). */
  cutAt = NO_CUT;
  /** The text's token count when the current region began. */
  mark = 0;
  /** The next known range, and its start (NO_CUT after the last). */
  skip = 0;
  skipAt = NO_CUT;
  /** UTF-8 bytes of the text, once counted. */
  byteLength = 0;

  /** Sets up the regions of one text (the arrays `tokens` and `nonAscii` are its own). */
  reset(cuts: ArrayLike<number>, options: RegionOptions): void {
    const nc = cuts.length;
    this.cuts = fill(this.cuts, cuts, nc);
    this.cutCount = nc;
    const known = options.known ?? [];
    const n = Math.floor(known.length / 3);
    this.skipFrom = fill(this.skipFrom, known, n, 0, 3);
    this.skipTo = fill(this.skipTo, known, n, 1, 3);
    this.skipTokens = fill(this.skipTokens, known, n, 2, 3);
    this.skipCount = n;
    this.tokens = new Int32Array(nc + 1);
    this.nonAscii = options.nonAscii ? new Int32Array(nc + 1) : undefined;
    this.region = 0;
    this.cutAt = NO_CUT;
    this.mark = 0;
    this.skip = 0;
    this.skipAt = NO_CUT;
    this.byteLength = 0;
  }

  /** Puts the positions in UTF-8 bytes (`bytes`: the text's `nb` bytes; unless all ASCII). */
  start(bytes: Uint8Array, view: DataView, nb: number, ascii: boolean): void {
    if (!ascii) utf8Positions(this, bytes, view, nb);
    this.byteLength = nb;
    this.cutAt = this.cutCount > 0 ? this.cuts[0] : NO_CUT;
    this.skipAt = this.skipCount > 0 ? this.skipFrom[0] : NO_CUT;
  }
}

const regions = new Regions();

/**
 * Turns the ascending UTF-16 positions of `r` (region starts, known ranges' starts and ends)
 * into UTF-8 byte offsets, in place, from the text's bytes, in one pass for the three lists (a
 * four-byte character is two code units; a position inside it stands for its end; one past the
 * text, for as far past its bytes).
 */
function utf8Positions(r: Regions, bytes: Uint8Array, view: DataView, nb: number): void {
  const { cuts, skipFrom, skipTo, cutCount, skipCount } = r;
  let c = 0; // per list, its first position not yet turned
  let f = 0;
  let t = 0;
  let j = 0;
  let u = 0;
  for (;;) {
    let p = NO_CUT;
    if (c < cutCount) p = cuts[c];
    if (f < skipCount && skipFrom[f] < p) p = skipFrom[f];
    if (t < skipCount && skipTo[t] < p) p = skipTo[t];
    if (p === NO_CUT) return;
    // Four ASCII bytes at a time (one unaligned read inside the text).
    while (p - u >= 4 && j + 4 <= nb && (view.getInt32(j, true) & 0x80808080) === 0) {
      j += 4;
      u += 4;
    }
    while (u < p && j < nb) {
      const b = bytes[j];
      if (b < 0x80) {
        j++;
        u++;
      } else if (b < 0xe0) {
        j += 2;
        u++;
      } else if (b < 0xf0) {
        j += 3;
        u++;
      } else {
        j += 4;
        u += 2;
      }
    }
    const at = u < p ? nb + (p - u) : j;
    while (c < cutCount && cuts[c] === p) cuts[c++] = at;
    while (f < skipCount && skipFrom[f] === p) skipFrom[f++] = at;
    while (t < skipCount && skipTo[t] === p) skipTo[t++] = at;
  }
}

/** Closes the regions that begin at or before byte `at`, `total` tokens counted so far. */
function advanceTo(r: Regions, at: number, total: number): void {
  while (at >= r.cutAt) {
    r.tokens[r.region] += total - r.mark;
    r.mark = total;
    r.region++;
    r.cutAt = r.region < r.cutCount ? r.cuts[r.region] : NO_CUT;
  }
}

/**
 * At byte `i`, at or past the next known range's start: moves to the range after it and returns
 * where counting goes on: the range's end when `i` is its start and no cut lies inside it (its
 * tokens are then the caller's to add, `r.skipTokens[r.skip - 1]`), else `i` (counted as usual).
 */
function enterKnown(r: Regions, i: number, total: number): number {
  const k = r.skip++;
  r.skipAt = r.skip < r.skipCount ? r.skipFrom[r.skip] : NO_CUT;
  if (r.skipFrom[k] !== i) return i;
  advanceTo(r, i, total);
  const to = r.skipTo[k];
  return to > r.cutAt ? i : to;
}

const pieceStarts: number[] = [];

/**
 * Counts the piece `bytes[i, end)` token by token: it reaches a region boundary, or holds
 * non-ASCII bytes the caller counts apart. A piece of up to eight bytes takes its token starts
 * from the split cache (a bit per byte), else is merged. Returns the new running total.
 */
function splitPiece(
  m: Memo,
  r: Regions,
  bytes: Uint8Array,
  view: DataView,
  i: number,
  end: number,
  total: number,
): number {
  const len = end - i;
  if (len > 8) {
    pieceStarts.length = 0;
    mergeRange(bytes, i, end, m.table, pieceStarts, m.cache);
    for (let k = 0; k < pieceStarts.length; k++) {
      const start = i + pieceStarts[k];
      advanceTo(r, start, total);
      total++;
      if (r.nonAscii !== undefined) {
        const stop = k + 1 < pieceStarts.length ? i + pieceStarts[k + 1] : end;
        countNonAscii(r, bytes, start, stop);
      }
    }
    return total;
  }
  const w0 = view.getInt32(i, true) & LOW[len];
  const w1 = view.getInt32(i + 4, true) & HIGH[len];
  const splits = m.splits;
  const b = 3 * (packedHash(w0, w1, len) & HOT_MASK);
  let starts: number; // bit k: a token starts at byte i + k
  if (splits[b] === w0 && splits[b + 1] === w1 && splits[b + 2] >>> 8 === len) {
    starts = splits[b + 2] & 0xff;
  } else {
    pieceStarts.length = 0;
    mergeRange(bytes, i, end, m.table, pieceStarts, m.cache);
    starts = 0;
    for (let k = 0; k < pieceStarts.length; k++) starts |= 1 << pieceStarts[k];
    splits[b] = w0;
    splits[b + 1] = w1;
    splits[b + 2] = (len << 8) | starts;
  }
  for (let k = 0; k < len; k++) {
    if ((starts & (1 << k)) === 0) continue;
    advanceTo(r, i + k, total);
    total++;
    if (r.nonAscii !== undefined) {
      let stop = k + 1;
      while (stop < len && (starts & (1 << stop)) === 0) stop++;
      countNonAscii(r, bytes, i + k, i + stop);
    }
  }
  return total;
}

/** Counts the token `bytes[from, to)` in the current region's `nonAscii` when it holds such a byte. */
function countNonAscii(r: Regions, bytes: Uint8Array, from: number, to: number): void {
  for (let j = from; j < to; j++) {
    if (bytes[j] >= 0x80) {
      r.nonAscii![r.region]++;
      return;
    }
  }
}

/**
 * Tokens of `text`, through the memos of `m`; with `r`, also split by region (a piece wholly
 * inside one region is counted through the memo as usual, the few that cross a boundary or,
 * when asked, hold non-ASCII bytes are merged token by token).
 */
function countText(m: Memo, text: string, r?: Regions): number {
  const n = text.length;
  if (n === 0) return 0;
  let bytes = scratch;
  let view = scratchView;
  const need = 3 * n + SLACK;
  if (bytes.length < need) {
    if (need > SCRATCH_MAX_BYTES) bytes = new Uint8Array(need);
    else {
      let size = 2 * bytes.length;
      while (size < need) size *= 2;
      scratch = bytes = new Uint8Array(size);
      scratchView = new DataView(bytes.buffer);
    }
    view = new DataView(bytes.buffer);
  }
  const nb = encoder.encodeInto(text, bytes).written;
  r?.start(bytes, view, nb, nb === n);
  const { table, pre } = m;
  const cl = pre.scan === scanCl100k;
  const pairBits = table.pairBits;
  let total = 0;
  let i = 0; // byte offset of the piece
  let u = 0; // the UTF-16 offset (for the regex) of byte uAt
  let uAt = 0;
  // The next region boundary, and whether a non-ASCII piece must be split (no regions: never).
  // Without regions both are NO_CUT and `wide` stays false: one test per piece.
  let cutAt = r === undefined ? NO_CUT : r.cutAt;
  let knownAt = r === undefined ? NO_CUT : r.skipAt;
  const splitWide = r !== undefined && r.nonAscii !== undefined;
  while (i < nb) {
    // Two direct calls, not one through pre.scan: each call site sees one
    // scanner, so it can be inlined (one call site seeing both, as in a run
    // over both encodings, is polymorphic and kept out of line).
    let end = cl ? scanCl100k(bytes, i, nb) : scanO200k(bytes, i, nb);
    let wide = false;
    // Past ASCII: the wide scanners (out of line, so the ASCII ones stay small
    // enough to inline here), then the regex.
    if (end < 0) {
      wide = splitWide;
      end = cl ? scanWideCl100k(bytes, i, nb) : scanWideO200k(bytes, i, nb);
    }
    if (end < 0) {
      // The regex's piece: its UTF-16 offset is brought up to date only here.
      u += utf16Units(bytes, uAt, i);
      const uEnd = regexPieceEnd(pre, text, u);
      end = utf8Advance(bytes, i, uEnd - u);
      u = uEnd;
      uAt = end;
    }
    if (end > (cutAt < knownAt ? cutAt : knownAt) || wide) {
      // Regions (r is set): a known range starts here (skipped to its end: its first piece,
      // just scanned, ends inside it, since the range ends at a piece boundary), or the piece
      // crosses a region's start or must be split for its non-ASCII tokens.
      if (i >= knownAt) {
        const to = enterKnown(r!, i, total);
        knownAt = r!.skipAt;
        cutAt = r!.cutAt;
        if (to > i) {
          total += r!.skipTokens[r!.skip - 1];
          i = to;
          continue;
        }
      }
      if (end > cutAt || wide) {
        total = splitPiece(m, r!, bytes, view, i, end, total);
        cutAt = r!.cutAt;
        i = end;
        continue;
      }
    }
    const len = end - i;
    if (len <= 2) {
      // Every byte is a token; two bytes are one token or two (the rank table's pair entry).
      if (len === 1) total++;
      else {
        const x = (bytes[i] << 8) | bytes[i + 1];
        total += 2 - ((pairBits[x >>> 5] >>> (x & 31)) & 1);
      }
      i = end;
      continue;
    }
    if (len <= 8) {
      // Bytes 0-3 and 4-7, little-endian, the bytes past the piece masked off
      // (i + 8 <= nb + SLACK: both reads stay inside the array).
      const w0 = view.getInt32(i, true) & LOW[len];
      const w1 = view.getInt32(i + 4, true) & HIGH[len];
      const shortSlots = m.shortSlots;
      const shortMask = m.shortMask;
      // packedHash(w0, w1, len), written out (countText is past the size up to which calls are inlined).
      let hs = Math.imul(w0, 0xcc9e2d51) ^ Math.imul(w1 ^ len, 0x1b873593);
      hs = Math.imul(hs ^ (hs >>> 15), 0x85ebca6b);
      hs ^= hs >>> 13;
      const hot = m.hot;
      const hb = 3 * (hs & HOT_MASK);
      const hotMeta = hot[hb + 2];
      if (hot[hb] === w0 && hot[hb + 1] === w1 && hotMeta >>> 8 === len) {
        total += hotMeta & 0xff;
        i = end;
        continue;
      }
      let slot = hs & shortMask;
      let c = -1;
      for (;;) {
        const b = 3 * slot;
        const meta = shortSlots[b + 2];
        if (meta === 0) break;
        if (shortSlots[b] === w0 && shortSlots[b + 1] === w1 && meta >>> 8 === len) {
          c = meta & 0xff;
          break;
        }
        slot = (slot + 1) & shortMask;
      }
      if (c < 0) {
        c = mergeRange(bytes, i, end, table, undefined, m.cache, view);
        rememberShort(m, w0, w1, len, c);
      }
      hot[hb] = w0;
      hot[hb + 1] = w1;
      hot[hb + 2] = (len << 8) | c;
      total += c;
      i = end;
      continue;
    }
    let hl = -1; // the hot entry of a piece of up to 16 bytes
    let x0 = 0;
    let x1 = 0;
    let x2 = 0;
    let x3 = 0;
    if (len <= 16) {
      // Bytes 0-15 packed (i + 16 <= nb + SLACK), the bytes past the piece masked off.
      x0 = view.getInt32(i, true);
      x1 = view.getInt32(i + 4, true);
      x2 = view.getInt32(i + 8, true) & LOW[len - 8];
      x3 = view.getInt32(i + 12, true) & HIGH[len - 8];
      let hh = Math.imul(x0 ^ x2, 0xcc9e2d51) ^ Math.imul(x1 ^ x3 ^ len, 0x1b873593);
      hh = Math.imul(hh ^ (hh >>> 15), 0x85ebca6b);
      hl = 5 * ((hh ^ (hh >>> 13)) & HOT_MASK);
      const hotLong = m.hotLong;
      const meta = hotLong[hl + 4];
      if (
        hotLong[hl] === x0 && hotLong[hl + 1] === x1 && hotLong[hl + 2] === x2 &&
        hotLong[hl + 3] === x3 && meta >>> 8 === len
      ) {
        total += meta & 0xff;
        i = end;
        continue;
      }
    }
    let h = 0x811c9dc5 | 0;
    for (let j = i; j < end; j++) h = Math.imul(h ^ bytes[j], 16777619);
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
        while (j < end && arena[o] === bytes[j]) {
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
      c = mergeRange(bytes, i, end, table, undefined, m.cache, view);
      if (len <= MEMO_MAX_PIECE) remember(m, h, bytes, i, end, c);
    }
    if (hl >= 0) {
      const hotLong = m.hotLong;
      hotLong[hl] = x0;
      hotLong[hl + 1] = x1;
      hotLong[hl + 2] = x2;
      hotLong[hl + 3] = x3;
      hotLong[hl + 4] = (len << 8) | c;
    }
    total += c;
    i = end;
  }
  if (r !== undefined) r.tokens[r.region] += total - r.mark;
  return total;
}

/** UTF-8 start offsets of the tokens of `text` (no memo: every piece is merged). */
function tokenStartsOf(m: Memo, text: string): number[] {
  const { table, pre } = m;
  const [bytes, nb] = utf8Into(text, new Uint8Array(0));
  const starts: number[] = [];
  const local: number[] = [];
  let i = 0;
  let u = 0;
  let uAt = 0;
  while (i < nb) {
    let end = pre.scan(bytes, i, nb);
    if (end < 0) end = pre.wide(bytes, i, nb);
    if (end < 0) {
      u += utf16Units(bytes, uAt, i);
      const uEnd = regexPieceEnd(pre, text, u);
      end = utf8Advance(bytes, i, uEnd - u);
      u = uEnd;
      uAt = end;
    }
    local.length = 0;
    mergeRange(bytes, i, end, table, local);
    for (const s of local) starts.push(i + s);
    i = end;
  }
  return starts;
}

/**
 * Creates a piecewise BPE counter for an encoding.
 *
 * Each instance memoizes the count of every piece of three or more UTF-8
 * bytes it merged (pieces of up to eight bytes in a short memo of up to
 * 262,144 pieces; longer pieces up to 262,144 pieces or 8 MiB of keys; each
 * memo starts over when full; pieces over 4,096 bytes are not kept), so counting many
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
    countRegions: (text: string, cuts: ArrayLike<number>, options: RegionOptions = {}) => {
      const r = regions;
      r.reset(cuts, options);
      countText(m, text, r);
      return {
        tokens: r.tokens,
        ...(r.nonAscii === undefined ? {} : { nonAscii: r.nonAscii }),
        byteLength: r.byteLength,
      };
    },
    clear: () => clearMemo(m),
  };
}
