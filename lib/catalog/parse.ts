/**
 * Parse catalog text in any supported format into a validated {@linkcode Corpus}.
 *
 * Pure: no file or network access (see `load.ts` for reading files).
 *
 * @module
 */

import {
  type JsonArrayNode,
  type JsonNode,
  jsonNodeMember,
  type JsonObjectNode,
  parseJsonLossless,
} from "./canonical.ts";
import { nodeCanonical, parseJsonPlain } from "./_plain_json.ts";
import { CatalogError } from "./errors.ts";
import {
  geminiToolRows,
  isGeminiTool,
  isLegacyFunctions,
  isProviderFormat,
  legacyFunctionRows,
  PROVIDER_FORMATS,
  PROVIDER_KEYS,
  PROVIDER_LABELS,
  type ProviderFormat,
  type ProviderRows,
  providerRows,
  ProviderShapeError,
  rowName,
  type RowShape,
  rowShape,
  type SchemaKey,
  schemaKeysOf,
  shapeLabel,
} from "./provider_tools.ts";
import type {
  CatalogFormat,
  Corpus,
  CorpusProvenance,
  JsonObject,
  JsonValue,
  Tool,
} from "./types.ts";

/**
 * Separator of the occurrence number in the id of a repeated tool name within
 * one server: the second `read` of server `fs` has id `fs:read#2`.
 */
export const DUPLICATE_ID_SEPARATOR = "#";

/** Options of {@linkcode parseCatalog}. */
export interface ParseCatalogOptions {
  /**
   * Path the text was read from. Used in error messages, in provenance, and
   * for the corpus id and server name defaults (its file stem).
   * @default {undefined} (errors say `"<memory>"`)
   */
  readonly path?: string;
  /**
   * Input format; detected from the content when absent (see
   * {@linkcode parseCatalog} for the rules).
   * @default {undefined}
   */
  readonly format?: CatalogFormat;
  /**
   * Corpus id. Wins over an `id` in the file, which wins over the file stem.
   * @default {undefined}
   */
  readonly id?: string;
  /**
   * Server name for a raw `tools/list` result (which does not name its
   * server). Defaults to the file stem. Ignored by the other formats.
   * @default {undefined}
   */
  readonly server?: string;
}

/** The formats {@linkcode parseCatalog} reads, in a stable order. */
export const CATALOG_FORMATS: readonly CatalogFormat[] = [
  "mcpmeter-capture",
  "mcpproxy-corpus",
  "livemcpbench",
  "mcp-tools-list",
  ...PROVIDER_FORMATS,
];

/** How many example tool ids an aggregated warning lists. */
const WARNING_EXAMPLES = 5;

interface Context {
  readonly path: string;
  /** Aggregated per-tool warnings: text → tool ids. */
  readonly toolWarnings: Map<string, string[]>;
  readonly fileWarnings: string[];
  /** Provider fields dropped from converted definitions (`strict`, `cache_control`, ...). */
  readonly providerFields: Set<string>;
}

/** One tool row to validate, located in the file. */
type RowSpec = CatalogToolRow;

function kindOf(node: JsonNode): string {
  return node.kind;
}

function describeValue(node: JsonNode): string {
  if (node.kind === "null") return "null";
  const text = nodeCanonical(node);
  return text.length > 40 ? `${node.kind} ${text.slice(0, 37)}...` : `${node.kind} ${text}`;
}

function fail(
  ctx: Context,
  detail: string,
  toolId?: string,
  field?: string,
  cause?: unknown,
): never {
  throw new CatalogError(detail, { path: ctx.path, toolId, field, cause });
}

function warnTool(ctx: Context, text: string, toolId: string): void {
  const ids = ctx.toolWarnings.get(text);
  if (ids) ids.push(toolId);
  else ctx.toolWarnings.set(text, [toolId]);
}

function hasEdgeWhitespace(s: string): boolean {
  return s.length > 0 && s.trim() !== s;
}

/** File stem: base name without `.json` and `.tools`; a bare `tools` takes its folder's name. */
function fileStem(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const parts = path.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
  let stem = (parts.at(-1) ?? "").replace(/\.json$/i, "").replace(/\.tools$/i, "");
  if ((stem === "" || stem.toLowerCase() === "tools") && parts.length >= 2) {
    const parent = parts.at(-2)!;
    if (parent !== "..") stem = parent;
  }
  return stem === "" ? undefined : stem;
}

/** A required or optional non-negative integer header count. */
function readCount(
  ctx: Context,
  node: JsonNode | undefined,
  field: string,
  required: boolean,
  locator?: string,
): number | undefined {
  if (node === undefined) {
    if (required) {
      fail(
        ctx,
        locator === undefined ? "is missing" : `is missing in ${locator}`,
        undefined,
        field,
      );
    }
    return undefined;
  }
  if (node.kind !== "number" || !Number.isInteger(node.value) || node.value < 0) {
    const of = locator === undefined ? "" : `of ${locator} `;
    fail(ctx, `${of}is not a non-negative integer (got ${describeValue(node)})`, undefined, field);
  }
  return node.value;
}

function checkCount(
  ctx: Context,
  declared: number | undefined,
  actual: number,
  field: string,
  what: string,
  locator?: string,
): void {
  if (declared !== undefined && declared !== actual) {
    const where = locator === undefined ? "" : `${locator} `;
    fail(ctx, `${where}says ${declared} but the file has ${actual} ${what}`, undefined, field);
  }
}

function readVersion(ctx: Context, root: JsonNode): string {
  const node = jsonNodeMember(root, "version");
  if (node === undefined || node.kind === "null") return "unversioned";
  if (node.kind === "string") return node.value;
  if (node.kind === "number") return node.literal;
  return fail(ctx, `is not a string (got ${describeValue(node)})`, undefined, "version");
}

function readFileId(ctx: Context, root: JsonNode): string | undefined {
  const node = jsonNodeMember(root, "id");
  if (node === undefined) return undefined;
  if (node.kind !== "string" || node.value.trim() === "") {
    fail(ctx, `is not a non-empty string (got ${describeValue(node)})`, undefined, "id");
  }
  return node.value;
}

/** A required non-empty string field of a row. */
function readName(ctx: Context, row: JsonObjectNode, key: string, locator: string): string {
  const node = jsonNodeMember(row, key);
  if (node === undefined) fail(ctx, "is missing", locator, key);
  if (node.kind !== "string") {
    fail(ctx, `is not a string (got ${describeValue(node)})`, locator, key);
  }
  if (node.value.trim() === "") fail(ctx, `is empty (${JSON.stringify(node.value)})`, locator, key);
  return node.value;
}

/** An optional JSON object field; `null` counts as absent. */
function readObject(
  ctx: Context,
  row: JsonObjectNode,
  key: string,
  toolId: string,
): JsonObjectNode | undefined {
  const node = jsonNodeMember(row, key);
  if (node === undefined || node.kind === "null") return undefined;
  if (node.kind !== "object") {
    fail(ctx, `is not an object (got ${describeValue(node)})`, toolId, key);
  }
  return node;
}

function buildTool(ctx: Context, spec: RowSpec): Tool {
  const { locator, row, nameKey, schemaKey, idKey } = spec;
  if (row.kind !== "object") fail(ctx, `is not an object (got ${kindOf(row)})`, locator);
  const name = readName(ctx, row, nameKey, locator);
  const server = spec.server ?? readName(ctx, row, "server", locator);
  const id = `${server}:${name}`;

  if (idKey !== undefined) {
    const idNode = jsonNodeMember(row, idKey);
    if (idNode === undefined) fail(ctx, "is missing", id, idKey);
    if (idNode.kind !== "string") {
      fail(ctx, `is not a string (got ${describeValue(idNode)})`, id, idKey);
    }
    if (idNode.value !== id) {
      fail(
        ctx,
        `is ${JSON.stringify(idNode.value)} but "server" and "${nameKey}" give ${
          JSON.stringify(id)
        }`,
        idNode.value,
        idKey,
      );
    }
  }
  if (hasEdgeWhitespace(name)) {
    warnTool(ctx, `field "${nameKey}" has leading or trailing whitespace (kept as is)`, id);
  }
  if (spec.server === undefined && hasEdgeWhitespace(server)) {
    warnTool(ctx, `field "server" has leading or trailing whitespace (kept as is)`, id);
  }

  let description = "";
  const descNode = jsonNodeMember(row, "description");
  if (descNode !== undefined && descNode.kind !== "null") {
    if (descNode.kind !== "string") {
      fail(ctx, `is not a string (got ${describeValue(descNode)})`, id, "description");
    }
    description = descNode.value;
    if (hasEdgeWhitespace(description)) {
      warnTool(ctx, `field "description" has leading or trailing whitespace (kept as is)`, id);
    }
  }

  let title: string | undefined;
  const titleNode = jsonNodeMember(row, "title");
  if (titleNode !== undefined && titleNode.kind !== "null") {
    if (titleNode.kind !== "string") {
      fail(ctx, `is not a string (got ${describeValue(titleNode)})`, id, "title");
    }
    title = titleNode.value;
  }

  let schemaNode = jsonNodeMember(row, schemaKey);
  if (schemaNode?.kind === "null") {
    warnTool(ctx, `field "${schemaKey}" is null (treated as absent)`, id);
    schemaNode = undefined;
  }
  if (schemaNode?.kind === "string" && schemaKey === "schema") {
    // mcpproxy corpora may carry the schema as JSON text.
    try {
      schemaNode = parseJsonLossless(schemaNode.value);
    } catch (e) {
      fail(
        ctx,
        `is a string that is not valid JSON: ${(e as Error).message}`,
        id,
        schemaKey,
        e,
      );
    }
  }
  if (schemaNode !== undefined && schemaNode.kind !== "object") {
    fail(ctx, `is not an object (got ${describeValue(schemaNode)})`, id, schemaKey);
  }
  if (schemaNode !== undefined) {
    const keys = schemaNode.members.map((m) => m.key);
    if (keys.length === 1 && keys[0] === "$schema") {
      warnTool(ctx, `field "${schemaKey}" has only "$schema" (no type or properties)`, id);
    }
  }

  const outputSchema = readObject(ctx, row, "outputSchema", id);
  const annotations = readObject(ctx, row, "annotations", id);

  const known = new Set<string>([
    nameKey,
    schemaKey,
    "description",
    "title",
    "outputSchema",
    "annotations",
  ]);
  if (spec.server === undefined) known.add("server");
  if (idKey !== undefined) known.add(idKey);
  // An MCP tool's own fields that no model is sent: the wire layer counts them as received.
  if (spec.nameKey === "name" && schemaKey === "inputSchema") {
    for (const key of MCP_UNSENT_FIELDS) known.add(key);
  }
  for (const m of row.members) {
    if (known.has(m.key)) continue;
    if (spec.providerKeys?.has(m.key)) ctx.providerFields.add(m.key);
    else warnTool(ctx, `dropped field ${JSON.stringify(m.key)}`, id);
  }
  for (const key of spec.wrapperProviderKeys ?? []) ctx.providerFields.add(key);
  for (const key of spec.wrapperKeys ?? []) {
    warnTool(ctx, `dropped field ${JSON.stringify(key)} of the tool's wrapper`, id);
  }

  const tool: {
    id: string;
    server: string;
    name: string;
    title?: string;
    description: string;
    inputSchema?: JsonObject;
    inputSchemaCanonical?: string;
    outputSchema?: JsonObject;
    annotations?: JsonObject;
  } = { id, server, name, description };
  if (title !== undefined) tool.title = title;
  if (schemaNode !== undefined) {
    tool.inputSchema = schemaNode.value as JsonObject;
    tool.inputSchemaCanonical = nodeCanonical(schemaNode);
  }
  if (outputSchema !== undefined) tool.outputSchema = outputSchema.value;
  if (annotations !== undefined) tool.annotations = annotations.value;
  return tool;
}

function toolsArray(ctx: Context, root: JsonObjectNode): readonly JsonNode[] {
  const node = jsonNodeMember(root, "tools");
  if (node === undefined) fail(ctx, "is missing", undefined, "tools");
  if (node.kind !== "array") {
    fail(ctx, `is not an array (got ${describeValue(node)})`, undefined, "tools");
  }
  return node.items;
}

/** Pick the format from the content; see {@linkcode parseCatalog}. */
function detectFormat(
  ctx: Context,
  root: JsonObjectNode | JsonArrayNode,
  server: string | undefined,
): CatalogFormat {
  const has = (node: JsonNode, key: string) => jsonNodeMember(node, key) !== undefined;
  if (root.kind === "array") {
    const format = rowsFormat(ctx, root.items, "", server);
    if (format !== undefined) return format;
    if (root.items.length === 0) return "mcp-tools-list";
    return fail(
      ctx,
      `top level is an array whose rows have no "name", "type" or "functionDeclarations": ` +
        `cannot tell the catalog format (a bare array must hold MCP tools or a provider's ` +
        `tool definitions)`,
    );
  }
  if (has(root, "format") || has(root, "servers")) return "mcpmeter-capture";
  if (isGeminiTool(root)) return "gemini";
  if (isLegacyFunctions(root)) return "openai-chat-completions";
  const tools = jsonNodeMember(root, "tools");
  const single = tools === undefined ? rowShape(root) : "unknown";
  if (single !== "unknown" && single !== "named" && single !== "typed") {
    // One definition saved alone (LangChain's convert_to_openai_tool returns one such object).
    fail(
      ctx,
      `top level is one tool definition (${shapeLabel(single)}), not a catalog: put it in an ` +
        `array, [{...}], to read it as a catalog of one tool`,
    );
  }
  if (
    tools === undefined && (has(root, "messages") || has(root, "contents") || has(root, "input"))
  ) {
    fail(
      ctx,
      `is missing: the file is a model request without tools, so it holds no tool to measure`,
      undefined,
      "tools",
    );
  }
  if (tools === undefined || tools.kind !== "array") {
    fail(
      ctx,
      `is ${tools === undefined ? "missing" : "not an array"}: cannot tell the catalog format ` +
        `(expected a "tools" array, "format": "mcpmeter-capture" with "servers", or a Gemini ` +
        `"functionDeclarations" array)`,
      undefined,
      "tools",
    );
  }
  if (has(root, "server_count") || has(root, "tool_count")) return "livemcpbench";
  if (has(root, "generated_from")) return "mcpproxy-corpus";
  if (tools.items.some((t) => has(t, "tool_id"))) return "mcpproxy-corpus";
  const format = rowsFormat(ctx, tools.items, "tools", server);
  if (format !== undefined) return format;
  if (tools.items.some((t) => has(t, "tool") && has(t, "server"))) return "livemcpbench";
  if (tools.items.length === 0 || has(root, "nextCursor")) return "mcp-tools-list";
  return fail(
    ctx,
    `rows have none of "name", "tool_id", or "server" with "tool": cannot tell the catalog ` +
      `format; name it (bench, lint-catalog: --format) as one of ${CATALOG_FORMATS.join(", ")}`,
    undefined,
    "tools",
  );
}

/** A row's id for a message: `server:name` when both are known, else its location. */
function rowId(locator: string, row: JsonNode | undefined, server: string | undefined): string {
  const name = row === undefined ? undefined : rowName(row);
  return name !== undefined && server !== undefined ? `${server}:${name}` : locator;
}

/**
 * The format the rows of a `tools` array (or a bare array) give, when they give one: every row
 * with a shape (see `rowShape` in provider_tools.ts) must have the same one; rows with only a
 * `name` read as MCP tools, typed rows without a definition (provider built-ins) say nothing.
 * A row with two schema fields, rows of two shapes, or definitions with `parameters` and no
 * `type` (OpenAI's or Gemini's: the rows cannot tell) fail, naming the row.
 */
function rowsFormat(
  ctx: Context,
  items: readonly JsonNode[],
  prefix: string,
  server: string | undefined,
): CatalogFormat | undefined {
  let first: { shape: "mcp" | ProviderFormat; at: string; row: JsonNode } | undefined;
  let parameters: { at: string; row: JsonNode } | undefined;
  let named = false;
  const typed: string[] = [];
  items.forEach((row, i) => {
    const at = `${prefix}[${i}]`;
    const shape = rowShape(row);
    if (shape === "named") named = true;
    if (shape === "typed") typed.push(typedRow(at, row));
    if (shape === "unknown" || shape === "typed" || shape === "named") return;
    const keys = schemaKeysOf(row);
    if (keys.length > 1) {
      fail(
        ctx,
        `at ${at} has both ${keys.map((k) => JSON.stringify(k)).join(" and ")}: which is the ` +
          `tool's schema is ambiguous; name the format (bench, lint-catalog: --format) to read one of them ` +
          `(mcp-tools-list: inputSchema, anthropic-messages: input_schema, openai-responses: ` +
          `parameters)`,
        rowId(at, row, server),
        keys[1],
      );
    }
    if (shape === "parameters") {
      parameters ??= { at, row };
      return;
    }
    if (first === undefined) first = { shape, at, row };
    else if (first.shape !== shape) mixedShapes(ctx, first, { shape, at, row });
  });
  if (first !== undefined) {
    if (
      parameters !== undefined && first.shape !== "openai-responses" && first.shape !== "gemini"
    ) {
      mixedShapes(ctx, first, { shape: "parameters", ...parameters });
    }
    return first.shape === "mcp" ? "mcp-tools-list" : first.shape;
  }
  if (parameters !== undefined) {
    const { at, row } = parameters;
    fail(
      ctx,
      `at ${at} is a function definition with "parameters" and no "type": OpenAI function ` +
        `definitions and Gemini function declarations both look like this; name the format ` +
        `(bench, lint-catalog: --format openai-responses or --format gemini; the tools measure the same)`,
      rowId(at, row, server),
    );
  }
  if (named) return "mcp-tools-list";
  if (typed.length > 0) {
    // A request whose only tools are the provider's own (web search, code execution, ...):
    // none is a function definition, and none may be measured as an MCP tool.
    const shown = typed.slice(0, WARNING_EXAMPLES).join(", ");
    const more = typed.length > WARNING_EXAMPLES
      ? `, and ${typed.length - WARNING_EXAMPLES} more`
      : "";
    fail(
      ctx,
      `${prefix === "" ? "top level " : ""}holds only provider built-in tools ` +
        `(${shown}${more}), no function definition: nothing to read as an MCP tool`,
      undefined,
      prefix === "" ? undefined : "tools",
    );
  }
  return undefined;
}

/** A typed row for a message: its location, `type` and name, e.g. `tools[0] (web_search "w")`. */
function typedRow(at: string, row: JsonNode): string {
  const type = jsonNodeMember(row, "type");
  const name = rowName(row);
  const kind = type?.kind === "string" ? type.value : type!.kind;
  return `${at} (${kind}${name === undefined ? "" : ` ${JSON.stringify(name)}`})`;
}

function mixedShapes(
  ctx: Context,
  a: { shape: RowShape; at: string; row: JsonNode },
  b: { shape: RowShape; at: string; row: JsonNode },
): never {
  const where = (x: { at: string; row: JsonNode }) => {
    const name = rowName(x.row);
    return name === undefined ? x.at : `${x.at} (${JSON.stringify(name)})`;
  };
  return fail(
    ctx,
    `${where(b)} is ${shapeLabel(b.shape)} but ${where(a)} is ${shapeLabel(a.shape)}: a ` +
      `catalog file holds one shape of tool definitions; split the file`,
    undefined,
    "tools",
  );
}

interface FormatResult {
  readonly specs: readonly RowSpec[];
  readonly source?: JsonValue;
  /** Called with the built tools to check header counts. */
  readonly check?: (tools: readonly Tool[]) => void;
}

/**
 * A capture server's tools with their keys in the order the server sent them: the items of its
 * `toolsWire` (the file's `tools` have their keys sorted, and a client sends a schema as it
 * received it, so the sent and billed layers count that order). Each wire item must hold what
 * the `tools` item at its index holds (same canonical text); else, or when `toolsWire` is absent
 * or not a JSON array of as many items, the sorted `tools` are read, with a warning when
 * `toolsWire` is there (a hand-edited `tools` wins over a stale `toolsWire`).
 */
function receivedRows(
  ctx: Context,
  entry: JsonObjectNode,
  tools: JsonArrayNode,
  label: string,
): readonly JsonNode[] {
  const wireNode = jsonNodeMember(entry, "toolsWire");
  if (wireNode === undefined) return tools.items;
  const sorted = (why: string): readonly JsonNode[] => {
    ctx.fileWarnings.push(`${label}: "toolsWire" ${why}; the key order of "tools" is read`);
    return tools.items;
  };
  if (wireNode.kind !== "string") return sorted(`is not a string (got ${describeValue(wireNode)})`);
  let wire: JsonNode;
  try {
    wire = parseJsonPlain(wireNode.value) ?? parseJsonLossless(wireNode.value);
  } catch (e) {
    if (e instanceof SyntaxError) return sorted(`is not valid JSON (${e.message})`);
    throw e;
  }
  if (wire.kind !== "array") return sorted(`is not a JSON array (got ${wire.kind})`);
  if (wire.items.length !== tools.items.length) {
    return sorted(`holds ${wire.items.length} tools, "tools" ${tools.items.length}`);
  }
  const differs = tools.items.findIndex((row, j) =>
    nodeCanonical(row) !== nodeCanonical(wire.items[j])
  );
  if (differs >= 0) return sorted(`differs from "tools" at tools[${differs}]`);
  return wire.items;
}

function parseCapture(ctx: Context, root: JsonObjectNode): FormatResult {
  const fmt = jsonNodeMember(root, "format");
  if (fmt !== undefined && !(fmt.kind === "string" && fmt.value === "mcpmeter-capture")) {
    fail(ctx, `is ${describeValue(fmt)}, expected "mcpmeter-capture"`, undefined, "format");
  }
  const fv = jsonNodeMember(root, "formatVersion");
  if (fv === undefined) {
    fail(
      ctx,
      fmt !== undefined ? "is missing" : `is missing: a top-level "servers" list is read as an ` +
        `mcpmeter capture (deno task capture writes one), which says "format": ` +
        `"mcpmeter-capture", "formatVersion": 1 and counts its servers and tools; other tool ` +
        `lists: one server's tools/list result or tools array per file`,
      undefined,
      "formatVersion",
    );
  }
  if (!(fv.kind === "number" && fv.value === 1)) {
    fail(ctx, `is ${describeValue(fv)}; only version 1 is supported`, undefined, "formatVersion");
  }
  const serverCount = readCount(ctx, jsonNodeMember(root, "serverCount"), "serverCount", true);
  const toolCount = readCount(ctx, jsonNodeMember(root, "toolCount"), "toolCount", true);
  const serversNode = jsonNodeMember(root, "servers");
  if (serversNode === undefined) fail(ctx, "is missing", undefined, "servers");
  if (serversNode.kind !== "array") {
    fail(ctx, `is not an array (got ${describeValue(serversNode)})`, undefined, "servers");
  }
  const specs: RowSpec[] = [];
  const seen = new Map<string, string>();
  serversNode.items.forEach((entry, i) => {
    const loc = `servers[${i}]`;
    if (entry.kind !== "object") {
      fail(ctx, `${loc} is not an object (got ${describeValue(entry)})`, undefined, "servers");
    }
    const serverNode = jsonNodeMember(entry, "server");
    if (serverNode === undefined) fail(ctx, `is missing in ${loc}`, undefined, "server");
    if (serverNode.kind !== "string" || serverNode.value.trim() === "") {
      fail(
        ctx,
        `of ${loc} is not a non-empty string (got ${describeValue(serverNode)})`,
        undefined,
        "server",
      );
    }
    const server = serverNode.value;
    const first = seen.get(server);
    if (first !== undefined) {
      fail(
        ctx,
        `${JSON.stringify(server)} appears twice (${first} and ${loc})`,
        undefined,
        "server",
      );
    }
    seen.set(server, loc);
    const tools = jsonNodeMember(entry, "tools");
    if (tools === undefined) fail(ctx, `is missing in ${loc}`, undefined, "tools");
    if (tools.kind !== "array") {
      fail(ctx, `of ${loc} is not an array (got ${describeValue(tools)})`, undefined, "tools");
    }
    const declared = readCount(ctx, jsonNodeMember(entry, "toolCount"), "toolCount", true, loc);
    checkCount(
      ctx,
      declared,
      tools.items.length,
      "toolCount",
      "tools",
      `${loc} (${JSON.stringify(server)})`,
    );
    const rows = receivedRows(ctx, entry, tools, `${loc} (${JSON.stringify(server)})`);
    rows.forEach((row, j) =>
      specs.push({
        locator: `${loc}.tools[${j}]`,
        row,
        server,
        nameKey: "name",
        schemaKey: "inputSchema",
      })
    );
  });
  checkCount(ctx, serverCount, serversNode.items.length, "serverCount", "servers");
  checkCount(ctx, toolCount, specs.length, "toolCount", "tools");
  const source = jsonNodeMember(root, "source")?.value;
  return source === undefined ? { specs } : { specs, source };
}

function parseMcpproxy(ctx: Context, root: JsonObjectNode): FormatResult {
  const specs = toolsArray(ctx, root).map((row, i): RowSpec => ({
    locator: `tools[${i}]`,
    row,
    nameKey: "tool",
    schemaKey: "schema",
    idKey: "tool_id",
  }));
  const source = jsonNodeMember(root, "generated_from")?.value;
  return source === undefined ? { specs } : { specs, source };
}

function parseLiveMcpBench(ctx: Context, root: JsonObjectNode): FormatResult {
  const serverCount = readCount(ctx, jsonNodeMember(root, "server_count"), "server_count", false);
  const toolCount = readCount(ctx, jsonNodeMember(root, "tool_count"), "tool_count", false);
  const specs = toolsArray(ctx, root).map((row, i): RowSpec => ({
    locator: `tools[${i}]`,
    row,
    nameKey: "tool",
    schemaKey: "inputSchema",
  }));
  checkCount(ctx, toolCount, specs.length, "tool_count", "tools");
  const check = (tools: readonly Tool[]) =>
    checkCount(
      ctx,
      serverCount,
      new Set(tools.map((t) => t.server)).size,
      "server_count",
      "distinct servers",
    );
  const source = jsonNodeMember(root, "source")?.value;
  return source === undefined ? { specs, check } : { specs, source, check };
}

function parseToolsList(
  ctx: Context,
  root: JsonObjectNode | JsonArrayNode,
  server: string,
): FormatResult {
  if (root.kind === "array") {
    ctx.fileWarnings.push(
      `top level is an array: read as the "tools" of one server's tools/list result`,
    );
    const specs = root.items.map((row, i): RowSpec => ({
      locator: `[${i}]`,
      row,
      server,
      nameKey: "name",
      schemaKey: "inputSchema",
    }));
    return { specs };
  }
  const cursor = jsonNodeMember(root, "nextCursor");
  if (cursor !== undefined && cursor.kind !== "null") {
    ctx.fileWarnings.push(
      `"nextCursor" is set (${
        describeValue(cursor)
      }): this file holds one page of a paged tools/list result`,
    );
  }
  const specs = toolsArray(ctx, root).map((row, i): RowSpec => ({
    locator: `tools[${i}]`,
    row,
    server,
    nameKey: "name",
    schemaKey: "inputSchema",
  }));
  return { specs };
}

/** A provider's tool definitions (see provider_tools.ts), as rows named like MCP tools. */
function parseProvider(
  ctx: Context,
  root: JsonObjectNode | JsonArrayNode,
  format: ProviderFormat,
  server: string,
): FormatResult {
  let found: ProviderRows;
  try {
    if (format === "gemini" && isGeminiTool(root)) found = geminiToolRows(root);
    else if (root.kind === "array") found = providerRows(format, root.items, "");
    else if (format === "openai-chat-completions" && isLegacyFunctions(root)) {
      found = legacyFunctionRows(root);
    } else found = providerRows(format, toolsArray(ctx, root), "tools");
  } catch (e) {
    if (!(e instanceof ProviderShapeError)) throw e;
    return fail(ctx, `at ${e.locator} ${e.message}`, rowId(e.locator, e.row, server), e.field);
  }
  const remote = root.kind === "object" ? jsonNodeMember(root, "mcp_servers") : undefined;
  if (remote?.kind === "array" && remote.items.length > 0) {
    // Anthropic's MCP connector: the provider lists those servers' tools itself.
    const n = remote.items.length;
    ctx.fileWarnings.push(
      `the request names ${n} remote MCP server${n === 1 ? "" : "s"} ("mcp_servers") whose ` +
        `tools the provider fetches itself: they are not in the file and not measured`,
    );
  }
  if (found.skipped.length > 0) {
    const n = found.skipped.length;
    const shown = found.skipped.slice(0, WARNING_EXAMPLES).join(", ");
    const more = n > WARNING_EXAMPLES ? `, and ${n - WARNING_EXAMPLES} more` : "";
    ctx.fileWarnings.push(
      `skipped ${n} provider built-in tool${n === 1 ? "" : "s"} (no function definition to ` +
        `read as an MCP tool): ${shown}${more}`,
    );
  }
  if (found.namespaces !== undefined) {
    const n = found.namespaces.length;
    ctx.fileWarnings.push(
      `read the function tools of ${n} OpenAI namespace${n === 1 ? "" : "s"} as tools of the ` +
        `one server (a namespace's name and description belong to no tool and are dropped): ` +
        found.namespaces.join(", "),
    );
  }
  const providerKeys = PROVIDER_KEYS[format];
  for (const r of found.rows) {
    // Gemini's OpenAPI-style `parameters` may name types in capitals ("OBJECT").
    const type = r.schemaKey === "parameters"
      ? jsonNodeMember(jsonNodeMember(r.row, "parameters") ?? r.row, "type")
      : undefined;
    const name = rowName(r.row);
    if (type?.kind === "string" && type.value !== type.value.toLowerCase() && name !== undefined) {
      warnTool(
        ctx,
        `field "parameters" names types in capitals (OpenAPI style, e.g. "OBJECT"): kept as ` +
          `written, though JSON Schema (and MCP) spell them in lower case`,
        `${server}:${name}`,
      );
    }
  }
  const specs = found.rows.map((r): RowSpec => ({
    locator: r.locator,
    row: r.row,
    server,
    nameKey: "name",
    schemaKey: r.schemaKey,
    providerKeys,
    ...(r.wrapperKeys === undefined ? {} : { wrapperKeys: r.wrapperKeys }),
    ...(r.wrapperProviderKeys === undefined ? {} : { wrapperProviderKeys: r.wrapperProviderKeys }),
  }));
  return { specs };
}

/** Fields of an MCP Tool (2025-11-25) that are not part of {@linkcode Tool}: not sent to models. */
const MCP_UNSENT_FIELDS = ["_meta", "icons", "execution"] as const;

/**
 * Parse catalog text into a validated {@linkcode Corpus}.
 *
 * Formats (detected in this order when `options.format` is absent):
 * 1. `mcpmeter-capture` — a top-level `"format"` or `"servers"` key: mcpmeter's
 *    own capture, `{format: "mcpmeter-capture", formatVersion: 1, id, version,
 *    source, serverCount, toolCount, servers: [{server, toolCount, tools: [raw
 *    MCP Tool objects]}]}`; all three counts are required and checked;
 * 2. `livemcpbench` — `server_count` or `tool_count` at the top level:
 *    `{version, source, server_count, tool_count, tools: [{server, tool,
 *    description, inputSchema?}]}`; the counts are checked when present;
 * 3. `mcpproxy-corpus` — `generated_from` at the top level, or a row with
 *    `tool_id`: `{version?, generated_from?, tools: [{tool_id, server, tool,
 *    description, schema?}]}`; `tool_id` must equal `server:tool`;
 * 4. by the rows' shape (`rowShape` in provider_tools.ts), every shaped row alike:
 *    `mcp-tools-list` — rows with `inputSchema` or only a `name`: a raw MCP
 *    `tools/list` result `{tools: [...], nextCursor?}` for one server, named by
 *    `options.server` or the file stem; or a provider's tool definitions, read as
 *    MCP tools of one server named the same way: `anthropic-messages`
 *    (`input_schema`), `openai-chat-completions` (`{type: "function", function}`,
 *    or a top-level `functions` list),
 *    `openai-responses` (`{type: "function", name, parameters}`), `gemini`
 *    (`functionDeclarations`, also a top-level Tool object);
 * 5. `livemcpbench` — rows with `server` and `tool`, no headers;
 * 6. `mcp-tools-list` — an empty `tools` array or a `nextCursor`.
 *
 * A top level with `"jsonrpc"` is a JSON-RPC response pasted whole: its `result` object is the
 * catalog (with a warning); an error response fails. A top-level array is a `tools` array
 * alone (MCP tools, with a warning, or a provider's definitions). A provider request body is
 * read for its `tools` only. Ambiguities fail, naming the row, unless `options.format` settles
 * them: a row with two schema fields (`inputSchema` and `input_schema`, ...), rows of two
 * shapes, definitions with `parameters` and no `type` (OpenAI's or Gemini's).
 *
 * A provider's definitions: its schema field becomes `inputSchema`; fields that steer the
 * provider (`strict`, `cache_control`, `type`, `defer_loading`, ...) are dropped; built-in
 * tools (web search, code execution, remote MCP) are skipped; one warning says what that means
 * for the figures (the wire layer is reconstructed, not measured) and which fields went.
 *
 * Per tool: `id` is `server:name`; a missing or `null` description becomes
 * `""`; `title`, `outputSchema` and `annotations` are kept; the schema
 * (`inputSchema`, or mcpproxy's `schema`, which may be a JSON string) becomes
 * `inputSchema` with `inputSchemaCanonical` taken from the file's literal text
 * (`inputSchema` is a JS object, so integer-like keys such as `"10"` and `"2"`
 * come first in ascending numeric order, on both parse paths; the canonical
 * text sorts keys, so it does not depend on the file's member order).
 * A `null` schema counts as absent (with a warning). The MCP Tool fields that MCP
 * clients send no model (`_meta`, `icons`, `execution`) are left out of the tool quietly (the
 * wire layer counts them from the file); any other field is dropped with a warning.
 *
 * Warnings (non-fatal) are aggregated per kind with up to five example ids:
 * whitespace around names or descriptions (kept as is), schemas with only
 * `$schema`, null schemas, dropped fields, a `nextCursor` in a tools/list page.
 *
 * Corpus id: `options.id`, else the file's `id`, else the file stem (`x.json`
 * and `x.tools.json` → `x`; `dir/tools.json` → `dir`), else `"catalog"`.
 * Version: the file's `version`, else `"unversioned"`. Tools are sorted by id
 * in UTF-16 code unit order.
 *
 * Repeated tool names: a server that lists one name more than once (a capture
 * or a raw `tools/list` result) keeps every definition; the first has id
 * `server:name`, the later ones `server:name#2`, `server:name#3`, ... in
 * listing order (see {@linkcode DUPLICATE_ID_SEPARATOR}), each with the same
 * `name`, and a warning names them. A repeated explicit id (mcpproxy
 * `tool_id`) is still an error.
 *
 * @param text The file's text.
 * @param options Path (for messages and defaults), format, corpus id, server name.
 * @returns The corpus: `{id, version, provenance: {format, path?, source?}, tools, warnings}`
 *   (no `sha256`: `loadCatalog` adds it from the bytes).
 * @throws {CatalogError} When the text is not JSON, or validation fails:
 *   a repeated explicit id, an empty or missing name/server, a header count
 *   (`server_count`, `tool_count`, `serverCount`, `toolCount`, per-server
 *   `toolCount`) that disagrees with the rows, an ambiguous row or rows of two
 *   shapes (see above), a schema that is not an object
 *   or not valid JSON, a field of the wrong type, an mcpproxy `tool_id` that is
 *   not `server:tool`, an unknown `format`/`formatVersion`. The error's `path`,
 *   `toolId` and `field` locate it.
 * @throws {TypeError} When a `mcp-tools-list` result or a provider's definitions have no
 *   server name (neither `options.server` nor `options.path` given).
 *
 * @example Usage
 * ```ts
 * import { parseCatalog } from "./parse.ts";
 * const text = JSON.stringify({
 *   tools: [{ name: "read", description: "Read a file.", inputSchema: { type: "object" } }],
 * });
 * const corpus = parseCatalog(text, { server: "fs", id: "demo" });
 * if (corpus.tools[0].id !== "fs:read" || corpus.provenance.format !== "mcp-tools-list") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function parseCatalog(text: string, options: ParseCatalogOptions = {}): Corpus {
  const ctx = startContext(options);
  let root: JsonNode;
  try {
    // JSON.parse's value where it gives the same canonical schemas (every number literal as
    // JSON.stringify writes it, no repeated key), else the lossless tree, which also gives the
    // positioned error of invalid text.
    root = parseJsonPlain(text) ?? parseJsonLossless(text);
    // Neither tree holds a view of the text: let it go before the rows are built, so a large
    // catalog's text and its tools are not in memory together.
    text = "";
  } catch (e) {
    if (e instanceof SyntaxError) {
      fail(ctx, `is not valid JSON: ${e.message}`, undefined, undefined, e);
    }
    throw e;
  }
  return corpusOfTree(ctx, root, options);
}

function startContext(options: ParseCatalogOptions): Context {
  if (options.format !== undefined && !CATALOG_FORMATS.includes(options.format)) {
    throw new TypeError(
      `Cannot parse catalog: unknown format ${JSON.stringify(options.format)}; ` +
        `expected one of ${CATALOG_FORMATS.join(", ")}`,
    );
  }
  return {
    path: options.path ?? "<memory>",
    toolWarnings: new Map(),
    fileWarnings: [],
    providerFields: new Set(),
  };
}

/** One tool row of a catalog tree, as the parser locates it (see {@linkcode catalogToolRows}). */
export interface CatalogToolRow {
  /** JSON location of the row, e.g. `servers[2].tools[3]` or `tools[3]`. */
  readonly locator: string;
  /** The row's node, members in the file's order. */
  readonly row: JsonNode;
  /** Server name when the container gives it (capture, tools/list); else the row's `server`. */
  readonly server?: string;
  /** Field holding the tool name: `name` (MCP) or `tool` (corpora). */
  readonly nameKey: "name" | "tool";
  /**
   * Field holding the input schema: `inputSchema`, `schema` (mcpproxy), `input_schema`
   * (Anthropic), `parameters` (OpenAI, Gemini) or `parametersJsonSchema` (Gemini).
   */
  readonly schemaKey: SchemaKey;
  /** Field holding an explicit id (`tool_id`, mcpproxy). */
  readonly idKey?: "tool_id";
  /** A provider definition's fields that steer the provider (`strict`, ...): dropped. */
  readonly providerKeys?: ReadonlySet<string>;
  /** Members of a wrapper around the row (a Chat Completions tool's), dropped with a warning. */
  readonly wrapperKeys?: readonly string[];
  /** Provider fields of that wrapper (its `type`), dropped. */
  readonly wrapperProviderKeys?: readonly string[];
}

/**
 * The tool rows of a parsed catalog tree in listing order, located as {@linkcode parseCatalog}
 * locates them (same format detection, same checks of the containers; the rows themselves are
 * not validated: parse the text with {@linkcode parseCatalog} for that). For readers that need a
 * tool's every field as the file has it, such as the synthetic catalog generator.
 *
 * @param root The catalog's tree (`parseJsonLossless` of its text keeps member order and literals).
 * @param options Format, path and server name, as for {@linkcode parseCatalog}.
 * @returns The format and the rows.
 * @throws {CatalogError} As {@linkcode parseCatalog}, for the containers.
 */
export function catalogToolRows(
  root: JsonNode,
  options: ParseCatalogOptions = {},
): { readonly format: CatalogFormat; readonly rows: readonly CatalogToolRow[] } {
  const ctx = startContext(options);
  const { format, result } = formatResultOf(ctx, root, options);
  return { format, rows: result.specs };
}

function formatResultOf(
  ctx: Context,
  tree: JsonNode,
  options: ParseCatalogOptions,
): { format: CatalogFormat; root: JsonObjectNode | JsonArrayNode; result: FormatResult } {
  if (tree.kind !== "object" && tree.kind !== "array") {
    fail(ctx, `top level is not a JSON object or array (got ${tree.kind})`);
  }
  const root = tree.kind === "object" ? jsonRpcResult(ctx, tree) : tree;
  const stem = fileStem(options.path);
  const named = options.server ?? stem;
  const format = options.format ?? detectFormat(ctx, root, named);
  const objectRoot = (): JsonObjectNode => {
    if (root.kind !== "object") {
      fail(ctx, `top level is not a JSON object (got array): format ${format} is an object`);
    }
    return root;
  };
  const server = (): string => {
    if (named === undefined || named.trim() === "") {
      throw new TypeError(
        `Cannot parse a ${
          format === "mcp-tools-list" ? "tools/list result" : `${format} catalog`
        } without a server name: pass options.server or options.path`,
      );
    }
    return named;
  };
  let result: FormatResult;
  switch (format) {
    case "mcpmeter-capture":
      result = parseCapture(ctx, objectRoot());
      break;
    case "mcpproxy-corpus":
      result = parseMcpproxy(ctx, objectRoot());
      break;
    case "livemcpbench":
      result = parseLiveMcpBench(ctx, objectRoot());
      break;
    case "mcp-tools-list":
      result = parseToolsList(ctx, root, server());
      break;
    default:
      result = parseProvider(ctx, root, format, server());
  }
  return { format, root, result };
}

/**
 * A `tools/list` response pasted with its JSON-RPC envelope (`{"jsonrpc": "2.0", "id": 1,
 * "result": {"tools": [...]}}`) is read as its `result`, with a warning; a JSON-RPC error
 * response, or one without a `result` object, fails naming what it holds.
 */
function jsonRpcResult(ctx: Context, root: JsonObjectNode): JsonObjectNode {
  if (jsonNodeMember(root, "jsonrpc") === undefined) return root;
  const result = jsonNodeMember(root, "result");
  if (result?.kind === "object") {
    ctx.fileWarnings.push(
      `is a JSON-RPC response: read as its "result" (the tools/list result inside the envelope)`,
    );
    return result;
  }
  const error = jsonNodeMember(root, "error");
  const message = error === undefined ? undefined : jsonNodeMember(error, "message");
  return fail(
    ctx,
    error !== undefined
      ? `is a JSON-RPC error response${
        message?.kind === "string" ? ` (${JSON.stringify(message.value)})` : ""
      }: it holds no tools; save the "result" of a successful tools/list call`
      : `is a JSON-RPC message without a "result" object: it holds no tools; save the ` +
        `"result" of a successful tools/list call`,
  );
}

function corpusOfTree(ctx: Context, tree: JsonNode, options: ParseCatalogOptions): Corpus {
  const { format, root, result } = formatResultOf(ctx, tree, options);
  const stem = fileStem(options.path);
  const tools = result.specs.map((spec) => buildTool(ctx, spec));
  const firstAt = new Map<string, string>();
  const repeats = new Map<string, number>();
  // Ids in use: every tool's own, then each given to a repeat. A repeat's `#n` skips one taken
  // (a server may list "read" twice and a tool named "read#2").
  const taken = new Set(tools.map((t) => t.id));
  result.specs.forEach((spec, i) => {
    const id = tools[i].id;
    const prev = firstAt.get(id);
    if (prev !== undefined) {
      // A file's own explicit ids must be unique; a server that lists one tool name twice is
      // real data: keep every definition, the later ones as `server:name#2`, `#3`, ...
      if (spec.idKey !== undefined) {
        fail(ctx, `repeats id ${JSON.stringify(id)} (${prev} and ${spec.locator})`, id, spec.idKey);
      }
      let n = (repeats.get(id) ?? 1) + 1;
      while (taken.has(`${id}${DUPLICATE_ID_SEPARATOR}${n}`)) n++;
      repeats.set(id, n);
      taken.add(`${id}${DUPLICATE_ID_SEPARATOR}${n}`);
      tools[i] = { ...tools[i], id: `${id}${DUPLICATE_ID_SEPARATOR}${n}` };
      warnTool(
        ctx,
        `the server lists this tool name more than once; later definitions kept with ids ` +
          `ending in ${DUPLICATE_ID_SEPARATOR}2, ${DUPLICATE_ID_SEPARATOR}3, ... in listing order`,
        id,
      );
      return;
    }
    firstAt.set(id, spec.locator);
  });
  result.check?.(tools);
  tools.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const warnings = [...ctx.fileWarnings];
  if (isProviderFormat(format)) {
    const dropped = [...ctx.providerFields].sort();
    warnings.unshift(
      `read as ${PROVIDER_LABELS[format]}, converted to MCP tools: the wire layer (what the ` +
        `client received) is reconstructed as the MCP tools/list these definitions would come ` +
        `from, not measured; provider fields steer the provider, are not part of a tool's ` +
        `cost, and are dropped (${dropped.length > 0 ? dropped.join(", ") : "none in this file"})`,
    );
  }
  for (const text of [...ctx.toolWarnings.keys()].sort()) {
    const ids = [...ctx.toolWarnings.get(text)!].sort();
    const shown = ids.slice(0, WARNING_EXAMPLES).join(", ");
    const more = ids.length > WARNING_EXAMPLES ? `, and ${ids.length - WARNING_EXAMPLES} more` : "";
    warnings.push(`${text}: ${ids.length} tool${ids.length === 1 ? "" : "s"} (${shown}${more})`);
  }

  const provenance: { format: CatalogFormat; path?: string; source?: JsonValue } = { format };
  if (options.path !== undefined) provenance.path = options.path;
  if (result.source !== undefined) provenance.source = result.source;

  return {
    id: options.id ?? readFileId(ctx, root) ?? stem ?? "catalog",
    version: readVersion(ctx, root),
    provenance: provenance as CorpusProvenance,
    tools,
    warnings,
  };
}
