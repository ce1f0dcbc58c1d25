/**
 * Typed access to the MCP SDK (private to lib/mcp).
 *
 * The SDK (1.32.2) maps its subpaths with `"./*": {"types": "./dist/esm/*.d.ts",
 * "import": "./dist/esm/*"}`, so `@modelcontextprotocol/sdk/client/stdio.js`
 * runs under Deno but its types resolve to `client/stdio.js.d.ts`, which does
 * not exist: every SDK value imported that way is silently `any`. The
 * extension-less specifier has types but does not run. So the values are
 * imported from the `.js` path and typed from the extension-less one (a
 * type-only import, erased at run time).
 *
 * @module
 */

import type { Client as ClientType } from "@modelcontextprotocol/sdk/client/index";
import { Client as ClientImpl } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport as StdioType } from "@modelcontextprotocol/sdk/client/stdio";
import { StdioClientTransport as StdioImpl } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { SSEClientTransport as SseType } from "@modelcontextprotocol/sdk/client/sse";
import { SSEClientTransport as SseImpl } from "@modelcontextprotocol/sdk/client/sse.js";
import type { StreamableHTTPClientTransport as HttpType } from "@modelcontextprotocol/sdk/client/streamableHttp";
import { StreamableHTTPClientTransport as HttpImpl } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { InMemoryTransport as InMemoryType } from "@modelcontextprotocol/sdk/inMemory";
import { InMemoryTransport as InMemoryImpl } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server as ServerType } from "@modelcontextprotocol/sdk/server/index";
import { Server as ServerImpl } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport as HttpServerType } from "@modelcontextprotocol/sdk/server/streamableHttp";
import { StreamableHTTPServerTransport as HttpServerImpl } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { SSEServerTransport as SseServerType } from "@modelcontextprotocol/sdk/server/sse";
import { SSEServerTransport as SseServerImpl } from "@modelcontextprotocol/sdk/server/sse.js";
import type * as Types from "@modelcontextprotocol/sdk/types";
import * as TypesImpl from "@modelcontextprotocol/sdk/types.js";

export type { StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio";

/** The SDK's `Client`. */
export const Client = ClientImpl as unknown as typeof ClientType;
/** The SDK's `Client` instance type. */
export type Client = ClientType;
/** The SDK's `StdioClientTransport`. */
export const StdioClientTransport = StdioImpl as unknown as typeof StdioType;
/** The SDK's `SSEClientTransport`. */
export const SSEClientTransport = SseImpl as unknown as typeof SseType;
/** The SDK's `StreamableHTTPClientTransport`. */
export const StreamableHTTPClientTransport = HttpImpl as unknown as typeof HttpType;
/** The SDK's `InMemoryTransport` (tests). */
export const InMemoryTransport = InMemoryImpl as unknown as typeof InMemoryType;
/** The SDK's low-level `Server` (tests). */
export const Server = ServerImpl as unknown as typeof ServerType;

/** The SDK's streamable HTTP server transport (tests). */
export const StreamableHTTPServerTransport = HttpServerImpl as unknown as typeof HttpServerType;
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
/** Request schemas used to register list handlers on a `Server` (tests). */
export const ListToolsRequestSchema = types.ListToolsRequestSchema;
export const ListPromptsRequestSchema = types.ListPromptsRequestSchema;
export const ListResourcesRequestSchema = types.ListResourcesRequestSchema;
