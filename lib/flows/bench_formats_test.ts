// The bench on one catalog written in each shape it reads: a provider's tool definitions, a bare
// array of MCP tools, a JSON-RPC response, must give the figures of the same tools as a plain
// tools/list result (only provenance, warnings and the wire key order's label may differ).
import assert from "node:assert/strict";
import { runBench, writeBenchResults } from "./bench.ts";
import { benchHelp } from "./bench_help.ts";
import { denoFlowIo } from "./io.ts";
import { CATALOG_FORMATS } from "../catalog/parse.ts";
import type { BenchReport } from "../report/bench_report.ts";

const io = { ...denoFlowIo(), progress: () => {} };

// Three tools: a nested schema with a literal that JSON.stringify writes otherwise (0.10), an
// enum, and one without a schema. Each file below is written by hand, not derived.
const SEARCH_SCHEMA =
  `{"type": "object", "properties": {"q": {"type": "string", "description": "Words to find."}, "limit": {"type": "number", "minimum": 0.10}}, "required": ["q"]}`;
const UNIT_SCHEMA =
  `{"type": "object", "properties": {"unit": {"type": "string", "enum": ["c", "f"]}}}`;

const LIST = `{"tools": [
  {"name": "search_notes", "description": "Search the notes.", "inputSchema": ${SEARCH_SCHEMA}},
  {"name": "weather", "description": "Weather now.", "inputSchema": ${UNIT_SCHEMA}},
  {"name": "ping", "description": "Check the server."}
]}`;

const FILES: Record<string, string> = {
  "mcp-array": `[
  {"name": "search_notes", "description": "Search the notes.", "inputSchema": ${SEARCH_SCHEMA}},
  {"name": "weather", "description": "Weather now.", "inputSchema": ${UNIT_SCHEMA}},
  {"name": "ping", "description": "Check the server."}
]`,
  "jsonrpc":
    `{"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "search_notes", "description": "Search the notes.", "inputSchema": ${SEARCH_SCHEMA}}, {"name": "weather", "description": "Weather now.", "inputSchema": ${UNIT_SCHEMA}}, {"name": "ping", "description": "Check the server."}]}}`,
  "anthropic-messages": `{"model": "claude-x", "max_tokens": 512, "tools": [
  {"name": "search_notes", "description": "Search the notes.", "input_schema": ${SEARCH_SCHEMA}, "cache_control": {"type": "ephemeral"}},
  {"type": "custom", "name": "weather", "description": "Weather now.", "input_schema": ${UNIT_SCHEMA}},
  {"name": "ping", "description": "Check the server."},
  {"type": "web_search_20250305", "name": "web_search"}
], "messages": [{"role": "user", "content": "hi"}]}`,
  "openai-chat-completions": `{"model": "gpt-x", "tools": [
  {"type": "function", "function": {"name": "search_notes", "description": "Search the notes.", "parameters": ${SEARCH_SCHEMA}, "strict": false}},
  {"type": "function", "function": {"name": "weather", "description": "Weather now.", "parameters": ${UNIT_SCHEMA}}},
  {"type": "function", "function": {"name": "ping", "description": "Check the server."}}
]}`,
  "legacy-functions": `{"model": "gpt-x", "functions": [
  {"name": "search_notes", "description": "Search the notes.", "parameters": ${SEARCH_SCHEMA}},
  {"name": "weather", "description": "Weather now.", "parameters": ${UNIT_SCHEMA}},
  {"name": "ping", "description": "Check the server."}
]}`,
  "openai-responses": `[
  {"type": "function", "name": "search_notes", "description": "Search the notes.", "parameters": ${SEARCH_SCHEMA}, "strict": false},
  {"type": "namespace", "name": "outside", "description": "Outdoor tools.", "tools": [
    {"type": "function", "name": "weather", "description": "Weather now.", "parameters": ${UNIT_SCHEMA}, "strict": false, "defer_loading": true}
  ]},
  {"type": "function", "name": "ping", "description": "Check the server.", "strict": false},
  {"type": "file_search", "vector_store_ids": ["vs_1"]}
]`,
  "gemini": `{"contents": [], "tools": [{"functionDeclarations": [
  {"name": "search_notes", "description": "Search the notes.", "parametersJsonSchema": ${SEARCH_SCHEMA}},
  {"name": "weather", "description": "Weather now.", "parameters": ${UNIT_SCHEMA}},
  {"name": "ping", "description": "Check the server."}
]}, {"codeExecution": {}}]}`,
};

/** The report as figures: provenance, warnings and the run's own block left out. */
function figures(report: BenchReport): unknown {
  const copy = JSON.parse(JSON.stringify(report));
  for (const key of ["run", "inputs", "warnings"]) delete copy[key];
  for (const c of copy.corpora) {
    for (const k of ["format", "path", "sha256", "warnings"]) delete c[k];
  }
  for (const r of copy.costLayers.rows) delete r.wireOrder;
  return copy;
}

Deno.test("bench: each shape of one catalog gives the figures of its tools/list result", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const golden = {
      corpus_version: "cat",
      queries: [
        {
          id: "q1",
          query: "find my notes",
          labels: [{ tool_id: "cat:search_notes", relevance: 2 }],
        },
        { id: "q2", query: "is it cold", labels: [{ tool_id: "cat:weather", relevance: 2 }] },
      ],
    };
    await Deno.writeTextFile(`${dir}/golden.json`, JSON.stringify(golden));
    const run = async (name: string, text: string) => {
      // Each file is the server "cat": the stem of cat.json, in a folder of its own.
      await Deno.mkdir(`${dir}/${name}`);
      await Deno.writeTextFile(`${dir}/${name}/cat.json`, text);
      const report = await runBench({
        corpora: [`${dir}/${name}/cat.json`],
        golden: [`${dir}/golden.json`],
        toolResults: "none",
      }, io);
      await writeBenchResults(report, `${dir}/${name}/out`, io, () => "");
      return {
        report,
        csv: await Deno.readTextFile(`${dir}/${name}/out/cost_layers_tools.csv`),
      };
    };
    const list = await run("list", LIST);
    assert.equal(list.report.corpora[0].format, "mcp-tools-list");
    assert.equal(list.report.corpora[0].toolCount, 3);
    // What is compared: every block that measures the tools.
    assert.ok((list.report.retrieval ?? []).length > 0 && (list.report.arms ?? []).length > 0);
    assert.ok(list.report.costLayers!.rows.some((r) => r.layer === "wire" && r.tokens! > 0));
    for (const [name, text] of Object.entries(FILES)) {
      const other = await run(name, text);
      assert.equal(
        other.report.corpora[0].format,
        name === "mcp-array" || name === "jsonrpc"
          ? "mcp-tools-list"
          : name === "legacy-functions"
          ? "openai-chat-completions"
          : name,
      );
      assert.deepEqual(figures(other.report), figures(list.report), name);
      assert.equal(other.csv, list.csv, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bench --help names every catalog format", () => {
  const help = benchHelp();
  for (const format of CATALOG_FORMATS) assert.ok(help.includes(format), format);
});
