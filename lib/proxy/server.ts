/**
 * The reference discovery proxy as an MCP server (the SDK's low-level
 * `Server`): `tools/list` answers the definitions file verbatim, `tools/call`
 * runs `retrieve_tools`, `describe_tool` or `call_tool`.
 *
 * @module
 */
import type { JsonObject, Tool } from "../catalog/types.ts";
import { CallToolRequestSchema, ListToolsRequestSchema, Server } from "../core/sdk.ts";
import { PROXY_TOOL_DEFINITIONS, type ProxyToolName } from "./definitions.ts";
import { checkProxyArguments } from "./arguments.ts";
import { describeResponseText, type RetrieveDetail, retrieveResponseText } from "./responses.ts";
import { createToolIndex, type ToolIndex, type ToolIndexOptions } from "./tool_index.ts";
import { errorResult, type ToolCallResult, type UpstreamPool } from "./upstream.ts";
import { capResult, DEFAULT_MAX_RESULT_BYTES } from "./limits.ts";
import { Redactor } from "../core/secrets.ts";

/** Options of {@linkcode createProxyCore}. */
export interface ProxyCoreOptions extends ToolIndexOptions {
  /**
   * Cap of one forwarded `call_tool` result, bytes of UTF-8 JSON; a bigger result is cut with
   * a marker (see lib/proxy/limits.ts).
   * @default {DEFAULT_MAX_RESULT_BYTES}
   */
  readonly maxResultBytes?: number;
  /**
   * Values that must never leave the proxy (upstream credentials, its own token): replaced by
   * `[REDACTED]` in every answer, upstream results and error texts included.
   */
  readonly secrets?: readonly string[];
}

/** `serverInfo` the proxy sends in `initialize`. */
export const PROXY_SERVER_INFO = { name: "mcpmeter-proxy", version: "0.1.0" } as const;

/** Instructions the proxy sends in `initialize`. */
export const PROXY_INSTRUCTIONS =
  "Tools of several MCP servers are reachable through this proxy: find them with retrieve_tools, read full definitions with describe_tool, run them with call_tool.";

/** The proxy's state shared by all sessions: upstreams and the search index. */
export interface ProxyCore {
  /** Upstreams. */
  readonly pool: UpstreamPool;
  /** Index over `pool.tools`, built again when an upstream's list changes. */
  readonly index: ToolIndex;
  /**
   * Runs one proxy tool call (what `tools/call` does, without the transport).
   *
   * @param name Proxy tool name.
   * @param args Call arguments.
   * @returns The result; never rejects for bad input or upstream faults.
   */
  handle(name: string, args: JsonObject | undefined): Promise<ToolCallResult>;
}

const PROXY_NAMES = new Set(PROXY_TOOL_DEFINITIONS.map((d) => d.name as string));

/**
 * Builds the proxy's core over an upstream pool.
 *
 * Tool-level outcomes (the MCP convention for errors the agent can act on)
 * are `isError` results, never JSON-RPC errors: arguments that fail the
 * published `inputSchema`, an unknown proxy tool, an unknown upstream tool
 * (the message names it), an upstream fault. An upstream's own result,
 * `isError` included, is forwarded unchanged.
 *
 * `call_tool` takes `server:tool`; a bare tool name is accepted when exactly
 * one upstream has a tool of that name. It forwards only to tools the upstreams
 * listed: any other name is refused without reaching an upstream, even one that
 * would answer it. The pool's per-call timeout applies, and a result over
 * `maxResultBytes` is cut with a marker. Every answer has `secrets` replaced.
 *
 * @param pool Connected upstreams.
 * @param options Retriever factory for the index, result cap (bytes), secrets.
 * @returns The core.
 * @throws {RangeError} When `maxResultBytes` is not an integer of at least 1,024.
 */
export function createProxyCore(pool: UpstreamPool, options: ProxyCoreOptions = {}): ProxyCore {
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  capResult({}, maxResultBytes); // validates the cap before any call
  const redactor = new Redactor(options.secrets ?? []);
  let index = createToolIndex(pool.tools, options);
  let byName = new Map<string, Tool[]>();
  const names = () => {
    byName = new Map();
    for (const tool of index.tools) {
      const list = byName.get(tool.name) ?? [];
      list.push(tool);
      byName.set(tool.name, list);
    }
  };
  names();
  // An upstream said its list changed and was listed again: the index follows.
  pool.onToolsChanged?.(() => {
    index = createToolIndex(pool.tools, options);
    names();
  });
  const resolve = (name: string): Tool | undefined => {
    const exact = index.get(name);
    if (exact !== undefined) return exact;
    const bare = byName.get(name);
    return bare?.length === 1 ? bare[0] : undefined;
  };
  const handle = (name: string, args: JsonObject | undefined): Promise<ToolCallResult> => {
    if (!PROXY_NAMES.has(name)) {
      return Promise.resolve(
        errorResult(
          `Unknown tool "${name}": this proxy offers retrieve_tools, describe_tool and call_tool`,
        ),
      );
    }
    const invalid = checkProxyArguments(name as ProxyToolName, args);
    if (invalid !== undefined) return Promise.resolve(errorResult(invalid));
    const a = args ?? {};
    if (name === "retrieve_tools") {
      const answer = (): ToolCallResult => {
        const hits = index.search(a.query as string, (a.limit as number | undefined) ?? 10);
        const detail = (a.detail as RetrieveDetail | undefined) ?? "full";
        return { content: [{ type: "text", text: retrieveResponseText(hits, index.get, detail) }] };
      };
      // A retriever that calls an endpoint (embeddings) prepares the query first; its failure
      // is this call's error, the proxy goes on.
      if (index.prepare === undefined) return Promise.resolve(answer());
      return index.prepare([a.query as string]).then(answer, (error) =>
        errorResult(
          `retrieve_tools: retriever "${index.retriever.name}" failed: ${
            (error as Error)?.message ?? String(error)
          }`,
        ));
    }
    if (name === "describe_tool") {
      const { text, unknown } = describeResponseText(a.tool_ids as string[], resolve);
      if (unknown.length === (a.tool_ids as string[]).length) {
        return Promise.resolve(
          errorResult(`Unknown tool id(s): ${unknown.map((u) => `"${u}"`).join(", ")}`),
        );
      }
      return Promise.resolve({ content: [{ type: "text", text }] });
    }
    const target = a.name as string;
    const tool = resolve(target);
    if (tool === undefined) {
      const ambiguous = byName.get(target);
      return Promise.resolve(errorResult(
        ambiguous !== undefined && ambiguous.length > 1
          ? `Ambiguous tool "${target}": use one of ${ambiguous.map((t) => `"${t.id}"`).join(", ")}`
          : `Unknown tool "${target}": no upstream tool has this id (use retrieve_tools to find one)`,
      ));
    }
    return pool.call(tool.server, tool.name, a.arguments as JsonObject | undefined)
      .then((r) => capResult(r, maxResultBytes));
  };
  return {
    pool,
    get index() {
      return index;
    },
    handle: async (name, args) => redactor.json(await handle(name, args)),
  };
}

/**
 * A new SDK `Server` for one session, answering from `core`.
 *
 * One `Server` connects to one transport; for streamable HTTP with sessions,
 * create one per session over the same core.
 *
 * @param core Shared proxy state.
 * @returns The server, not yet connected.
 */
export function createProxyServer(core: ProxyCore): Server {
  const server = new Server({ ...PROXY_SERVER_INFO }, {
    capabilities: { tools: {} },
    instructions: PROXY_INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: PROXY_TOOL_DEFINITIONS as unknown as { name: string; inputSchema: { type: "object" } }[],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    await core.handle(
      request.params.name,
      request.params.arguments as JsonObject | undefined,
    ) as { content: [] });
  return server;
}
