// Test helpers: build Tool records from raw MCP-style entries without the
// catalog loaders, so encoding tests stay independent of them.
import type { JsonObject, Tool } from "../lib/catalog/types.ts";

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

/** A Tool from a capture-format entry, keeping only the fields a Tool carries. */
function fromCapture(server: string, t: RawTool): Tool {
  return toTool({
    server,
    name: t.name,
    ...(t.title === undefined ? {} : { title: t.title }),
    ...(t.description === undefined ? {} : { description: t.description }),
    ...(t.inputSchema === undefined ? {} : { inputSchema: t.inputSchema }),
    ...(t.outputSchema === undefined ? {} : { outputSchema: t.outputSchema }),
    ...(t.annotations === undefined ? {} : { annotations: t.annotations }),
  });
}

/**
 * Tools of a parsed catalog, sorted by id: a `{tools: [...]}` file (`name` or
 * LiveMCPBench `tool` key) or an mcpmeter capture (`servers[].tools[]`).
 */
export function toolsOf(data: unknown): Tool[] {
  const byId = (a: Tool, b: Tool) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const servers = (data as { servers?: { server: string; tools: RawTool[] }[] }).servers;
  if (Array.isArray(servers)) {
    return servers.flatMap((s) => s.tools.map((t) => fromCapture(s.server, t))).sort(byId);
  }
  const rows = (data as { tools: (RawTool & { tool?: string; description?: string | null })[] })
    .tools;
  return rows.map((r) =>
    toTool({ ...r, name: r.name ?? r.tool ?? "", description: r.description ?? "" })
  ).sort(byId);
}

/** Reads a `{tools: [...]}` catalog file and returns its Tools sorted by id. */
export function readTools(url: URL): Tool[] {
  return toolsOf(JSON.parse(Deno.readTextFileSync(url)));
}

/** Hard-case catalog files under `fixtures/catalogs/hard/` (JSON ones). */
export const HARD_DIR = new URL("../fixtures/catalogs/hard/", import.meta.url);

/** Every tool of every hard-case JSON file, keyed by file name. */
export function hardCases(): Map<string, Tool[]> {
  const out = new Map<string, Tool[]>();
  const names = [...Deno.readDirSync(HARD_DIR)].map((e) => e.name).filter((n) =>
    n.endsWith(".json")
  )
    .sort();
  for (const name of names) out.set(name, readTools(new URL(name, HARD_DIR)));
  return out;
}

/** Path of the LiveMCPBench snapshot beside the project (may be absent). */
export const LIVEMCPTOOL = new URL(
  "../../shared/corpora/livemcptool/tools.json",
  import.meta.url,
);
/** Path of the frozen reference corpus (may be absent while it is captured). */
export const REFERENCE = new URL("../fixtures/corpora/reference_v1.tools.json", import.meta.url);

/** Whether a file exists. */
export function exists(url: URL): boolean {
  try {
    Deno.statSync(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first `count` tools (by id) of the frozen reference corpus, read straight
 * from the capture file without the catalog loader, so golden tests do not
 * depend on it.
 */
export function referenceSampleTools(count = 3): Tool[] {
  return readTools(REFERENCE).slice(0, count);
}

/** The three hand-written sample tools (hand-checked rendering inputs). */
export function sampleTools(): Tool[] {
  return readTools(new URL("../lib/encodings/testdata/sample_tools.json", import.meta.url));
}

/** Fake tokenizer for tests: counts whitespace-separated words. */
export const words = {
  name: "words",
  count: (text: string): number => text.split(/\s+/).filter((w) => w !== "").length,
};
