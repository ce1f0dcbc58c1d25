import assert from "node:assert/strict";
import { z } from "zod";
import type { JsonObject } from "../catalog/types.ts";
import { startEmbeddingsServer } from "../retrieval/_embeddings_server.ts";
import { clientFor, fakeUpstream, FS_TOOLS, GH_TOOLS } from "../../testing/proxy.ts";
import { createProxyCore, createProxyServer } from "./server.ts";
import { proxyRetriever } from "./tool_index.ts";
import { createUpstreamPool } from "./upstream.ts";

const AnyResult = z.looseObject({});

Deno.test("retrieve_tools over MCP serves the dense retriever; an endpoint outage is an error result", async () => {
  let down = false;
  const server = startEmbeddingsServer({
    fail: () => down ? { status: 401, body: "key revoked" } : undefined,
  });
  const fs = await fakeUpstream({ name: "fs", tools: FS_TOOLS });
  const gh = await fakeUpstream({ name: "gh", tools: GH_TOOLS });
  const pool = await createUpstreamPool([fs, gh]);
  const retriever = proxyRetriever("dense", {
    seed: 0,
    settings: { embeddingModel: { id: "e", model: "topic-embed", baseUrl: server.baseUrl } },
    fetch,
  });
  const client = await clientFor(createProxyServer(createProxyCore(pool, { retriever })));
  const call = (query: string) =>
    client.request(
      { method: "tools/call", params: { name: "retrieve_tools", arguments: { query, limit: 1 } } },
      AnyResult,
    ) as Promise<JsonObject>;
  const text = (r: JsonObject) => (r.content as JsonObject[])[0].text as string;
  try {
    // No word of the query is in gh:create_issue; its topic (tickets, bugs) is.
    const r = await call("something is broken, report it");
    assert.equal(r.isError, undefined);
    assert.equal(JSON.parse(text(r)).tools[0].name, "gh:create_issue");
    down = true;
    const failed = await call("a brand new query");
    assert.equal(failed.isError, true);
    assert.match(
      text(failed),
      /^retrieve_tools: retriever "dense" failed: .*HTTP 401: key revoked/,
    );
    down = false;
    const again = await call("a crash report");
    assert.equal(JSON.parse(text(again)).tools[0].name, "gh:create_issue", "the proxy goes on");
  } finally {
    await client.close();
    await pool.close();
    await server.close();
  }
});
