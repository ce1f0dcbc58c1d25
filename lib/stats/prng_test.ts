import assert from "node:assert/strict";
import { createRng, deriveSeed, hashString } from "./prng.ts";

// Reference outputs computed independently with a C implementation of Mulberry32
// (uint32_t arithmetic), compiled with gcc; the C step was
// `z = (st += 0x6D2B79F5); z = (z ^ z >> 15) * (z | 1); z ^= z + (z ^ z >> 7) * (z | 61); z ^ z >> 14`).
const VECTORS: Record<number, number[]> = {
  0: [1144304738, 1416247, 958946056, 627933444, 2007157716],
  42: [2581720956, 1925393290, 3661312704, 2876485805, 750819978],
  4294967295: [3850105811, 813802916, 3073704848, 4054706436, 3630262831],
};

Deno.test("createRng() matches an independent C implementation of Mulberry32", () => {
  for (const [seed, expected] of Object.entries(VECTORS)) {
    const rng = createRng(Number(seed));
    assert.deepEqual(expected.map(() => rng.nextUint32()), expected, `seed ${seed}`);
  }
});

Deno.test("createRng() reduces seeds modulo 2^32", () => {
  const rng = createRng(-1);
  assert.equal(rng.seed, 4294967295);
  assert.equal(rng.nextUint32(), 3850105811);
});

Deno.test("createRng().next() is nextUint32 / 2^32 and int(n) floors next() × n", () => {
  const rng = createRng(42);
  assert.equal(rng.next(), 2581720956 / 4294967296);
  // 1925393290 / 2^32 = 0.4483 → floor(0.4483 × 10) = 4
  assert.equal(rng.int(10), 4);
});

Deno.test("createRng() rejects a non-integer seed and int() rejects n < 1", () => {
  assert.throws(() => createRng(1.5), RangeError);
  assert.throws(() => createRng(0).int(0), RangeError);
});

Deno.test("hashString() gives the published FNV-1a 32-bit test vectors", () => {
  // FNV test suite: "" → 0x811c9dc5, "a" → 0xe40c292c, "foobar" → 0xbf9cf968
  assert.equal(hashString(""), 0x811c9dc5);
  assert.equal(hashString("a"), 0xe40c292c);
  assert.equal(hashString("foobar"), 0xbf9cf968);
});

Deno.test("deriveSeed() hashes seed and label together", () => {
  assert.equal(deriveSeed(7, "x"), hashString("7:x"));
  assert.notEqual(deriveSeed(7, "x"), deriveSeed(7, "y"));
});

Deno.test("createRng().fill() draws what nextUint32() draws, and leaves the same state", () => {
  const filled = createRng(42);
  assert.deepEqual([...filled.fill(new Uint32Array(5))], VECTORS[42]);
  const called = createRng(42);
  for (let i = 0; i < 5; i++) called.nextUint32();
  const next3 = [called.nextUint32(), called.nextUint32(), called.nextUint32()];
  assert.deepEqual([...filled.fill(new Uint32Array(3))], next3);
  assert.equal(filled.fill(new Uint32Array(0)).length, 0);
  assert.equal(filled.nextUint32(), called.nextUint32());
});

Deno.test("createRng().fillInts() and fillTopBits() map the C vectors, and leave the same state", () => {
  // floor(u / 2^32 × 1000) and u >>> 31 of the C implementation's first five outputs of seed 42.
  assert.deepEqual([...createRng(42).fillInts(new Uint16Array(5), 1000)], [
    601,
    448,
    852,
    669,
    174,
  ]);
  assert.deepEqual([...createRng(42).fillTopBits(new Uint8Array(5))], [1, 0, 1, 1, 0]);
  assert.deepEqual([...createRng(0).fillInts(new Uint16Array(5), 65536)], [
    17460,
    21,
    14632,
    9581,
    30626,
  ]);
  const filled = createRng(7);
  const called = createRng(7);
  filled.fillInts(new Uint16Array(300), 233);
  filled.fillTopBits(new Uint8Array(200));
  for (let i = 0; i < 500; i++) called.nextUint32();
  assert.equal(filled.nextUint32(), called.nextUint32());
  assert.throws(() => createRng(1).fillInts(new Uint16Array(1), 65537), RangeError);
  assert.throws(() => createRng(1).fillInts(new Uint16Array(1), 0), RangeError);
});
