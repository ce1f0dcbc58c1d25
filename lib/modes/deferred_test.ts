import assert from "node:assert/strict";
import {
  claudeCodeToolName,
  crossing,
  type DeferredTool,
  measureDeferredModes,
  namespaceDescription,
  renderDeferredModes,
} from "./deferred.ts";
import { createDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import type { Tokenizer } from "../tokens/types.ts";

/** Counts characters, so every figure below is the length of a text written out by hand. */
const CHARS = { name: "chars", count: (t: string) => t.length };

const obj = { type: "object" };
const A: DeferredTool[] = [
  { server: "fs", tool: { name: "read", description: "Read", inputSchema: obj } },
  { server: "fs", tool: { name: "write", description: "Write", inputSchema: obj } },
  { server: "web", tool: { name: "get", description: "Get", inputSchema: obj } },
];
const O: DeferredTool[] = A.map((t) => ({
  server: t.server,
  tool: { ...t.tool, inputSchema: { type: "object", properties: {} } },
}));
const PROXY = [{ name: "find", description: "Find", inputSchema: obj }];

const run = () =>
  measureDeferredModes({
    corpusId: "c",
    tokenizer: CHARS,
    anthropic: A,
    openai: O,
    proxy: { anthropic: PROXY, openai: PROXY },
    proxySearchTokens: 40,
    instructions: new Map([["web", "Fetch pages."]]),
    resultsPerSearch: 2,
    searches: [1, 10],
    random: () => 0,
    sizes: [1],
    draws: 1,
  });

Deno.test("crossing(): where two session costs meet, and who is cheaper first", () => {
  assert.deepEqual(crossing(100, 50, 1100, 0), { searches: 20, cheaperAtStart: "mode" });
  // Cheaper at the start and per search: never crosses.
  assert.deepEqual(crossing(100, 10, 500, 20), { searches: null, cheaperAtStart: "mode" });
  // Dearer at the start, cheaper per search: pays off after (500 - 100) / (20 - 10) = 40.
  assert.deepEqual(crossing(500, 10, 100, 20), { searches: 40, cheaperAtStart: "other" });
  assert.deepEqual(crossing(100, 10, 100, 10), { searches: null, cheaperAtStart: "equal" });
});

Deno.test("claudeCodeToolName and namespaceDescription follow the documented shapes", () => {
  assert.equal(claudeCodeToolName("github", "create_issue"), "mcp__github__create_issue");
  assert.equal(claudeCodeToolName("my server", "a.b"), "mcp__my_server__a_b");
  assert.equal(namespaceDescription("fs"), 'Tools of the MCP server "fs".');
  assert.equal(namespaceDescription("web", new Map([["web", " Fetch pages. "]])), "Fetch pages.");
});

Deno.test("anthropic_search: the start is the search tool; a search adds its references and definitions", () => {
  const [bm25, regex] = run().rows;
  assert.deepEqual([bm25.mode, bm25.variant, regex.variant], ["anthropic_search", "bm25", "regex"]);
  const defs = [
    '{"name":"read","description":"Read","input_schema":{"type":"object"}}',
    '{"name":"write","description":"Write","input_schema":{"type":"object"}}',
    '{"name":"get","description":"Get","input_schema":{"type":"object"}}',
  ];
  assert.equal(bm25.directTokens, `[${defs.join(",")}]`.length);
  const tool = '[{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}]';
  assert.deepEqual(bm25.start, { searchTool: tool.length, visible: 0, instructions: 0 });
  assert.equal(bm25.startTokens, tool.length);
  assert.equal(
    regex.startTokens,
    '[{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}]'.length,
  );
  // Two results per search: [read, write] and [get, read] (the last wraps to the start).
  const block = (names: string[]) =>
    `{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_0000000000000000000000","content":{"type":"tool_search_tool_search_result","tool_references":[${
      names.map((n) => `{"type":"tool_reference","tool_name":"${n}"}`).join(",")
    }]}}`;
  const first = block(["read", "write"]).length + `[${defs[0]},${defs[1]}]`.length;
  const second = block(["get", "read"]).length + `[${defs[2]},${defs[0]}]`.length;
  assert.equal(bm25.searchTokens, (first + second) / 2);
  assert.equal(bm25.resultsPerSearch, 2);
  // The proxy in this format; break-even against direct = (direct - start) / search.
  assert.equal(
    bm25.proxyStartTokens,
    '[{"name":"find","description":"Find","input_schema":{"type":"object"}}]'.length,
  );
  assert.equal(
    bm25.breakEvenVsDirect.searches,
    (bm25.directTokens - bm25.startTokens) / bm25.searchTokens,
  );
  assert.deepEqual(bm25.sessions.map((s) => [s.searches, s.tokens, s.proxyTokens]), [
    [1, bm25.startTokens + bm25.searchTokens, bm25.proxyStartTokens + 40],
    [10, bm25.startTokens + 10 * bm25.searchTokens, bm25.proxyStartTokens + 400],
  ]);
});

Deno.test("openai_search: namespace names and descriptions are visible at the start; a search loads a namespace's functions", () => {
  const row = run().rows[2];
  assert.deepEqual([row.mode, row.variant, row.format], [
    "openai_search",
    "namespaced",
    "openai-responses",
  ]);
  const visible =
    '[{"type":"namespace","name":"fs","description":"Tools of the MCP server \\"fs\\"."},{"type":"namespace","name":"web","description":"Fetch pages."}]';
  assert.deepEqual(row.start, {
    searchTool: '[{"type":"tool_search"}]'.length,
    visible: visible.length,
    instructions: 0,
  });
  const fn = (n: string, d: string) =>
    `{"type":"function","name":"${n}","description":"${d}","parameters":{"type":"object","properties":{}},"strict":false}`;
  const first =
    `{"type":"tool_search_output","execution":"server","status":"completed","tools":[{"type":"namespace","name":"fs","description":"Tools of the MCP server \\"fs\\".","tools":[${
      fn("read", "Read")
    },${fn("write", "Write")}]}]}`;
  // The second search wraps to the start: [get, read], namespaces in the order they appear.
  const second =
    `{"type":"tool_search_output","execution":"server","status":"completed","tools":[{"type":"namespace","name":"web","description":"Fetch pages.","tools":[${
      fn("get", "Get")
    }]},{"type":"namespace","name":"fs","description":"Tools of the MCP server \\"fs\\".","tools":[${
      fn("read", "Read")
    }]}]}`;
  assert.equal(row.searchTokens, (first.length + second.length) / 2);
});

Deno.test("client_deferred: names as mcp__server__tool and the servers' instructions at the start", () => {
  const row = run().rows[3];
  assert.deepEqual([row.mode, row.variant], ["client_deferred", "claude_code"]);
  const names = "mcp__fs__read\nmcp__fs__write\nmcp__web__get";
  assert.deepEqual(row.start, {
    searchTool: 0,
    visible: names.length,
    instructions: "Fetch pages.".length,
  });
  assert.equal(
    row.directTokens,
    '[{"name":"mcp__fs__read","description":"Read","input_schema":{"type":"object"}},{"name":"mcp__fs__write","description":"Write","input_schema":{"type":"object"}},{"name":"mcp__web__get","description":"Get","input_schema":{"type":"object"}}]'
      .length,
  );
});

Deno.test("scaling and crossovers: whole servers drawn, start and direct summed per tool", () => {
  const { rows, scaling } = run();
  assert.deepEqual(rows.map((r) => `${r.mode} ${r.variant}`), [
    "anthropic_search bm25",
    "anthropic_search regex",
    "openai_search namespaced",
    "client_deferred claude_code",
  ]);
  // Size 1 with random() = 0: the shuffle puts web first ([fs, web] → [web, fs]); web's one
  // tool fills the target.
  const bm25Scaling = scaling.filter((s) => s.mode === "anthropic_search" && s.variant === "bm25");
  assert.deepEqual(bm25Scaling.map((s) => [s.targetSize, s.full, s.meanToolCount]), [
    [1, false, 1],
    [3, true, 3],
  ]);
  const get = '{"name":"get","description":"Get","input_schema":{"type":"object"}}';
  assert.equal(bm25Scaling[0].directTokens, `[${get}]`.length);
  assert.equal(bm25Scaling[0].startTokens, rows[0].startTokens);
  const bm25 = rows[0];
  // Estimated crossover for n searches: (start + n · search) / mean definition, rounded up.
  const meanDef = bm25Scaling[1].directTokens / 3;
  assert.deepEqual(
    bm25.crossovers.map((c) => c.estimatedSize),
    [1, 10].map((n) => Math.ceil((bm25.startTokens + n * bm25.searchTokens) / meanDef)),
  );
});

Deno.test("a piecewise tokenizer's figures are its counts of the whole texts (definitions counted once)", () => {
  // The same inputs through the tokenizer (definitions' middles counted once, added where they
  // occur) and through a wrapper that is not marked piecewise (every text counted whole).
  const schema = (p: string) => ({
    type: "object",
    properties: { [p]: { type: "string", description: `The ${p} to use, 2 at most.` } },
    required: [p],
  });
  const tools: DeferredTool[] = [
    ["fs", "read_file", "Read a file's text: UTF-8, 10 MB at most.", "path"],
    ["web", "fetch", "Fetch a page\nand return its text.", "url"],
    ["fs", "write_file", "Write text to a file (created when missing).", "path"],
    ["db", "query", "Run one SQL statement; returns rows as JSON.", "sql"],
    ["fs", "read_file", "Read a file's text: UTF-8, 10 MB at most.", "path"],
  ].map(([server, name, description, p]) => ({
    server,
    tool: { name, description, inputSchema: schema(p) },
  }));
  const tok = createDefaultTokenizer("o200k_base");
  const whole = { name: tok.name, count: (t: string) => tok.count(t) };
  const price = (tokenizer: Tokenizer) =>
    measureDeferredModes({
      corpusId: "c",
      tokenizer,
      anthropic: tools,
      openai: tools,
      proxy: { anthropic: PROXY, openai: PROXY },
      proxySearchTokens: 40,
      instructions: new Map([["web", "Fetch pages."]]),
      resultsPerSearch: 3,
      random: () => 0.5,
      sizes: [2],
      draws: 2,
    });
  const a = price(tok);
  assert.deepEqual(a, price(whole));
  assert.ok(a.rows.every((r) => r.directTokens > 0 && r.searchTokens > 0));
});

Deno.test("a catalog smaller than a search's results: each search loads every tool, said as such", () => {
  const one = [A[2]];
  const [bm25] = measureDeferredModes({
    corpusId: "c",
    tokenizer: CHARS,
    anthropic: one,
    openai: [O[2]],
    proxy: { anthropic: PROXY, openai: PROXY },
    proxySearchTokens: 40,
    resultsPerSearch: 5,
    searches: [1],
    random: () => 0,
    sizes: [1],
    draws: 1,
  }).rows;
  assert.equal(bm25.resultsPerSearch, 1);
  const def = '{"name":"get","description":"Get","input_schema":{"type":"object"}}';
  const block =
    '{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_0000000000000000000000","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"get"}]}}';
  assert.equal(bm25.searchTokens, block.length + `[${def}]`.length);
});

Deno.test("renderDeferredModes: rendered once, priced by each tokenizer as if rendered for it", () => {
  const schema = { type: "object", properties: { path: { type: "string", description: "Path." } } };
  const tools: DeferredTool[] = [
    ["fs", "read_file", 'Read a file\'s text: UTF-8, 10 MB at most, "quoted".'],
    ["web", "fetch", "Fetch a page and return its text, links kept as Markdown."],
    ["fs", "stat", "Size and times of a path."],
  ].map(([server, name, description]) => ({
    server,
    tool: { name, description, inputSchema: schema },
  }));
  const options = {
    corpusId: "c",
    anthropic: tools,
    openai: tools,
    proxy: { anthropic: PROXY, openai: PROXY },
    proxySearchTokens: 40,
    resultsPerSearch: 2,
    random: () => 0.5,
    sizes: [1],
    draws: 1,
  };
  const rendered = renderDeferredModes(options);
  for (const name of ["cl100k_base", "o200k_base"] as const) {
    // Against a wrapper not marked piecewise, which counts every text whole.
    const tokenizer = createDefaultTokenizer(name);
    const whole = { name, count: (t: string) => tokenizer.count(t) };
    assert.deepEqual(
      measureDeferredModes({ ...options, tokenizer, rendered }),
      measureDeferredModes({ ...options, tokenizer: whole }),
    );
  }
  // Rendered from other tools or instructions: refused, not priced wrong.
  assert.throws(
    () => measureDeferredModes({ ...options, anthropic: [...tools], tokenizer: CHARS, rendered }),
    RangeError,
  );
  assert.throws(
    () => measureDeferredModes({ ...options, instructions: new Map(), tokenizer: CHARS, rendered }),
    RangeError,
  );
});

Deno.test("a size whose every draw takes the whole corpus is left out, not labelled as that size", () => {
  // Servers fs (2 tools) and web (1); random() = 0 shuffles them to [web, fs].
  // Target 1: web fits, fs would make 3: 1 tool. Target 2: web fits, fs would make 3 and is
  // skipped, 1 < 2 so fs is added: all 3 tools, the full row again, so size 2 is left out.
  const { scaling } = measureDeferredModes({
    corpusId: "c",
    tokenizer: CHARS,
    anthropic: A,
    openai: O,
    proxy: { anthropic: PROXY, openai: PROXY },
    proxySearchTokens: 40,
    random: () => 0,
    sizes: [1, 2],
    draws: 1,
  });
  const bm25 = scaling.filter((r) => r.mode === "anthropic_search" && r.variant === "bm25");
  assert.deepEqual(bm25.map((r) => [r.targetSize, r.meanToolCount, r.full]), [
    [1, 1, false],
    [3, 3, true],
  ]);
});

Deno.test("client_deferred: servers without instructions are uncounted only where they may have sent some", () => {
  // Only web (of fs and web) has instructions in the map.
  const notCounted = (instructionsRecorded?: boolean) =>
    renderDeferredModes({
      anthropic: A,
      openai: O,
      instructions: new Map([["web", "Fetch pages."]]),
      instructionsRecorded,
    }).shapes.find((s) => s.mode === "client_deferred")!.notCounted
      .filter((n) => n.includes("instructions of"));
  assert.deepEqual(notCounted(), [
    "the instructions of 1 of 2 servers (not in the corpus file; a capture keeps them)",
  ]);
  assert.deepEqual(notCounted(false), notCounted());
  // A file that records every server's instructions: fs sent none, nothing is left out.
  assert.deepEqual(notCounted(true), []);
});
