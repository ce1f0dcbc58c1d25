/**
 * The MCP client mcpmeter connects to servers with, for both protocol eras.
 *
 * The 2026-07-28 revision has no `initialize` handshake and no sessions: a client may ask
 * `server/discover` for the versions and capabilities, and every request carries its protocol
 * version and client capabilities in `_meta`. The v1 SDK (`@modelcontextprotocol/sdk`, 1.32.2)
 * knows only the 2025 handshake: a server that speaks only the new revision answers its
 * `initialize` with -32022 (unsupported protocol version), and its HTTP transport sends no
 * `MCP-Protocol-Version` header, which a modern endpoint requires. So connections go through the
 * v2 SDK's `Client` (`@modelcontextprotocol/client` 2.4.0) with `versionNegotiation: {mode:
 * "auto"}`: it asks `server/discover` first and, when the server knows no such method (every
 * 2025-era server answers -32601), falls back to `initialize` on the same connection. A server
 * that speaks both eras is spoken to in the newest; the negotiated version is read back
 * ({@linkcode McpClient.protocolVersion}), with the server's `instructions` from either
 * `server/discover` or `initialize`.
 *
 * The v1 SDK still serves where it works: the stdio transport (mcpmeter's process-observing
 * subclass of it), the in-process transports and servers of the proxy and the tests, the result
 * schemas. The wrapper keeps the v1 client's call shapes (`callTool(params, schema, options)`, a
 * notification handler registered by schema), so code that takes either client is unchanged.
 *
 * @module
 */

import { settleWithin } from "./_settle.ts";
import {
  ClientV2,
  ErrorCode,
  McpError,
  ProtocolErrorV2,
  SdkErrorCodeV2,
  SdkErrorV2,
} from "../core/sdk.ts";
import { CLIENT_INFO } from "./client_info.ts";

/** A transport any SDK client connects over (v1's stdio, v2's HTTP, in-memory pairs). */
export type McpTransport = Parameters<ClientV2["connect"]>[0];

/** What mcpmeter asks of a connected MCP client (the v1 SDK `Client`'s shapes). */
export interface McpClient {
  /** Called when the connection closes (set by the caller). */
  onclose?: () => void;
  /** Called with transport and protocol errors that belong to no request. */
  onerror?: (error: Error) => void;
  /**
   * Connects: `server/discover`, else `initialize`.
   *
   * @param transport Not yet started.
   * @param options Timeout (ms) and abort signal of the handshake.
   */
  connect(
    transport: McpTransport,
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<void>;
  /** Sends a request; the result is checked with `resultSchema` (a zod schema). */
  request(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: unknown,
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<unknown>;
  /**
   * `tools/call` (the result checked against the tool's `outputSchema` when it has one).
   * `resultSchema` is the v1 client's argument, ignored: pass `undefined`.
   */
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  /** The server's capabilities, once connected. */
  getServerCapabilities():
    | { readonly tools?: unknown; readonly prompts?: unknown; readonly resources?: unknown }
    | undefined;
  /** The server's `serverInfo`, when it sent one. */
  getServerVersion(): Record<string, unknown> | undefined;
  /** The server's `instructions`, when it sent them. */
  getInstructions(): string | undefined;
  /** The protocol version negotiated (`2026-07-28`, `2025-06-18`, ...), once connected. */
  protocolVersion(): string | undefined;
  /**
   * Handles one server notification.
   *
   * @param notification A v1 SDK notification schema (its `method` literal names it) or the
   *   method name.
   * @param handler Called with each notification.
   */
  setNotificationHandler(notification: unknown, handler: (notification: unknown) => void): void;
  /**
   * Asks to be told when the server's tool list changes, once connected. A 2025-era server sends
   * `notifications/tools/list_changed` unprompted; a 2026-07-28 server sends it only on a
   * `subscriptions/listen` stream that asked for `toolsListChanged` (it has no sessions to send
   * it on otherwise), so one is opened when the server declares `tools.listChanged`. The
   * notifications reach the handler set with {@linkcode setNotificationHandler}; `close` ends
   * the stream.
   *
   * @param options Timeout (ms) of the server's acknowledgement.
   * @returns `unprompted` (2025 era), `listening` (stream acknowledged with tools), or
   *   `undeclared` (the server does not say it changes its list, or did not agree to tell).
   */
  watchToolList(options?: { timeout?: number }): Promise<"unprompted" | "listening" | "undeclared">;
  /** Ends the connection. */
  close(): Promise<void>;
}

/** The method a v1 SDK notification schema is for (its `method` literal), or the name given. */
function methodOf(notification: unknown): string {
  if (typeof notification === "string") return notification;
  const shape = (notification as { shape?: { method?: { value?: unknown } } })?.shape;
  const method = shape?.method?.value;
  if (typeof method !== "string") {
    throw new TypeError("setNotificationHandler: not a notification schema or method name");
  }
  return method;
}

/**
 * How a client finds the server's era: `auto` asks `server/discover` first and falls back to
 * `initialize`; `legacy` sends `initialize` alone, as a 2025 client does (for a stdio server that
 * closed the connection on the probe: the 2025 rules let a server refuse any request before
 * `initialize`); `modern` speaks 2026-07-28 only (for a server that refused `initialize` with
 * -32022 after a probe it was too slow to answer).
 */
export type EraNegotiation = "auto" | "legacy" | "modern";

/** The protocol revision of the modern era. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * Longest wait for a stdio server's answer to `server/discover` before it is taken for a
 * 2025-era server that ignores requests it does not know (the SDK then sends `initialize`): at
 * most this, and at most half the connect timeout.
 */
export const PROBE_TIMEOUT_MS = 5_000;

/**
 * The next way to connect after a failed one, when the failure says the server's era was
 * misjudged: the connection closed on the probe (ask `initialize` alone), or `initialize` was
 * refused as an unsupported version (speak the modern era).
 *
 * @param failed How the failed attempt negotiated.
 * @param error What it threw (or the cause of its error).
 * @returns The next way, or `undefined` when trying again would not help.
 */
export function nextNegotiation(
  failed: EraNegotiation,
  error: unknown,
): EraNegotiation | undefined {
  const kind = mcpErrorKind(error);
  if (kind === "probe_closed" && failed === "auto") return "legacy";
  if (kind === "unsupported_version" && failed !== "modern") return "modern";
  return undefined;
}

/**
 * A client for one connection, either era ({@linkcode McpClient}).
 *
 * @param negotiation How the era is found. @default {"auto"}
 * @returns An unconnected client that sends mcpmeter's `clientInfo` and declares no capability.
 *
 * @example Usage
 * ```ts
 * import { createMcpClient } from "./client.ts";
 * const client = createMcpClient();
 * if (client.protocolVersion() !== undefined) throw new Error("not connected yet");
 * ```
 */
export function createMcpClient(negotiation: EraNegotiation = "auto"): McpClient {
  const mode = negotiation === "modern" ? { pin: MODERN_PROTOCOL_VERSION } : negotiation;
  const inner = new ClientV2({ ...CLIENT_INFO }, {
    capabilities: {},
    versionNegotiation: { mode },
  });
  let subscription: { close(): Promise<void> } | undefined;
  return {
    get onclose() {
      return inner.onclose;
    },
    set onclose(f) {
      inner.onclose = f;
    },
    get onerror() {
      return inner.onerror;
    },
    set onerror(f) {
      inner.onerror = f;
    },
    connect: (transport, options) => {
      if (negotiation === "auto" && options?.timeout !== undefined) {
        inner.setVersionNegotiation({
          mode,
          probe: { timeoutMs: Math.min(PROBE_TIMEOUT_MS, Math.ceil(options.timeout / 2)) },
        });
      }
      return inner.connect(transport, options);
    },
    request: (request, resultSchema, options) =>
      inner.request(request as never, resultSchema as never, options),
    callTool: (params, _schema, options) =>
      inner.callTool(params, options) as Promise<Record<string, unknown>>,
    getServerCapabilities: () => inner.getServerCapabilities(),
    getServerVersion: () => inner.getServerVersion() as Record<string, unknown> | undefined,
    getInstructions: () => inner.getInstructions(),
    protocolVersion: () => inner.getNegotiatedProtocolVersion(),
    setNotificationHandler: (notification, handler) =>
      inner.setNotificationHandler(methodOf(notification) as never, handler as never),
    async watchToolList(options) {
      const tools = inner.getServerCapabilities()?.tools as { listChanged?: unknown } | undefined;
      if (tools?.listChanged !== true) return "undeclared";
      if (inner.getProtocolEra() !== "modern") return "unprompted";
      const opened = await inner.listen({ toolsListChanged: true }, options);
      if (opened.honoredFilter.toolsListChanged !== true) {
        await opened.close();
        return "undeclared";
      }
      subscription = opened;
      return "listening";
    },
    async close() {
      await subscription?.close().catch(() => {});
      await inner.close();
    },
  };
}

/**
 * What an error of either SDK means, for the callers that tell outcomes apart: the request timed
 * out, the connection closed (`probe_closed`: while `server/discover` was asked, so a 2025-era
 * server may have refused the probe), the method is not known, the protocol version was refused.
 *
 * @param error Anything a client threw.
 * @returns The kind, or `undefined` for any other error.
 */
export function mcpErrorKind(
  error: unknown,
):
  | "timeout"
  | "closed"
  | "probe_closed"
  | "method_not_found"
  | "unsupported_version"
  | undefined {
  if (error instanceof SdkErrorV2) {
    if (error.code === SdkErrorCodeV2.RequestTimeout) return "timeout";
    if (error.code === SdkErrorCodeV2.ConnectionClosed) return "closed";
    if (
      error.code === SdkErrorCodeV2.EraNegotiationFailed &&
      /connection closed during the server\/discover probe/.test(error.message)
    ) return "probe_closed";
    return undefined;
  }
  // The v2 SDK reports its own timeouts and closed connections as SdkError; a ProtocolError is
  // always the server's JSON-RPC answer, whose -32000/-32001 (the spec's implementation-defined
  // server errors, the commonest a server sends) are v1's local ConnectionClosed/RequestTimeout
  // numbers only by coincidence.
  const local = error instanceof McpError && !(error instanceof ProtocolErrorV2);
  const code = error instanceof McpError || error instanceof ProtocolErrorV2
    ? error.code
    : undefined;
  if (local && code === ErrorCode.RequestTimeout) return "timeout";
  if (local && code === ErrorCode.ConnectionClosed) return "closed";
  if (code === ErrorCode.MethodNotFound) return "method_not_found";
  if (code === -32022) return "unsupported_version";
  return undefined;
}

/**
 * An error of either SDK in words for a record: its message without the v2 SDK's
 * `Version negotiation probe failed: ` prefix (the probe is how every connection starts, so it
 * says nothing), followed by the HTTP answer's body when the SDK kept it (a 401 that says why).
 *
 * @param error Anything a client threw.
 * @returns The text (may hold several lines; callers cut it to one).
 */
export function mcpErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const text = message.replace(/^Version negotiation probe failed: /, "");
  const body = (error as { data?: { text?: unknown } } | null)?.data?.text;
  return typeof body === "string" && body.trim() !== "" && !text.includes(body.trim())
    ? `${text}: ${body.trim()}`
    : text;
}

/**
 * Ends a streamable HTTP session on the server with `DELETE` (the spec: a client that no longer
 * needs its session should), waiting at most `ms`; nothing for a transport without sessions
 * (stdio, SSE, a 2026-07-28 server, which has none). Without it each closed session stayed open
 * on the server.
 *
 * @param transport The client transport.
 * @param ms Longest wait, in ms.
 * @returns When done or given up.
 */
export async function endHttpSession(transport: unknown, ms: number): Promise<void> {
  const t = transport as { sessionId?: unknown; terminateSession?: () => Promise<void> };
  if (typeof t?.terminateSession !== "function" || t.sessionId === undefined) return;
  await settleWithin(t.terminateSession(), ms);
}
