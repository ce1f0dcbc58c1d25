/**
 * The tools an agent's model sees, and the host that runs them. The loop talks to a
 * {@linkcode ToolHost}; `mcp_host.ts` implements it over real MCP servers.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../catalog/types.ts";
import type { Exposure } from "./types.ts";
import type { ToolSpec } from "./providers/types.ts";
import { sha256Hex, sortedJson } from "./_json.ts";

/** A tool as exposed to the model, with the MCP tool it routes to. */
export interface ExposedTool {
  /** Name, description and schema sent to the provider. */
  readonly spec: ToolSpec;
  /** MCP server name (config key). */
  readonly server: string;
  /** MCP tool name on that server. */
  readonly tool: string;
}

/** What one tool call returned. */
export interface ToolOutput {
  /** Text parts joined with newlines; other parts summarized. */
  readonly text: string;
  /** The server's `isError`, or a protocol failure. */
  readonly isError: boolean;
}

/** Runs tool calls for the loop. */
export interface ToolHost {
  /** Tools in the order they are offered to the model. */
  readonly tools: readonly ExposedTool[];
  /**
   * Calls one tool.
   *
   * @param tool The exposed tool.
   * @param args Arguments from the model.
   * @param signal Aborts the call.
   * @returns The output; a protocol failure (timeout, closed connection) is returned as
   *   `isError: true` with its message, never thrown.
   */
  /** Calls one tool; see the interface doc for the error contract. */
  call(tool: ExposedTool, args: JsonValue, signal?: AbortSignal): Promise<ToolOutput>;
}

/** An MCP tool as listed by a server (`tools/list` item). */
export interface ListedTool {
  /** Server (config key) that listed the tool. */
  readonly server: string;
  /** The `tools/list` item as received. */
  readonly item: JsonObject;
}

/**
 * Builds the `direct` exposure: every listed tool, under its own name, in server-then-list
 * order.
 *
 * TODO(encodings): names and schemas are passed unchanged; apply
 * `normalizeForProvider(tool, provider)` from `lib/catalog/normalize.ts` when it lands, and keep
 * the mapping (exposed name → `server:tool`) as this function already does.
 *
 * @param listed Tools per server, servers in config order.
 * @param exposure Exposure mode; only `direct` is implemented.
 * @returns Exposed tools.
 * @throws {RangeError} for `proxy` or `code` (not implemented yet), or when two servers expose
 *   the same name (the message names both).
 *
 * @example Usage
 * ```ts
 * import { exposeTools } from "./tools.ts";
 * const t = exposeTools([{ server: "fs", item: { name: "read_file", description: "Read" } }], "direct");
 * if (t[0].spec.name !== "read_file" || t[0].spec.inputSchema.type !== "object") throw new Error();
 * ```
 */
export function exposeTools(listed: readonly ListedTool[], exposure: Exposure): ExposedTool[] {
  if (exposure !== "direct") {
    throw new RangeError(
      `Cannot expose tools in mode "${exposure}": only "direct" is implemented so far`,
    );
  }
  const byName = new Map<string, ExposedTool>();
  for (const { server, item } of listed) {
    const name = String(item.name);
    const prior = byName.get(name);
    if (prior) {
      throw new RangeError(
        `Cannot expose tools: "${name}" is offered by both "${prior.server}" and "${server}"`,
      );
    }
    const schema = item.inputSchema;
    byName.set(name, {
      spec: {
        name,
        description: typeof item.description === "string" ? item.description : "",
        inputSchema: schema !== null && typeof schema === "object" && !Array.isArray(schema)
          ? schema as JsonObject
          : { type: "object" },
      },
      server,
      tool: name,
    });
  }
  return [...byName.values()];
}

/**
 * SHA-256 of the exposed catalog (names, descriptions, schemas, routes; keys sorted, tools
 * sorted by name), recorded in `run.json` so a changed catalog is visible between runs.
 *
 * @param tools Exposed tools.
 * @returns Lower-case hex digest.
 */
export function catalogHash(tools: readonly ExposedTool[]): Promise<string> {
  const sorted = [...tools].sort((a, b) => a.spec.name < b.spec.name ? -1 : 1);
  return sha256Hex(sortedJson(sorted));
}
