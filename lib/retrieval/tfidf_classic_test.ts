import assert from "node:assert/strict";
import { createTfidfClassicRetriever } from "./tfidf_classic.ts";
import type { RetrievalDoc } from "./types.ts";

const doc = (name: string, description: string, server = "s"): RetrievalDoc => ({
  id: `${server}:${name}`,
  name,
  server,
  description,
  params: "",
});
const DOCS = [
  doc("read_file", "Read a file"),
  doc("write_file", "Write a file"),
  doc("list_dir", "List a directory"),
];

Deno.test("tfidf_classic scores an analysed-only match as Bleve's TF-IDF, by hand", () => {
  // Query "directory" (no "_": 5 clauses). N = 3.
  // Clause 1 term(tool_name="directory")^5 and clause 2 term(full_tool_name)^4: df 0,
  //   idf = 1 + ln(3/1); they match nothing but count in queryNorm.
  // Clause 3 prefix: no name starts with "directory" → MatchNone (weight 0, counted in coord).
  // Clause 4 match(_all)^1 and clause 5 match(searchable_text)^1.5: df 1, idf = 1 + ln(3/2).
  const idf0 = 1 + Math.log(3);
  const idf1 = 1 + Math.log(3 / 2);
  const queryNorm = 1 /
    Math.sqrt((5 * idf0) ** 2 + (4 * idf0) ** 2 + idf1 ** 2 + (1.5 * idf1) ** 2);
  // list_dir's _all: "list_dir", "s:list_dir", "s", [list, directory], [],
  //   searchable_text [list_dir, list_dir, list, directory] → 9 tokens, tf(directory) = 2.
  const all = Math.sqrt(2) * Math.fround(1 / 3) * idf1 * (1 * idf1 * queryNorm);
  // searchable_text: 4 tokens, tf 1.
  const searchable = 1 * Math.fround(1 / 2) * idf1 * (1.5 * idf1 * queryNorm);
  // Two of five top-level clauses matched: coord 2/5.
  const expected = (all + searchable) * (2 / 5);
  const hits = createTfidfClassicRetriever(DOCS).search("directory", 10);
  assert.equal(hits.length, 1);
  assert.equal(hits[0].id, "s:list_dir");
  assert.ok(Math.abs(hits[0].score - expected) < 1e-12, `${hits[0].score} vs ${expected}`);
});

Deno.test("tfidf_classic ranks the exact tool name first (term^5, prefix^3, wildcard^2.5)", () => {
  const hits = createTfidfClassicRetriever(DOCS).search("write_file", 10);
  assert.equal(hits[0].id, "s:write_file");
  // "file" is not a token of the query ("write_file" is one word), so read_file does not match.
  assert.deepEqual(hits.map((h) => h.id), ["s:write_file"]);
});

Deno.test("tfidf_classic applies coord within a match clause", () => {
  // "read file": read_file matches both tokens in _all and searchable_text, write_file one.
  const hits = createTfidfClassicRetriever(DOCS).search("read file", 10);
  assert.deepEqual(hits.map((h) => h.id), ["s:read_file", "s:write_file"]);
  assert.ok(hits[0].score > 2 * hits[1].score);
});

Deno.test("tfidf_classic breaks ties by id and returns nothing for stop-word-only queries", () => {
  const twins = [
    doc("b_tool", "fetch data", "x"),
    doc("a_tool", "fetch data", "x"),
    doc("c", "other"),
  ];
  const r = createTfidfClassicRetriever(twins);
  const hits = r.search("fetch", 10);
  assert.deepEqual(hits.map((h) => h.id), ["x:a_tool", "x:b_tool"]);
  assert.equal(hits[0].score, hits[1].score);
  assert.deepEqual(r.search("the of and", 10), []);
  assert.throws(() => createTfidfClassicRetriever([]), RangeError);
});
