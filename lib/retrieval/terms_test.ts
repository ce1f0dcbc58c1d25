import assert from "node:assert/strict";
import fc from "fast-check";
import { asciiWordSegments, identifierTokens, segmenterWords, wordSegments } from "./_analysis.ts";
import { ContentTokens, TermTable } from "./_terms.ts";

/**
 * Pieces of mixed text for the property tests: ASCII letters, digits and separators, two- and
 * three-byte characters, a surrogate pair, lone surrogates (U+FFFD in UTF-8), white space outside
 * ASCII and characters lower case changes.
 */
const MIXED = [
  ..."aAzZ09_.:' -\n",
  "Get",
  "é",
  "É",
  "—",
  "💡",
  "日本",
  "İ",
  "ß",
  "\u00a0",
  "\u3000",
  "\ud800",
  "\udfff",
];

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

/** The numbers `wordIds` appends to a list that holds `before` already. */
function wordIdsOf(table: TermTable, text: string, before: number[] = []): number[] {
  const out = { ids: new Int32Array(Math.max(1, before.length)), used: before.length };
  out.ids.set(before);
  table.wordIds(text, out);
  return [...out.ids.subarray(0, out.used)];
}

Deno.test("TermTable.wordIds() numbers the lower-cased segments asciiWordSegments() finds", () => {
  // Upper and lower case, the joiners between letters and between digits, a lone and a double `_`.
  const alphabet = [..."aAzZ09_.:',; -\"{}\n\t\r\v\f", "Get", "URL", "v1.2", "it's", "__"];
  const table = new TermTable();
  for (const w of ["get", "url", "a", "it's"]) table.id(w);
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
      const text = chars.join("");
      const got = wordIdsOf(table, text).map((id) => table.terms[id]);
      const want = asciiWordSegments(text).map((w) => w.toLowerCase());
      assert.deepEqual(got, want, JSON.stringify(text));
      for (const w of want) assert.equal(table.find(w, 0, w.length), table.terms.indexOf(w));
    }),
    { numRuns: 3000, seed: 11 },
  );
  assert.ok(table.size > 50, "new terms were added along the way");
  assert.equal(new Set(table.terms).size, table.size, "no term is numbered twice");
});

Deno.test("TermTable.wordIds() numbers the lower-cased wordSegments() of mixed text", () => {
  // Mixed text, a line separator and a joiner before a non-ASCII letter.
  const alphabet = [...MIXED, "\u2028", "a.é", "café"];
  const table = new TermTable();
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), (chars) => {
      const text = chars.join("");
      const got = wordIdsOf(table, text).map((id) => table.terms[id]);
      assert.deepEqual(got, wordSegments(text).map((w) => w.toLowerCase()), JSON.stringify(text));
    }),
    { numRuns: 3000, seed: 5 },
  );
  assert.equal(new Set(table.terms).size, table.size, "no term is numbered twice");
});

Deno.test("TermTable.wordIds() appends after what the list holds and grows it", () => {
  const table = new TermTable();
  const text = Array.from({ length: 3000 }, (_, i) => `Word${i % 7} é${i % 3}`).join(" ");
  const got = wordIdsOf(table, text, [-5, -6]);
  assert.deepEqual(got.slice(0, 2), [-5, -6]);
  assert.deepEqual(
    got.slice(2).map((id) => table.terms[id]),
    segmenterWords(text).map((w) => w.toLowerCase()),
  );
  assert.equal(got.length, 2 + 6000);
});

Deno.test("TermTable.wordIds() finds by hand: ASCII, a chunk with é, no-break space", () => {
  const table = new TermTable();
  const got = wordIdsOf(table, "Read the Café\u00a0menu: v1.2 it's __ _ x").map((id) =>
    table.terms[id]
  );
  assert.deepEqual(got, ["read", "the", "café", "menu", "v1.2", "it's", "__", "x"]);
});

Deno.test("TermTable.identifierIds() numbers the words identifierTokens() splits, any text", () => {
  // Mixed text (its non-ASCII separators the scanner steps over, its non-ASCII letters sent
  // through the regular expressions), camelCase and acronym boundaries, and a Greek capital.
  const alphabet = [...MIXED, "HTTPServer", "listPullRequests", "Σ"];
  const table = new TermTable();
  const plain = { stopWords: false, stem: false };
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), (chars) => {
      const text = chars.join("");
      const out = { ids: new Int32Array(2), used: 0 };
      table.identifierIds(text, out);
      const got = [...out.ids.subarray(0, out.used)].map((id) => table.terms[id]);
      assert.deepEqual(got, identifierTokens(text, plain), JSON.stringify(text));
    }),
    { numRuns: 3000, seed: 11 },
  );
  assert.equal(new Set(table.terms).size, table.size, "no term is numbered twice");
});

Deno.test("ContentTokens reads identifier tokens by hand, stop words dropped when asked", () => {
  const content = new ContentTokens(true);
  content.read("Get the HTTPServer status of myRepo — and its 2 files");
  const words = (c: ContentTokens) =>
    [...c.ids.ids.subarray(0, c.ids.used)].map((id) => c.table.terms[id]);
  // "the", "of", "my", "and", "its" are stop words; "—" separates.
  assert.deepEqual(words(content), ["get", "http", "server", "status", "repo", "2", "files"]);
  const all = new ContentTokens(false);
  all.read("Get the file");
  assert.deepEqual(words(all), ["get", "the", "file"]);
  // A second text replaces the first; a known word keeps its number.
  content.read("files of Get");
  assert.deepEqual(words(content), ["files", "get"]);
  assert.equal(content.ids.ids[1], content.table.terms.indexOf("get"));
});
