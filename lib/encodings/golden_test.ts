// Golden files: the sample tools rendered by each arm, compared byte for byte.
// Run with UPDATE_GOLDENS=1 to rewrite the files, then review the diff.
// For every arm except toon_listing the expected text is also written out by
// hand below, so a golden file cannot silently drift from the rules.
import assert from "node:assert/strict";
import { decode } from "@toon-format/toon";
import { BUILTIN_ARMS } from "./registry.ts";
import { sampleTools } from "./_testing.ts";

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
const D_SEARCH = "Search for issues and pull requests across GitHub repositories";
const D_GRAPH = "Read the entire knowledge graph";

/** Hand-written expected listings; sha256 prefixes from `sha256sum`. */
const HAND: Record<string, string> = {
  baseline_json: `read_text_file\n${D_READ}\n${S_READ}\n\n` +
    `search_issues\n${D_SEARCH}\n${S_SEARCH}\n\n` +
    `read_graph\n${D_GRAPH}\n${S_GRAPH}`,
  compact_sig: `read_text_file(path:string, head?:number, tail?:number)|${D_READ}\n\n` +
    `search_issues(q:string, order?:string, per_page?:int)|${D_SEARCH}\n\n` +
    `read_graph()|${D_GRAPH}`,
  tron_dedup: `class C1be317d1 = ${S_READ}\nclass Cd0b32f0f = ${S_SEARCH}\n` +
    `class Cefddc7bd = ${S_GRAPH}\n\n` +
    `read_text_file|${D_READ}|C1be317d1\n\nsearch_issues|${D_SEARCH}|Cd0b32f0f\n\n` +
    `read_graph|${D_GRAPH}|Cefddc7bd`,
  minified_json: `[{"name":"read_text_file","description":"${D_READ}","inputSchema":${S_READ}},` +
    `{"name":"search_issues","description":"${D_SEARCH}","inputSchema":${S_SEARCH}},` +
    `{"name":"read_graph","description":"${D_GRAPH}","inputSchema":${S_GRAPH}}]`,
  markdown: "# Tools\n\n" +
    `## read_text_file\n\n${D_READ}\n\n` +
    "| Parameter | Type | Required | Description |\n| --- | --- | --- | --- |\n" +
    "| path | string | yes |  |\n" +
    "| head | number | no | If provided, returns only the first N lines |\n" +
    "| tail | number | no | If provided, returns only the last N lines |\n\n" +
    `## search_issues\n\n${D_SEARCH}\n\n` +
    "| Parameter | Type | Required | Description |\n| --- | --- | --- | --- |\n" +
    "| q | string | yes |  |\n" +
    '| order | string (one of: "asc", "desc") | no |  |\n' +
    "| per_page | integer or null | no |  |\n\n" +
    `## read_graph\n\n${D_GRAPH}\n\nNo parameters.`,
};

const goldenPath = (arm: string) => new URL(`./testdata/${arm}.txt`, import.meta.url);

for (const arm of BUILTIN_ARMS) {
  Deno.test(`${arm.name} renders the sample tools as its golden file`, () => {
    const listing = arm.encodeListing(sampleTools());
    if (Deno.env.get("UPDATE_GOLDENS") === "1") {
      Deno.writeTextFileSync(goldenPath(arm.name), listing.text);
    }
    assert.equal(listing.text, Deno.readTextFileSync(goldenPath(arm.name)));
    assert.equal(listing.skipped.count, 0);
    const hand = HAND[arm.name];
    if (hand !== undefined) assert.equal(listing.text, hand);
  });
}

Deno.test("toon_listing golden decodes back to the sample tools", () => {
  const tools = sampleTools();
  const decoded = decode(Deno.readTextFileSync(goldenPath("toon_listing")));
  assert.deepEqual(
    decoded,
    tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  );
});
