/**
 * A small seeded pseudo-random number generator (Mulberry32) and a string hash (FNV-1a, 32 bit)
 * to turn labels into seeds. Same seed, same sequence, on every machine and runtime: the state is a
 * single unsigned 32-bit integer and every step uses 32-bit integer arithmetic only.
 *
 * Mulberry32 is Tommy Ettinger's public-domain generator (2017), popularised in bryc's
 * "Pseudorandom number generators" notes (github.com/bryc/code, jshash/PRNGs.md). Its period is
 * 2^32; it is fine for sampling and resampling, not for cryptography.
 *
 * @module
 */

/** A seeded source of pseudo-random numbers. */
export interface Rng {
  /** The seed the generator was created with (an unsigned 32-bit integer). */
  readonly seed: number;
  /** The next raw output, an integer in [0, 2^32). */
  nextUint32(): number;
  /** The next float in [0, 1): `nextUint32() / 2^32`. */
  next(): number;
  /**
   * An integer in [0, n): `floor(next() × n)`. The bias is at most n / 2^32 per value, negligible
   * for the sizes used here (n < 2^20).
   *
   * @throws {RangeError} when `n` is not a positive safe integer.
   */
  int(n: number): number;
  /**
   * Fill `out` with the next `out.length` raw outputs, in order: the same numbers, and the same
   * state afterwards, as that many {@linkcode Rng.nextUint32} calls, without a call per draw (for
   * the resampling loops of the bootstrap and the paired test).
   *
   * @param out Where the draws go; overwritten.
   * @returns `out`.
   */
  fill(out: Uint32Array): Uint32Array;
  /**
   * Fill `out` with the next `out.length` integers in [0, n): the same numbers, and the same state
   * afterwards, as that many {@linkcode Rng.int} calls (for the bootstrap's index tables).
   *
   * @param out Where the draws go; overwritten.
   * @param n Exclusive bound, 1 to 65,536.
   * @returns `out`.
   * @throws {RangeError} when `n` is not an integer in [1, 65536].
   */
  fillInts(out: Uint16Array, n: number): Uint16Array;
  /**
   * Fill `out` with the top bit of each of the next `out.length` raw outputs
   * (`nextUint32() >>> 31`, in order; the same state afterwards), for the paired test's signs.
   *
   * @param out Where the bits go; overwritten.
   * @returns `out`.
   */
  fillTopBits(out: Uint8Array): Uint8Array;
}

const GOLDEN_GAMMA = 0x6d2b79f5;

/** Mulberry32's output function of one state, an unsigned 32-bit integer. */
function mix(state: number): number {
  let z = state;
  z = Math.imul(z ^ (z >>> 15), z | 1);
  z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
  return (z ^ (z >>> 14)) >>> 0;
}

/**
 * Create a Mulberry32 generator.
 *
 * Each step adds 0x6D2B79F5 to the 32-bit state and mixes it:
 * `z = (z ^ z>>>15) * (z | 1); z ^= z + (z ^ z>>>7) * (z | 61); return z ^ z>>>14`
 * (all multiplications modulo 2^32).
 *
 * @param seed Any integer; it is reduced to an unsigned 32-bit integer (`seed >>> 0`).
 * @returns A fresh {@linkcode Rng}; generators never share state.
 * @throws {RangeError} when `seed` is not a safe integer.
 *
 * @example Usage
 * ```ts
 * import { createRng } from "./prng.ts";
 * const rng = createRng(42);
 * if (rng.nextUint32() !== 2581720956) throw new Error("unexpected");
 * ```
 */
export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`Cannot create a PRNG: seed must be a safe integer, got ${seed}`);
  }
  const seed32 = seed >>> 0;
  let state = seed32;
  const nextUint32 = (): number => {
    state = (state + GOLDEN_GAMMA) >>> 0;
    return mix(state);
  };
  const next = (): number => nextUint32() / 4294967296;
  const fill = (out: Uint32Array): Uint32Array => {
    let s = state;
    for (let i = 0; i < out.length; i++) {
      s = (s + GOLDEN_GAMMA) >>> 0;
      out[i] = mix(s);
    }
    state = s;
    return out;
  };
  // The table fills: one loop, the draw mixed and mapped in place (no draw array between).
  const fillInts = (out: Uint16Array, n: number): Uint16Array => {
    if (!Number.isInteger(n) || n < 1 || n > 65536) {
      throw new RangeError(`Cannot fill integers in [0, n): n must be in [1, 65536], got ${n}`);
    }
    let s = state;
    for (let i = 0; i < out.length; i++) {
      s = (s + GOLDEN_GAMMA) >>> 0;
      out[i] = Math.floor((mix(s) / 4294967296) * n);
    }
    state = s;
    return out;
  };
  const fillTopBits = (out: Uint8Array): Uint8Array => {
    let s = state;
    for (let i = 0; i < out.length; i++) {
      s = (s + GOLDEN_GAMMA) >>> 0;
      out[i] = mix(s) >>> 31;
    }
    state = s;
    return out;
  };
  return {
    seed: seed32,
    nextUint32,
    next,
    fill,
    fillInts,
    fillTopBits,
    int(n: number): number {
      if (!Number.isSafeInteger(n) || n < 1) {
        throw new RangeError(`Cannot draw an integer in [0, n): n must be >= 1, got ${n}`);
      }
      return Math.floor(next() * n);
    },
  };
}

/**
 * Hash a string to an unsigned 32-bit integer with FNV-1a over its UTF-8 bytes.
 *
 * Offset basis 2166136261, prime 16777619 (Fowler, Noll, Vo; IETF draft-eastlake-fnv). Used to
 * derive per-item seeds such as `hashString(seed + ":" + queryText)`.
 *
 * @param text Any string.
 * @returns The 32-bit FNV-1a hash, in [0, 2^32).
 *
 * @example Usage
 * ```ts
 * import { hashString } from "./prng.ts";
 * if (hashString("foobar") !== 0xbf9cf968) throw new Error("unexpected");
 * ```
 */
export function hashString(text: string): number {
  let hash = 2166136261;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash >>> 0;
}

/**
 * Derive a child seed from a parent seed and a label, so that independent streams (one per query,
 * one per resampling task) do not depend on call order.
 *
 * @param seed Parent seed (safe integer).
 * @param label Any string naming the stream.
 * @returns `hashString((seed >>> 0) + ":" + label)`.
 */
export function deriveSeed(seed: number, label: string): number {
  return hashString(`${seed >>> 0}:${label}`);
}
