/**
 * Request guard of the workbench (it runs on a laptop beside API keys):
 *
 * - `Host` and `Origin` are checked by the listener guard shared with the proxy
 *   (`lib/core/http_guard.ts`): `Host` must be the bound host and port (or a loopback name with that
 *   port on loopback), so a DNS-rebinding page cannot talk to it; a request with a foreign
 *   `Origin` is refused (CSRF), on loopback too;
 * - a state-changing request (anything but GET, HEAD, OPTIONS) with
 *   `Sec-Fetch-Site: cross-site` is refused too;
 * - with a token, every `/api/` request must carry it (`Authorization: Bearer TOKEN`, or the
 *   `mcpmeter_token` cookie the pages get from `?token=TOKEN`); compared in constant time;
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import {
  constantTimeEqual,
  createHttpGuard,
  type HttpGuard,
  isLoopbackHostname,
} from "../core/http_guard.ts";

/** Where the server listens and what it demands. */
export interface GuardOptions {
  /** Bound address as given (`127.0.0.1`, `0.0.0.0`, a host name). */
  readonly hostname: string;
  /** Bound port (read per request: it is known only once listening). */
  readonly port: () => number;
  /** Required token, or `undefined` for none (loopback only). */
  readonly token?: string;
  /** More `Host` values to accept (`name` or `name:port`), e.g. the name users type. */
  readonly allowedHosts?: readonly string[];
}

/** Name of the cookie that carries the token for pages. */
export const TOKEN_COOKIE = "mcpmeter_token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `true` for an address only this machine can reach (`localhost`, `127.0.0.0/8`, `::1`). */
export function isLoopback(hostname: string): boolean {
  return isLoopbackHostname(hostname);
}

/** Constant-time string comparison (SHA-256 of both, then `timingSafeEqual`). */
export function sameSecret(a: string, b: string): boolean {
  return constantTimeEqual(a, b);
}

function cookie(c: Context, name: string): string | undefined {
  const header = c.req.header("cookie") ?? "";
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

/** A refusal: JSON under `/api/`, text elsewhere; a 401 names the scheme (RFC 6750). */
const refuse = (c: Context, status: 400 | 401 | 403, error: string) => {
  if (status === 401) c.header("www-authenticate", "Bearer");
  return c.req.path.startsWith("/api/")
    ? c.json({ error }, status)
    : c.text(`${status} ${error}\n`, status);
};

/**
 * The guard middleware (mount first, on every path).
 *
 * @param options See {@linkcode GuardOptions}.
 * @returns Hono middleware.
 */
export function workbenchGuard(options: GuardOptions): MiddlewareHandler {
  let guard: HttpGuard | undefined;
  let guardPort = -1;
  return async (c, next) => {
    const port = options.port();
    if (guard === undefined || guardPort !== port) {
      guard = createHttpGuard({
        hostname: options.hostname,
        port,
        ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      });
      guardPort = port;
    }
    // Host (DNS rebinding) and Origin (pages of other sites), shared with the proxy.
    const refusal = guard.check(c.req.raw);
    if (refusal !== undefined) return refuse(c, refusal.status as 403, refusal.reason);
    const method = c.req.method.toUpperCase();
    if (!SAFE_METHODS.has(method) && c.req.header("sec-fetch-site") === "cross-site") {
      return refuse(c, 403, "Refused: a cross-site request may not change state (CSRF guard)");
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
    await next();
    return undefined;
  };
}
