import assert from "node:assert/strict";
import { hashRange, RangeTable } from "./_range_table.ts";

Deno.test("hashRange: FNV-1a of the range's code units, folded once", () => {
  // FNV-1a 32-bit of "a" is 0xe40c292c (the published test vector); folded: h ^ (h >>> 15).
  const h = 0xe40c292c | 0;
  assert.equal(hashRange("xay", 1, 2), h ^ (h >>> 15));
  assert.equal(hashRange("a", 0, 1), hashRange("bab", 1, 2));
  assert.notEqual(hashRange("ab", 0, 2), hashRange("ba", 0, 2));
});

Deno.test("RangeTable: finds a key where it lies in any text, keeps values through growth", () => {
  const table = new RangeTable(2, 1 << 20, 2); // 4 slots to start: grows at the 4th key
  const put = (key: string, a: number, b: number) => {
    const text = `<<${key}>>`;
    const h = hashRange(text, 2, 2 + key.length);
    assert.equal(table.find(text, 2, 2 + key.length, h), -1, key);
    const at = table.insert(text, 2, 2 + key.length, h);
    table.values[at] = a;
    table.values[at + 1] = b;
  };
  const get = (key: string) => {
    const text = `[${key}]`;
    const at = table.find(text, 1, 1 + key.length, hashRange(text, 1, 1 + key.length));
    return at < 0 ? undefined : [table.values[at], table.values[at + 1]];
  };
  // 3,000 keys of up to 40 code units: the slots double 10 times, the arena (65,536) once.
  const keys = Array.from({ length: 3000 }, (_, i) => `key ${i} `.padEnd(8 + (i % 33), "é"));
  keys.forEach((k, i) => put(k, i, 5000 - i));
  assert.equal(table.size, 3000);
  keys.forEach((k, i) => assert.deepEqual(get(k), [i, 5000 - i], k));
  assert.equal(get("key 1"), undefined); // a prefix of "key 1 ..." is another key
  assert.equal(get("key 3000 "), undefined);
});

Deno.test("RangeTable: starts over past maxKeys", () => {
  const table = new RangeTable(1, 3);
  const put = (key: string) => {
    const h = hashRange(key, 0, key.length);
    const at = table.insert(key, 0, key.length, h); // may grow: values read after
    table.values[at] = key.length;
  };
  const has = (key: string) => table.find(key, 0, key.length, hashRange(key, 0, key.length)) >= 0;
  ["a", "bb", "ccc"].forEach(put);
  assert.deepEqual([has("a"), has("bb"), has("ccc"), table.size], [true, true, true, 3]);
  put("dddd"); // the 4th key: every earlier one dropped
  assert.deepEqual([has("a"), has("ccc"), has("dddd"), table.size], [false, false, true, 1]);
});

Deno.test("RangeTable: a table started with one slot never fills, before or after starting over", () => {
  // One slot (bits 0) and 3 keys at most: each insert first grows the table past 3/4 full, so a
  // lookup of an absent key always reaches an empty slot (it looped forever on a full table).
  const table = new RangeTable(1, 3, 0);
  const put = (key: string) => {
    const h = hashRange(key, 0, key.length);
    assert.equal(table.find(key, 0, key.length, h), -1, key);
    const at = table.insert(key, 0, key.length, h); // may grow: values read after
    table.values[at] = key.length;
  };
  const get = (key: string) => {
    const at = table.find(key, 0, key.length, hashRange(key, 0, key.length));
    return at < 0 ? undefined : table.values[at];
  };
  for (const key of ["a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g"]) {
    put(key);
    assert.equal(get(key), key.length);
    assert.equal(get("absent"), undefined);
  }
  assert.equal(table.size, 1); // started over at "dddd" and at "g"
});
