import assert from "node:assert/strict";
import type { Tool } from "../catalog/types.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { catalogCost, drawServers, measureModes, savings, savingsBySize, toolCost } from "./mod.ts";

/** One token per whitespace-separated word: easy to count by hand. */
const words: Tokenizer = { name: "words", count: (t) => t.split(/\s+/).filter(Boolean).length };

const tool = (
  server: string,
  name: string,
  description: string,
  inputSchema?: Tool["inputSchema"],
): Tool => ({
  id: `${server}:${name}`,
  server,
  name,
  description,
  ...(inputSchema ? { inputSchema } : {}),
});

// x: "x\nread a file" = 4 words; + canonical schema {"type":"object"} = 5.
// y: "y\nwrite" = 2; + {"properties":{"p":{"type":"string"}},"type":"object"} (one word) = 3.
// z: "z\n" = 1 and no schema.
const corpus = [
  tool("a", "x", "read a file", { type: "object" }),
  tool("a", "y", "write", { type: "object", properties: { p: { type: "string" } } }),
  tool("b", "z", ""),
];
// Proxy: "retrieve_tools\nfind tools" = 3; + schema = 4.
const proxy = [tool("proxy", "retrieve_tools", "find tools", { type: "object" })];
// Code: "run_code\nrun it" = 3, no schema.
const code = [tool("proxy", "run_code", "run it")];

Deno.test("toolCost() counts name, description and canonical schema", () => {
  assert.deepEqual(toolCost(corpus[0], words), {
    id: "a:x",
    server: "a",
    tokensNameDescription: 4,
    tokensWithSchema: 5,
    hasSchema: true,
  });
  assert.equal(toolCost(corpus[2], words).tokensWithSchema, 1);
  // The schema is counted in canonical form: sorted keys, no whitespace, so
  // the two-property schema above is one "word".
  assert.equal(toolCost(corpus[1], words).tokensWithSchema, 3);
});

Deno.test("measureModes() reproduces hand-computed totals and savings", () => {
  const { rows } = measureModes({
    corpusId: "c",
    tools: corpus,
    proxyTools: proxy,
    codeTools: code,
    tokenizer: words,
  });
  const byMode = Object.fromEntries(rows.map((r) => [r.mode, r]));
  assert.equal(byMode.direct.tokensNameDescription, 7);
  assert.equal(byMode.direct.tokensWithSchemas, 9);
  assert.equal(byMode.direct.savingsWithSchemas, 0);
  assert.equal(byMode.proxy.tokensNameDescription, 3);
  assert.equal(byMode.proxy.tokensWithSchemas, 4);
  assert.equal(byMode.proxy.savingsNameDescription, 1 - 3 / 7);
  assert.equal(byMode.proxy.savingsWithSchemas, 1 - 4 / 9);
  assert.equal(byMode.code.savingsWithSchemas, 1 - 3 / 9);
  // b:z has no schema, so the with-schemas figure is not like-for-like.
  assert.equal(byMode.proxy.withSchemasAuthoritative, false);
  assert.deepEqual(rows.map((r) => r.mode), ["direct", "proxy", "code"]);
  assert.equal(byMode.proxy.provenance.savings, "computed");
});

Deno.test("measureModes() marks with-schemas savings authoritative when all schemas were counted", () => {
  const { rows } = measureModes({
    corpusId: "c",
    tools: corpus.slice(0, 2),
    proxyTools: proxy,
    codeTools: proxy,
    tokenizer: words,
  });
  assert.equal(rows[1].withSchemasAuthoritative, true);
});

Deno.test("savings() is 1 - mode/direct and never NaN", () => {
  assert.equal(savings(1, 4), 0.75);
  assert.equal(savings(8, 4), -1);
  assert.equal(savings(3, 0), 0);
});

Deno.test("drawServers() fills the target with whole servers from a Fisher-Yates shuffle", () => {
  const costs = catalogCost(
    [
      tool("a", "1", "x"),
      tool("a", "2", "x"),
      tool("b", "1", "x"),
      tool("c", "1", "x"),
      tool("c", "2", "x"),
      tool("c", "3", "x"),
    ],
    words,
  );
  const byServer = new Map<string, typeof costs.perTool>();
  for (const c of costs.perTool) byServer.set(c.server, [...(byServer.get(c.server) ?? []), c]);
  // random() = 0 always: i=2 swaps [a,b,c] -> [c,b,a]; i=1 swaps -> [b,c,a].
  // Target 3: b (1 tool) fits, c (3) would make 4 and is skipped, a (2) makes exactly 3.
  const drawn = drawServers(byServer, 3, () => 0);
  assert.deepEqual(drawn.tools.map((t) => t.id), ["b:1", "a:1", "a:2"]);
  assert.equal(drawn.serverCount, 2);
  // Target 2: b fits (1), c and a do not (4, 3); short of 2, so the first left, c, is added.
  const short = drawServers(byServer, 2, () => 0);
  assert.deepEqual(short.tools.map((t) => t.id), ["b:1", "c:1", "c:2", "c:3"]);
  assert.throws(() => drawServers(byServer, 0, () => 0), RangeError);
});

Deno.test("savingsBySize() finds where the proxy starts to pay off", () => {
  // 10 servers of one tool each, 2 tokens per tool ("n\nd"); proxy costs 5.
  const tools = Array.from({ length: 10 }, (_, i) => tool(`s${i}`, "n", "d"));
  const direct = catalogCost(tools, words);
  const proxyCost = catalogCost([tool("p", "a", "b c d e")], words);
  const { rows, proxyCrossover } = savingsBySize({
    corpusId: "c",
    tokenizer: "words",
    direct,
    proxy: proxyCost,
    code: proxyCost,
    random: () => 0.5,
    sizes: [1, 2, 3, 20],
    draws: 2,
  });
  assert.deepEqual(rows.map((r) => [r.targetSize, r.directTokens, r.full]), [
    [1, 2, false],
    [2, 4, false],
    [3, 6, false],
    [10, 20, true],
  ]);
  assert.equal(rows[0].proxySavings, 1 - 5 / 2);
  assert.equal(rows[3].proxySavings, 1 - 5 / 20);
  // First sampled size whose direct cost exceeds 5 tokens is 3 tools (6 tokens);
  // the estimate is ceil(5 / 2 tokens per tool) = 3.
  assert.deepEqual(proxyCrossover, { measuredSize: 3, estimatedSize: 3 });
});

Deno.test("savingsBySize() leaves out a size whose every draw takes the whole corpus", () => {
  // Server a has 1 tool, b has 4 (2 tokens each). Target 1 takes a alone in either order.
  // Target 2: a fits, b would make 5 and is skipped; 1 < 2, so b is added: all 5 tools in
  // every draw, the full row again, so size 2 is not a row.
  const tools = [
    tool("a", "n", "d"),
    ...Array.from({ length: 4 }, (_, i) => tool("b", `n${i}`, "d")),
  ];
  const direct = catalogCost(tools, words);
  const { rows, proxyCrossover } = savingsBySize({
    corpusId: "c",
    tokenizer: "words",
    direct,
    proxy: catalogCost([tool("p", "a", "b c")], words),
    code: direct,
    random: () => 0.5,
    sizes: [1, 2],
    draws: 3,
  });
  assert.deepEqual(rows.map((r) => [r.targetSize, r.meanToolCount, r.directTokens, r.full]), [
    [1, 1, 2, false],
    [5, 5, 10, true],
  ]);
  // Proxy 3 tokens: above 2 at size 1, below 10 at the full corpus.
  assert.equal(proxyCrossover.measuredSize, 5);
});

Deno.test("savingsBySize() rejects a draw count that would average nothing", () => {
  const tools = Array.from({ length: 4 }, (_, i) => tool(`s${i}`, "n", "d"));
  const direct = catalogCost(tools, words);
  const base = { corpusId: "c", tokenizer: "words", direct, proxy: direct, code: direct };
  for (const draws of [0, -1, 1.5, Number.NaN]) {
    assert.throws(
      () => savingsBySize({ ...base, random: () => 0, sizes: [2], draws }),
      RangeError,
      String(draws),
    );
  }
});
