/**
 * Tool definitions written for a model provider's API, read as MCP tools: which shape a row has,
 * and where each shape keeps a tool's name and input schema. `parse.ts` builds the tools.
 *
 * Shapes (fields as each provider documents them):
 * - `anthropic-messages`: `{name, description?, input_schema, input_examples?, cache_control?,
 *   strict?, defer_loading?, allowed_callers?}`; server tools carry a date-versioned `type`;
 * - `openai-chat-completions`: `{type: "function", function: {name, description?, parameters?,
 *   strict?}}`; no `parameters` is a function without arguments; a request of the deprecated
 *   `functions` parameter lists the inner objects alone;
 * - `openai-responses`: `{type: "function", name, description?, parameters, strict,
 *   defer_loading?}`, alone or in a namespace `{type: "namespace", name, description, tools}`
 *   (tool search); built-in tools (`web_search`, `mcp`, `file_search`, ...) have another `type`;
 * - `gemini`: a Tool `{functionDeclarations: [{name, description?, parameters? |
 *   parametersJsonSchema?, response?, responseJsonSchema?, behavior?}]}`, `parameters` (an
 *   OpenAPI-style Schema) and `parametersJsonSchema` mutually exclusive; other Tool fields
 *   (`googleSearch`, `codeExecution`, ...) are built-in tools; the snake_case spellings of the
 *   protobuf JSON mapping (`function_declarations`, `parameters_json_schema`) are read too.
 *
 * Sources, one per shape:
 * - Anthropic: https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools
 * - OpenAI Chat Completions: `FunctionDefinition` in openai-node `src/resources/shared.ts`
 *   (generated from OpenAI's OpenAPI spec; https://platform.openai.com/docs/api-reference/chat)
 * - OpenAI Responses: `FunctionTool` / `FunctionToolParam` of OpenAI's OpenAPI spec
 *   (https://platform.openai.com/docs/api-reference/responses/create)
 * - Gemini: https://docs.cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration
 *   and https://ai.google.dev/api/caching#Tool
 *
 * Each is found as a `tools` array (alone or in a whole request body), a bare array, or (Gemini)
 * one Tool object. A definition's provider fields steer the provider (`strict`, `cache_control`,
 * `type`, ...): they are not part of what the tool costs and are dropped.
 *
 * @module
 */
import { type JsonNode, jsonNodeMember } from "./canonical.ts";
import type { CatalogFormat } from "./types.ts";

/** The catalog formats that are a provider's tool definitions. */
export type ProviderFormat =
  | "anthropic-messages"
  | "openai-chat-completions"
  | "openai-responses"
  | "gemini";

/** Every {@linkcode ProviderFormat}, in a stable order. */
export const PROVIDER_FORMATS: readonly ProviderFormat[] = [
  "anthropic-messages",
  "openai-chat-completions",
  "openai-responses",
  "gemini",
];

/**
 * Whether a catalog format is a provider's tool definitions.
 *
 * @param format A catalog format.
 * @returns True for the formats of {@linkcode PROVIDER_FORMATS}.
 */
export function isProviderFormat(format: CatalogFormat): format is ProviderFormat {
  return (PROVIDER_FORMATS as readonly string[]).includes(format);
}

/** Fields that can hold a tool's input schema, in one shape or another. */
export const SCHEMA_KEYS = [
  "inputSchema",
  "input_schema",
  "parameters",
  "parametersJsonSchema",
  "parameters_json_schema",
] as const;

/** A field holding a tool's input schema. */
export type SchemaKey = (typeof SCHEMA_KEYS)[number] | "schema";

/** The keys of a Gemini Tool that hold its function declarations. */
const DECLARATION_KEYS = ["functionDeclarations", "function_declarations"] as const;

/** How each provider format reads, for the conversion warning. */
export const PROVIDER_LABELS: Readonly<Record<ProviderFormat, string>> = {
  "anthropic-messages": "Anthropic Messages API tools (input_schema -> inputSchema)",
  "openai-chat-completions":
    "OpenAI Chat Completions function tools (function.parameters -> inputSchema)",
  "openai-responses": "OpenAI Responses API function tools (parameters -> inputSchema)",
  "gemini": "Gemini function declarations (parameters or parametersJsonSchema -> inputSchema)",
};

/** Fields of a definition that steer the provider, dropped without a per-tool warning. */
export const PROVIDER_KEYS: Readonly<Record<ProviderFormat, ReadonlySet<string>>> = {
  "anthropic-messages": new Set([
    "type",
    "cache_control",
    "strict",
    "defer_loading",
    "allowed_callers",
  ]),
  "openai-chat-completions": new Set(["strict"]),
  "openai-responses": new Set(["type", "strict", "defer_loading"]),
  "gemini": new Set(["behavior"]),
};

/** What one row of a `tools` array looks like (see {@linkcode rowShape}). */
export type RowShape =
  /** An MCP tool: it has `inputSchema`. */
  | "mcp"
  /** A provider's definition. */
  | ProviderFormat
  /** A function definition with `parameters` and no `type`: OpenAI's or Gemini's. */
  | "parameters"
  /** A typed tool that is no function definition (a provider built-in), or a typed MCP row. */
  | "typed"
  /** A `name` and none of the above: an MCP tool or an Anthropic one without a schema. */
  | "named"
  /** Nothing a catalog row has. */
  | "unknown";

const has = (node: JsonNode, key: string) => jsonNodeMember(node, key) !== undefined;

/**
 * The schema fields a row has, in {@linkcode SCHEMA_KEYS} order.
 *
 * @param row A row of a `tools` array.
 * @returns The keys present.
 */
export function schemaKeysOf(row: JsonNode): SchemaKey[] {
  return SCHEMA_KEYS.filter((k) => has(row, k));
}

/**
 * The shape of one row of a `tools` array (or a bare array). Checked in this order: a Gemini
 * Tool (`functionDeclarations`); `inputSchema` (MCP, whatever else it has); `input_schema`
 * (Anthropic); `"type": "function"` with a `function` object (Chat Completions) or without
 * (Responses), or `"type": "namespace"` with `tools` (Responses); another `type` (a built-in tool); `parameters` without a `type`; a `name`.
 * A row with two schema fields is for the caller to reject (see {@linkcode schemaKeysOf}).
 *
 * @param row A row.
 * @returns Its shape.
 */
export function rowShape(row: JsonNode): RowShape {
  if (row.kind !== "object") return "unknown";
  if (DECLARATION_KEYS.some((k) => has(row, k))) return "gemini";
  // An `inputSchema` row without a `name` is a benchmark corpus row (`tool`, `server`).
  if (has(row, "inputSchema")) return has(row, "name") ? "mcp" : "unknown";
  if (has(row, "input_schema")) return "anthropic-messages";
  const type = jsonNodeMember(row, "type");
  if (type?.kind === "string" && type.value === "function") {
    return has(row, "function") ? "openai-chat-completions" : "openai-responses";
  }
  if (type?.kind === "string" && type.value === "namespace" && has(row, "tools")) {
    return "openai-responses";
  }
  if (type !== undefined) return "typed";
  if (SCHEMA_KEYS.some((k) => has(row, k))) return "parameters";
  return has(row, "name") ? "named" : "unknown";
}

/** How a {@linkcode RowShape} reads in a message. */
export function shapeLabel(shape: RowShape): string {
  switch (shape) {
    case "mcp":
      return "an MCP tool (inputSchema)";
    case "anthropic-messages":
      return "an Anthropic Messages API tool (input_schema)";
    case "openai-chat-completions":
      return 'an OpenAI Chat Completions tool ({"type": "function", "function": {...}})';
    case "openai-responses":
      return 'an OpenAI Responses API function tool ({"type": "function", "name", ...})';
    case "gemini":
      return "a Gemini tool (functionDeclarations)";
    case "parameters":
      return 'a function definition ("parameters", no "type")';
    default:
      return shape;
  }
}

/** One definition row found in a provider catalog, located in the file. */
export interface ProviderRow {
  /** JSON location, e.g. `tools[2].function` or `tools[0].functionDeclarations[3]`. */
  readonly locator: string;
  /** The definition's node (a Chat Completions tool's `function` object). */
  readonly row: JsonNode;
  /** The field holding its schema. */
  readonly schemaKey: SchemaKey;
  /** Members of a wrapper around the row that are dropped with a warning. */
  readonly wrapperKeys?: readonly string[];
  /** The wrapper's provider fields (a Chat Completions tool's `type`), dropped. */
  readonly wrapperProviderKeys?: readonly string[];
}

/** The definitions of a provider catalog and the built-in tools it skipped. */
export interface ProviderRows {
  /** Definitions in listing order. */
  readonly rows: readonly ProviderRow[];
  /** Built-in tools skipped: location and kind, e.g. `tools[3] (web_search_20250305 "web_search")`. */
  readonly skipped: readonly string[];
  /** OpenAI namespaces whose function tools were read (their names), when there were any. */
  readonly namespaces?: readonly string[];
}

/** A problem that stops reading a provider catalog: what is wrong and where. */
export class ProviderShapeError extends Error {
  /**
   * @param detail What is wrong.
   * @param locator The JSON location of the row at fault.
   * @param row The row at fault (its name makes the tool's id).
   * @param field The field at fault.
   */
  constructor(
    detail: string,
    readonly locator: string,
    readonly row?: JsonNode,
    readonly field?: string,
  ) {
    super(detail);
    this.name = "ProviderShapeError";
  }
}

/**
 * A row's `name` (a Chat Completions tool's `function.name`) when it is a string, for messages.
 *
 * @param row A row.
 * @returns The name, or undefined.
 */
export function rowName(row: JsonNode): string | undefined {
  const fn = jsonNodeMember(row, "function");
  const name = jsonNodeMember(fn?.kind === "object" ? fn : row, "name");
  return name?.kind === "string" ? name.value : undefined;
}

function typeOf(row: JsonNode): string | undefined {
  const type = jsonNodeMember(row, "type");
  return type === undefined ? undefined : type.kind === "string" ? type.value : type.kind;
}

function builtin(locator: string, row: JsonNode, kind: string): string {
  const name = rowName(row);
  return `${locator} (${kind}${name === undefined ? "" : ` ${JSON.stringify(name)}`})`;
}

/**
 * The definitions of a provider catalog, located.
 *
 * @param format The provider format.
 * @param items The rows of its `tools` array or of a bare array.
 * @param prefix Location of the array (`"tools"`, or `""` for a bare array).
 * @returns The rows and the skipped built-in tools.
 * @throws {ProviderShapeError} When a row is not the format's shape or is ambiguous.
 */
export function providerRows(
  format: ProviderFormat,
  items: readonly JsonNode[],
  prefix: string,
): ProviderRows {
  const rows: ProviderRow[] = [];
  const skipped: string[] = [];
  const namespaces: string[] = [];
  items.forEach((item, i) => {
    const at = `${prefix}[${i}]`;
    if (item.kind !== "object") {
      // Not a definition at all: the tool builder says so, located.
      rows.push({ locator: at, row: item, schemaKey: "parameters" });
      return;
    }
    const type = typeOf(item);
    switch (format) {
      case "anthropic-messages":
        if (type !== undefined && type !== "custom" && !has(item, "input_schema")) {
          skipped.push(builtin(at, item, type));
        } else rows.push({ locator: at, row: item, schemaKey: "input_schema" });
        return;
      case "openai-responses": {
        const inner = type === "namespace" ? jsonNodeMember(item, "tools") : undefined;
        if (inner?.kind === "array") {
          // A namespace groups function tools (tool search): each is read as a tool.
          namespaces.push(rowName(item) ?? at);
          inner.items.forEach((fn, j) => {
            const t = typeOf(fn);
            if (t !== undefined && t !== "function") {
              skipped.push(builtin(`${at}.tools[${j}]`, fn, t));
            } else rows.push({ locator: `${at}.tools[${j}]`, row: fn, schemaKey: "parameters" });
          });
        } else if (type !== undefined && type !== "function") skipped.push(builtin(at, item, type));
        else rows.push({ locator: at, row: item, schemaKey: "parameters" });
        return;
      }
      case "openai-chat-completions": {
        if (type !== undefined && type !== "function") {
          skipped.push(builtin(at, item, type));
          return;
        }
        const fn = jsonNodeMember(item, "function");
        if (fn?.kind !== "object") {
          throw new ProviderShapeError(
            `is not a Chat Completions function tool: expected {"type": "function", ` +
              `"function": {"name", "description", "parameters"}}`,
            at,
            item,
            "function",
          );
        }
        const wrapperKeys = item.members.map((m) => m.key).filter((k) =>
          k !== "type" && k !== "function"
        );
        rows.push({
          locator: `${at}.function`,
          row: fn,
          schemaKey: "parameters",
          ...(wrapperKeys.length > 0 ? { wrapperKeys } : {}),
          ...(type !== undefined ? { wrapperProviderKeys: ["type"] } : {}),
        });
        return;
      }
      case "gemini":
        geminiItem(item, at, rows, skipped);
        return;
    }
  });
  return namespaces.length === 0 ? { rows, skipped } : { rows, skipped, namespaces };
}

/** One item of a Gemini `tools` array: a Tool (declarations and built-ins) or a declaration. */
function geminiItem(item: JsonNode, at: string, rows: ProviderRow[], skipped: string[]): void {
  if (item.kind !== "object") return;
  const keys = DECLARATION_KEYS.filter((k) => has(item, k));
  if (keys.length === 0) {
    if (has(item, "name")) rows.push(geminiDeclaration(item, at));
    else skipped.push(builtin(at, item, item.members.map((m) => m.key).join(", ") || "{}"));
    return;
  }
  if (keys.length > 1) {
    throw new ProviderShapeError(
      `has both "functionDeclarations" and "function_declarations": which list is the tool's ` +
        `is ambiguous`,
      at,
      undefined,
      "functionDeclarations",
    );
  }
  const list = jsonNodeMember(item, keys[0])!;
  if (list.kind !== "array") {
    throw new ProviderShapeError(`is not an array (got ${list.kind})`, at, undefined, keys[0]);
  }
  const base = at === "" ? keys[0] : `${at}.${keys[0]}`;
  list.items.forEach((d, j) => rows.push(geminiDeclaration(d, `${base}[${j}]`)));
  const others = item.members.map((m) => m.key).filter((k) => k !== keys[0]);
  if (others.length > 0) skipped.push(`${at === "" ? "top level" : at} (${others.join(", ")})`);
}

function geminiDeclaration(row: JsonNode, at: string): ProviderRow {
  const keys = schemaKeysOf(row).filter((k) => k !== "inputSchema" && k !== "input_schema");
  if (keys.length > 1) {
    throw new ProviderShapeError(
      `has both ${keys.map((k) => JSON.stringify(k)).join(" and ")}: Gemini takes one or the ` +
        `other, so which is the tool's schema is ambiguous`,
      at,
      row,
      keys[1],
    );
  }
  return { locator: at, row, schemaKey: keys[0] ?? "parameters" };
}

/**
 * Whether the file is a Chat Completions request of the deprecated `functions` parameter
 * (`{"functions": [{name, description, parameters}]}`, no `tools`).
 *
 * @param root The file's top level.
 * @returns True for such a request.
 */
export function isLegacyFunctions(root: JsonNode): boolean {
  return root.kind === "object" && !has(root, "tools") &&
    jsonNodeMember(root, "functions")?.kind === "array";
}

/**
 * The definitions of a `functions` request (see {@linkcode isLegacyFunctions}): each item is a
 * function definition, as inside a Chat Completions tool.
 *
 * @param root The request.
 * @returns Its definitions, located as `functions[i]`.
 */
export function legacyFunctionRows(root: JsonNode): ProviderRows {
  const list = jsonNodeMember(root, "functions");
  const items = list?.kind === "array" ? list.items : [];
  return {
    rows: items.map((row, i) => ({ locator: `functions[${i}]`, row, schemaKey: "parameters" })),
    skipped: [],
  };
}

/**
 * Whether the file's top level is one Gemini Tool (`{"functionDeclarations": [...]}`, no
 * `tools`).
 *
 * @param root The file's top level.
 * @returns True for a Tool object.
 */
export function isGeminiTool(root: JsonNode): boolean {
  return root.kind === "object" && !has(root, "tools") &&
    DECLARATION_KEYS.some((k) => has(root, k));
}

/**
 * The definitions of a file that is one Gemini Tool (see {@linkcode isGeminiTool}).
 *
 * @param root The Tool object.
 * @returns Its declarations, located as `functionDeclarations[j]`, and its built-in fields.
 * @throws {ProviderShapeError} As {@linkcode providerRows}.
 */
export function geminiToolRows(root: JsonNode): ProviderRows {
  const rows: ProviderRow[] = [];
  const skipped: string[] = [];
  geminiItem(root, "", rows, skipped);
  return { rows, skipped };
}
