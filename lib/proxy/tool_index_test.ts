import assert from "node:assert/strict";
import { createToolIndex, proxyRetriever } from "./tool_index.ts";

const TOOLS = [
  { id: "fs:read_file", server: "fs", name: "read_file", description: "Read a file from disk" },
  { id: "fs:write_file", server: "fs", name: "write_file", description: "Write a file to disk" },
  { id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open an issue" },
];

Deno.test("proxyRetriever() serves a registered retriever by name", () => {
  const index = createToolIndex(TOOLS, { retriever: proxyRetriever("tfidf_classic") });
  assert.equal(index.retriever.name, "tfidf_classic");
  // The exact tool name is a term query boosted 5 in tfidf_classic: it ranks first.
  assert.equal(index.search("write_file", 3)[0].id, "fs:write_file");
  assert.equal(createToolIndex(TOOLS).retriever.name, "bm25", "bm25 stays the default");
});

Deno.test("proxyRetriever() refuses retrievers the proxy cannot build, by their capabilities", () => {
  assert.throws(
    () => proxyRetriever("oracle"),
    new TypeError('Cannot serve retriever "oracle" from the proxy: it needs golden labels'),
  );
  assert.throws(() => proxyRetriever("nope"), RangeError);
});

Deno.test("proxyRetriever() serves dense: built on the first prepare, each query embedded first", async () => {
  const { startEmbeddingsServer } = await import("../retrieval/_embeddings_server.ts");
  const server = startEmbeddingsServer();
  try {
    const index = createToolIndex(TOOLS, {
      retriever: proxyRetriever("dense", {
        seed: 0,
        settings: {
          embeddingModel: { id: "e", model: "topic-embed", baseUrl: server.baseUrl },
        },
        fetch,
      }),
    });
    assert.equal(server.requests.length, 0, "nothing is embedded before the first call");
    assert.throws(() => index.search("something is broken", 1), /not built yet/);
    await index.prepare!(["something is broken"]);
    // Documents, then the query: two requests; the topic vector finds the ticket tool.
    assert.equal(server.requests.length, 2);
    assert.equal(index.search("something is broken", 1)[0].id, "gh:create_issue");
    await index.prepare!(["something is broken"]);
    assert.equal(server.requests.length, 2, "a prepared query is not embedded again");
    assert.equal(index.retriever.config.model, "topic-embed");
  } finally {
    await server.close();
  }
});

Deno.test("a dense proxy index whose endpoint fails rejects prepare and builds on the next call", async () => {
  const { startEmbeddingsServer } = await import("../retrieval/_embeddings_server.ts");
  let down = true;
  const server = startEmbeddingsServer({
    fail: () => down ? { status: 400, body: "bad request" } : undefined,
  });
  try {
    const index = createToolIndex(TOOLS, {
      retriever: proxyRetriever("dense", {
        seed: 0,
        settings: {
          embeddingModel: { id: "e", model: "topic-embed", baseUrl: server.baseUrl },
        },
        fetch,
      }),
    });
    await assert.rejects(() => index.prepare!(["a crash report"]), /HTTP 400: bad request/);
    down = false;
    await index.prepare!(["a crash report"]);
    assert.equal(index.search("a crash report", 1)[0].id, "gh:create_issue");
  } finally {
    await server.close();
  }
});
