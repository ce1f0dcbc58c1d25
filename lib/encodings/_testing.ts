// Test helpers: build Tool records from raw MCP-style entries without the
// catalog loaders, so encoding tests stay independent of them.
import type { JsonObject, Tool } from "../catalog/types.ts";

/** A raw tool entry: a `tools/list` item plus the server that exposes it. */
export interface RawTool {
  readonly server: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
  readonly title?: string;
}

/** Builds a Tool (`id` = `server:name`, description `""` when absent). */
export function toTool(raw: RawTool): Tool {
  return { ...raw, id: `${raw.server}:${raw.name}`, description: raw.description ?? "" };
}

/** Reads `{tools: RawTool[]}` from a JSON file and returns Tools sorted by id. */
export function readTools(url: URL): Tool[] {
  const data = JSON.parse(Deno.readTextFileSync(url)) as { tools: RawTool[] };
  return data.tools.map(toTool).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The three hand-written sample tools (golden inputs). */
export function sampleTools(): Tool[] {
  return readTools(new URL("./testdata/sample_tools.json", import.meta.url));
}

/** Fake tokenizer for tests: counts whitespace-separated words. */
export const words = {
  name: "words",
  count: (text: string): number => text.split(/\s+/).filter((w) => w !== "").length,
};
