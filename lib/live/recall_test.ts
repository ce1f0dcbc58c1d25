// Recall measured through the live proxy (MCP over streamable HTTP) equals
// the offline retrieval figure for the same retriever (BM25) and corpus.
import assert from "node:assert/strict";
import { loadCatalog } from "../catalog/load.ts";
import type { JsonObject } from "../catalog/types.ts";
import { evaluateRetrieval } from "../retrieval/evaluate.ts";
import { loadGolden } from "../retrieval/load_golden.ts";
import { fakeUpstream } from "../../testing/proxy.ts";
import { serveProxyHttp } from "../proxy/http.ts";
import { createProxyCore } from "../proxy/server.ts";
import { createUpstreamPool } from "../proxy/upstream.ts";
import { restrictGolden } from "./golden_filter.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import { buildLiveBlock, type QueryCalls } from "./live_block.ts";
import { openDiscoverySession } from "./discovery_calls.ts";

const CORPUS = new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url);
const GOLDEN = new URL("../../fixtures/golden/reference_v1.test.json", import.meta.url);

function exists(url: URL): boolean {
  try {
    Deno.statSync(url);
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "recall through the live proxy equals offline BM25 on the reference corpus",
  ignore: !exists(CORPUS) || !exists(GOLDEN),
  async fn() {
    const corpus = await loadCatalog(CORPUS.pathname);
    const golden = await loadGolden(GOLDEN.pathname);
    // One in-process upstream per corpus server, listing that server's tools.
    const byServer = new Map<string, JsonObject[]>();
    for (const t of corpus.tools) {
      const raw: Record<string, unknown> = { name: t.name, description: t.description };
      if (t.title !== undefined) raw.title = t.title;
      if (t.inputSchema !== undefined) raw.inputSchema = t.inputSchema;
      if (t.outputSchema !== undefined) raw.outputSchema = t.outputSchema;
      if (t.annotations !== undefined) raw.annotations = t.annotations;
      byServer.set(t.server, [...(byServer.get(t.server) ?? []), raw as JsonObject]);
    }
    const upstreams = await Promise.all(
      [...byServer].map(([name, tools]) => fakeUpstream({ name, tools })),
    );
    const pool = await createUpstreamPool(upstreams);
    const http = serveProxyHttp(createProxyCore(pool));
    const session = openDiscoverySession({ url: http.url });
    try {
      assert.equal(pool.tools.length, corpus.tools.length);
      const used = restrictGolden(golden, new Set(pool.tools.map((t) => t.id)));
      const calls: QueryCalls[] = [];
      for (const [queryId, query] of used.queries) {
        calls.push({ queryId, query, full: await session.discover(query, { limit: 10 }) });
      }
      const block = buildLiveBlock({
        tokenizer: "cl100k_base",
        counter: createTokenizer("cl100k_base"),
        target: {
          kind: "reference-proxy",
          url: http.url,
          tool: "retrieve_tools",
          queryArg: "query",
          extraArgs: { limit: 10 },
        },
        golden: used,
        goldenTotal: golden.queries.size,
        calls,
        proxyMenu: null,
        directMenu: corpus.tools,
        directListingMs: null,
        lookup: () => undefined,
      });
      assert.equal(block.queries.failed, 0);
      assert.ok(block.retrieval !== null);
      assert.equal(block.retrieval.queryCount, used.queries.size);
      const offline = evaluateRetrieval({
        corpus,
        golden: used,
        retriever: "bm25",
        seed: 1,
        resamples: 1,
      });
      const rounded = Object.fromEntries(
        Object.entries(offline.metrics).map(([k, v]) => [k, Math.round(v * 1e4) / 1e4]),
      );
      assert.deepEqual(block.retrieval.metrics, rounded);
      // And query by query: the live top 10 is the offline top 10.
      const live = new Map(block.responseCost.perQuery.map((r) => [r.queryId, r.topIds]));
      for (const row of offline.perQuery) {
        assert.deepEqual(live.get(row.queryId), row.topIds, row.queryId);
      }
    } finally {
      await session.close();
      await http.shutdown();
      await pool.close();
    }
  },
});
