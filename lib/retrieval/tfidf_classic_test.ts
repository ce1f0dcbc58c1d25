import assert from "node:assert/strict";
import { createTfidfClassicRetriever, TfidfSharedAnalysis } from "./tfidf_classic.ts";
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

Deno.test("tfidf_classic's first k hits are the first k of the whole ranking (score, then id)", () => {
  const docs = Array.from(
    { length: 40 },
    (_, i) =>
      doc(
        `tool_${String(i).padStart(2, "0")}`,
        i % 3 === 0 ? "read file" : `read ${"file ".repeat(i % 5)}disk`,
      ),
  );
  const r = createTfidfClassicRetriever(docs);
  for (const q of ["read", "file disk", "tool_", "disk"]) {
    const all = r.search(q, 1000);
    const sorted = [...all].sort((a, b) =>
      a.score !== b.score ? b.score - a.score : a.id < b.id ? -1 : 1
    );
    assert.deepStrictEqual(all, sorted, q);
    assert.ok(all.length > 10, q);
    for (const k of [1, 3, 10]) {
      assert.deepStrictEqual(r.search(q, k), all.slice(0, k), `${q} ${k}`);
    }
  }
});

Deno.test("tfidf_classic indexes sharing an analysis score as fresh ones, on the reference corpus and its arms", async () => {
  const { loadCatalog } = await import("../catalog/io.ts");
  const { armsNamed } = await import("../encodings/mod.ts");
  const { loadGolden } = await import("./io.ts");
  const { docsFromTools } = await import("./docs.ts");
  const root = new URL("../../fixtures/", import.meta.url);
  const corpus = await loadCatalog(new URL("corpora/reference_v1.tools.json", root).pathname);
  const golden = await loadGolden(new URL("golden/reference_v2.test.json", root).pathname);
  const arms = armsNamed(["compact_sig", "markdown"]);
  const sets = [
    docsFromTools(corpus.tools),
    ...arms.map((a) => "unavailable" in a ? [] : docsFromTools(corpus.tools, a.indexFields)),
  ];
  // The arms keep names and descriptions, so the later builds take them from the record.
  assert.ok(sets[1].every((d, i) => d.description === sets[0][i].description));
  const queries = [...golden.queries.values(), "create_issue", "github:create_issue", "read_"];
  for (const order of [[0, 1, 2], [2, 0, 1]]) {
    const shared = new TfidfSharedAnalysis();
    for (const s of order) {
      const fresh = createTfidfClassicRetriever(sets[s]);
      const taken = createTfidfClassicRetriever(sets[s], { shared });
      for (const q of queries) assert.deepStrictEqual(taken.search(q, 20), fresh.search(q, 20), q);
    }
    assert.deepEqual(
      [...shared.recordedFields()],
      [["name", corpus.tools.length], ["description", corpus.tools.length]],
    );
  }
});

Deno.test("tfidf_classic with a shared analysis analyses the texts that differ from the record", () => {
  const first = [
    doc("read_file", "Read a file"),
    doc("write_file", "Write a file to disk"),
    doc("list_dir", "List a directory"),
    doc("stat", "File größe und Datum"),
  ];
  // Same count, two names and a description changed; then another count (no record taken).
  const second = [
    doc("read_file", "Read a file"),
    doc("put_file", "Write a file to disk"),
    doc("list_dir", "List the entries of a directory"),
    doc("fetch_url", "Datum"),
  ];
  const third = [...second, doc("extra", "another directory tool")];
  // Same count and names, one server changed (its full_tool_name and server_name with it).
  const moved = [...first.slice(0, 3), doc("stat", "File größe und Datum", "fs")];
  const shared = new TfidfSharedAnalysis();
  const queries = [
    "file",
    "directory",
    "write disk",
    "put_file",
    "datum",
    "größe",
    "list_dir",
    "x:stat",
    "fs:stat",
    "stat",
  ];
  for (const docs of [first, second, third, moved, first]) {
    const taken = createTfidfClassicRetriever(docs, { shared });
    const fresh = createTfidfClassicRetriever(docs);
    for (const q of queries) assert.deepStrictEqual(taken.search(q, 10), fresh.search(q, 10), q);
  }
  // Terms the shared table learns after an index was built have no postings in that index.
  const later = new TfidfSharedAnalysis();
  const early = createTfidfClassicRetriever(first, { shared: later });
  createTfidfClassicRetriever(third, { shared: later });
  const alone = createTfidfClassicRetriever(first);
  for (const q of queries) assert.deepStrictEqual(early.search(q, 10), alone.search(q, 10), q);
});
