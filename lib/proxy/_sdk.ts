/**
 * Typed access to the MCP SDK (private to lib/proxy).
 *
 * The SDK's `.js` subpaths run under Deno but resolve to missing `.js.d.ts`
 * types (so their values would be `any`), while the extension-less subpaths
 * have types but do not run. Values are imported from the `.js` path and typed
 * from the extension-less one (type-only imports, erased at run time), the
 * same arrangement as `lib/mcp/_sdk.ts`.
 *
 * @module
 */

import type { Client as ClientType } from "@modelcontextprotocol/sdk/client/index";
import { Client as ClientImpl } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport as StdioClientType } from "@modelcontextprotocol/sdk/client/stdio";
import { StdioClientTransport as StdioClientImpl } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StreamableHTTPClientTransport as HttpClientType } from "@modelcontextprotocol/sdk/client/streamableHttp";
import { StreamableHTTPClientTransport as HttpClientImpl } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { InMemoryTransport as InMemoryType } from "@modelcontextprotocol/sdk/inMemory";
import { InMemoryTransport as InMemoryImpl } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server as ServerType } from "@modelcontextprotocol/sdk/server/index";
import { Server as ServerImpl } from "@modelcontextprotocol/sdk/server/index.js";
import type { StdioServerTransport as StdioServerType } from "@modelcontextprotocol/sdk/server/stdio";
import { StdioServerTransport as StdioServerImpl } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { WebStandardStreamableHTTPServerTransport as HttpServerType } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp";
import { WebStandardStreamableHTTPServerTransport as HttpServerImpl } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type * as Types from "@modelcontextprotocol/sdk/types";
import * as TypesImpl from "@modelcontextprotocol/sdk/types.js";

export type { StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio";
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport";

/** The SDK's `Client`. */
export const Client = ClientImpl as unknown as typeof ClientType;
/** The SDK's `Client` instance type. */
export type Client = ClientType;
/** The SDK's stdio client transport. */
export const StdioClientTransport = StdioClientImpl as unknown as typeof StdioClientType;
/** The SDK's stdio client transport instance type. */
export type StdioClientTransport = StdioClientType;
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
/** The SDK's Web-standard streamable HTTP server transport. */
export const WebStandardStreamableHTTPServerTransport =
  HttpServerImpl as unknown as typeof HttpServerType;
/** The SDK's Web-standard streamable HTTP server transport instance type. */
export type WebStandardStreamableHTTPServerTransport = HttpServerType;

const types = TypesImpl as unknown as typeof Types;
/** The SDK's `McpError`. */
export const McpError = types.McpError;
/** The SDK's `McpError` instance type. */
export type McpError = Types.McpError;
/** JSON-RPC / MCP error codes. */
export const ErrorCode = types.ErrorCode;
/** `tools/list` request schema (handler registration). */
export const ListToolsRequestSchema = types.ListToolsRequestSchema;
/** `tools/call` request schema (handler registration). */
export const CallToolRequestSchema = types.CallToolRequestSchema;
/** Strict `tools/call` result schema. */
export const CallToolResultSchema = types.CallToolResultSchema;
/** A `tools/call` result. */
export type CallToolResult = Types.CallToolResult;
/** A JSON-RPC message. */
export type JSONRPCMessage = Types.JSONRPCMessage;
