// Speed of toon_listing's rendering: the library's `encode` of each tool's value (its schema
// parsed back from the canonical text, as the arm rendered before `_toon_text.ts`) against the
// arm's own writer, over the reference corpus as the bench loads it (canonical texts recorded),
// or a synthetic catalog given as MCPMETER_TOON_BENCH_CORPUS. Same texts (checked before timing).
// Run: deno bench -A lib/encodings/toon_listing_bench.ts
import { encode } from "@toon-format/toon";
import { schemaText } from "../catalog/canonical.ts";
import { parseCatalog } from "../catalog/parse.ts";
import type { Tool } from "../catalog/types.ts";
import { toonListing } from "./toon_listing.ts";
import { REFERENCE } from "../../testing/encodings.ts";

const path = Deno.env.get("MCPMETER_TOON_BENCH_CORPUS") ?? REFERENCE.pathname;
const tools = parseCatalog(Deno.readTextFileSync(path), { path }).tools;

function library(tool: Tool): string {
  const schema = schemaText(tool);
  return encode(
    schema === undefined
      ? { name: tool.name, description: tool.description }
      : { name: tool.name, description: tool.description, inputSchema: JSON.parse(schema) },
  );
}

function own(tool: Tool): string {
  const out = toonListing.encodeTool(tool);
  if (!out.ok) throw new Error(out.reason);
  return out.text;
}

for (const tool of tools) {
  if (own(tool) !== library(tool)) throw new Error(`toon_listing differs from encode: ${tool.id}`);
}

const group = `TOON of every tool, ${tools.length} tools`;
Deno.bench({
  name: "@toon-format/toon encode (schema parsed from its canonical text)",
  group,
  baseline: true,
  fn: () => {
    for (const tool of tools) library(tool);
  },
});
Deno.bench({
  name: "toon_listing encodeTool (_toon_text.ts from the parsed schema)",
  group,
  fn: () => {
    for (const tool of tools) own(tool);
  },
});
