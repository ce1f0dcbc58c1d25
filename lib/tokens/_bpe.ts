// Byte-pair merging of one pre-token piece, in O(n log n) for any piece length.
//
// A piece is given as a range of a byte array (its UTF-8 bytes, usually inside
// the bytes of the whole text). The merge rule is
// tiktoken's: repeatedly merge the adjacent pair of parts whose concatenation
// has the lowest rank, the leftmost one on a tie, until no adjacent pair is a
// token. Every single byte is a token in cl100k_base and o200k_base, so every
// part is always a token and the token count is the number of parts left.
//
// Short pieces (the common case) use tiktoken's quadratic scan over a small
// array; long pieces use an indexed binary heap keyed by (rank, start) over a
// linked list of parts, which picks the same pair at every step (lowest rank,
// then leftmost) in O(log n) per merge.
//
// Rank lookups go through an open-addressing hash table of byte ranges, probed
// straight from the piece (no substring is cut out for a lookup). A slot keeps
// the token's first eight bytes packed in two ints beside its length, so a
// lookup of up to eight bytes (nearly every lookup a merge makes) is decided
// inside one 16-byte slot, without reading the token's string.

/** Rank (token id) of every mergeable token of an encoding, by its bytes. */
export interface RankTable {
  /**
   * Slot s at `[4s, 4s + 4)`: bytes 0-3 of the token (little-endian), bytes
   * 4-7, `length << 18 | (rank + 1)` (0 = empty slot), and, for a token of 9
   * to 12 bytes, bytes 8-11 (so the slot alone decides a lookup of up to 12
   * bytes), else the key's hash (checked before the token's bytes are read).
   */
  readonly slots: Int32Array;
  /**
   * Every token's bytes, one after another: rank r's token starts at
   * `bytes[starts[r]]` (its length is in its slot). A lookup reads them only
   * for a token of more than 12 bytes.
   */
  readonly bytes: Uint8Array;
  /** Rank → the offset of its token in {@linkcode RankTable.bytes} (0 for unused ranks). */
  readonly starts: Int32Array;
  /** Number of slots - 1. */
  readonly mask: number;
  /** Longest token, in bytes: no longer range can be a token. */
  readonly maxTokenBytes: number;
  /** Rank of the two-byte token `b0 b1` at `[b0 << 8 | b1]`, or NONE. */
  readonly pairs: Int32Array;
  /**
   * Bit `x & 31` of word `x >>> 5` (`x = b0 << 8 | b1`) is set when `b0 b1` is
   * a token: {@linkcode RankTable.pairs} as 8 KB of bits, for a counter that
   * only asks whether a two-byte piece is one token.
   */
  readonly pairBits: Int32Array;
  /**
   * Blocked Bloom filter over the tokens' hashes (2²¹ bits, two per token in
   * one 32-bit word): most ranges that are not tokens are rejected here,
   * without touching the much larger slot array.
   */
  readonly filter: Int32Array;
}

/** Words of {@linkcode RankTable.filter} (a power of two): 256 KB. */
const FILTER_WORDS = 1 << 16;

/** The filter word and the two bits of a key hash. */
function filterWord(h: number): number {
  return h >>> 16;
}
function filterBits(h: number): number {
  return (1 << (h & 31)) | (1 << ((h >>> 5) & 31));
}

/** Up to this many bytes a piece is merged with the scan, above with the heap. */
const SCAN_UP_TO_BYTES = 64;

/** No rank: the pair is not a token (larger than every rank). */
const NONE = 0x7fffffff;
/** {@linkcode RankTable.pairs} value of a byte pair that is not a token. */
export const NO_RANK: number = NONE;

/** Bits of a slot's third int that hold rank + 1 (ranks stay below 2¹⁸ - 1). */
const RANK_BITS = 18;
const RANK_MASK = (1 << RANK_BITS) - 1;

/**
 * Hash of a byte range from its packed first eight bytes (`w0`, `w1`), its
 * length and (for longer ranges) the FNV-1a hash of the bytes after the eighth.
 */
function keyHash(w0: number, w1: number, len: number, tail: number): number {
  let h = Math.imul(w0, 0xcc9e2d51) ^ Math.imul(w1 ^ len, 0x1b873593) ^ tail;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** FNV-1a of `s[from, to)` (0 for an empty range). */
function tailHash(s: Uint8Array, from: number, to: number): number {
  if (from >= to) return 0;
  let h = 0x811c9dc5 | 0;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s[i], 16777619);
  return h;
}

/**
 * Builds the rank table from a rank array (index = rank; value = the token's
 * text when it is valid UTF-8, else its bytes), as gpt-tokenizer ships it.
 *
 * @throws {RangeError} When a rank or a token length does not fit a slot.
 */
export function rankTableFrom(
  decoder: readonly (string | readonly number[] | undefined)[],
): RankTable {
  if (decoder.length >= RANK_MASK) {
    throw new RangeError(`Cannot index ${decoder.length} ranks: at most ${RANK_MASK - 1} fit`);
  }
  const utf8 = new TextEncoder();
  const parts: (Uint8Array | undefined)[] = new Array(decoder.length);
  let total = 0;
  for (let rank = 0; rank < decoder.length; rank++) {
    const value = decoder[rank];
    if (value === undefined) continue;
    const part = typeof value === "string" ? utf8.encode(value) : Uint8Array.from(value);
    parts[rank] = part;
    total += part.length;
  }
  const bytes = new Uint8Array(total);
  const starts = new Int32Array(decoder.length);
  const ends = new Int32Array(decoder.length);
  let at = 0;
  for (let rank = 0; rank < decoder.length; rank++) {
    const part = parts[rank];
    if (part === undefined) continue;
    bytes.set(part, at);
    starts[rank] = at;
    at += part.length;
    ends[rank] = at;
  }
  return tableOfBytes(bytes, starts, ends);
}

/** Base64 digit of each ASCII code: -2 for "=" (padding), -1 for a code that is not one. */
const BASE64_DIGITS = (() => {
  const digits = new Int8Array(128).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 64; i++) digits[alphabet.charCodeAt(i)] = i;
  digits[61] = -2;
  return digits;
})();

/**
 * Builds the rank table from js-tiktoken's compact rank string (its
 * `bpe_ranks` field: lines of `name offset token token ...`, each token its
 * bytes in base64, ranks counting up from the line's offset), decoding the
 * base64 straight into one byte array: no string or array per token.
 *
 * @throws {RangeError} When the string is malformed, or a rank or a token
 *   length does not fit a slot.
 */
export function rankTableFromTiktoken(bpeRanks: string): RankTable {
  const n = bpeRanks.length;
  // Each line's offset and token text range; a line's ranks are bounded by
  // its text (a token is at least four base64 digits and a space).
  const lines: number[] = [];
  let bound = 0;
  for (let lineStart = 0; lineStart < n;) {
    let lineEnd = bpeRanks.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = n;
    if (lineEnd > lineStart) {
      const nameEnd = bpeRanks.indexOf(" ", lineStart);
      let offsetEnd = nameEnd < 0 || nameEnd >= lineEnd ? -1 : bpeRanks.indexOf(" ", nameEnd + 1);
      if (offsetEnd < 0 || offsetEnd > lineEnd) offsetEnd = lineEnd;
      const offsetText = nameEnd < 0 || nameEnd >= lineEnd
        ? ""
        : bpeRanks.slice(nameEnd + 1, offsetEnd);
      if (!/^[0-9]+$/.test(offsetText)) {
        throw new RangeError(
          `Cannot read the rank string: the line at character ${lineStart} has no rank offset`,
        );
      }
      const offset = Number.parseInt(offsetText, 10);
      lines.push(offset, offsetEnd + 1, lineEnd);
      const most = offset + Math.ceil((lineEnd - offsetEnd) / 3);
      if (most > bound) bound = most;
    }
    lineStart = lineEnd + 1;
  }
  if (bound > 1 << 24) {
    throw new RangeError(`Cannot index ranks up to ${bound}: at most ${RANK_MASK - 1} fit`);
  }
  const bytes = new Uint8Array(Math.ceil(n / 4) * 3);
  const starts = new Int32Array(bound);
  const ends = new Int32Array(bound);
  let ranks = 0;
  let w = 0;
  const bad = (i: number) =>
    new RangeError(`Cannot read the rank string: bad base64 token at character ${i}`);
  for (let l = 0; l < lines.length; l += 3) {
    let rank = lines[l];
    const to = lines[l + 2];
    let i = lines[l + 1];
    while (i < to) {
      // One token: groups of four digits up to the next space or the line's end.
      const start = w;
      for (;;) {
        const c0 = bpeRanks.charCodeAt(i);
        const c1 = bpeRanks.charCodeAt(i + 1);
        const c2 = bpeRanks.charCodeAt(i + 2);
        const c3 = bpeRanks.charCodeAt(i + 3);
        if (i + 4 > to || (c0 | c1 | c2 | c3) > 127) throw bad(i);
        const d0 = BASE64_DIGITS[c0];
        const d1 = BASE64_DIGITS[c1];
        const d2 = BASE64_DIGITS[c2];
        const d3 = BASE64_DIGITS[c3];
        if ((d0 | d1) < 0) throw bad(i);
        const v = (d0 << 18) | (d1 << 12);
        bytes[w++] = v >>> 16;
        if (d3 >= 0 && d2 >= 0) {
          const x = v | (d2 << 6) | d3;
          bytes[w++] = (x >>> 8) & 255;
          bytes[w++] = x & 255;
        } else if (d3 === -2 && d2 >= 0) {
          bytes[w++] = ((v | (d2 << 6)) >>> 8) & 255;
        } else if (d3 !== -2 || d2 !== -2) throw bad(i);
        i += 4;
        if (i >= to) break;
        if (bpeRanks.charCodeAt(i) === 32) {
          i++;
          if (i >= to) throw bad(i);
          break;
        }
        if (d3 < 0) throw bad(i); // digits after padding
      }
      starts[rank] = start;
      ends[rank] = w;
      rank++;
    }
    if (rank > ranks) ranks = rank;
  }
  if (ranks >= RANK_MASK) {
    throw new RangeError(`Cannot index ${ranks} ranks: at most ${RANK_MASK - 1} fit`);
  }
  return tableOfBytes(bytes.slice(0, w), starts.slice(0, ranks), ends.subarray(0, ranks));
}

/**
 * The rank table of the tokens `bytes[starts[r], ends[r])` by rank `r` (an
 * empty range: no token has that rank).
 */
function tableOfBytes(bytes: Uint8Array, starts: Int32Array, ends: Int32Array): RankTable {
  const ranks = starts.length;
  let count = 0;
  let maxTokenBytes = 0;
  for (let rank = 0; rank < ranks; rank++) {
    const len = ends[rank] - starts[rank];
    if (len === 0) continue;
    count++;
    if (len > maxTokenBytes) maxTokenBytes = len;
  }
  if (maxTokenBytes >= 1 << (31 - RANK_BITS)) {
    throw new RangeError(`Cannot index a token of ${maxTokenBytes} bytes`);
  }
  // The smallest power of two above 1.3 slots a token (about three quarters
  // full: 2 MB of slots for cl100k_base, 4 MB for o200k_base). Lookups that
  // are tokens read the slots (most others stop at the Bloom filter), each at
  // a random place, so a table half the size keeps more of them in the CPU's
  // caches; linear probing's longer runs stay mostly inside one cache line.
  let size = 1024;
  while (size < count * 1.3) size *= 2;
  const slots = new Int32Array(4 * size);
  const filter = new Int32Array(FILTER_WORDS);
  const mask = size - 1;
  const pairs = new Int32Array(65536).fill(NONE);
  const pairBits = new Int32Array(65536 >>> 5);
  for (let rank = 0; rank < ranks; rank++) {
    const from = starts[rank];
    const len = ends[rank] - from;
    if (len === 0) continue;
    let w0 = 0;
    let w1 = 0;
    for (let k = 0; k < len && k < 8; k++) {
      if (k < 4) w0 |= bytes[from + k] << (8 * k);
      else w1 |= bytes[from + k] << (8 * (k - 4));
    }
    const h = keyHash(w0, w1, len, tailHash(bytes, from + 8, from + len));
    let slot = h & mask;
    while (slots[4 * slot + 2] !== 0) slot = (slot + 1) & mask;
    slots[4 * slot] = w0;
    slots[4 * slot + 1] = w1;
    slots[4 * slot + 2] = (len << RANK_BITS) | (rank + 1);
    let w2 = h;
    if (len > 8 && len <= 12) {
      w2 = 0;
      for (let k = 8; k < len; k++) w2 |= bytes[from + k] << (8 * (k - 8));
    }
    slots[4 * slot + 3] = w2;
    filter[filterWord(h)] |= filterBits(h);
    if (len === 2) {
      const x = (bytes[from] << 8) | bytes[from + 1];
      pairs[x] = rank;
      pairBits[x >>> 5] |= 1 << (x & 31);
    }
  }
  return { slots, bytes, starts, mask, maxTokenBytes, pairs, pairBits, filter };
}

/**
 * Rank of the bytes `s[from, to)` (`to > from`), or {@linkcode NONE}.
 * `cache` (from {@linkcode createRankCache}) remembers the answers for ranges
 * of up to eight bytes, tokens and non-tokens alike.
 */
export function rankOf(
  table: RankTable,
  s: Uint8Array,
  from: number,
  to: number,
  cache?: Int32Array,
  view?: DataView,
): number {
  const len = to - from;
  if (len === 2) return table.pairs[(s[from] << 8) | s[from + 1]];
  if (len > table.maxTokenBytes) return NONE;
  // Pack the first eight bytes (len >= 1 here; len 2 took the pairs table):
  // two unaligned reads and two masks when the view reaches eight bytes on,
  // else byte by byte.
  let w0: number;
  let w1: number;
  if (view !== undefined && from + 8 <= view.byteLength) {
    const k = len < 8 ? len : 8;
    w0 = view.getInt32(from, true) & LOW_BYTES[k];
    w1 = view.getInt32(from + 4, true) & HIGH_BYTES[k];
  } else {
    w0 = s[from];
    w1 = 0;
    if (len > 1) {
      w0 |= s[from + 1] << 8;
      if (len > 2) {
        w0 |= s[from + 2] << 16;
        if (len > 3) {
          w0 |= s[from + 3] << 24;
          if (len > 4) {
            w1 = s[from + 4];
            if (len > 5) {
              w1 |= s[from + 5] << 8;
              if (len > 6) {
                w1 |= s[from + 6] << 16;
                if (len > 7) w1 |= s[from + 7] << 24;
              }
            }
          }
        }
      }
    }
  }
  const h = keyHash(w0, w1, len, len > 8 ? tailHash(s, from + 8, to) : 0);
  const meta = len << RANK_BITS;
  const c = cache === undefined || len > 8 ? -1 : 4 * (h & RANK_CACHE_MASK);
  if (c >= 0) {
    const m = cache![c + 2];
    if ((m & ~RANK_MASK) === meta && cache![c] === w0 && cache![c + 1] === w1) {
      // rank + 1 in the low bits; 0 marks a range found not to be a token.
      const r = m & RANK_MASK;
      return r === 0 ? NONE : r - 1;
    }
  }
  const bits = filterBits(h);
  if ((table.filter[filterWord(h)] & bits) !== bits) {
    if (c >= 0) remember(cache!, c, w0, w1, meta);
    return NONE;
  }
  const { slots, mask } = table;
  let slot = h & mask;
  for (;;) {
    const b = 4 * slot;
    const m = slots[b + 2];
    if (m === 0) {
      if (c >= 0) remember(cache!, c, w0, w1, meta);
      return NONE;
    }
    if ((m & ~RANK_MASK) === meta && slots[b] === w0 && slots[b + 1] === w1) {
      const rank = (m & RANK_MASK) - 1;
      if (c >= 0) remember(cache!, c, w0, w1, m);
      if (len <= 8) return rank;
      if (len <= 12) {
        // Bytes 8-11 are in the slot: no read of the token's string.
        let w2: number;
        if (view !== undefined && from + 12 <= view.byteLength) {
          w2 = view.getInt32(from + 8, true) & LOW_BYTES[len - 8];
        } else {
          w2 = s[from + 8];
          for (let k = 9; k < len; k++) w2 |= s[from + k] << (8 * (k - 8));
        }
        if (slots[b + 3] === w2) return rank;
      } else if (slots[b + 3] === h && sameBytes(s, from, table.bytes, table.starts[rank], len)) {
        return rank;
      }
    }
    slot = (slot + 1) & mask;
  }
}

/** Mask of bytes 0-3 of a range of `k` bytes (index `k`, 1 to 8), packed little-endian. */
const LOW_BYTES = Int32Array.of(0, 0xff, 0xffff, 0xffffff, -1, -1, -1, -1, -1);
/** Mask of bytes 4-7 of a range of `k` bytes (index `k`, 1 to 8), packed little-endian. */
const HIGH_BYTES = Int32Array.of(0, 0, 0, 0, 0, 0xff, 0xffff, 0xffffff, -1);

/** Whether `s[from, from + len)` equals `token[at, at + len)`. */
function sameBytes(
  s: Uint8Array,
  from: number,
  token: Uint8Array,
  at: number,
  len: number,
): boolean {
  for (let k = 0; k < len; k++) if (s[from + k] !== token[at + k]) return false;
  return true;
}

/** Stores a lookup's answer (`m`: length and rank + 1, rank bits 0 for "not a token") at entry `c`. */
function remember(cache: Int32Array, c: number, w0: number, w1: number, m: number): void {
  cache[c] = w0;
  cache[c + 1] = w1;
  cache[c + 2] = m;
}

/** Entries of a rank cache (a power of two). */
const RANK_CACHE_SIZE = 1 << 12;
const RANK_CACHE_MASK = RANK_CACHE_SIZE - 1;

/**
 * A new, empty rank cache: a small direct-mapped table of recent lookups of
 * up to eight bytes, each a token's rank or "not a token" (64 KB, so it stays
 * in the CPU's cache where the Bloom filter and the rank table do not; a pass
 * over a catalog looks many ranges up more than once). One per counter; never
 * shared across counters.
 */
export function createRankCache(): Int32Array {
  return new Int32Array(4 * RANK_CACHE_SIZE);
}

/** Whether every char code of `text` is below 0x80. */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** The byte string of `bytes` (one char per byte). */
export function latin1(bytes: ArrayLike<number>): string {
  let out = "";
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const end = Math.min(bytes.length, i + CHUNK);
    const codes = new Array<number>(end - i);
    for (let j = i; j < end; j++) codes[j - i] = bytes[j];
    out += String.fromCharCode.apply(null, codes);
  }
  return out;
}

/**
 * Number of tokens of the piece `s[from, to)` (a byte range, e.g. a piece
 * inside the UTF-8 bytes of its text), and optionally where each token starts.
 *
 * @param s Bytes holding the piece.
 * @param from Start of the piece (inclusive).
 * @param to End of the piece (exclusive, `> from`).
 * @param table Rank table of the encoding.
 * @param starts When given, the byte offset (from `from`) of each token is
 *   pushed to it, in order.
 * @param cache A rank cache ({@linkcode createRankCache}), or none.
 * @param view `s` as a DataView (same buffer, offset and length), or none:
 *   with it, ranges are packed for their rank lookups with unaligned reads.
 * @returns Token count of the piece.
 */
export function mergeRange(
  s: Uint8Array,
  from: number,
  to: number,
  table: RankTable,
  starts?: number[],
  cache?: Int32Array,
  view?: DataView,
): number {
  const n = to - from;
  if (n === 1 || rankOf(table, s, from, to, cache, view) !== NONE) {
    starts?.push(0);
    return 1;
  }
  if (n <= SCAN_UP_TO_BYTES) return mergeScan(s, from, to, table, starts, cache, view);
  return mergeHeap(s.subarray(from, to), table, starts, cache);
}

const scanBounds = new Int32Array(SCAN_UP_TO_BYTES + 1);
const scanPairs = new Int32Array(SCAN_UP_TO_BYTES + 1);

/** tiktoken's scan: O(n²), fastest for short pieces. */
const mergeScan: typeof mergeRange = (s, from, to, table, starts, cache, view) => {
  const n = to - from;
  // bounds[k] = start of part k in s, bounds[parts] = to; pairs[k] = rank of parts k and k+1.
  const bounds = scanBounds;
  const pairs = scanPairs;
  const pairRanks = table.pairs;
  for (let i = 0; i <= n; i++) bounds[i] = from + i;
  let prev = s[from];
  for (let i = 0; i < n - 1; i++) {
    const c = s[from + i + 1];
    pairs[i] = pairRanks[(prev << 8) | c];
    prev = c;
  }
  pairs[n - 1] = NONE;
  let parts = n;
  while (parts > 1) {
    let best = NONE;
    let at = -1;
    for (let k = 0; k < parts - 1; k++) {
      if (pairs[k] < best) {
        best = pairs[k];
        at = k;
      }
    }
    if (at < 0) break;
    // Merge part at+1 into part at.
    for (let k = at + 1; k < parts; k++) {
      bounds[k] = bounds[k + 1];
      pairs[k] = pairs[k + 1];
    }
    parts--;
    pairs[at] = at + 1 < parts ? rankOf(table, s, bounds[at], bounds[at + 2], cache, view) : NONE;
    if (at > 0) pairs[at - 1] = rankOf(table, s, bounds[at - 1], bounds[at + 1], cache, view);
  }
  if (starts !== undefined) { for (let k = 0; k < parts; k++) starts.push(bounds[k] - from); }
  return parts;
};

/**
 * Heap merge: parts form a doubly linked list indexed by their start byte; an
 * indexed min-heap of part starts, ordered by key = rank × 2³² + start (the
 * rank of the pair the part starts; exact in a double), holds every pair that
 * is a token. 24 bytes per piece byte.
 */
function mergeHeap(
  piece: Uint8Array,
  table: RankTable,
  starts?: number[],
  cache?: Int32Array,
): number {
  const n = piece.length;
  const next = new Int32Array(n); // start of the following part (n at the end)
  const prev = new Int32Array(n); // start of the preceding part (-1 at the front)
  const key = new Float64Array(n); // rank × 2³² + start of the pair at a part, or Infinity
  const h: Heap = { heap: new Int32Array(n), pos: new Int32Array(n).fill(-1), key, size: 0 };
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    key[i] = Infinity;
  }
  for (let i = 0; i < n - 1; i++) setKey(h, i, pairKey(table, cache, piece, i, i + 2));
  let parts = n;
  while (h.size > 0) {
    const start = h.heap[0];
    // Merge the part after `start` into it.
    const gone = next[start];
    const after = next[gone];
    if (h.pos[gone] >= 0) setKey(h, gone, Infinity);
    next[start] = after;
    if (after < n) prev[after] = start;
    parts--;
    setKey(h, start, after < n ? pairKey(table, cache, piece, start, next[after]) : Infinity);
    const before = prev[start];
    if (before >= 0) setKey(h, before, pairKey(table, cache, piece, before, after));
  }
  if (starts !== undefined) { for (let i = 0; i < n; i = next[i]) starts.push(i); }
  return parts;
}

const SHIFT = 4294967296;

function pairKey(
  table: RankTable,
  cache: Int32Array | undefined,
  piece: Uint8Array,
  from: number,
  to: number,
): number {
  const r = rankOf(table, piece, from, to, cache);
  return r === NONE ? Infinity : r * SHIFT + from;
}

interface Heap {
  readonly heap: Int32Array;
  readonly pos: Int32Array;
  readonly key: Float64Array;
  size: number;
}

function siftUp(h: Heap, i: number): void {
  const { heap, pos, key } = h;
  const v = heap[i];
  const k = key[v];
  while (i > 0) {
    const p = (i - 1) >> 1;
    const u = heap[p];
    if (key[u] <= k) break;
    heap[i] = u;
    pos[u] = i;
    i = p;
  }
  heap[i] = v;
  pos[v] = i;
}

function siftDown(h: Heap, i: number): void {
  const { heap, pos, key } = h;
  const size = h.size;
  const v = heap[i];
  const k = key[v];
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    const c = r < size && key[heap[r]] < key[heap[l]] ? r : l;
    const u = heap[c];
    if (key[u] >= k) break;
    heap[i] = u;
    pos[u] = i;
    i = c;
  }
  heap[i] = v;
  pos[v] = i;
}

/** Sets the key of part `v` (Infinity = not a token: leaves the heap). */
function setKey(h: Heap, v: number, k: number): void {
  const { heap, pos, key } = h;
  const old = key[v];
  key[v] = k;
  const i = pos[v];
  if (i < 0) {
    if (k === Infinity) return;
    heap[h.size] = v;
    pos[v] = h.size;
    siftUp(h, h.size++);
    return;
  }
  if (k === Infinity) {
    pos[v] = -1;
    const last = heap[--h.size];
    if (i === h.size) return;
    heap[i] = last;
    pos[last] = i;
    if (key[last] < old) siftUp(h, i);
    else siftDown(h, i);
    return;
  }
  if (k < old) siftUp(h, i);
  else if (k > old) siftDown(h, i);
}
