import assert from "node:assert/strict";
import type { Tool } from "../catalog/types.ts";
import { flipGate, signatureLosses } from "./flip_gate.ts";

const tool = (name: string, inputSchema?: Tool["inputSchema"]): Tool => ({
  id: `s:${name}`,
  server: "s",
  name,
  description: "",
  ...(inputSchema === undefined ? {} : { inputSchema }),
});

const TOOLS = [
  tool("plain", {
    type: "object",
    properties: { a: { type: "string" }, b: { type: ["integer", "null"] } },
  }),
  tool("nested", {
    type: "object",
    properties: { items: { type: "array", items: { type: "object", properties: { x: {} } } } },
  }),
  tool("enum", { type: "object", properties: { mode: { type: "string", enum: ["a", "b"] } } }),
  tool("top_anyof", { anyOf: [{ type: "object" }, { type: "string" }] }),
  tool("ref", { type: "object", properties: { p: { $ref: "#/$defs/P" } } }),
  tool("union", {
    type: "object",
    properties: { v: { anyOf: [{ type: "string" }, { type: "number" }] } },
  }),
  tool("mixed", {
    type: "object",
    properties: { v: { oneOf: [{ type: "string", minLength: 1 }, { type: "null" }] } },
  }),
  tool("no_schema"),
];
const byId = new Map(TOOLS.map((t) => [t.id, t]));

Deno.test("signatureLosses() names what compact_sig drops", () => {
  assert.deepEqual(
    TOOLS.map((t) => [t.name, signatureLosses(t)]),
    [
      ["plain", []],
      ["nested", ["nested_object"]],
      ["enum", ["enum_values"]],
      ["top_anyof", ["unparseable_schema"]],
      ["ref", ["reference"]],
      ["union", []],
      ["mixed", ["composite_type"]],
      ["no_schema", []],
    ],
  );
});

/** Counts characters, so schema weights are easy to compute by hand. */
const chars = { name: "chars", count: (t: string) => t.length };

Deno.test("flipGate() reports identity, median reduction and lossy signatures", () => {
  const result = flipGate(
    [
      // reduction 1 − 40/100 = 0.6
      {
        queryId: "q1",
        fullIds: ["s:plain", "s:nested"],
        compactIds: ["s:plain", "s:nested"],
        fullTokens: 100,
        compactTokens: 40,
      },
      // reduction 1 − 150/200 = 0.25; rankings differ
      {
        queryId: "q2",
        fullIds: ["s:enum", "s:ref"],
        compactIds: ["s:ref", "s:enum"],
        fullTokens: 200,
        compactTokens: 150,
      },
      // reduction 1 − 10/50 = 0.8
      {
        queryId: "q3",
        fullIds: ["s:union"],
        compactIds: ["s:union"],
        fullTokens: 50,
        compactTokens: 10,
      },
    ],
    { lookup: (id) => byId.get(id), tokenizer: chars, heaviest: 2 },
  );
  assert.equal(result.queryCount, 3);
  assert.equal(result.identicalCount, 2);
  assert.equal(result.identityRate, 2 / 3);
  assert.equal(result.rankingIdentical, false);
  assert.deepEqual(result.mismatches, [
    { queryId: "q2", full: ["s:enum", "s:ref"], compact: ["s:ref", "s:enum"] },
  ]);
  assert.equal(result.medianFullTokens, 100);
  assert.equal(result.medianCompactTokens, 40);
  assert.equal(result.medianReduction, 0.6);
  // Returned in compact: plain, nested, ref, enum, union = 5; lossy: nested, ref, enum = 3.
  assert.equal(result.lossy.signatureCount, 5);
  assert.equal(result.lossy.lossyCount, 3);
  assert.equal(result.lossy.rate, 3 / 5);
  assert.deepEqual(result.lossy.byReason, {
    unparseable_schema: 0,
    nested_object: 1,
    enum_values: 1,
    composite_type: 0,
    reference: 1,
  });
  // Canonical schema lengths (characters):
  // nested: {"properties":{"items":{"items":{"properties":{"x":{}},"type":"object"},"type":"array"}},"type":"object"} = 105 (counted with Python len)
  // enum:   {"properties":{"mode":{"enum":["a","b"],"type":"string"}},"type":"object"} = 74
  // ref:    {"properties":{"p":{"$ref":"#/$defs/P"}},"type":"object"} = 57
  assert.deepEqual(result.lossy.heaviest, [
    {
      toolId: "s:nested",
      schemaTokens: 105,
      signature: "nested(items?:arr)",
      reasons: ["nested_object"],
    },
    {
      toolId: "s:enum",
      schemaTokens: 74,
      signature: "enum(mode?:string)",
      reasons: ["enum_values"],
    },
  ]);
});

Deno.test("flipGate() passes when every ranking is identical; empty input gives nulls", () => {
  const pass = flipGate(
    [{
      queryId: "q",
      fullIds: ["s:plain"],
      compactIds: ["s:plain"],
      fullTokens: 10,
      compactTokens: 5,
    }],
    { lookup: (id) => byId.get(id), tokenizer: chars },
  );
  assert.equal(pass.rankingIdentical, true);
  assert.equal(pass.identityRate, 1);
  assert.equal(pass.lossy.rate, 0);
  const empty = flipGate([], { lookup: (id) => byId.get(id), tokenizer: chars });
  assert.equal(empty.identityRate, null);
  assert.equal(empty.rankingIdentical, false);
  assert.equal(empty.medianReduction, null);
  assert.equal(empty.lossy.rate, null);
});
