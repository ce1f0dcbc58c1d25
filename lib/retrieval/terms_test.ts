import assert from "node:assert/strict";
import { TermTable } from "./_terms.ts";

Deno.test("TermTable numbers terms in first-seen order and finds them by a stretch of any text", () => {
  const table = new TermTable();
  assert.equal(table.id("read"), 0);
  assert.equal(table.id("file"), 1);
  assert.equal(table.id("read"), 0);
  assert.equal(table.find("to read a file", 3, 7), 0);
  assert.equal(table.find("to read a file", 10, 14), 1);
  assert.equal(table.find("to read a file", 3, 6), -1, "rea is not a term");
  assert.equal(table.find("", 0, 0), -1);
  assert.equal(table.add(""), 2);
  assert.equal(table.find("x", 0, 0), 2, "the empty stretch is the empty term");
  assert.deepEqual(table.terms, ["read", "file", ""]);
  assert.equal(table.size, 3);
});

Deno.test("TermTable keeps every number through growth (10,000 terms, 5 table doublings)", () => {
  const table = new TermTable();
  const words = Array.from({ length: 10_000 }, (_, i) => `w${(i * 7919) % 10_007}`);
  words.forEach((w, i) => assert.equal(table.id(w), i));
  const text = words.join(" ");
  let at = 0;
  words.forEach((w, i) => {
    assert.equal(table.find(text, at, at + w.length), i, w);
    at += w.length + 1;
  });
  assert.equal(table.find("w10007", 0, 6), -1);
});
