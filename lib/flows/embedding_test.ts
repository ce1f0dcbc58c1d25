import assert from "node:assert/strict";
import { startEmbeddingsServer } from "../retrieval/_embeddings_server.ts";
import { runBench } from "./bench.ts";
import { resolveEmbeddingModel } from "./embedding.ts";
import { UsageError } from "../core/errors.ts";
import { denoFlowIo } from "./io.ts";

async function registry(dir: string, baseUrl: string): Promise<string> {
  const path = `${dir}/models.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      models: [
        {
          id: "local-embed",
          kind: "embedding",
          provider: "openai",
          model: "${EMBED_MODEL:-topic-embed}",
          baseUrl,
          apiKey: "${TEST_EMBED_KEY}",
          pricing: { inputUsdPerMTok: 0.5 },
        },
        {
          id: "chat",
          provider: "openai",
          model: "gpt",
          apiKey: "${TEST_EMBED_KEY}",
          pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 },
        },
      ],
    }),
  );
  return path;
}

Deno.test("resolveEmbeddingModel() expands the entry, keeps the key out of the settings and sends it", async () => {
  const dir = await Deno.makeTempDir();
  const server = startEmbeddingsServer();
  try {
    const modelsPath = await registry(dir, server.baseUrl);
    const env = { TEST_EMBED_KEY: "sk-test-123" };
    const ctx = await resolveEmbeddingModel({
      id: "local-embed",
      modelsPath,
      cacheDir: `${dir}/cache`,
      env,
    });
    assert.deepEqual(ctx.settings, {
      embeddingModel: {
        id: "local-embed",
        model: "topic-embed",
        baseUrl: server.baseUrl,
        inputUsdPerMTok: 0.5,
      },
    });
    assert.doesNotMatch(JSON.stringify(ctx.settings), /sk-test/);
    await ctx.fetch(`${server.baseUrl}/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "topic-embed", input: ["a"] }),
    }).then((r) => r.body?.cancel());
    assert.equal(server.requests[0].headers["authorization"], "Bearer sk-test-123");
    await assert.rejects(
      () => resolveEmbeddingModel({ id: "chat", modelsPath, cacheDir: dir, env }),
      new UsageError(
        `--embedding-model: "chat" is a chat model in ${modelsPath} (embedding models: local-embed)`,
      ),
    );
    await assert.rejects(
      () => resolveEmbeddingModel({ id: "nope", modelsPath, cacheDir: dir, env }),
      /no model "nope"/,
    );
    await assert.rejects(
      () => resolveEmbeddingModel({ id: "local-embed", modelsPath, cacheDir: dir, env: {} }),
      /needs environment variable TEST_EMBED_KEY/,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runBench() scores dense and hybrid end to end against a local embeddings server", async () => {
  const dir = await Deno.makeTempDir();
  const server = startEmbeddingsServer();
  try {
    const modelsPath = await registry(dir, server.baseUrl);
    const tools = [
      ["read_text_file", "Read the contents of a file"],
      ["create_issue", "Open a ticket for a bug"],
      ["list_events", "Calendar events and meeting schedule"],
      ["post_message", "Post to a chat channel"],
    ].map(([name, description]) => ({ name, description, inputSchema: { type: "object" } }));
    await Deno.writeTextFile(`${dir}/tiny.json`, JSON.stringify({ tools }));
    const q = (id: string, query: string, tool: string) => ({
      id,
      query,
      labels: [{ tool_id: tool, relevance: 2 }],
    });
    await Deno.writeTextFile(
      `${dir}/tiny.test.json`,
      JSON.stringify({
        queries: [
          q("q1", "show my notes", "tiny:read_text_file"),
          q("q2", "something is broken", "tiny:create_issue"),
          q("q3", "post to the channel", "tiny:post_message"),
        ],
      }),
    );
    const options = {
      corpora: [`${dir}/tiny.json`],
      golden: [`${dir}/tiny.test.json`],
      arms: "none",
      toolResults: "none",
      tokenizers: ["cl100k_base"],
      retrievers: ["bm25", "dense", "hybrid"],
      embeddingModel: "local-embed",
      models: modelsPath,
      embeddingCache: `${dir}/cache`,
      resamples: 20,
    };
    const io = {
      ...denoFlowIo(),
      env: () => ({ TEST_EMBED_KEY: "sk-test-123" }),
      progress: () => {},
    };
    const report = await runBench(options, io);
    const row = (name: string) => report.retrieval!.find((r) => r.retriever === name)!;
    // q3 shares words with post_message; q1 and q2 only topics: BM25 finds one of three.
    assert.equal(row("bm25").metrics["recall@1"], 1 / 3);
    assert.equal(row("dense").metrics["recall@1"], 1);
    assert.equal(row("hybrid").metrics["recall@10"], 1);
    assert.ok(row("dense").cost!.inputTokens > 0);
    assert.equal(report.goldenSets?.[0].goldenSetId, "tiny.test");
    // dense vs bm25 on recall@5 per query: q1 +1, q2 +1, q3 0, so the mean difference is 2/3.
    const vs = report.retrievalComparisons!.find((c) =>
      c.retriever === "dense" && c.metric === "recall@5"
    )!;
    assert.equal(vs.baseline, "bm25");
    assert.ok(Math.abs(vs.meanDiff - 2 / 3) < 1e-12);
    assert.deepEqual(report.frontier!.map((f) => f.retriever), ["bm25", "dense", "hybrid"]);
    // BM25 returns only tools that share a word: 1 of 3 queries, at every k. Dense ranks all
    // four tools, so by k = 4 it has shown every one; hybrid fuses both.
    const at20 = (name: string) => report.frontier!.find((f) => f.retriever === name)!.points[19];
    assert.equal(at20("bm25").recall, 1 / 3);
    assert.equal(at20("dense").recall, 1);
    assert.equal(at20("hybrid").recall, 1);
    assert.equal(report.frontier!.find((f) => f.retriever === "dense")!.points[0].recall, 1);
    const requestsAfterFirst = server.requests.length;
    // dense and hybrid share one cache: the hybrid build embedded nothing new.
    assert.equal(row("hybrid").cost!.requests, 0);
    const again = await runBench(options, io);
    assert.equal(server.requests.length, requestsAfterFirst, "a second run sends no request");
    assert.equal(
      again.retrieval!.find((r) => r.retriever === "dense")!.metrics["recall@1"],
      1,
    );
    await assert.rejects(
      () => runBench({ ...options, embeddingModel: undefined }, io),
      /--retrievers dense,hybrid needs --embedding-model ID/,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
