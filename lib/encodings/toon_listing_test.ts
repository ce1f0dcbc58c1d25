// toon_listing's listing is built from the tools' own TOON texts (list items) unless TOON would
// draw a table; both must be the text the library renders for the whole array.
import assert from "node:assert/strict";
import fc from "fast-check";
import { encode } from "@toon-format/toon";
import { canonicalJson, schemaText } from "../catalog/canonical.ts";
import { parseCatalog } from "../catalog/parse.ts";
import { synthReference } from "../catalog/synth.ts";
import { synthCatalogText } from "../../testing/synth.ts";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { toonListing } from "./toon_listing.ts";
import { guarded } from "./_private.ts";
import {
  exists,
  hardCases,
  LIVEMCPTOOL,
  readTools,
  REFERENCE,
  toTool,
} from "../../testing/encodings.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

/**
 * The library's own rendering of one tool, as the arm rendered it before its own writer: `encode`
 * of `{name, description, inputSchema}`, the schema parsed back from its canonical text.
 */
function libraryTool(tool: Tool) {
  return guarded("TOON encode", () => {
    const schema = schemaText(tool);
    return encode(
      schema === undefined
        ? { name: tool.name, description: tool.description }
        : { name: tool.name, description: tool.description, inputSchema: JSON.parse(schema) },
    );
  });
}

/** Asserts `encodeTool` is the library's rendering on every tool; returns how many it encoded. */
function sameTools(tools: readonly Tool[], label: string): number {
  let encoded = 0;
  for (const tool of tools) {
    const ours = toonListing.encodeTool(tool);
    assert.deepEqual(ours, libraryTool(tool), `${label}: ${tool.id}`);
    if (ours.ok) encoded++;
  }
  return encoded;
}

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

Deno.test("toon_listing's encodeTool is the library's encode on every tool of the corpora", () => {
  // Loaded as the bench loads them (canonical text recorded, schema keys in the file's order)
  // and as plain values (the canonical text computed from the schema).
  const referenceText = Deno.readTextFileSync(REFERENCE);
  const reference = parseCatalog(referenceText).tools;
  assert.equal(sameTools(reference, "reference_v1"), reference.length);
  assert.ok(reference.every((t) => t.inputSchemaCanonical !== undefined));
  assert.equal(sameTools(readTools(REFERENCE), "reference_v1 values"), reference.length);
  if (exists(LIVEMCPTOOL)) {
    const live = parseCatalog(Deno.readTextFileSync(LIVEMCPTOOL)).tools;
    assert.ok(live.length > 500);
    assert.equal(sameTools(live, "livemcptool"), live.length);
  }
  for (const [file, tools] of hardCases()) sameTools(tools, file);
});

Deno.test(
  "toon_listing's encodeTool is the library's encode on a 10,000-tool synthetic catalog",
  FULL_TIER_ONLY,
  () => {
    const ref = synthReference(Deno.readTextFileSync(REFERENCE), { path: REFERENCE.pathname });
    const tools = parseCatalog(synthCatalogText(ref, { tools: 10000, seed: 1 })).tools;
    assert.equal(tools.length, 10000);
    assert.equal(sameTools(tools, "synth_10000_s1"), tools.length);
  },
);

Deno.test("toon_listing's encodeTool skips what the library rejects, with its reason", () => {
  const lone = [
    toTool({ server: "s", name: "a", description: "x\uD800" }),
    toTool({ server: "s", name: "b", description: "d", inputSchema: { "k\uDC00": 1 } }),
    toTool({ server: "s", name: "c", description: "d", inputSchema: { a: ["\uDBFF"] } }),
  ];
  for (const tool of lone) {
    const out = toonListing.encodeTool(tool);
    assert.ok(!out.ok);
    assert.deepEqual(out, libraryTool(tool));
    assert.match(out.reason, /^TOON encode failed: TypeError: Cannot encode .* unpaired surrogate/);
  }
  // A schema JSON cannot hold fails in the canonical text, as before.
  const bad = toTool({
    server: "s",
    name: "u",
    description: "d",
    inputSchema: { a: undefined } as unknown as JsonObject,
  });
  assert.deepEqual(toonListing.encodeTool(bad), libraryTool(bad));
  assert.ok(!toonListing.encodeTool(bad).ok);
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

Deno.test("toon_listing's encodeTool puts array-index keys first, as JSON.parse does", () => {
  const inputSchema = JSON.parse(
    '{"4294967295":2,"b":1,"4294967294":3,"10":4,"2":5,"01":6,"a":7,"-1":8,"1.5":9}',
  );
  const t = toTool({ server: "s", name: "k", description: "d", inputSchema });
  const out = toonListing.encodeTool(t);
  assert.deepEqual(out, libraryTool(t));
  assert.ok(out.ok);
  assert.equal(
    out.text,
    'name: k\ndescription: d\ninputSchema:\n  "2": 5\n  "10": 4\n  "4294967294": 3\n  "-1": 8\n' +
      '  "01": 6\n  "1.5": 9\n  "4294967295": 2\n  a: 7\n  b: 1',
  );
});

Deno.test("toon_listing's encodeTool writes canonical key order whatever the schema's order", () => {
  fc.assert(
    fc.property(tool, fc.boolean(), (t: Tool, recorded: boolean) => {
      if (t.inputSchema === undefined) return;
      // The same schema with its members in reverse order, canonical text recorded or not.
      const reverse = (v: JsonValue): JsonValue =>
        Array.isArray(v)
          ? v.map(reverse)
          : v !== null && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverse(x)]))
          : v;
      const inputSchema = reverse(t.inputSchema) as JsonObject;
      const moved: Tool = recorded
        ? { ...t, inputSchema, inputSchemaCanonical: canonicalJson(t.inputSchema) }
        : { ...t, inputSchema };
      assert.deepEqual(toonListing.encodeTool(moved), libraryTool(t));
      assert.deepEqual(toonListing.encodeTool(moved), toonListing.encodeTool(t));
    }),
    { seed: 20261206, numRuns: 500 },
  );
});

Deno.test(
  "measureArms counts toon_listing's parts (header last, held tools) as the whole text",
  FULL_TIER_ONLY,
  async () => {
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
  },
);
