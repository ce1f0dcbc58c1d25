import assert from "node:assert/strict";
import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kData from "js-tiktoken/ranks/cl100k_base";
import o200kData from "js-tiktoken/ranks/o200k_base";
import cl100kRanks from "gpt-tokenizer/bpeRanks/cl100k_base";
import o200kRanks from "gpt-tokenizer/bpeRanks/o200k_base";
import {
  createRankCache,
  latin1,
  NO_RANK,
  rankOf,
  rankTableFrom,
  rankTableFromTiktoken,
} from "./_bpe.ts";
import { TOKENIZER_NAMES } from "./tokenizers.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

// The independent source: js-tiktoken's own id → bytes table (built from its
// base64 rank file with base64-js, not with the rank table's own decoder).
const SOURCES = {
  cl100k_base: { data: cl100kData, decoder: cl100kRanks },
  o200k_base: { data: o200kData, decoder: o200kRanks },
};

/** The bytes of a byte string (one char per byte). */
const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function referenceRanks(name: keyof typeof SOURCES): Map<string, number> {
  const enc = new Tiktoken(SOURCES[name].data);
  const textMap = (enc as unknown as { textMap: Map<number, Uint8Array> }).textMap;
  const ranks = new Map<string, number>();
  for (const [rank, bytes] of textMap) ranks.set(latin1(bytes), rank);
  return ranks;
}

for (const name of TOKENIZER_NAMES) {
  Deno.test(
    `${name}: rankOf() finds every token and only tokens (with and without a rank cache)`,
    FULL_TIER_ONLY,
    () => {
      const ref = referenceRanks(name);
      const table = rankTableFromTiktoken(SOURCES[name].data.bpe_ranks);
      const cache = createRankCache();
      const expect = (key: string) => ref.get(key) ?? NO_RANK;
      // Every token, looked up bare, inside a longer string, and twice through
      // the cache (the second time from the cache when its entry survived).
      for (const [key, rank] of ref) {
        assert.equal(rankOf(table, bytesOf(key), 0, key.length), rank, JSON.stringify(key));
        const padded = `\u00ff${key}\u00fe`;
        assert.equal(rankOf(table, bytesOf(padded), 1, key.length + 1, cache), rank);
        assert.equal(rankOf(table, bytesOf(padded), 1, key.length + 1, cache), rank);
      }
      // Near misses: every token with a byte added, dropped or changed, each
      // checked against the reference map (most are not tokens; some are).
      const keys = [...ref.keys()];
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: keys.length - 1 }),
          fc.integer({ min: 0, max: 255 }),
          fc.integer({ min: 0, max: 2 }),
          (k, byte, edit) => {
            const key = keys[k];
            const b = String.fromCharCode(byte);
            const at = byte % (key.length + 1);
            const probe = edit === 0
              ? key.slice(0, at) + b + key.slice(at)
              : edit === 1 && key.length > 1
              ? key.slice(0, at) + key.slice(at + 1)
              : key.slice(0, at) + b + key.slice(at + 1);
            if (probe.length === 0) return;
            assert.equal(rankOf(table, bytesOf(probe), 0, probe.length), expect(probe));
            // Twice through the cache: the second answer (a token or "not a
            // token") comes from the cache entry the first one left.
            assert.equal(rankOf(table, bytesOf(probe), 0, probe.length, cache), expect(probe));
            assert.equal(rankOf(table, bytesOf(probe), 0, probe.length, cache), expect(probe));
          },
        ),
        { numRuns: 20000, seed: 160 },
      );
    },
  );
}

for (const name of TOKENIZER_NAMES) {
  Deno.test(
    `${name}: a rank cache full of non-tokens still finds every short token`,
    FULL_TIER_ONLY,
    () => {
      const ref = referenceRanks(name);
      const table = rankTableFromTiktoken(SOURCES[name].data.bpe_ranks);
      const cache = createRankCache();
      const short = [...ref.keys()].filter((k) => k.length >= 3 && k.length <= 8);
      // Each short token with its last byte changed to one that makes a
      // non-token (same length, same first bytes: the keys the cache must tell apart).
      let negatives = 0;
      for (const key of short) {
        for (let b = 0; b < 256; b += 37) {
          const probe = key.slice(0, -1) + String.fromCharCode(b);
          const want = ref.get(probe) ?? NO_RANK;
          if (want === NO_RANK) negatives++;
          assert.equal(
            rankOf(table, bytesOf(probe), 0, probe.length, cache),
            want,
            JSON.stringify(probe),
          );
          assert.equal(
            rankOf(table, bytesOf(probe), 0, probe.length, cache),
            want,
            JSON.stringify(probe),
          );
        }
      }
      assert.ok(negatives > short.length, `only ${negatives} non-tokens probed`);
      for (const key of short) {
        assert.equal(
          rankOf(table, bytesOf(key), 0, key.length, cache),
          ref.get(key),
          JSON.stringify(key),
        );
        assert.equal(
          rankOf(table, bytesOf(key), 0, key.length, cache),
          ref.get(key),
          JSON.stringify(key),
        );
      }
    },
  );
}

for (const name of TOKENIZER_NAMES) {
  Deno.test(`${name}: pairBits and pairs know every two-byte token and only those`, () => {
    const ref = referenceRanks(name);
    const table = rankTableFromTiktoken(SOURCES[name].data.bpe_ranks);
    let tokens = 0;
    for (let x = 0; x < 65536; x++) {
      const rank = ref.get(String.fromCharCode(x >>> 8, x & 0xff));
      const bit = (table.pairBits[x >>> 5] >>> (x & 31)) & 1;
      assert.equal(bit, rank === undefined ? 0 : 1, `pair ${x.toString(16)}`);
      assert.equal(table.pairs[x], rank ?? NO_RANK, `pair ${x.toString(16)}`);
      if (rank !== undefined) tokens++;
    }
    assert.ok(tokens > 1000, `only ${tokens} two-byte tokens`);
  });
}

/**
 * `key` (a byte string) inside random bytes: `pad` before it and `tail` after
 * it, so the bytes an unaligned read takes in past the range are garbage.
 */
function embedded(key: string, pad: number, tail: number, fill: number): Uint8Array {
  const out = new Uint8Array(pad + key.length + tail);
  for (let i = 0; i < out.length; i++) out[i] = (fill + Math.imul(i, 0x9e3779b1)) >>> 24;
  for (let i = 0; i < key.length; i++) out[pad + i] = key.charCodeAt(i);
  return out;
}

for (const name of TOKENIZER_NAMES) {
  Deno.test(
    `${name}: rankOf() through a DataView (unaligned reads, bytes past the range masked) answers as js-tiktoken`,
    FULL_TIER_ONLY,
    () => {
      const ref = referenceRanks(name);
      const table = rankTableFromTiktoken(SOURCES[name].data.bpe_ranks);
      const keys = [...ref.keys()].filter((k) => k.length <= 16);
      const cache = createRankCache();
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: keys.length - 1 }),
          fc.integer({ min: 0, max: 7 }),
          // 0 to 12 bytes after the range: below 8 (or 12 for bytes 8-11) the
          // lookup falls back to reading byte by byte.
          fc.integer({ min: 0, max: 12 }),
          fc.integer({ min: 0, max: 0x7fffffff }),
          fc.integer({ min: 0, max: 3 }),
          (k, pad, tail, fill, edit) => {
            let probe = keys[k];
            // A token, or (edit 1-3) a near miss: last byte changed, a byte
            // added, the last byte dropped; each checked against the reference.
            if (edit === 1) probe = probe.slice(0, -1) + String.fromCharCode(fill & 0xff);
            else if (edit === 2) probe += String.fromCharCode(fill & 0xff);
            else if (edit === 3 && probe.length > 1) probe = probe.slice(0, -1);
            const bytes = embedded(probe, pad, tail, fill);
            const view = new DataView(bytes.buffer);
            const want = ref.get(probe) ?? NO_RANK;
            const to = pad + probe.length;
            assert.equal(
              rankOf(table, bytes, pad, to, undefined, view),
              want,
              JSON.stringify(probe),
            );
            assert.equal(rankOf(table, bytes, pad, to, cache, view), want, JSON.stringify(probe));
            assert.equal(rankOf(table, bytes, pad, to, cache, view), want, JSON.stringify(probe));
          },
        ),
        { numRuns: 30000, seed: 1622 },
      );
    },
  );
}

Deno.test(
  "rankOf() tells apart ranges of 9 to 12 bytes that differ only in bytes 8-11",
  FULL_TIER_ONLY,
  () => {
    // A synthetic table where every long token shares its first eight bytes:
    // any lookup of a non-token of the same length whose probe passes the Bloom
    // filter and meets one of them must be rejected on bytes 8-11 alone (the
    // slot's fourth int), never answered from the first eight.
    let seed = 16;
    // xorshift32 (every bit of it is well mixed, unlike a power-of-two LCG's low bits).
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    const head = [0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68];
    const decoder: number[][] = [];
    for (let b = 0; b < 256; b++) decoder.push([b]);
    const rankOfKey = new Map<string, number>();
    while (decoder.length < 150_256) {
      const len = 9 + (next() % 4);
      const key = [...head];
      while (key.length < len) key.push(next() & 0xff);
      const k = latin1(key);
      if (rankOfKey.has(k)) continue;
      rankOfKey.set(k, decoder.length);
      decoder.push(key);
    }
    const table = rankTableFrom(decoder);
    for (const [k, rank] of rankOfKey) {
      assert.equal(rankOf(table, bytesOf(k), 0, k.length), rank);
      // Through a DataView: bytes 8-11 read at once, the garbage after them masked.
      const bytes = embedded(k, 3, 4, rank);
      assert.equal(
        rankOf(table, bytes, 3, 3 + k.length, undefined, new DataView(bytes.buffer)),
        rank,
      );
    }
    let checked = 0;
    while (checked < 100_000) {
      const len = 9 + (next() % 4);
      const key = [...head];
      while (key.length < len) key.push(next() & 0xff);
      const k = latin1(key);
      if (rankOfKey.has(k)) continue;
      assert.equal(rankOf(table, bytesOf(k), 0, len), NO_RANK, JSON.stringify(k));
      const bytes = embedded(k, 1, 4, checked);
      assert.equal(
        rankOf(table, bytes, 1, 1 + len, undefined, new DataView(bytes.buffer)),
        NO_RANK,
      );
      checked++;
    }
  },
);

for (const name of TOKENIZER_NAMES) {
  Deno.test(`${name}: the table decoded from js-tiktoken's base64 ranks equals the one from gpt-tokenizer's arrays`, () => {
    const fromBase64 = rankTableFromTiktoken(SOURCES[name].data.bpe_ranks);
    const fromArrays = rankTableFrom(
      SOURCES[name].decoder as readonly (string | readonly number[] | undefined)[],
    );
    // Same tokens inserted in the same order: the same slots, bit for bit.
    assert.deepEqual(fromBase64, fromArrays);
    assert.equal(fromBase64.starts.length, SOURCES[name].decoder.length);
  });
}

Deno.test("rankTableFromTiktoken() reads several lines, rank offsets and padding", () => {
  // Ranks 0-2 are "a", "b", "ab"; rank 3 is unused; ranks 4-5 are "abc" and the
  // 13 bytes "abcdefghijklm" (base64 by hand: YQ== Yg== YWI= YWJj YWJjZGVmZ2hpamtsbQ==).
  const table = rankTableFromTiktoken("x 0 YQ== Yg== YWI=\n\nx 4 YWJj YWJjZGVmZ2hpamtsbQ==\n");
  const rank = (s: string) => rankOf(table, bytesOf(s), 0, s.length);
  assert.deepEqual(["a", "b", "ab", "abc", "abcdefghijklm"].map(rank), [0, 1, 2, 4, 5]);
  assert.deepEqual(["ba", "abcd", "abcdefghijkln", "c"].map(rank), Array(4).fill(NO_RANK));
  assert.equal(table.maxTokenBytes, 13);
  assert.deepEqual(latin1(table.bytes), "abababcabcdefghijklm");
  assert.deepEqual(Array.from(table.starts), [0, 1, 2, 0, 4, 7]);
});

Deno.test("rankTableFromTiktoken() rejects a malformed rank string", () => {
  assert.throws(() => rankTableFromTiktoken("x YQ== Yg=="), RangeError); // no offset
  assert.throws(() => rankTableFromTiktoken("x 0 YQ== Y*=="), RangeError); // not base64
  assert.throws(() => rankTableFromTiktoken("x 0 YQ==  Yg=="), RangeError); // empty token
  assert.throws(() => rankTableFromTiktoken("x 0 YQ== "), RangeError); // empty last token
  assert.throws(() => rankTableFromTiktoken("x 0 YQ==Yg=="), RangeError); // digits after padding
  assert.throws(() => rankTableFromTiktoken("x 0 YQ= Yg=="), RangeError); // not groups of four
  assert.throws(() => rankTableFromTiktoken("x 0 YQ==\u00e9 Yg=="), RangeError); // not ASCII
});
