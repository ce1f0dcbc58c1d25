// toon_listing's listing is built from the tools' own TOON texts (list items) unless TOON would
// draw a table; both must be the text the library renders for the whole array.
import assert from "node:assert/strict";
import fc from "fast-check";
import { encode } from "@toon-format/toon";
import { schemaText } from "../catalog/canonical.ts";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { toonListing } from "./toon_listing.ts";
import { hardCases, readTools, toTool } from "./_testing.ts";

/** The library's own rendering of the listing: the array of every encodable tool's value. */
function libraryListing(tools: readonly Tool[]): string {
  const values: JsonObject[] = [];
  for (const tool of tools) {
    if (!toonListing.encodeTool(tool).ok) continue;
    const schema = schemaText(tool);
    values.push(
      schema === undefined
        ? { name: tool.name, description: tool.description }
        : { name: tool.name, description: tool.description, inputSchema: JSON.parse(schema) },
    );
  }
  return values.length === 0 ? "" : encode(values);
}

Deno.test("toon_listing's listing is the library's TOON of the array on the reference corpus", () => {
  const tools = readTools(
    new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url),
  );
  assert.ok(tools.length > 1000);
  const listing = toonListing.encodeListing(tools);
  assert.equal(listing.text, libraryListing(tools));
  assert.match(listing.text, new RegExp(`^\\[${tools.length}\\]:\\n  - name: `));
});

Deno.test("toon_listing's listing is the library's TOON of the array on the hard cases", () => {
  for (const [file, tools] of hardCases()) {
    assert.equal(toonListing.encodeListing(tools).text, libraryListing(tools), file);
  }
});

Deno.test("toon_listing renders a table where TOON does: no schemas, or one schema shape", () => {
  const plain = [
    toTool({ server: "s", name: "a", description: "one" }),
    toTool({ server: "s", name: "b", description: "two, three" }),
  ];
  const text = toonListing.encodeListing(plain).text;
  assert.equal(text, '[2]{name,description}:\n  a,one\n  b,"two, three"');
  const shaped = [
    toTool({ server: "s", name: "a", description: "x", inputSchema: { type: "object" } }),
    toTool({ server: "s", name: "b", description: "y", inputSchema: { type: "string" } }),
  ];
  const table = toonListing.encodeListing(shaped).text;
  assert.equal(table, "[2]{name,description,inputSchema{type}}:\n  a,x,object\n  b,y,string");
  // A tool without a schema next to one with a schema: list items.
  const mixed = toonListing.encodeListing([plain[0], shaped[1]]).text;
  assert.equal(
    mixed,
    "[2]:\n  - name: a\n    description: one\n  - name: b\n    description: y\n    inputSchema:\n      type: string",
  );
});

const leaf: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>(
    null,
    true,
    0,
    -0,
    1.5,
    1e21,
    "",
    "a\nb",
    "- x",
    "[1]:",
    " pad ",
    "x,y",
  ),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<JsonValue>,
);
const shapeKey = fc.constantFrom("type", "properties", "a", "b", "items", "0", "10", "x y", "-");
const { node } = fc.letrec<{ node: JsonValue }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: "node" },
    leaf,
    fc.dictionary(shapeKey, tie("node"), { maxKeys: 3 }),
    fc.array(tie("node"), { maxLength: 2 }),
  ),
}));
// Few shapes, so that tables (every tool with one shape) come up as well as list items.
const schema = fc.oneof(
  fc.constantFrom<JsonObject>({ type: "object" }, { type: "string" }, { type: "object", a: {} }),
  fc.record({ type: fc.constantFrom("object", "string") }),
  fc.dictionary(shapeKey, node, { maxKeys: 3 }) as fc.Arbitrary<JsonObject>,
);
const tool = fc.record({
  server: fc.constantFrom("s", "t"),
  name: fc.oneof(
    fc.constantFrom("a", "b c", "-x", "1", "true"),
    fc.string({ minLength: 1, maxLength: 6 }),
  ),
  description: fc.oneof(
    fc.constantFrom("", "Line one\nline two", "a: b", '"q"'),
    fc.string({ maxLength: 12 }),
  ),
  inputSchema: fc.option(schema, { nil: undefined, freq: 3 }),
}).map((r) => toTool(r));

Deno.test("toon_listing's listing is the library's TOON of the array on random tools", () => {
  let tables = 0;
  let lists = 0;
  fc.assert(
    fc.property(fc.array(tool, { maxLength: 5 }), (tools: Tool[]) => {
      const text = toonListing.encodeListing(tools).text;
      assert.equal(text, libraryListing(tools));
      if (/^\[\d+\]\{/.test(text)) tables++;
      else if (text !== "") lists++;
    }),
    { seed: 20261201, numRuns: 400 },
  );
  assert.ok(tables > 20 && lists > 100, `tables ${tables}, lists ${lists}`);
});

Deno.test("measureArms counts toon_listing's parts (header last, held tools) as the whole text", async () => {
  const { measureArms } = await import("./measure.ts");
  const { createTokenizer, TOKENIZER_NAMES } = await import("../tokens/tokenizers.ts");
  const real = TOKENIZER_NAMES.map((n) => createTokenizer(n));
  const reference = TOKENIZER_NAMES.map((n) => createTokenizer(n, "js-tiktoken"));
  // Tools of one shape first (held while a table is possible), then others: list items.
  const same = (name: string) =>
    toTool({ server: "s", name, description: "x", inputSchema: { type: "object" } });
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 3 }),
      fc.array(tool, { maxLength: 4 }),
      (n: number, rest: Tool[]) => {
        const tools = [...Array.from({ length: n }, (_, i) => same(`t${i}`)), ...rest];
        const rows = measureArms({
          corpus: { id: "c", tools },
          arms: [toonListing],
          tokenizers: real,
        });
        const text = toonListing.encodeListing(tools).text;
        for (const [k, ref] of reference.entries()) {
          const row = rows[k];
          assert.ok(!row.skipped);
          assert.equal(row.totalTokens, text === "" ? 0 : ref.count(text), JSON.stringify(text));
        }
      },
    ),
    { seed: 20261205, numRuns: 150 },
  );
});
