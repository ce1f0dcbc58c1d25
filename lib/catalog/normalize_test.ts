import assert from "node:assert/strict";
import type { Tool } from "./types.ts";
import { normalizeForProvider } from "./normalize.ts";
import { hardCases } from "../../testing/encodings.ts";

const cases = hardCases();
const find = (file: string, name: string): Tool => cases.get(file)!.find((t) => t.name === name)!;
const kinds = (r: { changes: readonly { kind: string }[] }) => r.changes.map((c) => c.kind);

Deno.test("normalizeForProvider() keeps $defs for Anthropic and OpenAI, inlines them for Gemini, and never modifies the raw tool", () => {
  const tool: Tool = {
    id: "s:t",
    server: "s",
    name: "t",
    description: "d",
    inputSchema: {
      type: "object",
      $defs: { id: { type: "string", description: "An id" } },
      properties: { a: { $ref: "#/$defs/id" }, b: { $ref: "#/$defs/id", description: "B" } },
    },
  };
  const before = JSON.stringify(tool);
  // What an MCP client sends these two: the server's schema, byte for byte.
  for (const dialect of ["anthropic", "openai"] as const) {
    const out = normalizeForProvider(tool, dialect);
    assert.equal(JSON.stringify(out.schema), JSON.stringify(tool.inputSchema), dialect);
    assert.deepEqual(kinds(out), [], dialect);
  }
  const gemini = normalizeForProvider(tool, "gemini");
  assert.deepEqual(gemini.schema, {
    type: "object",
    properties: {
      a: { type: "string", description: "An id" },
      b: { type: "string", description: "B" },
    },
  });
  assert.deepEqual(kinds(gemini), ["inline-refs"]);
  assert.equal(JSON.stringify(tool), before);
  assert.equal(gemini.raw, tool);
});

Deno.test("normalizeForProvider() leaves a schema as listed for json-schema (Gemini's parametersJsonSchema), filling in only a missing one", () => {
  // A root $ref, a type array and a keyword outside Gemini's OpenAPI subset: each would be
  // changed for some dialect, none for a field that takes JSON Schema as it is.
  const schema = {
    $ref: "#/$defs/args",
    $defs: { args: { type: "object", properties: { n: { type: ["integer", "null"] } } } },
    patternProperties: { "^x-": { type: "string" } },
  };
  const tool: Tool = { id: "s:t", server: "s", name: "t", description: "", inputSchema: schema };
  const out = normalizeForProvider(tool, "json-schema");
  assert.equal(out.schema, schema);
  assert.deepEqual(kinds(out), []);
  assert.ok(kinds(normalizeForProvider(tool, "anthropic")).length > 0);
  const bare = normalizeForProvider({ ...tool, inputSchema: undefined }, "json-schema");
  assert.deepEqual(bare.schema, { type: "object", properties: {} });
  assert.deepEqual(kinds(bare), ["add-schema"]);
});

Deno.test("normalizeForProvider() inlines a root $ref for Anthropic so the top level is an object", () => {
  const tool: Tool = {
    id: "s:t",
    server: "s",
    name: "t",
    description: "d",
    inputSchema: {
      $ref: "#/definitions/Args",
      definitions: { Args: { type: "object", properties: { q: { type: "string" } } } },
    },
  };
  const out = normalizeForProvider(tool, "anthropic");
  assert.deepEqual(out.schema, { type: "object", properties: { q: { type: "string" } } });
  assert.deepEqual(kinds(out), ["inline-refs"]);
});

Deno.test("normalizeForProvider() keeps recursive refs for OpenAI and cuts them for Gemini", () => {
  const tool = find("ref_cycles.json", "tree_insert");
  assert.deepEqual(normalizeForProvider(tool, "openai").changes, []);
  const gemini = normalizeForProvider(tool, "gemini");
  assert.deepEqual(kinds(gemini), ["inline-refs", "cut-recursive-ref"]);
  // root -> node (inlined once) -> children.items re-enters node: cut to {"type":"object"}.
  assert.deepEqual(gemini.schema, {
    type: "object",
    properties: {
      root: {
        type: "object",
        properties: {
          value: { type: "string" },
          children: { type: "array", items: { type: "object" } },
        },
      },
    },
    required: ["root"],
  });
});

Deno.test("normalizeForProvider() drops unresolved refs and merges a top-level anyOf", () => {
  const broken = normalizeForProvider(find("ref_cycles.json", "broken_ref"), "openai");
  assert.deepEqual(kinds(broken), ["drop-unresolved-ref", "drop-unresolved-ref"]);
  assert.deepEqual(broken.schema, { type: "object", properties: { x: {}, y: {} } });
  const anyOf = normalizeForProvider(find("top_level_anyof.json", "find_user"), "anthropic");
  // Branch required sets {id} and {name} have no common member, so nothing is required.
  assert.deepEqual(anyOf.schema, {
    properties: { id: { type: "string" }, name: { type: "string" } },
    type: "object",
  });
  assert.deepEqual(kinds(anyOf), ["merge-top-level-combinator", "add-type-object"]);
  assert.equal(anyOf.changes[0].lossy, true);
  const allOf = normalizeForProvider(find("top_level_anyof.json", "merged"), "openai");
  assert.deepEqual(allOf.schema, {
    properties: { url: { type: "string" }, max_length: { type: "integer" } },
    required: ["url"],
    type: "object",
  });
  assert.equal(allOf.changes[0].lossy, false);
});

Deno.test("normalizeForProvider() narrows type arrays and drops unknown keywords for Gemini", () => {
  const out = normalizeForProvider(find("type_arrays.json", "typed"), "gemini");
  assert.deepEqual(out.schema, {
    type: "object",
    properties: {
      maybe_count: { type: "integer", nullable: true },
      tags: { type: "array", items: { type: "string", nullable: true } },
      mixed: { type: "array", items: { type: "string" } },
    },
  });
  assert.deepEqual(
    kinds(out),
    ["narrow-type-array", "narrow-items-anyof", "narrow-type-array"].sort(),
  );
  const schemaOnly = normalizeForProvider(find("schema_only.json", "list_projects"), "gemini");
  assert.deepEqual(schemaOnly.schema, { type: "object" });
  assert.deepEqual(kinds(schemaOnly), ["add-type-object", "drop-keywords"]);
  assert.match(schemaOnly.changes[1].detail, /^dropped "\$schema" \(1 place\)/);
});

Deno.test("normalizeForProvider() adds a schema when there is none and rejects unknown providers", () => {
  const tool: Tool = { id: "s:t", server: "s", name: "t", description: "" };
  assert.deepEqual(normalizeForProvider(tool, "openai").schema, { type: "object", properties: {} });
  assert.throws(() => normalizeForProvider(tool, "mistral" as "openai"), RangeError);
});

Deno.test("normalizeForProvider() gives up inlining past its budget and keeps the refs", () => {
  const tool = find("ref_cycles.json", "mutual_cycle");
  const out = normalizeForProvider(tool, "gemini", { maxInlineNodes: 2 });
  assert.deepEqual(kinds(out).slice(0, 1), ["inline-aborted"]);
});

Deno.test("normalizeForProvider() copies a schema 20,000 levels deep, and inlines refs only 1,000 JSON levels down", () => {
  const nest = (depth: number, bottom: Record<string, unknown>) => {
    let schema = bottom;
    for (let i = 0; i < depth; i++) schema = { type: "object", properties: { a: schema } };
    return schema;
  };
  const tool = (inputSchema: unknown): Tool =>
    ({ id: "s:deep", server: "s", name: "deep", description: "Deep.", inputSchema }) as Tool;
  // Without refs: nothing to change for OpenAI; for Gemini the type array at the bottom is
  // narrowed (20,001 property levels down, counted by hand) and the source is untouched.
  const deep = tool(nest(20_000, { type: ["string", "null"] }));
  assert.deepEqual(kinds(normalizeForProvider(deep, "openai")), []);
  const gemini = normalizeForProvider(deep, "gemini");
  assert.deepEqual(gemini.changes.map((c) => c.path), ["#" + "/properties/a".repeat(20_000)]);
  assert.equal(JSON.stringify(deep.inputSchema).includes('"null"'), true);
  // With a ref: each property level is two JSON levels (the node, its "properties"), and the
  // ref's target is copied one level below the ref: 499 levels put it at 999 (inlined), 500
  // at 1,001 (kept, with the reason).
  const withRef = (depth: number) =>
    tool({ ...nest(depth, { $ref: "#/$defs/leaf" }), $defs: { leaf: { type: "string" } } });
  assert.deepEqual(kinds(normalizeForProvider(withRef(499), "gemini")), ["inline-refs"]);
  const kept = normalizeForProvider(withRef(500), "gemini");
  assert.deepEqual(kinds(kept).slice(0, 1), ["inline-aborted"]);
  assert.equal(kept.changes[0].detail, "the schema nests deeper than 1000 levels; $refs kept");
});

Deno.test("normalizeForProvider() hands back the tool's own schema exactly when nothing changes", () => {
  let shared = 0;
  for (const tool of [...cases.values()].flat()) {
    for (const dialect of ["openai", "anthropic", "gemini"] as const) {
      const out = normalizeForProvider(tool, dialect);
      if (out.schema === tool.inputSchema) {
        shared++;
        assert.deepEqual(out.changes, [], `${tool.id} ${dialect}`);
      } else if (out.changes.length === 0) {
        // Unchanged but copied: only a schema whose refs stay (OpenAI and Anthropic keep them).
        assert.equal(JSON.stringify(out.schema), JSON.stringify(tool.inputSchema));
        assert.match(JSON.stringify(tool.inputSchema), /"\$ref"/, `${tool.id} ${dialect}`);
      }
    }
  }
  assert.ok(shared > 0);
  // A schema Gemini must change is copied for Gemini, shared where the dialect accepts it.
  const tool: Tool = {
    id: "s:t",
    server: "s",
    name: "t",
    description: "d",
    inputSchema: {
      type: "object",
      properties: { a: { type: "string", format: "uri" } },
      additionalProperties: false,
    },
  };
  assert.equal(normalizeForProvider(tool, "openai").schema, tool.inputSchema);
  const gemini = normalizeForProvider(tool, "gemini");
  assert.notEqual(gemini.schema, tool.inputSchema);
  assert.deepEqual(kinds(gemini), ["drop-keywords"]);
  assert.deepEqual(tool.inputSchema, {
    type: "object",
    properties: { a: { type: "string", format: "uri" } },
    additionalProperties: false,
  });
});
