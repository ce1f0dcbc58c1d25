import assert from "node:assert/strict";
import fc from "fast-check";
import { asciiWordSegments, eachWordStretch, segmenterWords, wordSegments } from "./_analysis.ts";
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

Deno.test("TermTable.lowerAsciiWords() numbers the lower-cased segments asciiWordSegments() finds", () => {
  // Upper and lower case, the joiners between letters and between digits, a lone and a double `_`.
  const alphabet = [..."aAzZ09_.:',; -\"{}\n", "Get", "URL", "v1.2", "it's", "__"];
  const table = new TermTable();
  for (const w of ["get", "url", "a", "it's"]) table.id(w);
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
      const text = chars.join("");
      const got: string[] = [];
      table.lowerAsciiWords(text, (id) => got.push(table.terms[id]));
      const want = asciiWordSegments(text).map((w) => w.toLowerCase());
      assert.deepEqual(got, want, JSON.stringify(text));
      for (const w of want) assert.equal(table.find(w, 0, w.length), table.terms.indexOf(w));
    }),
    { numRuns: 3000, seed: 11 },
  );
  assert.ok(table.size > 50, "new terms were added along the way");
  assert.equal(new Set(table.terms).size, table.size, "no term is numbered twice");
});

Deno.test("eachWordStretch() + lowerAsciiWords() number the lower-cased wordSegments() of mixed text", () => {
  const alphabet = [..."aAzZ09_.:' -\n", "Get", "é", "É", "—", "💡", "日本", "İ", "ß", "\u00a0"];
  const table = new TermTable();
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), (chars) => {
      const text = chars.join("");
      const got: string[] = [];
      const add = (id: number) => got.push(table.terms[id]);
      eachWordStretch(
        text,
        (from, to) => table.lowerAsciiWords(text, add, from, to),
        (chunk) => {
          for (const s of segmenterWords(chunk)) add(table.id(s.toLowerCase()));
        },
      );
      assert.deepEqual(got, wordSegments(text).map((w) => w.toLowerCase()), JSON.stringify(text));
    }),
    { numRuns: 3000, seed: 5 },
  );
  assert.equal(new Set(table.terms).size, table.size, "no term is numbered twice");
});
