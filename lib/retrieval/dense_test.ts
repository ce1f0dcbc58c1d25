import assert from "node:assert/strict";
import { startEmbeddingsServer } from "./_embeddings_server.ts";
import { createDenseRetriever, denseDocText } from "./dense.ts";
import { createFileEmbeddingStore } from "./embedding_cache.ts";
import { createEmbedder } from "./embeddings.ts";
import { evaluateRetrievalAsync } from "./evaluate.ts";
import { parseMcpproxyGolden } from "./golden.ts";
import { reciprocalRankFusion } from "./hybrid.ts";
import { retrieverEntry } from "./registry.ts";
import type { RetrievalDoc } from "./types.ts";

const doc = (name: string, description: string): RetrievalDoc => ({
  id: `s:${name}`,
  name,
  server: "s",
  description,
  params: "",
});
// Topic words (see _embeddings_server.ts): files, tickets, meetings, messages.
const DOCS = [
  doc("read_text_file", "Read the contents of a file"),
  doc("create_issue", "Open a ticket for a bug"),
  doc("list_events", "Calendar events and meeting schedule"),
  doc("post_message", "Post to a chat channel"),
];
const corpus = { id: "tiny", docs: DOCS };
// No query shares a word with its tool: BM25 finds nothing, the topic vectors do.
const golden = parseMcpproxyGolden(
  JSON.stringify({
    queries: [
      { id: "q1", query: "show my notes", labels: [{ tool_id: "s:read_text_file", relevance: 2 }] },
      {
        id: "q2",
        query: "something is broken",
        labels: [{ tool_id: "s:create_issue", relevance: 2 }],
      },
      {
        id: "q3",
        query: "standup tomorrow?",
        labels: [{ tool_id: "s:list_events", relevance: 2 }],
      },
    ],
  }),
  { id: "tiny.test" },
);

const settings = (baseUrl: string) => ({
  embeddingModel: { id: "emb", model: "topic-embed", baseUrl, inputUsdPerMTok: 1 },
});

Deno.test("dense ranks by topic where no word is shared, and reports index and query cost", async () => {
  const server = startEmbeddingsServer();
  try {
    const row = await evaluateRetrievalAsync({
      corpus,
      golden,
      retriever: "dense",
      settings: settings(server.baseUrl),
      fetch,
      seed: 1,
      resamples: 20,
    });
    assert.equal(row.retriever, "dense");
    assert.equal(row.metrics["mrr@10"], 1);
    assert.equal(row.metrics["recall@1"], 1);
    // Index: one request with the four document texts; queries: one request with three.
    assert.equal(server.requests.length, 2);
    assert.deepEqual(server.requests[0].body.input, DOCS.map(denseDocText));
    const indexTokens = DOCS.map(denseDocText).join(" ").split(/\s+/).length;
    assert.deepEqual(row.cost, {
      requests: 2,
      inputTokens: indexTokens + 3 + 3 + 2,
      usd: (indexTokens + 8) / 1e6,
      phases: {
        index: { requests: 1, inputTokens: indexTokens, usd: indexTokens / 1e6 },
        queries: { requests: 1, inputTokens: 8, usd: 8 / 1e6 },
      },
      cachedTexts: 0,
    });
    assert.deepEqual(row.retrieverConfig, {
      embeddingModel: "emb",
      model: "topic-embed",
      dimension: 5,
      similarity: "cosine",
    });
    const bm25 = await evaluateRetrievalAsync({ corpus, golden, retriever: "bm25", seed: 1 });
    assert.equal(bm25.metrics["mrr@10"], 0, "BM25 shares no word with these queries");
  } finally {
    await server.close();
  }
});

Deno.test("a second dense build over the same cache sends no request for the documents", async () => {
  const dir = await Deno.makeTempDir();
  const server = startEmbeddingsServer();
  try {
    const embeddingStore = createFileEmbeddingStore(dir);
    const run = () =>
      evaluateRetrievalAsync({
        corpus,
        golden,
        retriever: "dense",
        settings: settings(server.baseUrl),
        fetch,
        embeddingStore,
        seed: 1,
        resamples: 20,
      });
    const first = await run();
    assert.equal(server.requests.length, 2);
    const second = await run();
    assert.equal(server.requests.length, 2, "documents and queries all come from the cache");
    assert.equal(second.cost?.requests, 0);
    assert.equal(second.cost?.cachedTexts, DOCS.length + 3);
    assert.deepEqual(second.metrics, first.metrics);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dense without an embedding model is a clear error; an unprepared query too", async () => {
  await assert.rejects(
    () => evaluateRetrievalAsync({ corpus, golden, retriever: "dense", seed: 1 }),
    /Retriever "dense" needs an embedding model: pass --embedding-model ID/,
  );
  const server = startEmbeddingsServer();
  try {
    const r = await createDenseRetriever(DOCS, {
      embedder: createEmbedder(settings(server.baseUrl).embeddingModel, { fetch }),
    });
    assert.throws(() => r.search("show my notes", 3), /was not prepared; call prepare\(\)/);
    await r.prepare(["show my notes"]);
    assert.equal(r.search("show my notes", 1)[0].id, "s:read_text_file");
  } finally {
    await server.close();
  }
});

Deno.test("reciprocalRankFusion() by hand, k = 60", () => {
  // a: 1/61 + 1/63; b: 1/62 + 1/61; c: 1/62 (list 2 only), d: 1/63.
  const fused = reciprocalRankFusion([["a", "b", "d"], ["b", "c", "a"]], 60);
  assert.deepEqual(fused.map((h) => h.id), ["b", "a", "c", "d"]);
  assert.ok(Math.abs(fused[0].score - (1 / 62 + 1 / 61)) < 1e-12);
  assert.ok(Math.abs(fused[1].score - (1 / 61 + 1 / 63)) < 1e-12);
  assert.throws(() => reciprocalRankFusion([["a"]], 0), RangeError);
});

Deno.test("hybrid fuses bm25 and dense: a word match and a topic match both rank", async () => {
  const server = startEmbeddingsServer();
  try {
    const entry = retrieverEntry("hybrid");
    assert.equal(entry.asyncBuild, true);
    const r = await entry.create(DOCS, {
      seed: 1,
      settings: settings(server.baseUrl),
      fetch,
    });
    await r.prepare!(["show my notes", "post"]);
    // Topic only: dense carries it.
    assert.equal(r.search("show my notes", 1)[0].id, "s:read_text_file");
    // "post" is a word of post_message (BM25) and a message-topic word (dense): first in both.
    const hits = r.search("post", 4);
    assert.equal(hits[0].id, "s:post_message");
    assert.ok(Math.abs(hits[0].score - 2 / 61) < 1e-12);
    assert.equal(r.cost!().phases!.queries.requests, 1);
  } finally {
    await server.close();
  }
});
