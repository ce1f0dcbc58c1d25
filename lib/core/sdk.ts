/**
 * Typed access to the MCP SDKs (private to lib/; the one place lib imports them from): the v1
 * line `@modelcontextprotocol/sdk` (servers, in-process transports, the stdio client transport,
 * schemas) and the v2 client `@modelcontextprotocol/client` (the 2026-07-28 revision; see
 * `lib/mcp/client.ts`).
 *
 * The SDK (1.32.2) maps its subpaths with `"./*": {"types": "./dist/esm/*.d.ts",
 * "import": "./dist/esm/*"}`, so `@modelcontextprotocol/sdk/client/stdio.js` runs under Deno
 * but its types resolve to `client/stdio.js.d.ts`, which does not exist: every SDK value
 * imported that way is silently `any`. The extension-less specifier has types but does not
 * run. So the values are imported from the `.js` path and typed from the extension-less one (a
 * type-only import, erased at run time).
 *
 * @module
 */

import type { Client as ClientType } from "@modelcontextprotocol/sdk/client/index";
import { Client as ClientImpl } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport as StdioClientType } from "@modelcontextprotocol/sdk/client/stdio";
import { StdioClientTransport as StdioClientImpl } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { SSEClientTransport as SseClientType } from "@modelcontextprotocol/sdk/client/sse";
import { SSEClientTransport as SseClientImpl } from "@modelcontextprotocol/sdk/client/sse.js";
import type { StreamableHTTPClientTransport as HttpClientType } from "@modelcontextprotocol/sdk/client/streamableHttp";
import { StreamableHTTPClientTransport as HttpClientImpl } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { InMemoryTransport as InMemoryType } from "@modelcontextprotocol/sdk/inMemory";
import { InMemoryTransport as InMemoryImpl } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server as ServerType } from "@modelcontextprotocol/sdk/server/index";
import { Server as ServerImpl } from "@modelcontextprotocol/sdk/server/index.js";
import type { StdioServerTransport as StdioServerType } from "@modelcontextprotocol/sdk/server/stdio";
import { StdioServerTransport as StdioServerImpl } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { StreamableHTTPServerTransport as NodeHttpServerType } from "@modelcontextprotocol/sdk/server/streamableHttp";
import { StreamableHTTPServerTransport as NodeHttpServerImpl } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { WebStandardStreamableHTTPServerTransport as HttpServerType } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp";
import { WebStandardStreamableHTTPServerTransport as HttpServerImpl } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { SSEServerTransport as SseServerType } from "@modelcontextprotocol/sdk/server/sse";
import { SSEServerTransport as SseServerImpl } from "@modelcontextprotocol/sdk/server/sse.js";
import type * as Types from "@modelcontextprotocol/sdk/types";
import {
  Client as ClientV2Impl,
  ProtocolError as ProtocolErrorV2Impl,
  SdkError as SdkErrorV2Impl,
  SdkErrorCode as SdkErrorCodeV2Impl,
  SSEClientTransport as SseClientV2Impl,
  StreamableHTTPClientTransport as HttpClientV2Impl,
} from "@modelcontextprotocol/client";
import * as TypesImpl from "@modelcontextprotocol/sdk/types.js";

export type { StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio";
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport";

/**
 * The v2 SDK's `Client` (`@modelcontextprotocol/client`, the 2026-07-28 revision): it can ask
 * `server/discover` and send the per-request `_meta` envelope, and falls back to `initialize`.
 * `lib/mcp/client.ts` wraps it; nothing else should construct one.
 */
export const ClientV2 = ClientV2Impl;
/** The v2 SDK's `Client` instance type. */
export type ClientV2 = ClientV2Impl;
/** The v2 SDK's streamable HTTP client transport (sends `MCP-Protocol-Version` on modern traffic). */
export const StreamableHTTPClientTransportV2 = HttpClientV2Impl;
/** The v2 SDK's legacy SSE client transport. */
export const SSEClientTransportV2 = SseClientV2Impl;
/** The v2 SDK's error class (timeouts, closed connections, failed negotiation). */
export const SdkErrorV2 = SdkErrorV2Impl;
/** The v2 SDK's JSON-RPC error (a server's error response: its `code` is the JSON-RPC number). */
export const ProtocolErrorV2 = ProtocolErrorV2Impl;
/** The v2 SDK's error codes (strings, unlike v1's JSON-RPC numbers). */
export const SdkErrorCodeV2 = SdkErrorCodeV2Impl;

/** The SDK's `Client`. */
export const Client = ClientImpl as unknown as typeof ClientType;
/** The SDK's `Client` instance type. */
export type Client = ClientType;
/** The SDK's stdio client transport. */
export const StdioClientTransport = StdioClientImpl as unknown as typeof StdioClientType;
/** The SDK's stdio client transport instance type. */
export type StdioClientTransport = StdioClientType;
/** The SDK's legacy SSE client transport. */
export const SSEClientTransport = SseClientImpl as unknown as typeof SseClientType;
/** The SDK's streamable HTTP client transport. */
export const StreamableHTTPClientTransport = HttpClientImpl as unknown as typeof HttpClientType;
/** The SDK's streamable HTTP client transport instance type. */
export type StreamableHTTPClientTransport = HttpClientType;
/** The SDK's in-memory linked transports. */
export const InMemoryTransport = InMemoryImpl as unknown as typeof InMemoryType;
/** The SDK's low-level `Server`. */
export const Server = ServerImpl as unknown as typeof ServerType;
/** The SDK's low-level `Server` instance type. */
export type Server = ServerType;
/** The SDK's stdio server transport. */
export const StdioServerTransport = StdioServerImpl as unknown as typeof StdioServerType;
/** The SDK's streamable HTTP server transport over `node:http` (tests). */
export const StreamableHTTPServerTransport =
  NodeHttpServerImpl as unknown as typeof NodeHttpServerType;
/** The SDK's Web-standard streamable HTTP server transport. */
export const WebStandardStreamableHTTPServerTransport =
  HttpServerImpl as unknown as typeof HttpServerType;
/** The SDK's Web-standard streamable HTTP server transport instance type. */
export type WebStandardStreamableHTTPServerTransport = HttpServerType;
/** The SDK's legacy SSE server transport (tests). */
export const SSEServerTransport = SseServerImpl as unknown as typeof SseServerType;

const types = TypesImpl as unknown as typeof Types;
/** The SDK's `McpError`. */
export const McpError = types.McpError;
/** The SDK's `McpError` instance type. */
export type McpError = Types.McpError;
/** JSON-RPC / MCP error codes. */
export const ErrorCode = types.ErrorCode;
/** Strict result schemas of the list methods. */
export const ListToolsResultSchema = types.ListToolsResultSchema;
export const ListPromptsResultSchema = types.ListPromptsResultSchema;
export const ListResourcesResultSchema = types.ListResourcesResultSchema;
/** Request schemas used to register list handlers on a `Server`. */
export const ListToolsRequestSchema = types.ListToolsRequestSchema;
export const ListPromptsRequestSchema = types.ListPromptsRequestSchema;
export const ListResourcesRequestSchema = types.ListResourcesRequestSchema;
/** `notifications/tools/list_changed` schema (notification handler registration). */
export const ToolListChangedNotificationSchema = types.ToolListChangedNotificationSchema;
/** `tools/call` request schema (handler registration). */
export const CallToolRequestSchema = types.CallToolRequestSchema;
/** Strict `tools/call` result schema. */
export const CallToolResultSchema = types.CallToolResultSchema;
/** A `tools/call` result. */
export type CallToolResult = Types.CallToolResult;
/** A JSON-RPC message. */
export type JSONRPCMessage = Types.JSONRPCMessage;

/**
 * The SDK packages that speak MCP to servers, as `name@version` from where they resolved: the
 * v2 client (every session, its HTTP transports included) and the v1 line, whose stdio
 * transport that client drives.
 */
export function sdkPackages(): { readonly client: string; readonly stdioTransport: string } {
  const of = (name: string, specifier: string) => {
    // npm:/@modelcontextprotocol/client@2.4.0/... or .../@modelcontextprotocol+client@2.4.0/...
    const re = new RegExp(`@modelcontextprotocol[/+]${name}@([^/]+)`);
    return `@modelcontextprotocol/${name}@${
      re.exec(import.meta.resolve(specifier))?.[1] ?? "unknown"
    }`;
  };
  return {
    client: of("client", "@modelcontextprotocol/client"),
    stdioTransport: of("sdk", "@modelcontextprotocol/sdk/client/stdio.js"),
  };
}
