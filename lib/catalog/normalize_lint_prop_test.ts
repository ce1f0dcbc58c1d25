// Property: what normalizeForProvider(…, "gemini") claims to fix, lintCatalog no longer finds.
import assert from "node:assert/strict";
import fc from "fast-check";
import type { JsonObject, Tool } from "./types.ts";
import { lintCatalog, type LintRuleId } from "./lint.ts";
import { normalizeForProvider } from "./normalize.ts";

const SEED = 20261201;
const RUNS = 300;

const typeName = fc.constantFrom(
  "string",
  "integer",
  "number",
  "boolean",
  "object",
  "array",
  "null",
);
const type = fc.oneof(typeName, fc.array(typeName, { minLength: 1, maxLength: 3 }));

// Schemas built from the keywords the Gemini pass rewrites: type lists, null branches in
// anyOf/oneOf (inside and outside items), anyOf inside items, nested to depth 4.
const { schema } = fc.letrec<{ schema: JsonObject }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 4, depthIdentifier: "schema" },
    fc.record({ type, description: fc.constantFrom("d", "e") }, { requiredKeys: [] }),
    fc.record({
      type,
      properties: fc.dictionary(fc.constantFrom("a", "b", "items", "c"), tie("schema"), {
        maxKeys: 3,
      }),
      items: tie("schema"),
      anyOf: fc.array(fc.oneof(tie("schema"), fc.constant({ type: "null" })), { maxLength: 3 }),
      oneOf: fc.array(fc.oneof(tie("schema"), fc.constant({ type: "null" })), { maxLength: 3 }),
    }, { requiredKeys: [] }),
  ) as fc.Arbitrary<JsonObject>,
}));

/** Lint rules whose findings the Gemini normalization removes by construction. */
const FIXED: readonly LintRuleId[] = ["type-array", "null-branch", "items-type-array"];

Deno.test("normalizeForProvider(gemini) output has no type-array, null-branch or items-type-array finding", () => {
  fc.assert(
    fc.property(schema, (properties) => {
      const tool: Tool = {
        id: "s:t",
        server: "s",
        name: "t",
        description: "A tool for the property test.",
        inputSchema: { type: "object", properties: { p: properties } },
      };
      const normalized = normalizeForProvider(tool, "gemini").schema;
      const after = lintCatalog([{ ...tool, inputSchema: normalized }]).findings
        .filter((f) => FIXED.includes(f.rule));
      assert.deepEqual(after, [], JSON.stringify({ before: properties, normalized }));
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

Deno.test("normalizeForProvider(gemini) narrows a type list merged from an items anyOf branch", () => {
  // Before the fix, the first branch's ["string","null"] was merged after the node's own
  // type check and survived inside items.
  const tool: Tool = {
    id: "s:t",
    server: "s",
    name: "t",
    description: "Items whose first anyOf branch is a type list.",
    inputSchema: {
      type: "object",
      properties: {
        tags: {
          type: "array",
          items: { anyOf: [{ type: ["string", "null"] }, { type: "integer" }] },
        },
        note: { anyOf: [{ type: "string", description: "text" }, { type: "null" }] },
      },
    },
  };
  const out = normalizeForProvider(tool, "gemini");
  assert.deepEqual(out.schema.properties, {
    tags: { type: "array", items: { type: "string", nullable: true } },
    note: { type: "string", description: "text", nullable: true },
  });
  assert.deepEqual(out.changes.map((c) => `${c.kind} ${c.path}`), [
    "drop-null-branch #/properties/note",
    "narrow-items-anyof #/properties/tags/items",
    "narrow-type-array #/properties/tags/items",
  ]);
});
