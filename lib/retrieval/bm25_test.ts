import assert from "node:assert/strict";
import winkBm25 from "wink-bm25-text-search";
import { identifierTokens } from "./_analysis.ts";
import { bm25SeesArm, createBm25Retriever } from "./bm25.ts";
import type { RetrievalDoc } from "./types.ts";
import type { Tool } from "../catalog/types.ts";

const doc = (id: string, name: string, description = ""): RetrievalDoc => ({
  id,
  name,
  server: "s",
  description,
  params: "",
});

Deno.test("createBm25Retriever() scores a term as BM25 computed by hand", () => {
  // Name field only (weight 1), no stemming or stop words. Docs: "alpha beta", "alpha", "gamma".
  // N = 3, n(beta) = 1 → idf = ln((3 − 1 + 0.5)/(1 + 0.5) + 1) = ln(8/3) = 0.980829
  // len = 2, avglen = 4/3 → K = 1.2 × (0.25 + 0.75 × 2/(4/3)) = 1.65
  // score = 1 × 2.2 / (1 + 1.65) × 0.980829 = 0.814273 → wink keeps 4 decimals: 0.8143
  const docs = [doc("d1", "alpha beta"), doc("d2", "alpha"), doc("d3", "gamma")];
  const r = createBm25Retriever(docs, {
    weights: { name: 1, description: 0, params: 0, server: 0 },
    stem: false,
    stopWords: false,
  });
  assert.deepEqual(r.search("beta", 10), [{ id: "d1", score: 0.8143 }]);
  assert.deepEqual(r.search("delta", 10), []);
});

Deno.test("createBm25Retriever() scores one or two documents as BM25 with the true N", () => {
  // wink refuses N < 3; the formula does not. Name field only, no stop words.
  // N = 2, "alpha beta" and "alpha gamma": len 2 each, avglen 2, so the length factor is 1 and
  // tf·(k1 + 1)/(k1 + tf) = 2.2/2.2 = 1; idf(beta) = ln(1.5/1.5 + 1) = ln 2 = 0.693147 → 0.6931,
  // idf(alpha) = ln(0.5/2.5 + 1) = ln 1.2 = 0.182322 → 0.1823.
  const weights = { name: 1, description: 0, params: 0, server: 0 };
  const two = createBm25Retriever([doc("d1", "alpha beta"), doc("d2", "alpha gamma")], {
    weights,
    stopWords: false,
  });
  assert.deepEqual(two.search("beta alpha", 10), [
    { id: "d1", score: 0.8754 },
    { id: "d2", score: 0.1823 },
  ]);
  assert.deepEqual(two.search("delta", 10), []);
  // N = 1: idf = ln(0.5/1.5 + 1) = ln(4/3) = 0.287682 → 0.2877 per term.
  const one = createBm25Retriever([doc("d1", "alpha beta")], { weights, stopWords: false });
  assert.deepEqual(one.search("alpha beta", 10), [{ id: "d1", score: 0.5754 }]);
  assert.deepEqual(createBm25Retriever([]).search("alpha", 10), []);
});

Deno.test("createBm25Retriever() matches camelCase and snake_case names from plain words", () => {
  const docs = [
    doc("gh:list_pull_requests", "list_pull_requests"),
    doc("gh:createIssue", "createIssue"),
    doc("fs:read_file", "read_file"),
  ];
  const r = createBm25Retriever(docs);
  assert.equal(r.search("create an issue", 1)[0].id, "gh:createIssue");
  assert.equal(r.search("pull request", 1)[0].id, "gh:list_pull_requests");
});

Deno.test("createBm25Retriever() breaks equal scores by id ascending, also at the cut", () => {
  const docs = [
    doc("c", "shared words"),
    doc("a", "shared words"),
    doc("b", "shared words"),
    doc("z", "x"),
  ];
  const r = createBm25Retriever(docs, { weights: { server: 0 } });
  assert.deepEqual(r.search("shared", 2).map((h) => h.id), ["a", "b"]);
  assert.deepEqual(r.search("shared", 10).map((h) => h.id), ["a", "b", "c"]);
});

Deno.test("createBm25Retriever() ranks as every wink hit rounded and sorted, cut at the limit", () => {
  // The plain path, from wink itself: all hits, each score rounded to 4 decimals, sorted by
  // score descending then id ascending, the first k kept. Many docs tie once rounded.
  const vocabulary = ["alpha", "beta", "gamma", "delta", "epsilon"];
  const docs = Array.from({ length: 60 }, (_, i) =>
    doc(
      `d${(i * 37) % 60}`,
      vocabulary.slice(0, 1 + (i % 4)).join("_"),
      Array.from({ length: 1 + (i % 7) }, (_, j) => vocabulary[(i + j) % 5]).join(" "),
    ));
  const r = createBm25Retriever(docs);
  const engine = winkBm25();
  engine.defineConfig({ fldWeights: { name: 5, description: 1, server: 2 }, bm25Params: {} });
  engine.definePrepTasks([(t: string) => identifierTokens(t, { stem: false, stopWords: true })]);
  for (const d of docs) {
    engine.addDoc({ name: d.name, description: d.description, server: d.server }, d.id);
  }
  engine.consolidate(4);
  for (const q of ["alpha", "beta gamma", "epsilon alpha delta", "omega"]) {
    const all = (engine.search(q, docs.length) as [string, number][])
      .map(([id, score]) => ({ id, score: Math.round(score * 1e4) / 1e4 }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const k of [1, 2, 3, 5, 10, 20, 60]) {
      assert.deepEqual(r.search(q, k), all.slice(0, k), `"${q}" at ${k}`);
    }
  }
});

Deno.test("createBm25Retriever() refuses invalid options", () => {
  const three = [doc("a", "x"), doc("b", "y"), doc("c", "z")];
  assert.throws(() => createBm25Retriever(three, { weights: { name: -1 } }), RangeError);
  assert.throws(
    () =>
      createBm25Retriever(three, { weights: { name: 0, description: 0, params: 0, server: 0 } }),
    RangeError,
  );
  assert.throws(() => createBm25Retriever(three).search("x", 0), RangeError);
});

Deno.test("bm25SeesArm() is false for a params-only arm at default weights, true when a weighted field changes", () => {
  const tools: Tool[] = [
    {
      id: "s:a",
      server: "s",
      name: "a",
      description: "read a file",
      inputSchema: { type: "object" },
    },
    { id: "s:b", server: "s", name: "b", description: "write a file" },
  ];
  const own = (t: Tool) => ({
    name: t.name,
    server: t.server,
    description: t.description,
    params: "",
  });
  assert.equal(bm25SeesArm(tools, (t) => ({ ...own(t), params: "(path:string)" })), false);
  assert.equal(
    bm25SeesArm(tools, (t) => ({ ...own(t), description: t.description.toUpperCase() })),
    true,
  );
  // With a positive params weight the same params-only arm does change the index.
  assert.equal(
    bm25SeesArm(tools, (t) => ({ ...own(t), params: "(path:string)" }), {
      name: 5,
      description: 1,
      params: 1,
      server: 2,
    }),
    true,
  );
});

Deno.test("bm25_params weighs parameter text and the name like the description", async () => {
  const { bm25ParamsEntry } = await import("./bm25_params.ts");
  const docs = [
    { id: "s:a", name: "calendar", server: "s", description: "", params: "" },
    { id: "s:b", name: "other", server: "s", description: "", params: '{"calendar":1}' },
    { id: "s:c", name: "third", server: "s", description: "", params: "" },
  ];
  const r = bm25ParamsEntry.create(docs, { seed: 1 }) as import("./types.ts").Retriever;
  assert.equal(r.name, "bm25_params");
  assert.deepEqual((r.config as { weights: unknown }).weights, {
    name: 1,
    description: 1,
    params: 0.25,
    server: 2,
  });
  // The parameter text is indexed: s:b is found, below the name match (weight 1 > 0.25).
  assert.deepEqual(r.search("calendar", 3).map((h) => h.id), ["s:a", "s:b"]);
});

Deno.test("createBm25Retriever() ranks the reference corpus as wink's own search does, at every depth", async () => {
  // The plain path: wink indexing the texts through its pipeline and searching itself, every
  // hit rounded to the precision and sorted by score descending then id ascending. The
  // retriever hands wink prepared tokens and sums wink's consolidated scores itself.
  const { loadCatalog } = await import("../catalog/load.ts");
  const { docsFromTools } = await import("./docs.ts");
  const root = new URL("../../fixtures/", import.meta.url);
  const corpus = await loadCatalog(new URL("corpora/reference_v1.tools.json", root).pathname);
  const docs = docsFromTools(corpus.tools);
  const queries: string[] = [];
  for (const set of ["reference_v1.test.json", "reference_v2.test.json"]) {
    const golden = JSON.parse(await Deno.readTextFile(new URL(`golden/${set}`, root)));
    for (const q of golden.queries) queries.push(q.query);
  }
  queries.push("", "the of and", "file file file", "github_create_pull_request", "Über straße");
  const cases = [
    { weights: { name: 5, description: 1, params: 0, server: 2 }, stem: false, precision: 4 },
    { weights: { name: 1, description: 1, params: 0.25, server: 2 }, stem: true, precision: 6 },
  ];
  for (const c of cases) {
    const r = createBm25Retriever(docs, {
      weights: c.weights,
      stem: c.stem,
      precision: c.precision,
    });
    const engine = winkBm25();
    const fldWeights: Record<string, number> = {};
    for (const [f, w] of Object.entries(c.weights)) if (w > 0) fldWeights[f] = w;
    engine.defineConfig({ fldWeights, bm25Params: {} });
    engine.definePrepTasks([(t: string) => identifierTokens(t, { stem: c.stem, stopWords: true })]);
    for (const d of docs) {
      const fields: Record<string, string> = {};
      for (const f of Object.keys(fldWeights)) fields[f] = d[f as keyof typeof d];
      engine.addDoc(fields, d.id);
    }
    engine.consolidate(c.precision);
    const scale = 10 ** c.precision;
    let deep = 0;
    // The second case on a third of the queries (wink's own search sorts every hit).
    for (const q of c.stem ? queries.filter((_, i) => i % 3 === 0) : queries) {
      const all = (engine.search(q, docs.length) as [string, number][])
        .map(([id, score]) => ({ id, score: Math.round(score * scale) / scale }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      if (all.length > 100) deep++;
      for (const k of [1, 5, 10, 20, 100]) {
        assert.deepEqual(r.search(q, k), all.slice(0, k), `"${q}" at ${k}`);
      }
    }
    // The deep searches (a sort of every hit) were exercised, not only the short list.
    assert.ok(deep > 10, `${deep} queries with over 100 hits`);
  }
});

Deno.test("createBm25Retriever() with paramsTexts indexes those texts as params: by hand", () => {
  // Params field only (weight 1), no stemming or stop words. Indexed params: "alpha beta", "alpha",
  // "gamma" (the documents' own params are other words). As the first test: beta in d1 scores
  // 1 × 2.2 / (1 + 1.65) × ln(8/3) = 0.8143; "zeta", only in the documents' own params, nowhere.
  const docs = ["d1", "d2", "d3"].map((id) => ({ ...doc(id, id), params: "zeta" }));
  const r = createBm25Retriever(docs, {
    weights: { name: 0, description: 0, params: 1, server: 0 },
    stem: false,
    stopWords: false,
    paramsTexts: ["alpha beta", "alpha", "gamma"],
  });
  assert.deepEqual(r.search("beta", 10), [{ id: "d1", score: 0.8143 }]);
  assert.deepEqual(r.search("zeta", 10), []);
});
