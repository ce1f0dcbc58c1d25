// retrieve_tools on the full reference corpus, excluding transport: the
// proxy core's handler (argument check, BM25 search, response rendering)
// next to the bare BM25 search, over the reference golden queries in turn.
// Run: deno bench -A lib/proxy/tool_index_bench.ts
import { loadCatalog } from "../catalog/load.ts";
import { loadGolden } from "../retrieval/load_golden.ts";
import { createProxyCore } from "./server.ts";
import { createToolIndex } from "./tool_index.ts";
import type { UpstreamPool } from "./upstream.ts";

const corpus = await loadCatalog(
  new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url).pathname,
);
const golden = await loadGolden(
  new URL("../../fixtures/golden/reference_v1.test.json", import.meta.url).pathname,
);
const queries = [...golden.queries.values()];
const pool: UpstreamPool = {
  tools: corpus.tools,
  warnings: [],
  listingMs: 0,
  statuses: () => [],
  call: () => Promise.resolve({ content: [] }),
  close: () => Promise.resolve(),
};
const core = createProxyCore(pool);
const index = createToolIndex(corpus.tools);
let i = 0;
let j = 0;
let k = 0;

Deno.bench({
  name: `BM25 search only (${corpus.tools.length} tools)`,
  group: "retrieve_tools, no transport",
  baseline: true,
  fn() {
    index.search(queries[i++ % queries.length], 10);
  },
});

Deno.bench({
  name: "retrieve_tools detail=full (check + search + render)",
  group: "retrieve_tools, no transport",
  async fn() {
    await core.handle("retrieve_tools", { query: queries[j++ % queries.length] });
  },
});

Deno.bench({
  name: "retrieve_tools detail=compact",
  group: "retrieve_tools, no transport",
  async fn() {
    await core.handle("retrieve_tools", {
      query: queries[k++ % queries.length],
      detail: "compact",
    });
  },
});

Deno.bench({
  name: `index build (${corpus.tools.length} tools)`,
  group: "index build",
  n: 5,
  fn() {
    createToolIndex(corpus.tools);
  },
});
