import assert from "node:assert/strict";
import { clineToolSchema, rooToolSchema } from "./client_schemas.ts";
import type { JsonObject } from "../catalog/types.ts";

// Every expected text below is written out by hand from the rules of the cited source.
const text = (s: JsonObject) => JSON.stringify(s);

Deno.test("rooToolSchema() rewrites a schema as Roo Code v3.52.1's normalizeToolSchema does, key order included", () => {
  // a zod-to-json-schema style tool: $schema (an unknown key) moves first; a format OpenAI does
  // not accept (uri) is dropped, date-time kept; a type list becomes anyOf; required keeps only
  // names of properties; every object gets additionalProperties: false, after properties
  const schema: JsonObject = {
    type: "object",
    properties: {
      url: { type: "string", format: "uri", description: "Page" },
      tags: { type: "array", items: { type: "string" }, minItems: 1 },
      when: { type: ["string", "null"], format: "date-time" },
    },
    required: ["url", "gone"],
    additionalProperties: false,
    $schema: "http://json-schema.org/draft-07/schema#",
  };
  assert.equal(
    text(rooToolSchema(schema)),
    '{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{' +
      '"url":{"description":"Page","type":"string"},' +
      '"tags":{"type":"array","items":{"type":"string"},"minItems":1},' +
      '"when":{"anyOf":[{"type":"string"},{"type":"null"}],"format":"date-time"}},' +
      '"required":["url"],"additionalProperties":false}',
  );
  // kept keys (minimum) come before type; items and additionalProperties of a non-array,
  // non-object schema are dropped; an object gets properties {} when it has none, and its
  // required names go with them
  assert.equal(
    text(rooToolSchema({
      type: "object",
      properties: {
        opts: { title: "Options", type: "object", properties: {} },
        n: { type: "integer", items: { type: "string" }, additionalProperties: true, minimum: 0 },
        bare: { type: "object", required: ["a"] },
        untyped: { properties: { x: { type: "string" } } },
      },
    })),
    '{"type":"object","properties":{' +
      '"opts":{"title":"Options","type":"object","properties":{},"additionalProperties":false},' +
      '"n":{"minimum":0,"type":"integer"},' +
      '"bare":{"type":"object","properties":{},"additionalProperties":false},' +
      // properties without a type still make an object: no type is written, the flag is
      '"untyped":{"properties":{"x":{"type":"string"}},"additionalProperties":false}},' +
      '"additionalProperties":false}',
  );
  // a nested anyOf keeps its place and is replaced by the type list's branches; an array
  // branch takes the array keys
  assert.equal(
    text(rooToolSchema({
      type: "object",
      properties: {
        v: { anyOf: [{ type: "string" }], type: ["number", "array"], items: { type: "string" } },
      },
    })),
    '{"type":"object","properties":{"v":{"anyOf":[{"type":"number"},' +
      '{"type":"array","items":{"type":"string"}}]}},"additionalProperties":false}',
  );
});

Deno.test("rooToolSchema() flattens a top-level union, keeps a schema its check rejects, and gives a tool without one an empty object", () => {
  // the first union's first object branch, merged over the other keys (every union dropped)
  assert.equal(
    text(rooToolSchema({
      description: "d",
      anyOf: [{ type: "string" }, { type: "object", properties: { a: { type: "number" } } }],
      oneOf: [{ type: "string" }],
    })),
    '{"description":"d","type":"object","properties":{"a":{"type":"number"}},' +
      '"additionalProperties":false}',
  );
  // no object branch: a bare object, then the rewrite (title, an unknown key, first)
  assert.equal(
    text(rooToolSchema({ anyOf: [{ type: "string" }], title: "t" })),
    '{"title":"t","type":"object","properties":{},"additionalProperties":false}',
  );
  // an enum of objects, or a type Roo Code does not know, anywhere: sent as written
  const odd = { type: "object", properties: { k: { enum: [{ a: 1 }] } } };
  assert.equal(text(rooToolSchema(odd)), text(odd));
  const any = { type: "object", properties: { k: { type: "any" } } };
  assert.equal(text(rooToolSchema(any)), text(any));
  assert.equal(text(rooToolSchema(undefined)), '{"type":"object","additionalProperties":false}');
});

Deno.test("clineToolSchema() drops the top-level $schema and puts type object first where the schema has no object type", () => {
  assert.equal(
    text(clineToolSchema({ $schema: "x", type: "object", properties: {} })),
    '{"type":"object","properties":{}}',
  );
  assert.equal(
    text(clineToolSchema({ properties: { a: {} }, required: ["a"] })),
    '{"type":"object","properties":{"a":{}},"required":["a"]}',
  );
  // a type of another kind keeps its value, written first
  assert.equal(text(clineToolSchema({ items: {}, type: "array" })), '{"type":"array","items":{}}');
  // a nested $schema is not Cline's to drop
  assert.equal(
    text(clineToolSchema({ type: "object", properties: { a: { $schema: "y" } } })),
    '{"type":"object","properties":{"a":{"$schema":"y"}}}',
  );
  assert.equal(text(clineToolSchema(undefined)), '{"type":"object","properties":{}}');
});
