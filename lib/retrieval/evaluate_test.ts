import assert from "node:assert/strict";
import type { Corpus, Tool } from "../catalog/types.ts";
import { createOracleRetriever, createRandomRetriever } from "./baselines.ts";
import { compareRetrievals, evaluateRetrieval } from "./evaluate.ts";
import { indexArmsFor } from "./registry.ts";
import { parseMcpproxyGolden } from "./golden.ts";
import { METRIC_KEYS } from "./metrics.ts";

const tool = (server: string, name: string, description: string): Tool => ({
  id: `${server}:${name}`,
  server,
  name,
  description,
});
const TOOLS = [
  tool("github", "create_issue", "Create a new issue in a repository"),
  tool("github", "create_branch", "Create a new branch"),
  tool("gitlab", "create_branch", "Create a branch in a GitLab project"),
  tool("fs", "read_file", "Read the contents of a file"),
  tool("fs", "write_file", "Write text to a file"),
  tool("time", "now", "Current time in a timezone"),
];
const CORPUS: Corpus = {
  id: "mini",
  version: "1",
  provenance: { format: "mcp-tools-list" },
  tools: TOOLS,
  warnings: [],
};
const GOLDEN = parseMcpproxyGolden(
  JSON.stringify({
    queries: [
      {
        id: "q1",
        query: "make a branch on gitlab",
        labels: [{ tool_id: "gitlab:create_branch", relevance: 2 }, {
          tool_id: "github:create_branch",
          relevance: 1,
        }],
      },
      {
        id: "q2",
        query: "open a bug report",
        labels: [{ tool_id: "github:create_issue", relevance: 2 }],
      },
      { id: "q3", query: "what time is it", labels: [{ tool_id: "time:now", relevance: 2 }] },
      {
        id: "q4",
        query: "save text to disk",
        labels: [{ tool_id: "fs:write_file", relevance: 2 }],
      },
    ],
  }),
  { id: "mini.test" },
);

Deno.test("evaluateRetrieval() with the oracle gives ideal nDCG, MRR and recall@10", () => {
  const r = evaluateRetrieval({ corpus: CORPUS, golden: GOLDEN, retriever: "oracle", seed: 7 });
  assert.equal(r.queryCount, 4);
  assert.equal(r.metrics["ndcg@10"], 1);
  assert.equal(r.metrics["mrr@10"], 1);
  assert.equal(r.metrics["recall@10"], 1);
  assert.equal(r.metrics["map@10"], 1);
  // q1 has two relevant labels: recall@1 = 1/2 there, 1 elsewhere → mean 3.5 / 4.
  assert.equal(r.metrics["recall@1"], 3.5 / 4);
  assert.deepEqual(r.perQuery[0].topIds, ["gitlab:create_branch", "github:create_branch"]);
  assert.equal(r.perQuery[0].firstRelevantRank, 1);
  assert.deepEqual(r.ci95["ndcg@10"], [1, 1]);
  assert.equal(r.arm, null);
  assert.equal(r.resamples, 1000);
});

Deno.test("evaluateRetrieval() output is JSON-safe and has every metric key", () => {
  for (const retriever of ["bm25", "tfidf_classic", "random", "oracle"] as const) {
    const r = evaluateRetrieval({ corpus: CORPUS, golden: GOLDEN, retriever, seed: 3 });
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r, retriever);
    assert.deepEqual(Object.keys(r.metrics), [...METRIC_KEYS]);
    for (const key of METRIC_KEYS) {
      const [lo, hi] = r.ci95[key];
      assert.ok(Number.isFinite(lo) && lo <= hi, `${retriever} ${key}`);
    }
  }
});

Deno.test("evaluateRetrieval() builds the index from an arm's indexFields", () => {
  // An arm that blanks descriptions and servers leaves only names: "bug report" then finds nothing.
  const arm = {
    name: "names_only",
    indexFields: (t: Tool) => ({ name: t.name, server: "", description: "", params: "" }),
  };
  const full = evaluateRetrieval({ corpus: CORPUS, golden: GOLDEN, retriever: "bm25", seed: 1 });
  const bare = evaluateRetrieval({
    corpus: CORPUS,
    golden: GOLDEN,
    retriever: "bm25",
    seed: 1,
    arm,
  });
  assert.equal(bare.arm, "names_only");
  assert.equal(full.perQuery[2].firstRelevantRank, 1); // "what time is it" → description "Current time"
  assert.equal(bare.perQuery[2].firstRelevantRank, null);
});

Deno.test("random baseline is reproducible per seed and query, whatever the call order", () => {
  const docs = Array.from({ length: 50 }, (_, i) => ({
    id: `d${String(i).padStart(2, "0")}`,
    name: "",
    server: "",
    description: "",
    params: "",
  }));
  const a = createRandomRetriever(docs, 9);
  const b = createRandomRetriever(docs, 9);
  const first = a.search("x", 10);
  b.search("y", 10);
  assert.deepEqual(b.search("x", 10), first);
  assert.equal(new Set(first.map((h) => h.id)).size, 10);
  assert.notDeepEqual(createRandomRetriever(docs, 10).search("x", 10), first);
  assert.equal(a.search("x", 100).length, 50);
});

Deno.test("oracle ranks by grade then id and rejects ambiguous query texts", () => {
  const o = createOracleRetriever(GOLDEN);
  assert.deepEqual(o.search("make a branch on gitlab", 10).map((h) => h.score), [2, 1]);
  assert.deepEqual(o.search("unknown", 10), []);
  const clash = parseMcpproxyGolden(
    JSON.stringify({
      queries: [
        { id: "a", query: "same", labels: [{ tool_id: "x", relevance: 2 }] },
        { id: "b", query: "same", labels: [{ tool_id: "y", relevance: 2 }] },
      ],
    }),
    { id: "clash" },
  );
  assert.throws(() => createOracleRetriever(clash), RangeError);
});

Deno.test("compareRetrievals() pairs per-query values; oracle vs itself has p = 1", () => {
  const o = evaluateRetrieval({ corpus: CORPUS, golden: GOLDEN, retriever: "oracle", seed: 1 });
  const same = compareRetrievals(o, o, { seed: 2, resamples: 200 });
  assert.equal(same.length, METRIC_KEYS.length);
  assert.ok(same.every((c) => c.pValue === 1 && c.meanDiff === 0));
  const rnd = evaluateRetrieval({ corpus: CORPUS, golden: GOLDEN, retriever: "random", seed: 1 });
  const diff = compareRetrievals(o, rnd, { seed: 2, resamples: 200 });
  const ndcg = diff.find((c) => c.metric === "ndcg@10")!;
  assert.equal(ndcg.meanDiff, o.metrics["ndcg@10"] - rnd.metrics["ndcg@10"]);
});

Deno.test("compareRetrievals() with metrics: the same tests as the full run, in METRIC_KEYS order", () => {
  const o = evaluateRetrieval({ corpus: CORPUS, golden: GOLDEN, retriever: "oracle", seed: 1 });
  const rnd = evaluateRetrieval({ corpus: CORPUS, golden: GOLDEN, retriever: "random", seed: 1 });
  const all = compareRetrievals(o, rnd, { seed: 2, resamples: 200 });
  const two = compareRetrievals(o, rnd, {
    seed: 2,
    resamples: 200,
    metrics: ["ndcg@10", "recall@5"],
  });
  assert.deepEqual(two.map((c) => c.metric), ["recall@5", "ndcg@10"]);
  assert.deepEqual(two, all.filter((c) => c.metric === "recall@5" || c.metric === "ndcg@10"));
});

Deno.test("indexArmsFor() scores tfidf on every arm, bm25 only where a weighted field changes, baselines on none", () => {
  const tools: Tool[] = [{
    id: "s:a",
    server: "s",
    name: "a",
    description: "read",
    inputSchema: { type: "object" },
  }];
  const own = (t: Tool) => ({
    name: t.name,
    server: t.server,
    description: t.description,
    params: "",
  });
  const paramsOnly = { name: "sig", indexFields: (t: Tool) => ({ ...own(t), params: "()" }) };
  const rewords = { name: "md", indexFields: (t: Tool) => ({ ...own(t), description: "READ" }) };
  const arms = [paramsOnly, rewords];
  assert.deepEqual(indexArmsFor("tfidf_classic", tools, arms).score.map((a) => a.name), [
    "sig",
    "md",
  ]);
  const bm25 = indexArmsFor("bm25", tools, arms);
  assert.deepEqual(bm25.score.map((a) => a.name), ["md"]);
  assert.deepEqual(bm25.skipped.map((s) => s.arm), ["sig"]);
  assert.deepEqual(indexArmsFor("random", tools, arms), { score: [], skipped: [] });
});
