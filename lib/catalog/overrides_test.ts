import assert from "node:assert/strict";
import {
  applyToolOverrides,
  parseToolOverrides,
  ToolOverridesError,
  toolOverridesSha256,
} from "./overrides.ts";
import { loadToolOverrides } from "./load_overrides.ts";
import { parseCatalog } from "./parse.ts";
import { schemaText } from "./canonical.ts";
import { Ajv } from "ajv";
import overridesSchema from "./overrides.schema.json" with { type: "json" };

// A raw tools/list of one server: number literals as written, a property named "a/b", an anyOf.
const corpus = parseCatalog(
  `{"tools": [
    {"name": "read", "description": "Reads.", "inputSchema": {"type": "object", "maximum": 1.50,
      "properties": {"path": {"type": "string", "description": "old"}, "a/b": {"type": "number"},
        "mode": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}},
    {"name": "ping", "description": "Pings."},
    {"name": "list", "description": "Lists.", "inputSchema": {"type": "object"}}
  ]}`,
  { server: "fs" },
);

Deno.test("applyToolOverrides() replaces description, title and parameter descriptions, keeping literals", () => {
  const out = applyToolOverrides(
    corpus.tools,
    parseToolOverrides({
      overrides: {
        "fs:read": {
          title: "Read a file",
          description: "Read a UTF-8 file.",
          parameters: {
            path: "Absolute path.",
            "/properties/a~1b": "Both.",
            "/properties/mode/anyOf/1": "None.",
          },
        },
      },
    }),
  );
  const read = out.tools.find((t) => t.name === "read")!;
  assert.equal(read.title, "Read a file");
  assert.equal(read.description, "Read a UTF-8 file.");
  // Hand-written: the source canonical text with three descriptions set, 1.50 kept as written.
  assert.equal(
    schemaText(read),
    '{"maximum":1.50,"properties":{"a/b":{"description":"Both.","type":"number"},' +
      '"mode":{"anyOf":[{"type":"string"},{"description":"None.","type":"null"}]},' +
      '"path":{"description":"Absolute path.","type":"string"}},"type":"object"}',
  );
  assert.equal(
    (read.inputSchema as { properties: { path: { description: string } } }).properties.path
      .description,
    "Absolute path.",
  );
  assert.deepEqual(out.applied, [{
    toolId: "fs:read",
    fields: [
      "title",
      "description",
      "parameters./properties/a~1b",
      "parameters./properties/mode/anyOf/1",
      "parameters.path",
    ],
  }]);
  assert.deepEqual(out.problems, []);
  // Tools no override names are passed through untouched (same objects, same order).
  assert.deepEqual(out.tools.map((t) => t.id), corpus.tools.map((t) => t.id));
  for (const [i, t] of corpus.tools.entries()) if (t.name !== "read") assert.equal(out.tools[i], t);
  // The input is not mutated.
  assert.equal(corpus.tools.find((t) => t.name === "read")!.description, "Reads.");
});

Deno.test("applyToolOverrides() records unknown servers, tools and parameters and applies the rest", () => {
  const out = applyToolOverrides(
    corpus.tools,
    parseToolOverrides({
      overrides: {
        "git:log": { description: "x" },
        "fs:write": { description: "x" },
        "fs:ping": { description: "Check the server.", parameters: { host: "h" } },
        "fs:list": { parameters: { dir: "d" } },
        "fs:read": { parameters: { "/properties/path/type": "a string is no object" } },
      },
    }),
  );
  assert.deepEqual(out.problems.map((p) => [p.key, p.parameter ?? null, p.kind]), [
    ["fs:list", "dir", "unknown-parameter"],
    ["fs:ping", "host", "no-input-schema"],
    ["fs:read", "/properties/path/type", "unknown-parameter"],
    ["fs:write", null, "unknown-tool"],
    ["git:log", null, "unknown-server"],
  ]);
  assert.equal(
    out.problems[0].message,
    'override "fs:list" parameter "dir": the inputSchema has no property "dir"',
  );
  assert.equal(out.problems.at(-1)!.message, 'override "git:log": no server "git" in the catalog');
  assert.equal(
    out.problems.at(-2)!.message,
    'override "fs:write": server "fs" lists no tool "write"',
  );
  // What matched is applied: fs:ping's description.
  assert.deepEqual(out.applied, [{ toolId: "fs:ping", fields: ["description"] }]);
  assert.equal(out.tools.find((t) => t.name === "ping")!.description, "Check the server.");
});

Deno.test("applyToolOverrides(): the list tool's '/properties' pointer names no object, so it is recorded", () => {
  const out = applyToolOverrides(
    corpus.tools,
    parseToolOverrides({ overrides: { "fs:list": { parameters: { "/properties": "x" } } } }),
  );
  assert.deepEqual(out.problems.map((p) => p.message), [
    'override "fs:list" parameter "/properties": the pointer leads to no schema object in the inputSchema',
  ]);
  assert.deepEqual(out.applied, []);
});

Deno.test("parseToolOverrides() rejects malformed documents naming the field", () => {
  const cases: [unknown, string][] = [
    ["{", 'Cannot load tool overrides "o.json": is not valid JSON'],
    [{}, 'field "overrides"'],
    [{ overrides: { "fs:read": {} } }, "must give at least one of title, description, parameters"],
    [{ overrides: { read: { description: "x" } } }, "must be a tool id server:tool"],
    [
      { overrides: { "fs:read": { descripton: "x" } } },
      'field "overrides.fs:read.descripton" is not a known field',
    ],
    [{ overrides: {}, extra: 1 }, 'field "extra" is not a known field'],
    [
      { overrides: { "fs:read": { parameters: { path: 3 } } } },
      'field "overrides.fs:read.parameters.path"',
    ],
    [{ overrides: { "fs:read": { parameters: { "/a~2": "x" } } } }, "is not a JSON Pointer"],
  ];
  const schemaValid = new Ajv({ strict: false }).compile(overridesSchema);
  for (const [input, expected] of cases) {
    // The committed JSON Schema (for editors) rejects what the parser rejects.
    if (typeof input !== "string") assert.equal(schemaValid(input), false, JSON.stringify(input));
    assert.throws(
      () => parseToolOverrides(input, "o.json"),
      (e: unknown) => e instanceof ToolOverridesError && e.message.includes(expected),
      `${JSON.stringify(input)} → ${expected}`,
    );
  }
});

Deno.test("overrides.schema.json accepts what parseToolOverrides() accepts", async () => {
  const valid = new Ajv({ strict: false }).compile(overridesSchema);
  const docs = [
    { overrides: {} },
    { $schema: "x", file: "a.json", description: "n", overrides: { "fs:read": { title: "R" } } },
    { overrides: { "fs:read": { parameters: { path: "p", "/properties/a~1b/items": "i" } } } },
    JSON.parse(
      await Deno.readTextFile(
        new URL("../../fixtures/overrides/reference_v1.overrides.json", import.meta.url),
      ),
    ),
  ];
  for (const doc of docs) {
    parseToolOverrides(doc);
    assert.ok(valid(doc), JSON.stringify(valid.errors));
  }
});

Deno.test("toolOverridesSha256() hashes the canonical overrides map only", async () => {
  // sha256sum of the 31 bytes {"fs:read":{"description":"x"}}, computed with coreutils.
  const expected = "9611c44359ed0b59e18d852547825d1f5dd4166ed871eb66db2a8de40443cb93";
  const a = parseToolOverrides('{ "overrides": { "fs:read": { "description": "x" } } }');
  const b = parseToolOverrides(
    { description: "a note", overrides: { "fs:read": { description: "x" } } },
    "<inline>",
    "b.json",
  );
  assert.equal(await toolOverridesSha256(a), expected);
  assert.equal(await toolOverridesSha256(b), expected);
  const c = parseToolOverrides({ overrides: { "fs:read": { description: "y" } } });
  assert.notEqual(await toolOverridesSha256(c), expected);
});

Deno.test("loadToolOverrides() reads a file and names a missing one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/o.json`;
    await Deno.writeTextFile(path, '{"overrides": {"fs:read": {"title": "Read"}}}');
    const o = await loadToolOverrides(path, "o.json");
    assert.equal(o.file, "o.json");
    assert.deepEqual(o.overrides, { "fs:read": { title: "Read" } });
    await assert.rejects(
      () => loadToolOverrides(`${dir}/missing.json`),
      (e: unknown) =>
        e instanceof ToolOverridesError && e.message ===
          `Cannot load tool overrides "${dir}/missing.json": file not found`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
