/**
 * Request guard of the workbench (it runs on a laptop beside API keys):
 *
 * - `Host` must be the bound host and port (or `localhost`/`127.0.0.1`/`[::1]` with that port
 *   when bound to loopback): a DNS-rebinding page cannot talk to it;
 * - a state-changing request (anything but GET, HEAD, OPTIONS) with a foreign `Origin`, or
 *   `Sec-Fetch-Site: cross-site`, is refused (CSRF), on loopback too;
 * - with a token, every `/api/` request must carry it (`Authorization: Bearer TOKEN`, or the
 *   `mcpmeter_token` cookie the pages get from `?token=TOKEN`); compared in constant time;
 * - request bodies over the limit are refused with 413.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";

/** Where the server listens and what it demands. */
export interface GuardOptions {
  /** Bound address as given (`127.0.0.1`, `0.0.0.0`, a host name). */
  readonly hostname: string;
  /** Bound port (read per request: it is known only once listening). */
  readonly port: () => number;
  /** Required token, or `undefined` for none (loopback only). */
  readonly token?: string;
  /** Largest accepted body, bytes. */
  readonly maxBodyBytes: number;
}

/** Name of the cookie that carries the token for pages. */
export const TOKEN_COOKIE = "mcpmeter_token";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `true` for an address only this machine can reach. */
export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Host header values the server answers to.
 *
 * @param hostname Bound address.
 * @param port Bound port.
 * @returns Allowed `host:port` values (lower case); `null` when bound to every interface
 *   (`0.0.0.0`, `::`), where any host name may reach it and the token is the protection.
 */
export function allowedHosts(hostname: string, port: number): Set<string> | null {
  if (hostname === "0.0.0.0" || hostname === "::" || hostname === "[::]") return null;
  const names = isLoopback(hostname)
    ? ["127.0.0.1", "localhost", "[::1]", hostname.includes(":") ? `[${hostname}]` : hostname]
    : [hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname];
  return new Set(names.map((n) => `${n.toLowerCase()}:${port}`));
}

/** Constant-time string comparison (length leaks, content does not). */
export function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

function cookie(c: Context, name: string): string | undefined {
  const header = c.req.header("cookie") ?? "";
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

const refuse = (c: Context, status: 400 | 401 | 403 | 413, error: string) =>
  c.req.path.startsWith("/api/")
    ? c.json({ error }, status)
    : c.text(`${status} ${error}\n`, status);

/**
 * The guard middleware (mount first, on every path).
 *
 * @param options See {@linkcode GuardOptions}.
 * @returns Hono middleware.
 */
export function workbenchGuard(options: GuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const port = options.port();
    const hosts = allowedHosts(options.hostname, port);
    const host = (c.req.header("host") ?? "").toLowerCase();
    if (hosts !== null && !hosts.has(host)) {
      return refuse(c, 403, `Host "${host}" is not this server (DNS rebinding guard)`);
    }
    const method = c.req.method.toUpperCase();
    if (!SAFE_METHODS.has(method)) {
      const origin = c.req.header("origin");
      if (origin !== undefined) {
        let originHost: string;
        try {
          const u = new URL(origin);
          originHost = u.protocol === "http:" || u.protocol === "https:" ? u.host : "";
        } catch {
          originHost = "";
        }
        if (originHost.toLowerCase() !== host) {
          return refuse(c, 403, `Origin "${origin}" may not change state here (CSRF guard)`);
        }
      }
      if (c.req.header("sec-fetch-site") === "cross-site") {
        return refuse(c, 403, "cross-site request refused (CSRF guard)");
      }
    }
    if (options.token !== undefined) {
      const query = c.req.query("token");
      if (!c.req.path.startsWith("/api/") && query !== undefined) {
        if (!sameSecret(query, options.token)) return refuse(c, 401, "wrong token");
        const url = new URL(c.req.url);
        url.searchParams.delete("token");
        c.header(
          "set-cookie",
          `${TOKEN_COOKIE}=${encodeURIComponent(query)}; HttpOnly; SameSite=Strict; Path=/`,
        );
        return c.redirect(url.pathname + url.search, 303);
      }
      const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
      const given = bearer ?? cookie(c, TOKEN_COOKIE);
      if (given === undefined || !sameSecret(given, options.token)) {
        return refuse(
          c,
          401,
          "token required: send Authorization: Bearer TOKEN (or open the URL that deno task serve printed)",
        );
      }
    }
    const length = Number(c.req.header("content-length") ?? "0");
    if (Number.isFinite(length) && length > options.maxBodyBytes) {
      return refuse(c, 413, `request body over ${options.maxBodyBytes} bytes`);
    }
    await next();
    return undefined;
  };
}
