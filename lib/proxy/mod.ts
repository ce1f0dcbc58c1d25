/**
 * The reference discovery proxy: an MCP server (the SDK's low-level `Server`)
 * that connects to upstream servers from a standard `mcpServers` config and
 * exposes `retrieve_tools` (BM25 over every upstream tool, `full` or `compact`
 * detail), `describe_tool` and `call_tool` (forwarding results unchanged).
 *
 * Its own `tools/list` is the data file
 * `fixtures/proxies/reference_proxy.tools.json`, the same catalog `deno task
 * bench` counts as the `proxy` exposure mode.
 *
 * - Pure: {@linkcode createToolIndex}, {@linkcode toolFromListing},
 *   {@linkcode retrieveResponseText}, {@linkcode describeResponseText},
 *   {@linkcode checkProxyArguments}, {@linkcode capResult} (the result-size cap),
 *   {@linkcode upstreamSecrets} (what must never be echoed).
 * - Over connected clients: {@linkcode createUpstreamPool},
 *   {@linkcode createProxyCore}.
 * - Edges: `connectUpstreams` (`io.ts`) (spawns stdio servers, connects HTTP
 *   ones), `serveProxyHttp` (`io.ts`) (streamable HTTP on 127.0.0.1; Host,
 *   Origin and token checked on every request, see docs/security.md),
 *   `serveProxyStdio` (`io.ts`) (stdin/stdout). `server.ts` also has
 *   `createProxyServer(core)`, the SDK `Server` for one session (kept out of
 *   this surface so it does not depend on the SDK's types).
 *
 * @example Usage
 * ```ts
 * import { createProxyCore, createUpstreamPool } from "./mod.ts";
 * const core = createProxyCore(await createUpstreamPool([]));
 * const result = await core.handle("call_tool", { name: "fs:read_file" });
 * if (result.isError !== true) throw new Error("an unknown tool must be an isError result");
 * ```
 *
 * @module
 */
export type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
export type { Hit, IndexFields, RetrievalDoc, Retriever } from "../retrieval/types.ts";
export type {
  RemoteServerEntry,
  RemoteTransport,
  ServerEntry,
  ServerMeta,
  ServersConfig,
  StdioServerEntry,
} from "../mcp/config.ts";
export type { ListingClient } from "../mcp/list.ts";
export {
  PROXY_DEFINITIONS_PATH,
  PROXY_TOOL_DEFINITIONS,
  type ProxyToolName,
} from "./definitions.ts";
export {
  createToolIndex,
  proxyRetriever,
  type ProxyRetrieverFactory,
  toolFromListing,
  type ToolIndex,
  type ToolIndexOptions,
} from "./tool_index.ts";
export { checkProxyArguments } from "./arguments.ts";
export {
  describeResponseText,
  RETRIEVE_USAGE,
  type RetrieveDetail,
  retrieveResponseText,
} from "./responses.ts";
export {
  createUpstreamPool,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  errorResult,
  type ToolCallResult,
  type UpstreamClient,
  type UpstreamConnection,
  type UpstreamFailure,
  type UpstreamPool,
  type UpstreamPoolOptions,
  type UpstreamStatus,
} from "./upstream.ts";
export {
  createProxyCore,
  PROXY_INSTRUCTIONS,
  PROXY_SERVER_INFO,
  type ProxyCore,
  type ProxyCoreOptions,
} from "./server.ts";
export { capResult, DEFAULT_MAX_RESULT_BYTES, TRUNCATED_META_KEY } from "./limits.ts";
export { upstreamSecrets } from "./connect.ts";
export { redactText } from "../core/secrets.ts";
