// Property-based tests over random JSON Schemas (fast-check, fixed seed).
import assert from "node:assert/strict";
import fc from "fast-check";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { armsNamed } from "./registry.ts";

const ARMS = armsNamed();
import { toTool } from "../../testing/encodings.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

const SEED = 20260714;
const RUNS = 150;

const typeName = fc.constantFrom(
  "string",
  "integer",
  "number",
  "boolean",
  "object",
  "array",
  "null",
  "date",
);
const key = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "toString", "0", "10", "", "a|b", "x y"),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 4 }),
);

const leafFields = {
  type: fc.oneof(typeName, fc.array(typeName, { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
  required: fc.oneof(fc.array(key, { maxLength: 5 }), fc.jsonValue({ maxDepth: 1 })),
  enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  description: fc.string({ unit: "grapheme", maxLength: 20 }),
  $ref: fc.constantFrom("#", "#/$defs/x", "#/properties/a", "http://x/y.json"),
  extra: fc.jsonValue({ maxDepth: 2 }),
};

// A recursive arbitrary of JSON Schema-like objects, at most 4 levels deep:
// real keywords with odd values, plus arbitrary JSON under arbitrary keys.
const { schema } = fc.letrec<{ schema: JsonObject }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 4, depthIdentifier: "schema" },
    fc.record(leafFields, { requiredKeys: [] }),
    fc.record({
      ...leafFields,
      properties: fc.oneof(
        fc.dictionary(key, tie("schema"), { maxKeys: 4 }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      anyOf: fc.array(tie("schema"), { maxLength: 2 }),
      oneOf: fc.array(tie("schema"), { maxLength: 2 }),
      items: tie("schema"),
    }, { requiredKeys: [] }),
  ) as fc.Arbitrary<JsonObject>,
}));

const tool = fc.record({
  server: fc.string({ minLength: 1, maxLength: 8 }),
  name: fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
  description: fc.string({ unit: "grapheme", maxLength: 40 }),
  inputSchema: fc.option(schema, { nil: undefined }),
}).map((r) => toTool(r));

/** The same value with object keys in reverse order at every depth. */
function reverseKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, JsonValue> = {};
  for (const k of Object.keys(value).reverse()) {
    Object.defineProperty(out, k, {
      value: reverseKeys((value as JsonObject)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

Deno.test(
  "no arm throws on random schemas and every arm is byte-deterministic",
  FULL_TIER_ONLY,
  () => {
    fc.assert(
      fc.property(fc.array(tool, { maxLength: 6 }), (tools: Tool[]) => {
        for (const arm of ARMS) {
          const listing = arm.encodeListing(tools);
          assert.equal(listing.encodedIds.length + listing.skipped.count, tools.length);
          const again = arm.encodeListing(structuredClone(tools));
          assert.equal(again.text, listing.text, arm.name);
          for (const t of tools) {
            const a = arm.encodeTool(t);
            assert.deepEqual(arm.encodeTool(structuredClone(t)), a);
            arm.indexFields(t);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  },
);

Deno.test("every arm's output ignores the key order of the input schema", () => {
  fc.assert(
    fc.property(tool, (t: Tool) => {
      const reversed: Tool = t.inputSchema === undefined
        ? t
        : { ...t, inputSchema: reverseKeys(t.inputSchema) as JsonObject };
      for (const arm of ARMS) {
        assert.deepEqual(arm.encodeTool(reversed), arm.encodeTool(t), arm.name);
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
});
