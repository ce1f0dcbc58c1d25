// toon_results: payload extraction, tabular split, and token arithmetic on
// tiny payloads whose JSON and TOON texts are written out by hand (TOON spec:
// a root array of uniform primitive objects is one `[N]{fields}:` header plus
// one 2-space-indented line per row; a primitive array inline as `key[N]: a,b`).
import assert from "node:assert/strict";
import { encode } from "@toon-format/toon";
import type { JsonValue } from "../catalog/types.ts";
import {
  extractPayloads,
  isTabular,
  measureToolResults,
  type ToolResultRecord,
} from "./toon_results.ts";
import { loadToolResults, parseToolResults } from "./load_tool_results.ts";
import { words } from "../../testing/encodings.ts";

const chars = { name: "chars", count: (t: string) => t.length };
const text = (t: string) => ({ type: "text", text: t });

const TABLE_JSON = '[{"a":1,"b":"x"},{"a":2,"b":"y"}]'; // 33 chars
const TABLE_TOON = "[2]{a,b}:\n  1,x\n  2,y"; // 21 chars
const TABLE_PRETTY = '[\n  { "a": 1, "b": "x" },\n  { "a": 2, "b": "y" }\n]';
const OBJ_JSON = '{"name":"Ada","tags":["x","y"]}'; // 31 chars
const OBJ_TOON = "name: Ada\ntags[2]: x,y"; // 22 chars

const RESULTS: ToolResultRecord[] = [
  { id: "table", server: "db", tool: "read_query", content: [text(TABLE_PRETTY)] },
  { id: "obj", server: "mem", tool: "open_nodes", content: [text(OBJ_JSON)] },
  { id: "echo", server: "ev", tool: "echo", content: [text("Echo: hi")] },
  { id: "err", server: "ev", tool: "boom", isError: true, content: [text("{}")] },
  { id: "failed", server: "ev", tool: "slow", outcome: "protocol_error" },
  { id: "links", server: "ev", tool: "links", content: [{ type: "resource_link", uri: "x://1" }] },
  { id: "num", server: "ev", tool: "sum", content: [text("5")] },
];

Deno.test("the hand-written TOON texts are what @toon-format/toon writes", () => {
  assert.equal(TABLE_JSON.length, 33);
  assert.equal(TABLE_TOON.length, 21);
  assert.equal(OBJ_JSON.length, 31);
  assert.equal(OBJ_TOON.length, 22);
  assert.equal(encode(JSON.parse(TABLE_JSON)), TABLE_TOON);
  assert.equal(encode(JSON.parse(OBJ_JSON)), OBJ_TOON);
});

Deno.test("isTabular: root array of same-key primitive objects only", () => {
  assert.equal(isTabular([{ a: 1, b: "x" }, { b: null, a: true }]), true);
  assert.equal(isTabular([{ a: 1 }]), true);
  assert.equal(isTabular([]), false);
  assert.equal(isTabular([1, 2]), false);
  assert.equal(isTabular([{ a: 1 }, { b: 1 }]), false);
  assert.equal(isTabular([{ a: 1 }, { a: 1, b: 2 }]), false);
  assert.equal(isTabular([{ a: [1] }]), false);
  assert.equal(isTabular([{ a: { b: 1 } }]), false);
  assert.equal(isTabular({ rows: [{ a: 1 }] } as JsonValue), false);
});

Deno.test("extractPayloads keeps JSON objects/arrays and counts every other case as a skip", () => {
  const { payloads, skipped } = extractPayloads(RESULTS);
  assert.deepEqual(payloads.map((p) => p.payloadId), ["table", "obj"]);
  assert.equal(skipped.count, 5);
  assert.deepEqual(skipped.byReason, {
    "JSON text is not an object or array": 1,
    "call failed": 1,
    "no text content": 1,
    "text content is not JSON": 1,
    "tool returned isError": 1,
  });
  assert.deepEqual(skipped.examples.map((e) => e.payloadId), [
    "echo",
    "err",
    "failed",
    "links",
    "num",
  ]);
});

Deno.test("extractPayloads: several text parts give one payload each, id#partIndex", () => {
  const { payloads, skipped } = extractPayloads([{
    id: "m",
    server: "s",
    tool: "t",
    content: [text("[1]"), { type: "image", data: "", mimeType: "image/png" }, text('{"k":2}')],
  }]);
  assert.deepEqual(payloads.map((p) => [p.payloadId, p.value]), [["m#0", [1]], ["m#2", { k: 2 }]]);
  assert.equal(skipped.count, 0);
});

Deno.test("measureToolResults: tokens and savings by hand (chars and words tokenizers)", () => {
  const m = measureToolResults(RESULTS, [chars, words]);
  assert.equal(m.payloadCount, 2);
  assert.deepEqual(
    m.rows.map((
      r,
    ) => [r.payloadId, r.tokenizer, r.tabular, r.rawTokens, r.jsonTokens, r.toonTokens]),
    [
      ["table", "chars", true, TABLE_PRETTY.length, 33, 21],
      // words: compact JSON is 1 word; "[2]{a,b}:", "1,x", "2,y" are 3; the pretty text is
      // [ { "a": 1, "b": "x" }, { "a": 2, "b": "y" } ] = 14
      ["table", "words", true, 14, 1, 3],
      ["obj", "chars", false, 31, 31, 22],
      // "name:", "Ada", "tags[2]:", "x,y"
      ["obj", "words", false, 1, 1, 4],
    ],
  );
  assert.equal(m.rows[0].savings, 1 - 21 / 33);
  assert.equal(m.rows[1].savings, -2);
  assert.equal(m.rows[2].savings, 1 - 22 / 31);
  const chars3 = m.summary.filter((s) => s.tokenizer === "chars");
  assert.deepEqual(chars3.map((s) => [s.class, s.payloads, s.jsonTokens, s.toonTokens]), [
    ["tabular", 1, 33, 21],
    ["non_tabular", 1, 31, 22],
    ["all", 2, 64, 43],
  ]);
  assert.equal(chars3[2].savings, 1 - 43 / 64);
  assert.equal(chars3[2].minSavings, 1 - 22 / 31);
  assert.equal(chars3[2].maxSavings, 1 - 21 / 33);
  assert.equal(m.skipped.count, 5);
});

Deno.test("measureToolResults: empty class and zero-token JSON give null, never NaN", () => {
  const zero = { name: "zero", count: () => 0 };
  const m = measureToolResults([RESULTS[1]], [zero]);
  assert.equal(m.rows[0].savings, null);
  const tab = m.summary.find((s) => s.class === "tabular")!;
  assert.deepEqual([tab.payloads, tab.savings, tab.minSavings], [0, null, null]);
  assert.ok(!JSON.stringify(m).includes("NaN"));
});

Deno.test("parseToolResults: one-line errors quoting the offending value", () => {
  assert.throws(
    () => parseToolResults("{", "x.json"),
    /Cannot load tool results "x.json": not valid JSON/,
  );
  assert.throws(
    () => parseToolResults('{"format":"other","results":[]}', "x.json"),
    /field "format" is "other", expected "mcpmeter-tool-results"/,
  );
  assert.throws(
    () => parseToolResults('{"format":"mcpmeter-tool-results","results":[{"id":"a","tool":"t"}]}'),
    /results\[0\] field "server" is missing, expected a string/,
  );
});

Deno.test("frozen results_v1: 27 calls give 17 JSON payloads (7 tabular) and 10 non-JSON skips", async () => {
  // Counts read off fixtures/tool_results/results_v1.json by hand: the filesystem
  // listings, file-info, search, plain-text reads, get-sum, echo and the
  // resource-links preface are plain text; SQLite rows, the inventory file and
  // the memory relations are root arrays of uniform primitive objects.
  const file = await loadToolResults(
    new URL("../../fixtures/tool_results/results_v1.json", import.meta.url).pathname,
  );
  assert.equal(file.id, "results_v1");
  assert.equal(file.results.length, 27);
  // The loader's digest is the one fixtures/manifest.json records for this file.
  const manifest = JSON.parse(
    await Deno.readTextFile(new URL("../../fixtures/manifest.json", import.meta.url)),
  );
  assert.equal(
    file.sha256,
    manifest.files.find((f: { path: string }) => f.path === "tool_results/results_v1.json").sha256,
  );
  const m = measureToolResults(file.results, [chars]);
  assert.equal(m.payloadCount, 17);
  assert.deepEqual(m.skipped.byReason, { "text content is not JSON": 10 });
  assert.deepEqual(m.rows.filter((r) => r.tabular).map((r) => r.payloadId), [
    "fs-read-inventory",
    "mem-create-relations",
    "sql-tables",
    "sql-describe-orders",
    "sql-orders",
    "sql-revenue-by-customer",
    "sql-one-customer",
  ]);
  // The everything server's structured output is compact JSON as sent: raw = json.
  const chicago = m.rows.find((r) => r.payloadId === "ev-structured-chicago")!;
  assert.equal(chicago.rawTokens, chicago.jsonTokens);
});
