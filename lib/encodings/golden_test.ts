// Golden files: the first 3 tools (by id) of the frozen reference corpus
// fixtures/corpora/reference_v1.tools.json, rendered by each arm and compared
// byte for byte. Regenerate with
//   UPDATE_GOLDENS=1 deno test -A lib/encodings/golden_test.ts
// then review the diff. Each golden is also checked against the arm rules
// independently of the arm code: written out by hand (compact_sig, markdown),
// decoded back to the raw tools (toon_listing, minified_json, baseline_json),
// or rebuilt with an independent SHA-256 (tron_dedup).
//
// The hand-made sample tools (testdata/sample_tools.json) keep their own
// hand-written expected listings, as separate tests below.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { decode } from "@toon-format/toon";
import { loadCatalog } from "../catalog/load.ts";
import type { JsonValue, Tool } from "../catalog/types.ts";
import { armsNamed } from "./registry.ts";

const ARMS = armsNamed();
import { REFERENCE, referenceSampleTools, sampleTools } from "../../testing/encodings.ts";

const goldenPath = (arm: string) => new URL(`./testdata/${arm}.txt`, import.meta.url);
const golden = (arm: string) => Deno.readTextFileSync(goldenPath(arm));

// ---------------------------------------------------------------------------
// Reference corpus goldens

for (const arm of ARMS) {
  Deno.test(`${arm.name} renders the first 3 reference tools as its golden file`, () => {
    const listing = arm.encodeListing(referenceSampleTools());
    if (Deno.env.get("UPDATE_GOLDENS") === "1") {
      Deno.writeTextFileSync(goldenPath(arm.name), listing.text);
    }
    assert.equal(listing.text, golden(arm.name));
    assert.equal(listing.skipped.count, 0);
    assert.deepEqual(listing.encodedIds, [
      "airbnb:airbnb_listing_details",
      "airbnb:airbnb_search",
      "airtable:create_comment",
    ]);
  });
}

Deno.test("the golden inputs are the first 3 tools the catalog loader gives", async () => {
  const corpus = await loadCatalog(REFERENCE.pathname);
  const ids = corpus.tools.slice(0, 3).map((t) => t.id);
  assert.deepEqual(ids, referenceSampleTools().map((t) => t.id));
  for (const [i, tool] of referenceSampleTools().entries()) {
    const loaded = corpus.tools[i];
    assert.equal(loaded.description, tool.description);
    assert.equal(loaded.title, tool.title);
    assert.deepEqual(loaded.inputSchema, tool.inputSchema);
    assert.deepEqual(loaded.outputSchema, tool.outputSchema);
    assert.deepEqual(loaded.annotations, tool.annotations);
  }
});

/** Sorted-key compact JSON, written independently of lib/catalog/canonical.ts (ASCII keys). */
function sortedJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  const obj = value as Record<string, JsonValue>;
  const keys = Object.keys(obj).sort();
  for (const k of keys) assert.match(k, /^[\x20-\x7e]*$/, "test helper handles ASCII keys only");
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(obj[k])}`).join(",")}}`;
}

const ref = () => referenceSampleTools();
const D_DETAILS =
  "Get detailed information about a specific Airbnb listing. Provide direct links to the user";
const D_SEARCH =
  "Search for Airbnb listings with various filters and pagination. Provide direct links to the user";
const D_COMMENT = "Create a comment on a record";

Deno.test("baseline_json golden: name, description, sorted compact schema per tool", () => {
  const blocks = golden("baseline_json").split("\n\n");
  assert.equal(blocks.length, 3);
  for (const [i, tool] of ref().entries()) {
    const [name, description, schema, ...rest] = blocks[i].split("\n");
    assert.deepEqual(rest, []);
    assert.equal(name, tool.name);
    assert.equal(description, tool.description);
    assert.equal(schema, sortedJson(tool.inputSchema!));
  }
});

Deno.test("compact_sig golden matches the hand-written signatures", () => {
  const expected = "airbnb_listing_details(id:string, adults?:number, checkin?:string, " +
    "checkout?:string, children?:number, ignoreRobotsText?:bool, infants?:number, pets?:number)|" +
    `${D_DETAILS}\n\n` +
    "airbnb_search(location:string, adults?:number, checkin?:string, checkout?:string, " +
    "children?:number, cursor?:string, ignoreRobotsText?:bool, infants?:number, maxPrice?:number, " +
    "minPrice?:number, pets?:number, placeId?:string, propertyType?:string)|" +
    `${D_SEARCH}\n\n` +
    "create_comment(baseId:string, tableId:string, recordId:string, text:string, " +
    `parentCommentId?:string)|${D_COMMENT}`;
  assert.equal(golden("compact_sig"), expected);
});

Deno.test("toon_listing golden decodes back to {name, description, inputSchema} per tool", () => {
  const decoded = decode(golden("toon_listing"));
  assert.deepEqual(
    decoded,
    ref().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  );
  // One root array: the `[3]{...}` or `[3]:` header is paid once.
  assert.match(golden("toon_listing"), /^\[3\]/);
  assert.equal(golden("toon_listing").match(/^\[\d+\]/gm)?.length, 1);
});

Deno.test("tron_dedup golden: one class per schema named by an independent SHA-256", () => {
  const tools = ref();
  const cls = (t: Tool) => {
    const text = sortedJson(t.inputSchema!);
    return { name: `C${createHash("sha256").update(text).digest("hex").slice(0, 8)}`, text };
  };
  const classes = tools.map(cls);
  assert.equal(new Set(classes.map((c) => c.name)).size, 3, "the 3 schemas differ");
  const expected = classes.map((c) => `class ${c.name} = ${c.text}`).join("\n") + "\n\n" +
    tools.map((t, i) => `${t.name}|${t.description}|${classes[i].name}`).join("\n\n");
  assert.equal(golden("tron_dedup"), expected);
});

Deno.test("minified_json golden parses back to the tools/list entries, compact", () => {
  const text = golden("minified_json");
  const parsed = JSON.parse(text);
  assert.equal(JSON.stringify(parsed), text, "no whitespace outside strings");
  assert.deepEqual(
    parsed,
    ref().map((t) => {
      const { id: _id, server: _server, inputSchemaCanonical: _c, ...entry } = t;
      return entry;
    }),
  );
  // Key order inside each schema is the sorted canonical order.
  for (const [i, entry] of (parsed as Record<string, JsonValue>[]).entries()) {
    assert.ok(text.includes(`"inputSchema":${sortedJson(entry.inputSchema)}`), `tool ${i}`);
  }
  // airtable:create_comment carries title, outputSchema and annotations; airbnb tools do not.
  assert.deepEqual(Object.keys(parsed[2]), [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
  ]);
});

Deno.test("markdown golden matches the hand-written listing", () => {
  const head = "| Parameter | Type | Required | Description |\n| --- | --- | --- | --- |\n";
  const people = (who: string) => `| ${who} | number | no | Number of ${who} |\n`;
  const stay = "| checkin | string | no | Check-in date (YYYY-MM-DD) |\n" +
    "| checkout | string | no | Check-out date (YYYY-MM-DD) |\n";
  const robots = "| ignoreRobotsText | boolean | no | Ignore robots.txt rules for this request |\n";
  const expected = "# Tools\n\n" +
    `## airbnb_listing_details\n\n${D_DETAILS}\n\n${head}` +
    "| id | string | yes | The Airbnb listing ID |\n" +
    people("adults") + stay + people("children") + robots + people("infants") +
    "| pets | number | no | Number of pets |\n\n" +
    `## airbnb_search\n\n${D_SEARCH}\n\n${head}` +
    "| location | string | yes | Location to search for (city, state, etc.) |\n" +
    people("adults") + stay + people("children") +
    "| cursor | string | no | Base64-encoded string used for Pagination |\n" +
    robots + people("infants") +
    "| maxPrice | number | no | Maximum price for the stay |\n" +
    "| minPrice | number | no | Minimum price for the stay |\n" +
    "| pets | number | no | Number of pets |\n" +
    "| placeId | string | no | Google Maps Place ID (overrides the location parameter) |\n" +
    '| propertyType | string (one of: "entire_home", "private_room", "shared_room", ' +
    '"hotel_room") | no | Filter by property type: ' +
    "'entire_home' (entire homes/apartments), 'private_room' (private rooms in shared homes), " +
    "'shared_room' (shared/dorm-style rooms), 'hotel_room' (hotel rooms) |\n\n" +
    `## create_comment\n\n${D_COMMENT}\n\n${head}` +
    "| baseId | string | yes | The ID of the base |\n" +
    "| tableId | string | yes | The ID or name of the table |\n" +
    "| recordId | string | yes | The ID of the record |\n" +
    "| text | string | yes | The comment text |\n" +
    "| parentCommentId | string | no | Optional parent comment ID for threaded replies |";
  assert.equal(golden("markdown"), expected);
});

// ---------------------------------------------------------------------------
// Hand-made sample tools: every arm except toon_listing written out by hand.

const S_READ =
  '{"$schema":"http://json-schema.org/draft-07/schema#","additionalProperties":false,' +
  '"properties":{"head":{"description":"If provided, returns only the first N lines","type":"number"},' +
  '"path":{"type":"string"},"tail":{"description":"If provided, returns only the last N lines",' +
  '"type":"number"}},"required":["path"],"type":"object"}';
const S_SEARCH = '{"properties":{"order":{"enum":["asc","desc"],"type":"string"},' +
  '"per_page":{"maximum":100,"minimum":1,"type":["integer","null"]},"q":{"type":"string"}},' +
  '"required":["q"],"type":"object"}';
const S_GRAPH = '{"properties":{},"type":"object"}';
const D_READ = "Read the complete contents of a file as text.";
const D_ISSUES = "Search for issues and pull requests across GitHub repositories";
const D_GRAPH = "Read the entire knowledge graph";

/** Hand-written expected listings; sha256 prefixes from `sha256sum`. */
const HAND: Record<string, string> = {
  baseline_json: `read_text_file\n${D_READ}\n${S_READ}\n\n` +
    `search_issues\n${D_ISSUES}\n${S_SEARCH}\n\n` +
    `read_graph\n${D_GRAPH}\n${S_GRAPH}`,
  compact_sig: `read_text_file(path:string, head?:number, tail?:number)|${D_READ}\n\n` +
    `search_issues(q:string, order?:string, per_page?:int)|${D_ISSUES}\n\n` +
    `read_graph()|${D_GRAPH}`,
  tron_dedup: `class C1be317d1 = ${S_READ}\nclass Cd0b32f0f = ${S_SEARCH}\n` +
    `class Cefddc7bd = ${S_GRAPH}\n\n` +
    `read_text_file|${D_READ}|C1be317d1\n\nsearch_issues|${D_ISSUES}|Cd0b32f0f\n\n` +
    `read_graph|${D_GRAPH}|Cefddc7bd`,
  minified_json: `[{"name":"read_text_file","description":"${D_READ}","inputSchema":${S_READ}},` +
    `{"name":"search_issues","description":"${D_ISSUES}","inputSchema":${S_SEARCH}},` +
    `{"name":"read_graph","description":"${D_GRAPH}","inputSchema":${S_GRAPH}}]`,
  markdown: "# Tools\n\n" +
    `## read_text_file\n\n${D_READ}\n\n` +
    "| Parameter | Type | Required | Description |\n| --- | --- | --- | --- |\n" +
    "| path | string | yes |  |\n" +
    "| head | number | no | If provided, returns only the first N lines |\n" +
    "| tail | number | no | If provided, returns only the last N lines |\n\n" +
    `## search_issues\n\n${D_ISSUES}\n\n` +
    "| Parameter | Type | Required | Description |\n| --- | --- | --- | --- |\n" +
    "| q | string | yes |  |\n" +
    '| order | string (one of: "asc", "desc") | no |  |\n' +
    "| per_page | integer or null | no |  |\n\n" +
    `## read_graph\n\n${D_GRAPH}\n\nNo parameters.`,
};

for (const arm of ARMS) {
  const hand = HAND[arm.name];
  if (hand === undefined) continue;
  Deno.test(`${arm.name} renders the hand-made sample tools as written by hand`, () => {
    const listing = arm.encodeListing(sampleTools());
    assert.equal(listing.text, hand);
    assert.equal(listing.skipped.count, 0);
  });
}

Deno.test("toon_listing renders the hand-made sample tools so they decode back", () => {
  const tools = sampleTools();
  const listing = ARMS.find((a) => a.name === "toon_listing")!.encodeListing(tools);
  assert.deepEqual(
    decode(listing.text),
    tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  );
});
