/**
 * A table from short texts to a few 32-bit integers each, looked up in place: the key is a range
 * `text[from, to)` of a longer text, hashed and compared code unit by code unit where it lies, so
 * no substring is cut (nor garbage made) for a lookup (private to lib/tokens).
 *
 * @module
 */

/**
 * FNV-1a over the code units of `text[from, to)`, folded once (`h ^ h >>> 15`): the hash a
 * {@linkcode RangeTable} is given with each key.
 *
 * @param text Any text.
 * @param from Start (code units).
 * @param to End (exclusive).
 * @returns A 32-bit hash.
 */
export function hashRange(text: string, from: number, to: number): number {
  let h = 0x811c9dc5 | 0;
  for (let j = from; j < to; j++) h = Math.imul(h ^ text.charCodeAt(j), 16777619);
  return h ^ (h >>> 15);
}

/**
 * Open addressing over non-empty keys kept as code units in an arena; slot s at `[3s, 3s + 3)`
 * of the slot array holds the key's hash, length (0: empty slot) and offset in the arena, and
 * its `width` values sit at `[width s, width s + width)` of {@linkcode RangeTable.values}. The
 * table doubles when three quarters full, its arena when full, and it starts over (every key
 * dropped) past `maxKeys` keys, so its memory stays bounded by `maxKeys` keys of the callers'
 * longest length.
 */
export class RangeTable {
  /** Values per key. */
  readonly width: number;
  readonly #maxKeys: number;
  readonly #startBits: number;
  #bits: number;
  #mask: number;
  #slots: Int32Array;
  #values: Int32Array;
  #size = 0;
  #arena = new Uint16Array(1 << 16);
  #used = 0;

  /**
   * @param width Values per key (≥ 1).
   * @param maxKeys Keys held before the table starts over.
   * @param bits Slots to start with, as a power of two.
   */
  constructor(width: number, maxKeys: number, bits = 12) {
    this.width = width;
    this.#maxKeys = maxKeys;
    this.#startBits = bits;
    this.#bits = bits;
    this.#mask = (1 << bits) - 1;
    this.#slots = new Int32Array(3 << bits);
    this.#values = new Int32Array(width << bits);
  }

  /** The values of every key (read a key's at the offset `find` or `insert` gave, right away). */
  get values(): Int32Array {
    return this.#values;
  }

  /** Keys held. */
  get size(): number {
    return this.#size;
  }

  /**
   * The offset in {@linkcode RangeTable.values} of the key `text[from, to)`, or -1 when it is
   * not held.
   *
   * @param text Any text.
   * @param from Start of the key (code units).
   * @param to End of the key (exclusive, `> from`).
   * @param h `hashRange(text, from, to)`.
   * @returns Offset of its values, or -1.
   */
  find(text: string, from: number, to: number, h: number): number {
    const len = to - from;
    const slots = this.#slots;
    const mask = this.#mask;
    const arena = this.#arena;
    let slot = h & mask;
    for (;;) {
      const b = 3 * slot;
      const l = slots[b + 1];
      if (l === 0) return -1;
      if (slots[b] === h && l === len) {
        let o = slots[b + 2];
        let j = from;
        while (j < to && arena[o] === text.charCodeAt(j)) {
          j++;
          o++;
        }
        if (j === to) return this.width * slot;
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * Stores the key `text[from, to)`, which {@linkcode RangeTable.find} just did not find, and
   * returns the offset of its values, for the caller to set (they may be stale until it does).
   * May start the table over first (past `maxKeys` keys) or grow it (which moves every value).
   *
   * @param text Any text.
   * @param from Start of the key (code units).
   * @param to End of the key (exclusive, `> from`).
   * @param h `hashRange(text, from, to)`.
   * @returns Offset of its values.
   */
  insert(text: string, from: number, to: number, h: number): number {
    const len = to - from;
    if (this.#size + 1 > this.#maxKeys) {
      this.#reset(this.#startBits);
      this.#used = 0;
    }
    // Also right after starting over: a table of one slot would be full with one key (and a
    // lookup of another would never find an empty slot).
    if (4 * (this.#size + 1) > 3 * (this.#mask + 1)) {
      const old = this.#slots;
      const oldValues = this.#values;
      const w = this.width;
      this.#reset(this.#bits + 1);
      for (let b = 0, s = 0; b < old.length; b += 3, s++) {
        if (old[b + 1] === 0) continue;
        const at = this.#place(old[b], old[b + 1], old[b + 2]);
        for (let k = 0; k < w; k++) this.#values[at + k] = oldValues[w * s + k];
      }
    }
    if (this.#used + len > this.#arena.length) {
      // The arena doubles (at most maxKeys keys of the callers' longest length).
      const grown = new Uint16Array(Math.max(2 * this.#arena.length, this.#used + len));
      grown.set(this.#arena.subarray(0, this.#used));
      this.#arena = grown;
    }
    const arena = this.#arena;
    let used = this.#used;
    for (let j = from; j < to; j++) arena[used++] = text.charCodeAt(j);
    this.#used = used;
    return this.#place(h, len, used - len);
  }

  #reset(bits: number): void {
    this.#bits = bits;
    this.#mask = (1 << bits) - 1;
    this.#slots = new Int32Array(3 << bits);
    this.#values = new Int32Array(this.width << bits);
    this.#size = 0;
  }

  /** Places a key in a free slot; returns the offset of its values. */
  #place(h: number, len: number, at: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    let slot = h & mask;
    while (slots[3 * slot + 1] !== 0) slot = (slot + 1) & mask;
    const b = 3 * slot;
    slots[b] = h;
    slots[b + 1] = len;
    slots[b + 2] = at;
    this.#size++;
    return this.width * slot;
  }
}
