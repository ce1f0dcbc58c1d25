/**
 * The wire layer's texts: per server, the `tools` array of its `tools/list` result as the
 * client received it, written without whitespace with keys in the received order (the order
 * changes token counts).
 *
 * Where each format keeps it:
 * - `mcpmeter-capture`: a server's `toolsWire` (the received order, written by `deno task
 *   capture`); a capture written before it existed has only the sorted `tools`, which are used
 *   (order `sorted`, said in a note);
 * - `mcp-tools-list` (a bare result or a JSON-RPC response): the file's own `tools` array, its
 *   members, string escapes and number literals exactly as written (order `received`);
 * - `livemcpbench`, `mcpproxy-corpus`: rows that are not `tools/list` items; each tool is
 *   rebuilt as `{name, description, inputSchema}` with the schema as written (order
 *   `reconstructed`).
 *
 * @module
 */
import { type JsonNode, jsonNodeMember, parseJsonLossless } from "../catalog/canonical.ts";
import type { CatalogFormat, JsonValue } from "../catalog/types.ts";

/** How a wire text's key order was obtained. */
export type WireOrder = "received" | "sorted" | "reconstructed";

/** One server's wire text. */
export interface WireServer {
  /** Server name, as in the corpus. */
  readonly server: string;
  /** The `tools` array, compact JSON. */
  readonly text: string;
  /** Where its key order comes from. */
  readonly order: WireOrder;
  /** The server's `instructions` from `initialize`, when the file has them. */
  readonly instructions?: string;
}

/**
 * Compact JSON of a lossless node: no whitespace, members in source order, strings and numbers
 * exactly as written in `text`.
 *
 * @param node A node of `parseJsonLossless(text)`.
 * @param text The source text.
 * @returns The compact text.
 */
export function compactSource(node: JsonNode, text: string): string {
  switch (node.kind) {
    case "array":
      return `[${node.items.map((n) => compactSource(n, text)).join(",")}]`;
    case "object":
      return `{${
        node.members.map((m) =>
          `${m.keyStart === undefined ? JSON.stringify(m.key) : keySource(text, m.keyStart)}:${
            compactSource(m.node, text)
          }`
        ).join(",")
      }}`;
    default:
      return text.slice(node.start, node.end);
  }
}

/** The key's string literal as written, from its opening quote. */
function keySource(text: string, start: number): string {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return text.slice(start, i + 1);
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * The wire texts of a catalog file, one per server, in the file's server order.
 *
 * @param text The catalog file's text.
 * @param format Its format (the corpus provenance's).
 * @param server Server name of a `mcp-tools-list` file (the corpus's only server).
 * @returns One {@linkcode WireServer} per server that lists at least one tool.
 * @throws {SyntaxError} When `text` is not JSON.
 *
 * @example Usage
 * ```ts
 * import { wireServers } from "./wire.ts";
 * const w = wireServers('{"tools": [{"name": "a", "inputSchema": {"z": 1.50, "a": 1}}]}', "mcp-tools-list", "s");
 * if (w[0].text !== '[{"name":"a","inputSchema":{"z":1.50,"a":1}}]' || w[0].order !== "received") throw new Error();
 * ```
 */
export function wireServers(text: string, format: CatalogFormat, server = "catalog"): WireServer[] {
  if (format === "mcpmeter-capture") {
    const file = JSON.parse(text) as { servers?: Record<string, JsonValue>[] };
    return (file.servers ?? []).map((s) => {
      const wire = str(s.toolsWire);
      const instructions = str(s.instructions);
      return {
        server: String(s.server),
        text: wire ?? JSON.stringify(s.tools ?? []),
        order: wire === undefined ? "sorted" : "received",
        ...(instructions === undefined ? {} : { instructions }),
      };
    });
  }
  let root = parseJsonLossless(text);
  if (root.kind === "object" && jsonNodeMember(root, "jsonrpc") !== undefined) {
    root = jsonNodeMember(root, "result") ?? root;
  }
  const tools = root.kind === "object" ? jsonNodeMember(root, "tools") : undefined;
  if (tools?.kind !== "array") return [];
  if (format === "mcp-tools-list") {
    return tools.items.length === 0
      ? []
      : [{ server, text: compactSource(tools, text), order: "received" }];
  }
  // Rows of a benchmark corpus, grouped by server in file order.
  const nameKey = "tool";
  const schemaKey = format === "mcpproxy-corpus" ? "schema" : "inputSchema";
  const byServer = new Map<string, string[]>();
  for (const row of tools.items) {
    if (row.kind !== "object") continue;
    const s = jsonNodeMember(row, "server");
    const n = jsonNodeMember(row, nameKey);
    if (s?.kind !== "string" || n?.kind !== "string") continue;
    const d = jsonNodeMember(row, "description");
    const schemaNode = jsonNodeMember(row, schemaKey);
    let schemaText: string | undefined;
    if (schemaNode !== undefined && schemaNode.kind !== "null") {
      // mcpproxy keeps some schemas as JSON text.
      schemaText = schemaNode.kind === "string"
        ? compactSource(parseJsonLossless(schemaNode.value), schemaNode.value)
        : compactSource(schemaNode, text);
    }
    const parts = [`"name":${JSON.stringify(n.value)}`];
    if (d?.kind === "string") parts.push(`"description":${compactSource(d, text)}`);
    if (schemaText !== undefined) parts.push(`"inputSchema":${schemaText}`);
    const list = byServer.get(s.value) ?? [];
    list.push(`{${parts.join(",")}}`);
    byServer.set(s.value, list);
  }
  return [...byServer].map(([name, items]) => ({
    server: name,
    text: `[${items.join(",")}]`,
    order: "reconstructed",
  }));
}
