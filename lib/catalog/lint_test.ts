import assert from "node:assert/strict";
import type { Tool } from "./types.ts";
import { lintCatalog, type LintFinding } from "./lint.ts";
import { hardCases } from "../../testing/encodings.ts";

const cases = hardCases();
const findings = (file: string, opts = {}) => lintCatalog(cases.get(file)!, opts).findings;
const brief = (fs: readonly LintFinding[]) =>
  fs.map((f) => `${f.toolId} ${f.rule} ${f.severity}${f.path ? " " + f.path : ""}`);

Deno.test("lintCatalog() flags unresolved and recursive $refs", () => {
  assert.deepEqual(brief(findings("ref_cycles.json")), [
    "refs:broken_ref ref-unresolved error #/properties/x",
    "refs:broken_ref ref-unresolved error #/properties/y",
    "refs:mutual_cycle ref-recursive warning #/definitions/a",
    "refs:push_message items-type-array error #/properties/message/properties/contents/items",
    "refs:push_message ref-recursive warning #/properties/message/properties/contents",
    "refs:tree_insert ref-recursive warning #/$defs/node",
  ]);
  const mutual = findings("ref_cycles.json").find((f) => f.toolId === "refs:mutual_cycle")!;
  assert.match(mutual.message, /#\/definitions\/a, #\/definitions\/b$/);
});

Deno.test("lintCatalog() flags schemas without properties and top-level combinators", () => {
  assert.deepEqual(brief(findings("schema_only.json")), [
    "gitlab:list_projects schema-without-properties error #",
    "gitlab:whoami schema-without-properties error #",
  ]);
  assert.deepEqual(brief(findings("top_level_anyof.json")), [
    "combo:find_user schema-without-properties error #",
    "combo:find_user top-level-combinator error #/anyOf",
    "combo:merged schema-without-properties error #",
    "combo:merged top-level-combinator error #/allOf",
    "combo:pick_one schema-without-properties error #",
    "combo:pick_one top-level-combinator error #/oneOf",
  ]);
  const f = findings("top_level_anyof.json")[1];
  assert.deepEqual(f.affects, ["anthropic", "openai"]);
});

Deno.test("lintCatalog() flags type arrays inside items, and outside them as type-array", () => {
  // The fixture's `expect` predates the type-array rule (Gemini refuses a type list anywhere):
  // maybe_count's ["integer","null"] is now a finding too.
  assert.deepEqual(brief(findings("type_arrays.json")), [
    "types:typed items-type-array error #/properties/mixed/items",
    "types:typed items-type-array error #/properties/tags/items",
    "types:typed type-array error #/properties/maybe_count",
  ]);
  // A property named "items" is not the items keyword: its type array is a plain type-array.
  const tool: Tool = {
    id: "s:t",
    server: "s",
    name: "t",
    description: "A tool with a property called items.",
    inputSchema: { type: "object", properties: { items: { type: ["string", "null"] } } },
  };
  assert.deepEqual(brief(lintCatalog([tool]).findings), [
    "s:t type-array error #/properties/items",
  ]);
});

Deno.test("lintCatalog() flags null branches, missing and non-object schemas, lone surrogates", () => {
  const tools: Tool[] = [
    {
      id: "s:a",
      server: "s",
      name: "a",
      description: "Null branches outside items, and one inside (items-type-array).",
      inputSchema: {
        type: "object",
        properties: {
          p: { anyOf: [{ type: "string" }, { type: "null" }] },
          q: { oneOf: [{ type: "null", description: "none" }, { type: "integer" }] },
          r: { type: "array", items: { anyOf: [{ type: "null" }, { type: "string" }] } },
          s: { anyOf: [{ type: "string" }, { type: "integer" }] },
        },
      },
    },
    { id: "s:b", server: "s", name: "b", description: "This tool has no input schema." },
    {
      id: "s:c",
      server: "s",
      name: "c",
      description: "An input schema that is an array schema.",
      inputSchema: { type: "array", properties: {} },
    },
    {
      id: "s:d",
      server: "s",
      name: "d",
      description: "A lone high surrogate \ud83d in the description.",
      inputSchema: { type: "object", properties: { x: { description: "low \udc00 alone" } } },
    },
    {
      id: "s:e",
      server: "s",
      name: "e",
      description: "A paired surrogate \ud83d\ude00 is fine.",
      inputSchema: { type: "object", properties: { x: { description: "\u{1F600}" } } },
    },
  ];
  assert.deepEqual(brief(lintCatalog(tools).findings), [
    // Sorted by tool, then rule order (items-type-array precedes null-branch), then path.
    "s:a items-type-array error #/properties/r/items",
    "s:a null-branch error #/properties/p",
    "s:a null-branch error #/properties/q",
    "s:b input-schema-missing error",
    "s:c input-schema-not-object error #",
    "s:d string-not-strict-json error",
  ]);
  // A name-and-description corpus: no schema is expected, so none is missing.
  assert.deepEqual(brief(lintCatalog([tools[1]], { schemasExpected: false }).findings), []);
  // The schema's own lone surrogate is reported with its pointer.
  const schemaOnly: Tool = { ...tools[3], description: "Clean description text here." };
  assert.deepEqual(brief(lintCatalog([schemaOnly]).findings), [
    "s:d string-not-strict-json error #/properties/x/description",
  ]);
});

Deno.test("lintCatalog() reports the client tool-count caps once, on id *", () => {
  const many = (n: number): Tool[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `s:t${i}`,
      server: "s",
      name: `t${i}`,
      description: "A tool among many in one catalog.",
      inputSchema: { type: "object", properties: {} },
    }));
  assert.deepEqual(lintCatalog(many(40)).findings, []);
  const at41 = lintCatalog(many(41)).findings;
  assert.deepEqual(brief(at41), ["* too-many-tools warning"]);
  assert.equal(at41[0].message, "the catalog has 41 tools, more than Cursor accepts (40)");
  const at129 = lintCatalog(many(129)).findings;
  assert.equal(
    at129[0].message,
    "the catalog has 129 tools, more than Cursor accepts (40), " +
      "OpenAI function calling accepts (128), GitHub Copilot accepts (128)",
  );
});

Deno.test("lintCatalog() flags invalid names with the reason", () => {
  const fs = findings("cjk_names.json");
  const names = fs.filter((f) => f.rule === "name-invalid");
  assert.equal(names.length, 5); // two CJK names, a dot, a slash, 65 characters
  const byId = new Map(names.map((f) => [f.toolId, f.message]));
  assert.equal(byId.get("rail:files.read"), 'name "files.read" contains "."');
  assert.equal(byId.get("rail:repo/list"), 'name "repo/list" contains "/"');
  assert.match(byId.get(`rail:${"a".repeat(65)}`)!, /has 65 characters \(max 64\)$/);
  assert.equal(byId.get("rail:查询余票"), 'name "查询余票" contains "查", "询", "余", "票"');
  assert.ok(!byId.has("rail:" + "a".repeat(64)));
});

Deno.test("lintCatalog() flags degenerate descriptions, output schemas and duplicate names", () => {
  assert.deepEqual(brief(findings("lint_cases.json")), [
    "alpha:search duplicate-name warning",
    "beta:empty_desc degenerate-description warning",
    "beta:list_rows output-schema-not-object error #",
    "beta:proxy_desc degenerate-description info",
    "beta:search duplicate-name warning",
    "beta:short_desc degenerate-description info",
  ]);
  const dup = findings("lint_cases.json")[0];
  assert.equal(dup.message, 'name "search" is also on "beta"');
});

Deno.test("lintCatalog() evaluates schema-too-heavy only with a tokenizer", () => {
  const chars = { name: "chars", count: (t: string) => t.length };
  const tools = cases.get("deep_nesting.json")!;
  const without = lintCatalog(tools);
  assert.deepEqual(without.notEvaluated, [
    { rule: "schema-too-heavy", reason: "no tokenizer given" },
    { rule: "description-too-heavy", reason: "no tokenizer given" },
  ]);
  const heavy = lintCatalog(tools, { tokenizer: chars, maxSchemaTokens: 100 });
  assert.equal(heavy.countsByRule["schema-too-heavy"], 1);
  assert.match(
    heavy.findings[0].message,
    /^canonical inputSchema is \d+ chars tokens \(threshold 100\)$/,
  );
  assert.equal(lintCatalog(tools, { tokenizer: chars, maxSchemaTokens: 1e6 }).findings.length, 0);
  assert.throws(() => lintCatalog(tools, { maxSchemaTokens: 0 }), RangeError);
});

Deno.test("lintCatalog() flags a description or title heavier than its threshold, only with a tokenizer", () => {
  const chars = { name: "chars", count: (t: string) => t.length };
  const tool = (description: string, title?: string): Tool => ({
    id: "s:t",
    server: "s",
    name: "t",
    description,
    ...(title === undefined ? {} : { title }),
    inputSchema: { type: "object", properties: {} },
  });
  const heavy = (t: Tool, max: number) =>
    lintCatalog([t], { tokenizer: chars, maxDescriptionTokens: max }).findings
      .filter((f) => f.rule === "description-too-heavy").map((f) => f.message);
  // 120 characters = 120 chars tokens: over 100, not over 120.
  assert.deepEqual(heavy(tool("d".repeat(120)), 100), [
    "description is 120 chars tokens (120 characters; threshold 100)",
  ]);
  assert.deepEqual(heavy(tool("d".repeat(120)), 120), []);
  assert.deepEqual(heavy(tool("Reads a file.", "T".repeat(300)), 200), [
    "title is 300 chars tokens (300 characters; threshold 200)",
  ]);
  assert.equal(lintCatalog([tool("d".repeat(5000))]).countsByRule["description-too-heavy"], 0);
  assert.throws(() => lintCatalog([], { maxDescriptionTokens: 0 }), RangeError);
});

Deno.test("lintCatalog() flags a name a server lists twice", () => {
  const t = (id: string, description: string): Tool => ({
    id,
    server: "s",
    name: "read",
    description,
    inputSchema: { type: "object", properties: {} },
  });
  assert.deepEqual(
    lintCatalog([
      t("s:read", "Read one file from the disk."),
      t("s:read#2", "Read a file from the disk, again."),
    ])
      .findings.map((f) => `${f.toolId} ${f.rule} ${f.message}`),
    [
      's:read duplicate-name name "read" is listed 2 times by server "s"; a client keeps one',
      's:read#2 duplicate-name name "read" is listed 2 times by server "s"; a client keeps one',
    ],
  );
});

Deno.test("lintCatalog() flags property names a JS client reorders (array indexes only)", () => {
  const tool: Tool = {
    id: "s:t",
    server: "s",
    name: "t",
    description: "A tool whose parameters are named by number.",
    inputSchema: {
      type: "object",
      properties: {
        b: { type: "object", properties: { "0": { type: "string" }, x: { type: "string" } } },
        "10": { type: "string" },
        "2": { type: "string" },
        // Not array indexes, so a JS object keeps them where they are.
        "01": { type: "string" },
        "-1": { type: "string" },
        "1e3": { type: "string" },
        "4294967295": { type: "string" },
      },
    },
  };
  const found = lintCatalog([tool]).findings.filter((f) => f.rule === "integer-like-property");
  assert.deepEqual(brief(found), [
    "s:t integer-like-property info #/properties/10",
    "s:t integer-like-property info #/properties/2",
    "s:t integer-like-property info #/properties/b/properties/0",
  ]);
  assert.deepEqual(found[0].affects, ["mcp-ts-sdk", "clients"]);
  assert.match(found[1].message, /^property "2" is named like an array index/);
  assert.equal(lintCatalog([tool]).countsByRule["integer-like-property"], 3);
});

Deno.test("lintCatalog() says what `properties` is when it is there but not an object", () => {
  const tool = (name: string, properties: unknown): Tool => ({
    id: `s:${name}`,
    server: "s",
    name,
    description: "A schema whose properties member is not an object.",
    inputSchema: { type: "object", properties } as Tool["inputSchema"],
  });
  const found = lintCatalog([
    tool("arr", []),
    tool("nul", null),
    tool("str", "x"),
    { ...tool("none", {}), inputSchema: { type: "object" } },
  ]).findings.filter((f) => f.rule === "schema-without-properties");
  assert.deepEqual(found.map((f) => [f.toolId, f.message, f.path]), [
    ["s:arr", `inputSchema's "properties" is an array, not an object`, "#/properties"],
    ["s:none", `inputSchema has no "properties" object (keys: ["type"])`, "#"],
    ["s:nul", `inputSchema's "properties" is null, not an object`, "#/properties"],
    ["s:str", `inputSchema's "properties" is a string, not an object`, "#/properties"],
  ]);
});

Deno.test("lintCatalog() walks a schema nested 20,000 levels deep and points at its bottom", () => {
  // properties → a → properties → a ... 20,000 times, then a node with a type array, a lone
  // surrogate in a value, and one in a key; each finding's pointer is built here by hand.
  const depth = 20_000;
  const bottom: Record<string, unknown> = {
    type: ["string", "null"],
    description: "ok",
    enum: ["fine", "bad \uD800 value"],
  };
  let schema: Record<string, unknown> = bottom;
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { a: schema } };
  const keyed = structuredClone(bottom);
  delete keyed.enum;
  keyed["x\uDC00"] = 1;
  let schema2: Record<string, unknown> = keyed;
  for (let i = 0; i < depth; i++) schema2 = { type: "object", items: [schema2] };
  const tools = [
    {
      id: "s:deep",
      server: "s",
      name: "deep",
      description: "A tool with a deep schema.",
      inputSchema: schema,
    },
    {
      id: "s:deep2",
      server: "s",
      name: "deep2",
      description: "A tool with a deep schema.",
      inputSchema: { type: "object", properties: {}, items: [schema2] },
    },
  ] as unknown as Tool[];
  const down = "#" + "/properties/a".repeat(depth);
  const down2 = "#" + "/items/0".repeat(depth + 1);
  assert.deepEqual(brief(lintCatalog(tools).findings), [
    `s:deep type-array error ${down}`,
    `s:deep string-not-strict-json error ${down}/enum/1`,
    `s:deep2 items-type-array error ${down2}`,
    `s:deep2 string-not-strict-json error ${down2}/x\uDC00`,
  ]);
});
