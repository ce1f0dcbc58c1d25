/**
 * A {@linkcode ToolHost} over real MCP servers started over stdio with the SDK `Client` and
 * `StdioClientTransport`: a throwaway HOME per host, lenient `tools/list` (from `lib/mcp`),
 * `tools/call` with a per-call timeout, and the children killed on close.
 *
 * This is a small adapter until `lib/mcp` offers a long-lived session; swap it then.
 *
 * @module
 */

import type { Client as ClientType } from "@modelcontextprotocol/sdk/client/index";
import { Client as ClientImpl } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport as StdioType } from "@modelcontextprotocol/sdk/client/stdio";
import { StdioClientTransport as StdioImpl } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { listAll } from "../mcp/list.ts";
import type { StdioServerEntry } from "../mcp/config.ts";
import type { Exposure } from "./types.ts";
import {
  type ExposedTool,
  exposeTools,
  type ListedTool,
  type ToolHost,
  type ToolOutput,
} from "./tools.ts";

// The SDK's `.js` subpaths run under Deno but resolve no types; type them from the
// extension-less paths (see lib/mcp/_sdk.ts for the same workaround).
const Client = ClientImpl as unknown as typeof ClientType;
type Client = ClientType;
const StdioClientTransport = StdioImpl as unknown as typeof StdioType;
type StdioClientTransport = StdioType;

/** Default timeout of `initialize`, `tools/list` and each `tools/call`, ms. */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** A tool host that owns server processes. */
export interface McpToolHost extends ToolHost {
  /** Non-fatal findings from listing. */
  readonly warnings: readonly string[];
  /** Stops every server and removes the throwaway HOME. */
  close(): Promise<void>;
}

/** Options of {@linkcode openMcpHost}. */
export interface OpenMcpHostOptions {
  readonly exposure: Exposure;
  /** Timeout per MCP request, ms; default {@linkcode DEFAULT_MCP_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Working directory of servers without `cwd`; default the current one. */
  readonly cwd?: string;
}

/** A server that could not be started or listed. */
export class McpHostError extends Error {
  /** Config key of the server. */
  readonly server: string;
  /**
   * @param server Config key.
   * @param message One line.
   */
  constructor(server: string, message: string) {
    super(`MCP server "${server}": ${message}`);
    this.name = "McpHostError";
    this.server = server;
  }
}

interface Session {
  readonly name: string;
  readonly client: Client;
  readonly transport: StdioClientTransport;
}

/**
 * Starts the given stdio servers (already `${VAR}`-expanded), lists their tools and exposes
 * them.
 *
 * The server environment is `PATH`, a throwaway `HOME`, `NODE_NO_WARNINGS=1` and the
 * entry's own `env` (nothing else of this process, so no API key reaches a server).
 *
 * @param entries Servers in the order their tools are offered.
 * @param options Exposure, timeout, cwd.
 * @returns The host; call `close()` when done.
 * @throws {McpHostError} when a server fails to start or list (already started ones are
 *   stopped first).
 * @throws {RangeError} from {@linkcode exposeTools} (unimplemented exposure, duplicate names).
 */
export async function openMcpHost(
  entries: readonly StdioServerEntry[],
  options: OpenMcpHostOptions,
): Promise<McpToolHost> {
  const timeout = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  const home = await Deno.makeTempDir({ prefix: "mcpmeter-agent-home-" });
  const sessions: Session[] = [];
  const warnings: string[] = [];
  const close = async () => {
    for (const s of sessions) {
      const pid = s.transport.pid;
      await s.client.close().catch(() => {});
      if (pid !== null) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* already gone */ }
      }
    }
    await Deno.remove(home, { recursive: true }).catch(() => {});
  };
  try {
    const listed: ListedTool[] = [];
    for (const entry of entries) {
      const transport = new StdioClientTransport({
        command: entry.command,
        args: [...entry.args],
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin",
          HOME: home,
          NODE_NO_WARNINGS: "1",
          ...entry.env,
        },
        cwd: entry.cwd ?? options.cwd ?? Deno.cwd(),
        stderr: "ignore",
      });
      const client = new Client({ name: "mcpmeter-agent", version: "0.1.0" });
      try {
        await client.connect(transport, { timeout });
      } catch (e) {
        await client.close().catch(() => {});
        throw new McpHostError(entry.name, `cannot start: ${(e as Error).message}`);
      }
      sessions.push({ name: entry.name, client, transport });
      try {
        const page = await listAll(client, "tools/list", { requestTimeoutMs: timeout });
        warnings.push(...page.warnings.map((w) => `${entry.name}: ${w}`));
        for (const item of page.items) listed.push({ server: entry.name, item });
      } catch (e) {
        throw new McpHostError(entry.name, `tools/list failed: ${(e as Error).message}`);
      }
    }
    const tools = exposeTools(listed, options.exposure);
    const byServer = new Map(sessions.map((s) => [s.name, s.client]));
    return {
      tools,
      warnings,
      close,
      async call(tool: ExposedTool, args: JsonValue, signal?: AbortSignal): Promise<ToolOutput> {
        const client = byServer.get(tool.server)!;
        try {
          const result = await client.callTool(
            { name: tool.tool, arguments: (args ?? {}) as Record<string, unknown> },
            undefined,
            { timeout, ...(signal ? { signal } : {}) },
          );
          return {
            text: contentText(result.content as JsonValue),
            isError: result.isError === true,
          };
        } catch (e) {
          return { text: `tool call failed: ${(e as Error).message}`, isError: true };
        }
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Text of an MCP `content` array: text parts joined by newlines; images, audio and resources
 * summarized in brackets.
 *
 * @param content `CallToolResult.content`.
 * @returns Text for the model.
 */
export function contentText(content: JsonValue): string {
  if (!Array.isArray(content)) return "";
  return (content as JsonObject[]).map((part) => {
    if (part?.type === "text") return String(part.text ?? "");
    if (part?.type === "resource") {
      const r = part.resource as JsonObject | undefined;
      return typeof r?.text === "string" ? r.text : `[resource ${String(r?.uri ?? "")}]`;
    }
    return `[${String(part?.type)} ${String(part?.mimeType ?? "")}]`.replace(" ]", "]");
  }).join("\n");
}
