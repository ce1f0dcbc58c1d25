import assert from "node:assert/strict";
import type { JsonObject } from "../catalog/types.ts";
import { compactSig, signatureParams } from "./compact_sig.ts";
import { toTool } from "../../testing/encodings.ts";

const sig = (inputSchema?: JsonObject, description = "d") => {
  const out = compactSig.encodeTool(toTool({ server: "s", name: "t", description, inputSchema }));
  assert.ok(out.ok);
  return out.text;
};

Deno.test("compact_sig renders required params in required order, then optional by byte order", () => {
  const schema: JsonObject = {
    type: "object",
    properties: {
      query: { type: "string", description: "q" },
      limit: { type: "integer", default: 10 },
      state: { type: "string", enum: ["open", "closed"] },
      labels: { type: "array", items: { type: "string" } },
      Zeta: { type: ["number", "null"] },
      filter: { type: "object", properties: { x: { type: "string" } } },
      flag: { type: "boolean" },
      unknown: {},
      weird: { type: "date" },
    },
    required: ["state", "query", "missing", "query"],
  };
  assert.equal(
    sig(schema, "Search issues | fast"),
    "t(state:string, query:string, Zeta?:number, filter?:obj, flag?:bool, labels?:arr, " +
      "limit?:int, unknown?:any, weird?:any)|Search issues | fast",
  );
});

Deno.test("compact_sig sorts optional names by UTF-8 bytes, not UTF-16 units", () => {
  // U+FF61 is EF BD A1 in UTF-8, U+1F600 is F0 9F 98 80: U+FF61 sorts first.
  // In UTF-16 the emoji's high surrogate D83D sorts before FF61.
  const schema = { properties: { "\u{1F600}": {}, "\uFF61": {}, "é": {}, z: {} } };
  assert.equal(sig(schema), "t(z?:any, é?:any, \uFF61?:any, \u{1F600}?:any)|d");
});

Deno.test("compact_sig maps type arrays and anyOf/oneOf members", async (t) => {
  const one = (p: JsonObject) => sig({ properties: { p } }).slice(2, -3);
  await t.step("type array drops null and duplicates, keeps order", () => {
    assert.equal(one({ type: ["integer", "integer", "null", "string"] }), "p?:int|string");
    assert.equal(one({ type: ["number", "integer"] }), "p?:number|int");
    assert.equal(one({ type: ["string", "foo", "bar"] }), "p?:string|any");
  });
  await t.step("nothing left is any", () => {
    assert.equal(one({ type: ["null"] }), "p?:any");
    assert.equal(one({ type: [] }), "p?:any");
    assert.equal(one({ type: "null" }), "p?:any");
  });
  await t.step("anyOf, else oneOf, when there is no type", () => {
    assert.equal(
      one({ anyOf: [{ type: ["string", "null"] }, { type: "integer" }, { $ref: "#/x" }] }),
      "p?:string|int",
    );
    assert.equal(one({ oneOf: [{ type: "boolean" }, { type: "boolean" }] }), "p?:bool");
    assert.equal(one({ anyOf: [{ type: "null" }] }), "p?:any");
  });
  await t.step("type wins over anyOf", () => {
    assert.equal(one({ type: "object", anyOf: [{ type: "string" }] }), "p?:obj");
  });
  await t.step("non-object property schemas are any", () => {
    assert.equal(sig({ properties: { p: true } }), "t(p?:any)|d");
  });
});

Deno.test("compact_sig renders () without schema or properties", () => {
  assert.equal(sig(undefined, "x"), "t()|x");
  assert.equal(sig({}, "x"), "t()|x");
  assert.equal(sig({ $schema: "http://json-schema.org/draft-07/schema#" }, "x"), "t()|x");
  assert.equal(sig({ properties: [] as unknown as JsonObject }, "x"), "t()|x");
  assert.equal(sig({ anyOf: [{ properties: { a: {} } }] }, "x"), "t()|x");
});

Deno.test("compact_sig keeps the description verbatim and joins the listing with blank lines", () => {
  const tools = [
    toTool({ server: "s", name: "a", description: "line one\nline | two " }),
    toTool({ server: "s", name: "b", inputSchema: { properties: { x: { type: "string" } } } }),
  ];
  const listing = compactSig.encodeListing(tools);
  assert.equal(listing.text, "a()|line one\nline | two \n\nb(x?:string)|");
  assert.deepEqual(listing.encodedIds, ["s:a", "s:b"]);
  assert.deepEqual(listing.skipped, { count: 0, examples: [] });
  assert.equal(signatureParams(tools[1]), "x?:string");
});
