/**
 * The wire layer's texts: per server, the `tools` array of its `tools/list` result as the
 * client received it, written without whitespace with keys in the received order (the order
 * changes token counts).
 *
 * Where each format keeps it:
 * - `mcpmeter-capture`: a server's `toolsWire` (the received order, written by `deno task
 *   capture`); a capture written before it existed has only the sorted `tools`, which are used
 *   (order `sorted`, said in a note);
 * - `mcp-tools-list` (a bare result, a JSON-RPC response or a bare array of tools): the file's
 *   own `tools` array, its members, string escapes and number literals exactly as written
 *   (order `received`);
 * - `livemcpbench`, `mcpproxy-corpus`: rows that are not `tools/list` items; each tool is
 *   rebuilt as `{name, description, inputSchema}` with the schema as written (order
 *   `reconstructed`);
 * - a provider's tool definitions (`anthropic-messages`, `openai-chat-completions`,
 *   `openai-responses`, `gemini`): no client received them; each definition is rebuilt as the
 *   MCP item it would come from, `{name, description, inputSchema}` with name, description and
 *   schema as written and the provider's fields left out (order `reconstructed`).
 *
 * @module
 */
import { type JsonNode, jsonNodeMember, parseJsonLossless } from "../catalog/canonical.ts";
import { catalogToolRows } from "../catalog/parse.ts";
import { isProviderFormat } from "../catalog/provider_tools.ts";
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
  // An explicit stack, not recursion: a schema nested a few thousand levels deep (valid JSON,
  // which the parser reads at any depth) overflowed the call stack here.
  const out: string[] = [];
  const todo: (JsonNode | string)[] = [node];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (typeof next === "string") {
      out.push(next);
    } else if (next.kind === "array") {
      out.push("[");
      todo.push("]");
      for (let i = next.items.length - 1; i >= 0; i--) {
        todo.push(next.items[i]);
        if (i > 0) todo.push(",");
      }
    } else if (next.kind === "object") {
      out.push("{");
      todo.push("}");
      for (let i = next.members.length - 1; i >= 0; i--) {
        const m = next.members[i];
        todo.push(m.node);
        todo.push(
          `${m.keyStart === undefined ? JSON.stringify(m.key) : keySource(text, m.keyStart)}:`,
        );
        if (i > 0) todo.push(",");
      }
    } else {
      out.push(text.slice(next.start, next.end));
    }
  }
  return out.join("");
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
  if (isProviderFormat(format)) return providerWire(root, text, format, server);
  const tools = root.kind === "object"
    ? jsonNodeMember(root, "tools")
    : format === "mcp-tools-list"
    ? root
    : undefined;
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

/** A provider catalog's definitions as the one server's reconstructed `tools/list` array. */
function providerWire(
  root: JsonNode,
  text: string,
  format: CatalogFormat,
  server: string,
): WireServer[] {
  const { rows } = catalogToolRows(root, { format, server });
  const items = rows.flatMap(({ row, schemaKey }) => {
    const n = jsonNodeMember(row, "name");
    if (n?.kind !== "string") return [];
    const d = jsonNodeMember(row, "description");
    const schema = jsonNodeMember(row, schemaKey);
    const parts = [`"name":${compactSource(n, text)}`];
    if (d?.kind === "string") parts.push(`"description":${compactSource(d, text)}`);
    if (schema?.kind === "object") parts.push(`"inputSchema":${compactSource(schema, text)}`);
    return [`{${parts.join(",")}}`];
  });
  return items.length === 0
    ? []
    : [{ server, text: `[${items.join(",")}]`, order: "reconstructed" }];
}

const decoder = new TextDecoder();
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Past the JSON white space from `i`. */
function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i;
}

/** Past the string literal opening at `i`. */
function skipString(b: Uint8Array, i: number): number {
  for (i++; i < b.length; i++) {
    if (b[i] === BACKSLASH) i++;
    else if (b[i] === QUOTE) return i + 1;
  }
  return -1;
}

/** Past the value starting at `i` (no white space before it), or -1 where the text ends first. */
function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c !== 0x7b && c !== 0x5b) {
    while (i < b.length && !(b[i] === 0x2c || b[i] === 0x7d || b[i] === 0x5d || b[i] <= 0x20)) {
      i++;
    }
    return i;
  }
  let depth = 0;
  for (; i < b.length; i++) {
    const d = b[i];
    if (d === QUOTE) {
      i = skipString(b, i) - 1;
      if (i < 0) return -1;
    } else if (d === 0x7b || d === 0x5b) depth++;
    else if ((d === 0x7d || d === 0x5d) && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * The members of the object opening at `i`, as their keys and value spans (the last of a
 * repeated key, as `JSON.parse` keeps it), and where the object ends; undefined when `i` holds
 * no object or the text ends inside it. `skip` finds where a member's value ends (it may read
 * the value on the way). @default {skipValue}
 */
function objectSpans(
  b: Uint8Array,
  i: number,
  skip: (key: string, from: number) => number = (_, from) => skipValue(b, from),
): { members: Map<string, [number, number]>; end: number } | undefined {
  if (b[i] !== 0x7b) return undefined;
  const members = new Map<string, [number, number]>();
  i = skipSpace(b, i + 1);
  if (b[i] === 0x7d) return { members, end: i + 1 };
  for (;;) {
    const keyEnd = b[i] === QUOTE ? skipString(b, i) : -1;
    if (keyEnd < 0) return undefined;
    const key = JSON.parse(decoder.decode(b.subarray(i, keyEnd))) as string;
    i = skipSpace(b, keyEnd);
    if (b[i] !== 0x3a) return undefined;
    const from = skipSpace(b, i + 1);
    const to = skip(key, from);
    if (to < 0) return undefined;
    members.delete(key);
    members.set(key, [from, to]);
    i = skipSpace(b, to);
    if (b[i] === 0x7d) return { members, end: i + 1 };
    if (b[i] !== 0x2c) return undefined;
    i = skipSpace(b, i + 1);
  }
}

/**
 * {@linkcode wireServers} of a catalog file given as its bytes. A capture file is read member by
 * member: only each server's name, `toolsWire` and `instructions` are decoded (its sorted
 * `tools` only when it has no `toolsWire`), so the file is never held as one string or one
 * parsed value; any other format, or a capture the scan does not follow, is decoded whole.
 *
 * @param bytes The catalog file's bytes (UTF-8).
 * @param format Its format (the corpus provenance's).
 * @param server Server name of a `mcp-tools-list` file (the corpus's only server).
 * @returns What {@linkcode wireServers} returns for the file's text.
 * @throws {SyntaxError} When the file is not JSON.
 */
export function wireServersOfBytes(
  bytes: Uint8Array,
  format: CatalogFormat,
  server = "catalog",
): WireServer[] {
  return [...eachWireServerOfBytes(bytes, format, server)];
}

/**
 * {@linkcode wireServersOfBytes}, one server at a time: a capture's servers are decoded as they
 * are taken, so only one server's wire text is held at once.
 *
 * @param bytes The catalog file's bytes (UTF-8).
 * @param format Its format (the corpus provenance's).
 * @param server Server name of a `mcp-tools-list` file (the corpus's only server).
 * @returns The servers of {@linkcode wireServers}, in order.
 * @throws {SyntaxError} When the file is not JSON (possibly after some servers).
 */
export function* eachWireServerOfBytes(
  bytes: Uint8Array,
  format: CatalogFormat,
  server = "catalog",
): Generator<WireServer> {
  const spans = format === "mcpmeter-capture" ? captureServerSpans(bytes) : undefined;
  if (spans === undefined) {
    yield* wireServers(decoder.decode(bytes), format, server);
    return;
  }
  for (const members of spans) {
    const value = memberValue(bytes, members);
    const wire = str(value("toolsWire"));
    const instructions = str(value("instructions"));
    yield {
      server: String(value("server")),
      text: wire ?? JSON.stringify(value("tools") ?? []),
      order: wire === undefined ? "sorted" : "received",
      ...(instructions === undefined ? {} : { instructions }),
    };
  }
}

/**
 * The servers' `instructions` of a capture file given as its bytes: server name to its
 * non-empty `instructions` string, as `JSON.parse` of the file would give them. Only each
 * server's name and `instructions` are decoded (the file is decoded whole only when the scan
 * does not follow it), so a large capture is never held as one string.
 *
 * @param bytes The capture file's bytes (UTF-8).
 * @returns The instructions by server, in file order.
 * @throws {SyntaxError} When the file is not JSON.
 */
export function captureInstructionsOfBytes(bytes: Uint8Array): Map<string, string> {
  const pair = (server: JsonValue | undefined, instructions: JsonValue | undefined) =>
    typeof instructions === "string" && instructions !== ""
      ? [[String(server), instructions] as const]
      : [];
  const spans = captureServerSpans(bytes);
  if (spans !== undefined) {
    return new Map(spans.flatMap((members) => {
      const value = memberValue(bytes, members);
      return pair(value("server"), value("instructions"));
    }));
  }
  const file = JSON.parse(decoder.decode(bytes)) as { servers?: Record<string, JsonValue>[] };
  return new Map((file.servers ?? []).flatMap((s) => pair(s.server, s.instructions)));
}

/** The decoded value of a member of a scanned object by its key (undefined when absent). */
function memberValue(
  b: Uint8Array,
  members: ReadonlyMap<string, [number, number]>,
): (key: string) => JsonValue | undefined {
  return (key) => {
    const s = members.get(key);
    return s === undefined ? undefined : JSON.parse(decoder.decode(b.subarray(s[0], s[1])));
  };
}

/**
 * The member spans of every server of a capture file's bytes (after a byte order mark), in
 * file order, or undefined when the file is not laid out as one. The servers are scanned as the
 * root object is (one pass over the file).
 */
function captureServerSpans(b: Uint8Array): Map<string, [number, number]>[] | undefined {
  const start = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  // The servers of the last `servers` member (as JSON.parse keeps it); null when it is not an
  // array of objects.
  let servers: Map<string, [number, number]>[] | null = [];
  const root = objectSpans(b, skipSpace(b, start), (key, from) => {
    if (key !== "servers") return skipValue(b, from);
    const list = serverSpans(b, from);
    servers = list?.servers ?? null;
    return list?.end ?? skipValue(b, from);
  });
  if (root === undefined || skipSpace(b, root.end) !== b.length) return undefined;
  return servers ?? undefined;
}

/** The member spans of the objects of the array opening at `i`, and where it ends. */
function serverSpans(
  b: Uint8Array,
  i: number,
): { servers: Map<string, [number, number]>[]; end: number } | undefined {
  const out: Map<string, [number, number]>[] = [];
  if (b[i] !== 0x5b) return undefined; // not an array: as JSON.parse's value would fail or differ
  i = skipSpace(b, i + 1);
  if (b[i] === 0x5d) return { servers: out, end: i + 1 };
  for (;;) {
    const obj = objectSpans(b, i);
    if (obj === undefined) return undefined;
    out.push(obj.members);
    i = skipSpace(b, obj.end);
    if (b[i] === 0x5d) return { servers: out, end: i + 1 };
    if (b[i] !== 0x2c) return undefined;
    i = skipSpace(b, i + 1);
  }
}
