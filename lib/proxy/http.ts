/**
 * Serves the proxy over MCP streamable HTTP (`Deno.serve` plus the SDK's
 * Web-standard transport), one SDK `Server` per session.
 *
 * Every request, `initialize` included, first passes lib/core/http_guard.ts:
 * `Host` must be the bound address and port (or an allowed host), an `Origin`
 * must be allowed, and the bearer token (when set) must match, compared in
 * constant time. The guard runs before session lookup and body parsing, so a
 * refused request reaches neither the SDK nor an upstream. (The SDK transport's
 * own `enableDnsRebindingProtection` runs only inside `handleRequest`, after
 * our session routing, and compares Host values as exact strings; it is not
 * used.)
 *
 * @module
 */
import {
  checkBindAddress,
  createHttpGuard,
  type HttpGuard,
  refusalResponse,
} from "../core/http_guard.ts";
import {
  type JSONRPCMessage,
  StdioServerTransport,
  WebStandardStreamableHTTPServerTransport,
} from "../core/sdk.ts";
import { createProxyServer, type ProxyCore } from "./server.ts";
import process from "node:process";

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
  /**
   * When set, every request must carry `Authorization: Bearer <token>` (else 401). Required
   * when `hostname` is not loopback.
   */
  readonly token?: string;
  /**
   * More `Host` values to accept besides the bound address and port (and, on loopback or a
   * wildcard bind, `127.0.0.1`/`localhost`/`[::1]` with the bound port): `name` (any port) or
   * `name:port`. For a reverse proxy or a LAN name.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * More `Origin` values to accept (browser clients), e.g. `https://notebook.example`. The
   * origins of the allowed hosts over `http` are always accepted.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Called once per refused request with the status and the one-line reason (never the
   * token); e.g. to log refusals on stderr.
   */
  readonly onRefusal?: (status: number, reason: string) => void;
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
 * Every request first passes the guard (module doc): a `Host` that is not this
 * server or an `Origin` that is not allowed is 403, a missing or wrong bearer
 * token 401, each with a one-line JSON-RPC error reason. Then sessions follow
 * the streamable HTTP spec: an `initialize` POST without a session id opens a
 * session (`Mcp-Session-Id` in the response); later requests carry it;
 * `DELETE` ends it; an unknown id is 404. Requests to other paths are 404.
 *
 * @param core Shared proxy state (upstreams and index).
 * @param options Port, bind address (default 127.0.0.1), bearer token, allowed hosts and
 *   origins, path.
 * @returns The running proxy.
 * @throws {RangeError} When `hostname` is not loopback and no token is set, or an allowed
 *   host or origin is malformed.
 * @throws {Deno.errors.AddrInUse} When the port is taken.
 */
export function serveProxyHttp(core: ProxyCore, options: ServeHttpOptions = {}): HttpProxy {
  const hostname = options.hostname ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  checkBindAddress(hostname, options.token, "a token");
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  // Built once the port is known (port 0 binds a free one); requests cannot arrive before.
  let guard: HttpGuard | undefined;

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
    const refusal = guard!.check(request);
    if (refusal !== undefined) {
      options.onRefusal?.(refusal.status, refusal.reason);
      return refusalResponse(refusal);
    }
    if (new URL(request.url).pathname !== path) return new Response("Not Found", { status: 404 });
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
  try {
    guard = createHttpGuard({
      hostname,
      port,
      ...(options.token === undefined ? {} : { token: options.token }),
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
      ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    });
  } catch (error) {
    void server.shutdown();
    throw error;
  }
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
 * may write to stdout while it runs; progress belongs on stderr. The session
 * ends when the client goes away: stdin reaches its end (the client closed it
 * or exited). The SDK's stdio transport does not watch for that, so a proxy
 * whose client had quit went on running with its upstreams.
 *
 * @param core Shared proxy state.
 * @param stdin The client's end (default this process's stdin).
 * @returns `closed` resolves when the client disconnects or closes stdin; `close()` ends the
 *   session.
 */
export async function serveProxyStdio(
  core: ProxyCore,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<{ readonly closed: Promise<void>; close(): Promise<void> }> {
  const server = createProxyServer(core);
  const closed = Promise.withResolvers<void>();
  server.onclose = () => closed.resolve();
  const gone = () => {
    void server.close().catch(() => {}).finally(() => closed.resolve());
  };
  stdin.once("end", gone);
  stdin.once("close", gone);
  await server.connect(new StdioServerTransport(stdin as never));
  return {
    closed: closed.promise,
    close: async () => {
      stdin.off("end", gone);
      stdin.off("close", gone);
      await server.close();
    },
  };
}
