// Test fixtures shared by the catalog-cost and bench-report tests (not part of the surface).
import type { Corpus, Tool } from "../lib/catalog/types.ts";
import type { Tokenizer } from "../lib/tokens/types.ts";

/** A whitespace "tokenizer" named like a real one: one token per word. */
export const words: Tokenizer = {
  name: "cl100k_base",
  count: (t) => t.split(/\s+/).filter(Boolean).length,
};

/** A tool with an empty object schema. */
export const tool = (server: string, name: string, description: string): Tool => ({
  id: `${server}:${name}`,
  server,
  name,
  description,
  inputSchema: { type: "object" },
});

// 12 servers with 1..12 tools each (78 tools); each tool costs 2 + 1 = 3 words... plus
// description words, so server sN weighs N × (3 + 1) tokens.
/** The 78 tools of {@linkcode corpus}, sorted by id. */
export const tools: Tool[] = Array.from(
  { length: 12 },
  (_, s) =>
    Array.from(
      { length: s + 1 },
      (_, t) => tool(`s${String(s + 1).padStart(2, "0")}`, `t${t}`, "does x"),
    ),
).flat()
  .sort((a, b) => (a.id < b.id ? -1 : 1));

/** The 78-tool corpus of 12 servers described above. */
export const corpus: Corpus = {
  id: "tiny",
  version: "1",
  provenance: { format: "mcp-tools-list", sha256: "00" },
  tools,
  warnings: [],
};

/** A one-tool discovery proxy catalog. */
export const proxy: Tool[] = [tool("proxy", "retrieve_tools", "find a tool for a task")];
