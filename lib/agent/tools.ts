/**
 * The tools an agent's model sees, and the host that runs them. The loop talks to a
 * {@linkcode ToolHost}; `mcp_host.ts` implements it over real MCP servers.
 *
 * @module
 */

import type { StructuredContentErrorKind } from "../mcp/structured.ts";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import type { AppliedOverride, OverrideProblem } from "../catalog/overrides.ts";
import type { ProviderKind, SandboxLimit } from "./types.ts";
import { providerEntry } from "./providers/registry.ts";
import { type ExposedTool, exposeForDialect, type ListedTool } from "./expose.ts";
import type { ToolSearchSetup } from "../catalog/sent_search.ts";
import { stableJson } from "../core/json.ts";
import { sha256Hex } from "../catalog/load.ts";

/** Server name of the in-process proxy's tools in records and `run.json` mappings. */
export const PROXY_SERVER_NAME = "mcpmeter-proxy";

/** Server name of the code exposure's tools in records and `run.json` mappings. */
export const CODE_SERVER_NAME = "mcpmeter-code";

export {
  type ExposedTool,
  exposeForDialect,
  type ExposureChange,
  type ListedTool,
  MAX_PROVIDER_TOOL_NAME,
} from "./expose.ts";

/**
 * Builds the catalog the model sees from listed tools, normalized for the provider
 * (`exposeForDialect` in expose.ts, with the provider's schema dialect from the registry).
 *
 * @param listed Tools per server, servers in offer order.
 * @param provider Wire format the names and schemas are shaped for.
 * @returns Exposed tools, in offer order; `tool` is always the name the server listed.
 *
 * @example Usage
 * ```ts
 * import { exposeTools } from "./tools.ts";
 * const t = exposeTools([{ server: "fs", item: { name: "fs.read", description: "Read" } }], "openai");
 * if (t[0].spec.name !== "fs_read" || t[0].tool !== "fs.read") throw new Error();
 * ```
 */
export function exposeTools(
  listed: readonly ListedTool[],
  provider: ProviderKind,
): ExposedTool[] {
  return exposeForDialect(listed, providerEntry(provider).schemaDialect);
}

/** An upstream tool call made on behalf of one exposed call (proxy `call_tool`, `run_code`). */
export interface RoutedCall {
  /** `server:tool` called. */
  readonly tool: string;
  /** Arguments sent to it. */
  readonly args: JsonValue;
  /** Time of that `tools/call`, ms (measured). */
  readonly ms: number;
  /** The result's `isError`, or a failed call. */
  readonly isError: boolean;
}

/** What one tool call returned. */
export interface ToolOutput {
  /** Text parts joined with newlines; other parts summarized. */
  readonly text: string;
  /** The server's `isError`, or a protocol failure. */
  readonly isError: boolean;
  /** Upstream calls made on behalf of this call, in start order; absent for direct calls. */
  readonly calls?: readonly RoutedCall[];
  /** `run_code`: the sandbox limit that stopped the program, if one did. */
  readonly limit?: SandboxLimit;
  /**
   * Present when the result broke the tool's `outputSchema` contract (no or invalid
   * `structuredContent`), which real MCP clients reject: the kind.
   */
  readonly resultError?: StructuredContentErrorKind;
}

/** The tool-description overrides a host applied (recorded in `run.json` catalogs). */
export interface HostOverrides {
  /** `toolOverridesSha256` of the document (lib/catalog/overrides.ts). */
  readonly sha256: string;
  /** File the overrides came from, as written in the agent; absent when inline. */
  readonly file?: string;
  /** Tools changed, sorted by id, with the fields replaced. */
  readonly applied: readonly AppliedOverride[];
  /** Keys and parameters that named nothing the servers list. */
  readonly problems: readonly OverrideProblem[];
}

/** Runs tool calls for the loop. */
/** What a server said of itself when the host connected to it, as recorded in `run.json`. */
export interface ServerHello {
  /** Config key of the server. */
  readonly server: string;
  /** The MCP protocol version negotiated (`2026-07-28` from `server/discover`, or a 2025 one). */
  readonly protocolVersion?: string;
  /** The server's `instructions`, when it sent them. */
  readonly instructions?: string;
  /** The server's `serverInfo` (name, version, ...), when it sent one. */
  readonly serverInfo?: JsonObject;
}

/** The tools an agent is offered and the way to call them, over whichever servers serve them. */
export interface ToolHost {
  /** Tools in the order they are offered to the model. */
  readonly tools: readonly ExposedTool[];
  /** Each server behind the tools, as it introduced itself (absent for hosts of no server). */
  readonly servers?: readonly ServerHello[];
  /**
   * The provider tool search the tools are deferred behind (search exposures); the loop sends
   * it with every request. Absent: every tool is loaded.
   */
  readonly toolSearch?: ToolSearchSetup;
  /** Tool-description overrides applied to the servers' tools; absent when none. */
  readonly overrides?: HostOverrides;
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

/**
 * SHA-256 of the exposed catalog (names, descriptions, schemas, routes; keys sorted, tools
 * sorted by name), recorded in `run.json` so a changed catalog is visible between runs. With
 * tool-description overrides, their sha256 is hashed with the tools (`{overrides, tools}`):
 * under `proxy` and `code` the model is offered the same three tools whatever the upstream
 * texts say, and two runs with different overrides must never look like one catalog.
 *
 * @param tools Exposed tools.
 * @param overridesSha256 `HostOverrides.sha256` of the overrides applied, if any.
 * @returns Lower-case hex digest.
 */
export function catalogHash(
  tools: readonly ExposedTool[],
  overridesSha256?: string,
): Promise<string> {
  const sorted = [...tools].sort((a, b) => a.spec.name < b.spec.name ? -1 : 1);
  return sha256Hex(
    stableJson(
      overridesSha256 === undefined ? sorted : { overrides: overridesSha256, tools: sorted },
      { indent: 0 },
    ),
  );
}

/**
 * SHA-256 of each exposed tool (sorted-key JSON of the whole exposed tool, as
 * in {@linkcode catalogHash}), keyed by exposed name, so a comparison can tell
 * which tools changed when the catalog hash did.
 *
 * @param tools Exposed tools.
 * @returns Exposed name → lower-case hex digest.
 */
export async function toolHashes(tools: readonly ExposedTool[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of [...tools].sort((a, b) => a.spec.name < b.spec.name ? -1 : 1)) {
    out[t.spec.name] = await sha256Hex(stableJson(t, { indent: 0 }));
  }
  return out;
}
