import assert from "node:assert/strict";
import { corpus, proxy, tools, words } from "../../testing/modes.ts";
import { heaviest, measureCatalogCost } from "./catalog_cost.ts";
import { catalogCost } from "./cost.ts";

Deno.test("measureCatalogCost() prices each mode and samples sizes from whole servers", () => {
  const r = measureCatalogCost({
    corpora: [corpus],
    proxyTools: proxy,
    codeTools: proxy,
    tokenizers: [words],
    seed: 7,
    sizes: [5, 20, 50],
  });
  // Each tool: "tN\ndoes x" = 3 words, + "{"type":"object"}" = 4 tokens with schema.
  const direct = r.modes.find((m) => m.mode === "direct")!;
  assert.equal(direct.toolCount, 78);
  assert.equal(direct.tokensWithSchemas, 78 * 4);
  // Proxy: "retrieve_tools\nfind a tool for a task" = 7 words, + schema = 8.
  const proxyRow = r.modes.find((m) => m.mode === "proxy")!;
  assert.equal(proxyRow.tokensWithSchemas, 8);
  assert.equal(proxyRow.savingsWithSchemas, 1 - 8 / (78 * 4));
  assert.deepEqual(r.scaling.map((s) => s.targetSize), [5, 20, 50, 78]);
  for (const row of r.scaling.filter((s) => !s.full)) {
    assert.ok(row.meanToolCount >= row.targetSize);
  }
  // 5 tools already cost ≥ 20 tokens > 8: the proxy pays off from the smallest sample.
  assert.equal(r.crossovers.find((c) => c.mode === "proxy")!.measuredSize, 5);
  assert.equal(r.crossovers.find((c) => c.mode === "proxy")!.estimatedSize, 2);
});

Deno.test("heaviest() ranks servers by summed tokens, ties by id", () => {
  const h = heaviest("tiny", "words", catalogCost(tools, words), 3);
  assert.deepEqual(h.servers.map((s) => [s.id, s.toolCount, s.tokens]), [
    ["s12", 12, 48],
    ["s11", 11, 44],
    ["s10", 10, 40],
  ]);
  // All tools weigh 4: ties broken by id ascending.
  assert.deepEqual(h.tools.map((t) => t.id), ["s01:t0", "s02:t0", "s02:t1"]);
});

Deno.test("measureCatalogCost() gives the same rows for the same seed", () => {
  const run = () =>
    JSON.stringify(measureCatalogCost({
      corpora: [corpus],
      proxyTools: proxy,
      codeTools: proxy,
      tokenizers: [words],
      seed: 7,
      sizes: [5, 20, 50],
    }));
  assert.equal(run(), run());
});

Deno.test("catalogCost() with the real tokenizers gives the direct counts of every tool text", async () => {
  const { loadCatalog } = await import("../catalog/load.ts");
  const { createTokenizer, TOKENIZER_NAMES } = await import("../tokens/tokenizers.ts");
  const { schemaText } = await import("../catalog/canonical.ts");
  const corpus = await loadCatalog(
    new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url).pathname,
  );
  for (const name of TOKENIZER_NAMES) {
    const reference = createTokenizer(name, "gpt-tokenizer");
    const cost = catalogCost(corpus.tools, createTokenizer(name));
    for (const [i, tool] of corpus.tools.entries()) {
      const head = `${tool.name}\n${tool.description}`;
      const schema = schemaText(tool);
      const c = cost.perTool[i];
      assert.equal(c.tokensNameDescription, reference.count(head), tool.id);
      assert.equal(
        c.tokensWithSchema,
        reference.count(schema === undefined ? head : `${head}\n${schema}`),
        tool.id,
      );
    }
  }
});
