/**
 * Serves the proxy over MCP streamable HTTP (`Deno.serve` plus the SDK's
 * Web-standard transport), one SDK `Server` per session.
 *
 * @module
 */
import {
  type JSONRPCMessage,
  StdioServerTransport,
  WebStandardStreamableHTTPServerTransport,
} from "../_sdk.ts";
import { createProxyServer, type ProxyCore } from "./server.ts";

/** Options of {@linkcode serveProxyHttp}. */
export interface ServeHttpOptions {
  /**
   * TCP port; 0 picks a free one.
   * @default {0}
   */
  readonly port?: number;
  /**
   * Interface to bind.
   * @default {"127.0.0.1"}
   */
  readonly hostname?: string;
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  readonly token?: string;
  /**
   * URL path of the MCP endpoint.
   * @default {"/mcp"}
   */
  readonly path?: string;
}

/** A running HTTP proxy. */
export interface HttpProxy {
  /** Endpoint URL, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** Bound port. */
  readonly port: number;
  /**
   * Number of open MCP sessions.
   *
   * @returns Count.
   */
  sessionCount(): number;
  /**
   * Closes every session and stops listening. Upstreams are left to the caller.
   *
   * @returns When the listener has stopped.
   */
  shutdown(): Promise<void>;
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) =>
    typeof m === "object" && m !== null && (m as JSONRPCMessage & { method?: string }).method ===
      "initialize"
  );
}

function jsonError(status: number, message: string): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json" } },
  );
}

/**
 * Starts the HTTP listener.
 *
 * Sessions follow the streamable HTTP spec: an `initialize` POST without a
 * session id opens a session (`Mcp-Session-Id` in the response); later
 * requests carry it; `DELETE` ends it; an unknown id is 404. Requests to other
 * paths are 404; a missing or wrong bearer token is 401.
 *
 * @param core Shared proxy state (upstreams and index).
 * @param options Port, bind address (default 127.0.0.1), bearer token, path.
 * @returns The running proxy.
 * @throws {Deno.errors.AddrInUse} When the port is taken.
 */
export function serveProxyHttp(core: ProxyCore, options: ServeHttpOptions = {}): HttpProxy {
  const hostname = options.hostname ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const expected = options.token === undefined ? undefined : `Bearer ${options.token}`;

  // Resolved at shutdown: requests still waiting for an answer (e.g. one the
  // client cancelled after its timeout, which the SDK never answers in JSON
  // response mode) end with 503 instead of holding the listener open forever.
  const closing = Promise.withResolvers<void>();
  const bounded = async (work: Promise<Response>): Promise<Response> =>
    await Promise.race([
      work,
      closing.promise.then(() => jsonError(503, "The proxy is shutting down")),
    ]);

  const handler = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== path) return new Response("Not Found", { status: 404 });
    if (expected !== undefined && request.headers.get("authorization") !== expected) {
      return new Response("Unauthorized", {
        status: 401,
        headers: { "www-authenticate": "Bearer" },
      });
    }
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return jsonError(404, `Unknown session "${sessionId}"`);
      return await bounded(transport.handleRequest(request));
    }
    if (request.method !== "POST") return jsonError(400, "Missing Mcp-Session-Id header");
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return jsonError(400, "Request body is not JSON");
    }
    if (!isInitialize(body)) return jsonError(400, "Missing Mcp-Session-Id header");
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createProxyServer(core).connect(transport);
    return await bounded(transport.handleRequest(request, { parsedBody: body }));
  };

  const server = Deno.serve({ port: options.port ?? 0, hostname, onListen: () => {} }, handler);
  const port = server.addr.port;
  return {
    url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}${path}`,
    port,
    sessionCount: () => sessions.size,
    async shutdown() {
      closing.resolve();
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      sessions.clear();
      await server.shutdown();
    },
  };
}

/**
 * Serves the proxy on this process's stdin/stdout (one session). Nothing else
 * may write to stdout while it runs; progress belongs on stderr.
 *
 * @param core Shared proxy state.
 * @returns `closed` resolves when the client disconnects; `close()` ends the session.
 */
export async function serveProxyStdio(
  core: ProxyCore,
): Promise<{ readonly closed: Promise<void>; close(): Promise<void> }> {
  const server = createProxyServer(core);
  const closed = Promise.withResolvers<void>();
  server.onclose = () => closed.resolve();
  await server.connect(new StdioServerTransport());
  return { closed: closed.promise, close: () => server.close() };
}
