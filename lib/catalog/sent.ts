/**
 * The one renderer of the `tools` part of a provider request body. The agent runner's adapters
 * (`lib/agent/providers/`) send what it returns, and the cost layers count what it returns, so
 * the bytes counted and the bytes sent cannot drift apart.
 *
 * Stable surface (other modules build on it): {@linkcode SentFormat}, {@linkcode SentTool},
 * {@linkcode SentToolsOptions} and {@linkcode sentTools}. The tools given are already shaped
 * for the provider (names it accepts, the schema normalized to its dialect:
 * {@linkcode sentFormatDialect}); the renderer only wraps them in the format's envelope.
 *
 * Shapes (field order as written here, which is the order of the bytes):
 * - `anthropic-messages` (`POST /v1/messages`): `{name, description, input_schema, strict?,
 *   defer_loading?}`;
 * - `openai-chat-completions` (`POST /v1/chat/completions`): `{type: "function", function:
 *   {name, description, parameters, strict?}}`;
 * - `openai-responses` (`POST /v1/responses`): `{type: "function", name, description,
 *   parameters, strict, defer_loading?}`; `strict` is always written (`false` unless
 *   configured), since that API types it as required and treats the flag per tool;
 * - `gemini` (`models/{m}:generateContent`): one tool `{functionDeclarations: [{name,
 *   description, parametersJsonSchema}]}`, the tool's JSON Schema as listed. That is how MCP
 *   clients send Gemini their tools: Gemini CLI (`DiscoveredMCPTool.schema`,
 *   packages/core/src/tools/mcp-tool.ts) and @google/genai's `mcpToTool` (`mcpToGeminiTool`),
 *   not Gemini's OpenAPI-subset `parameters`, which the API takes instead of it.
 *
 * @module
 */
import type { SchemaDialect } from "./normalize.ts";
import type { JsonObject, JsonValue } from "./types.ts";

/** Request formats whose `tools` value {@linkcode sentTools} renders. */
export type SentFormat =
  | "anthropic-messages"
  | "openai-chat-completions"
  | "openai-responses"
  | "gemini";

/** Every {@linkcode SentFormat}, in report order. */
export const SENT_FORMATS: readonly SentFormat[] = [
  "anthropic-messages",
  "openai-chat-completions",
  "openai-responses",
  "gemini",
];

/** Formats where a function tool can be marked `defer_loading: true` (provider tool search). */
export const DEFER_LOADING_FORMATS: readonly SentFormat[] = [
  "anthropic-messages",
  "openai-responses",
];

/** A tool already shaped for the provider: a name it accepts and a normalized schema. */
export interface SentTool {
  /** Name the model calls it by. */
  readonly name: string;
  /** Description shown to the model (`""` is sent as `""`). */
  readonly description: string;
  /** JSON Schema of the arguments, normalized for the format's dialect. */
  readonly inputSchema: JsonObject;
}

/** Options of {@linkcode sentTools}. */
export interface SentToolsOptions {
  /**
   * The per-tool `strict` flag (schema-constrained arguments). Absent: not written, except in
   * `openai-responses`, which always carries it (`false`). Gemini has no such flag: ignored.
   */
  readonly strict?: boolean;
  /**
   * Names of tools to mark `defer_loading: true` (loaded through the provider's tool search).
   * Only in {@linkcode DEFER_LOADING_FORMATS}. @default none
   */
  readonly deferLoading?: Iterable<string>;
}

/**
 * The schema dialect (`normalizeForProvider`) a format's tools are normalized to.
 *
 * @param format The request format.
 * @returns `anthropic`, `openai` or `json-schema` (Gemini's `parametersJsonSchema`).
 */
export function sentFormatDialect(format: SentFormat): SchemaDialect {
  return format === "anthropic-messages"
    ? "anthropic"
    : format === "gemini"
    ? "json-schema"
    : "openai";
}

/**
 * The exact `tools` value of a request body in `format` for `tools`, in their order.
 * `JSON.stringify` of the result is the `tools` part of the body the adapters send.
 *
 * @param tools Tools shaped for the provider, in offer order.
 * @param format The request format.
 * @param options `strict` and the names to defer.
 * @returns The `tools` array (for `gemini`, one `functionDeclarations` tool; `[]` for no tools).
 * @throws {RangeError} When `format` is unknown, `deferLoading` is given for a format without
 *   deferred loading, or names a tool not in `tools`.
 *
 * @example Usage
 * ```ts
 * import { sentTools } from "./sent.ts";
 * const tools = [{ name: "add", description: "Add", inputSchema: { type: "object" } }];
 * const body = sentTools(tools, "openai-chat-completions");
 * if (JSON.stringify(body) !== '[{"type":"function","function":{"name":"add","description":"Add","parameters":{"type":"object"}}}]') {
 *   throw new Error(JSON.stringify(body));
 * }
 * ```
 */
export function sentTools(
  tools: readonly SentTool[],
  format: SentFormat,
  options: SentToolsOptions = {},
): JsonObject[] {
  if (!SENT_FORMATS.includes(format)) {
    throw new RangeError(
      `Cannot render tools for format "${format}" as it is not known (expected ${
        SENT_FORMATS.join(", ")
      })`,
    );
  }
  const deferred = new Set(options.deferLoading ?? []);
  if (deferred.size > 0) {
    if (!DEFER_LOADING_FORMATS.includes(format)) {
      throw new RangeError(
        `Cannot defer tools in format "${format}": deferred loading exists in ${
          DEFER_LOADING_FORMATS.join(" and ")
        } only`,
      );
    }
    const names = new Set(tools.map((t) => t.name));
    const unknown = [...deferred].filter((n) => !names.has(n));
    if (unknown.length > 0) {
      throw new RangeError(
        `Cannot defer ${unknown.map((n) => JSON.stringify(n)).join(", ")}: no such tool`,
      );
    }
  }
  const strict = options.strict;
  const defer = (name: string): JsonObject => deferred.has(name) ? { defer_loading: true } : {};
  switch (format) {
    case "anthropic-messages":
      return tools.map((t): JsonObject => ({
        name: t.name,
        description: t.description,
        input_schema: t.inputSchema,
        ...(strict === undefined ? {} : { strict }),
        ...defer(t.name),
      }));
    case "openai-chat-completions":
      return tools.map((t) => ({
        type: "function",
        function: {
          name: t.name,
          description: t.description,
          parameters: t.inputSchema,
          ...(strict === undefined ? {} : { strict }),
        },
      }));
    case "openai-responses":
      return tools.map((t): JsonObject => ({
        type: "function",
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
        strict: strict ?? false,
        ...defer(t.name),
      }));
    case "gemini": {
      if (tools.length === 0) return [];
      const functionDeclarations: JsonValue[] = tools.map((t) => ({
        name: t.name,
        description: t.description,
        parametersJsonSchema: t.inputSchema,
      }));
      return [{ functionDeclarations }];
    }
  }
}
