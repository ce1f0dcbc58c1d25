/**
 * The checks every mcpmeter HTTP listener runs first, on every request: the `Host` header (DNS
 * rebinding), the `Origin` header (pages in a browser), the bearer token off loopback; and the names
 * this machine answers to when a listener binds a wildcard address.
 *
 * @module
 */

import { createHash, timingSafeEqual } from "node:crypto";

/** Options of {@linkcode createHttpGuard}. */
export interface HttpGuardOptions {
  /** Address the listener is bound to (e.g. `127.0.0.1`, `0.0.0.0`, `::1`). */
  readonly hostname: string;
  /** Port the listener is bound to (the real one, after a port-0 bind). */
  readonly port: number;
  /**
   * More `Host` values to accept: `name` (any port) or `name:port`; IPv6 in brackets
   * (`[fd00::1]:8931`). Case-insensitive.
   */
  readonly allowedHosts?: readonly string[];
  /** More `Origin` values to accept (`https://notebook.example:8443`); compared as URL origins. */
  readonly allowedOrigins?: readonly string[];
  /** When set and non-empty, `Authorization: Bearer <token>` is required. */
  readonly token?: string;
}

/** Why a request was refused. */
export interface Refusal {
  /** 401 (token) or 403 (Host, Origin). */
  readonly status: 401 | 403;
  /** Which check refused it. */
  readonly check: "host" | "origin" | "token";
  /** One line for the client and the log; never contains the token. */
  readonly reason: string;
}

/** A configured guard. */
export interface HttpGuard {
  /** `Host` values accepted exactly (`name:port`), lowercase, in a fixed order. */
  readonly hosts: readonly string[];
  /** Host names accepted on any port (from `allowedHosts` entries without a port). */
  readonly anyPortHosts: readonly string[];
  /** `Origin` values accepted, normalized (`http://127.0.0.1:8931`). */
  readonly origins: readonly string[];
  /**
   * Checks one request: Host, then Origin, then the token.
   *
   * @param request The incoming request.
   * @returns `undefined` when allowed, else the refusal.
   */
  check(request: Request): Refusal | undefined;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/**
 * Whether an address or name is loopback: `localhost`, `127.0.0.0/8`, `::1`.
 *
 * @param hostname Address or name, IPv6 with or without brackets.
 * @returns `true` for loopback.
 *
 * @example Usage
 * ```ts
 * import { isLoopbackHostname } from "./http_guard.ts";
 * if (!isLoopbackHostname("127.0.0.2") || isLoopbackHostname("0.0.0.0")) throw new Error();
 * ```
 */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Whether an address is a wildcard bind (`0.0.0.0`, `::`), listening on every interface.
 *
 * @param hostname Bound address, IPv6 with or without brackets.
 * @returns `true` for a wildcard.
 */
export function isWildcard(hostname: string): boolean {
  const h = hostname.replace(/^\[(.*)\]$/, "$1");
  return h === "0.0.0.0" || h === "::" || h === "0:0:0:0:0:0:0:0";
}

/**
 * Fewest characters of a token that guards a server beyond loopback: 16 (about 95 bits as
 * random hex, more as random base64), so that it cannot be guessed over the network.
 */
export const MIN_TOKEN_CHARS = 16;

/** Fewest different characters a token must hold (16 identical characters guess in one try). */
export const MIN_TOKEN_DISTINCT_CHARS = 6;

/**
 * Why a token cannot guard a server, or `undefined` when it can: it is missing or empty,
 * shorter than {@linkcode MIN_TOKEN_CHARS}, holds whitespace or control characters (an HTTP
 * header does not carry them intact: `Bearer` with 16 spaces arrives empty), or has fewer than
 * {@linkcode MIN_TOKEN_DISTINCT_CHARS} different characters (`aaaaaaaaaaaaaaaa`,
 * `abababababababab`). A random hex token of 16 characters has fewer than 6 different ones
 * about twice in 100,000 draws. The reason describes the token, never quotes it.
 *
 * @param token The configured token, if any.
 * @returns The reason, e.g. `the token is 4 characters, fewer than 16 (...)`, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { weakTokenReason } from "./http_guard.ts";
 * if (weakTokenReason("a".repeat(16)) === undefined) throw new Error("16 identical characters");
 * if (weakTokenReason("9f86d081884c7d65") !== undefined) throw new Error("random hex");
 * ```
 */
export function weakTokenReason(token: string | undefined): string | undefined {
  const make = "(make one with: openssl rand -hex 24)";
  if (token === undefined || token === "") return "no token is set";
  if (token.length < MIN_TOKEN_CHARS) {
    return `the token is ${token.length} characters, fewer than ${MIN_TOKEN_CHARS} ${make}`;
  }
  // deno-lint-ignore no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(token)) {
    return `the token holds whitespace or control characters, which a header does not carry intact ${make}`;
  }
  const distinct = new Set(token).size;
  if (distinct < MIN_TOKEN_DISTINCT_CHARS) {
    return `the token has ${distinct} different character${distinct === 1 ? "" : "s"}, ` +
      `fewer than ${MIN_TOKEN_DISTINCT_CHARS}: it can be guessed ${make}`;
  }
  return undefined;
}

/**
 * Why a listener on `hostname` guarded by `token` may not start, or `undefined`: a token that is
 * set is always checked ({@linkcode weakTokenReason}), on loopback too; off loopback a token is
 * required.
 *
 * @param hostname Address to bind.
 * @param token The configured token, if any (`""` counts as none).
 * @returns The reason, or `undefined`.
 */
export function tokenProblem(hostname: string, token: string | undefined): string | undefined {
  if (token === undefined || token === "") {
    return isLoopbackHostname(hostname) ? undefined : "no token is set";
  }
  return weakTokenReason(token);
}

/**
 * Refuses a bind that would need a token and has none, and any weak token
 * ({@linkcode tokenProblem}).
 *
 * @param hostname Address to bind.
 * @param token The configured token, if any.
 * @param tokenHint How the user sets a token, for the message (e.g. `--token or $MCPMETER_PROXY_TOKEN`).
 * @throws {RangeError} When `hostname` is not loopback and `token` is missing or empty, or when
 *   a token is set and {@linkcode weakTokenReason} refuses it.
 */
export function checkBindAddress(
  hostname: string,
  token: string | undefined,
  tokenHint = "a token",
): void {
  const problem = tokenProblem(hostname, token);
  if (problem === undefined) return;
  if (problem === "no token is set") {
    throw new RangeError(
      `Binding ${hostname} exposes the server beyond this machine: set ${tokenHint} (or bind 127.0.0.1)`,
    );
  }
  throw new RangeError(
    isLoopbackHostname(hostname)
      ? `Cannot guard ${hostname} with this token: ${problem}; set a stronger one as ${tokenHint}`
      : `Binding ${hostname} exposes the server beyond this machine: ${problem}; set a stronger one as ${tokenHint}`,
  );
}

/**
 * Compares two strings in time that depends on neither their content nor where they differ
 * (both are hashed with SHA-256, then compared with `timingSafeEqual`).
 *
 * @param a One string.
 * @param b The other.
 * @returns `true` when equal.
 *
 * @example Usage
 * ```ts
 * import { constantTimeEqual } from "./http_guard.ts";
 * if (!constantTimeEqual("abc", "abc") || constantTimeEqual("abc", "abd")) throw new Error();
 * ```
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a, "utf8").digest();
  const hb = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(ha, hb);
}

/** A header value safe to quote in a one-line reason. */
function quote(value: string): string {
  // deno-lint-ignore no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, "");
  return JSON.stringify(clean.length > 100 ? `${clean.slice(0, 100)}…` : clean);
}

/** `name:port` with IPv6 in brackets, lowercase. */
function hostWithPort(name: string, port: number): string {
  const n = name.toLowerCase();
  return `${n.includes(":") && !n.startsWith("[") ? `[${n}]` : n}:${port}`;
}

/** Parses a Host value (`name`, `name:port`, `[v6]:port`); `undefined` when malformed. */
function parseHost(value: string): { name: string; port: string | undefined } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (m === null) return undefined;
  return { name: m[1].toLowerCase(), port: m[2] };
}

function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.origin === "null") return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Builds the guard of one listener (see the module doc for the policy).
 *
 * @param options Bound address and port, extra hosts and origins, token.
 * @returns The guard.
 * @throws {RangeError} When an `allowedHosts` or `allowedOrigins` entry is malformed.
 *
 * @example Usage
 * ```ts
 * import { createHttpGuard } from "./http_guard.ts";
 * const guard = createHttpGuard({ hostname: "127.0.0.1", port: 8931 });
 * const ok = new Request("http://127.0.0.1:8931/mcp", { headers: { host: "127.0.0.1:8931" } });
 * const evil = new Request("http://evil.example:8931/mcp", { headers: { host: "evil.example:8931" } });
 * if (guard.check(ok) !== undefined || guard.check(evil)?.status !== 403) throw new Error();
 * ```
 */
export function createHttpGuard(options: HttpGuardOptions): HttpGuard {
  const { hostname, port } = options;
  const exact = new Set<string>();
  if (isLoopbackHostname(hostname) || isWildcard(hostname)) {
    for (const name of LOOPBACK_NAMES) exact.add(hostWithPort(name, port));
  }
  if (!isWildcard(hostname)) exact.add(hostWithPort(hostname, port));
  const anyPort = new Set<string>();
  for (const entry of options.allowedHosts ?? []) {
    const parsed = parseHost(entry);
    if (parsed === undefined) {
      throw new RangeError(`Allowed host ${quote(entry)} is not "name" or "name:port"`);
    }
    if (parsed.port === undefined) anyPort.add(parsed.name);
    else exact.add(`${parsed.name}:${Number(parsed.port)}`);
  }
  const origins = new Set<string>();
  for (const h of exact) origins.add(`http://${h}`);
  for (const entry of options.allowedOrigins ?? []) {
    const origin = normalizeOrigin(entry);
    if (origin === undefined) {
      throw new RangeError(`Allowed origin ${quote(entry)} is not a URL origin (scheme://host)`);
    }
    origins.add(origin);
  }
  const hosts = [...exact];
  const anyPortHosts = [...anyPort].sort();
  const originList = [...origins];
  const expected = options.token === undefined || options.token === "" ? undefined : options.token;

  const hostAllowed = (value: string | null): boolean => {
    if (value === null) return false;
    const parsed = parseHost(value);
    if (parsed === undefined) return false;
    if (anyPort.has(parsed.name)) return true;
    return exact.has(`${parsed.name}:${Number(parsed.port ?? 80)}`);
  };

  return {
    hosts,
    anyPortHosts,
    origins: originList,
    check(request) {
      const host = request.headers.get("host");
      if (!hostAllowed(host)) {
        return {
          status: 403,
          check: "host",
          reason: host === null
            ? "Refused: the request has no Host header"
            : `Refused: Host ${quote(host)} is not this server (allowed: ${
              [...hosts, ...anyPortHosts].join(", ")
            })`,
        };
      }
      const origin = request.headers.get("origin");
      if (origin !== null) {
        const normalized = normalizeOrigin(origin);
        if (normalized === undefined || !origins.has(normalized)) {
          return {
            status: 403,
            check: "origin",
            reason: `Refused: Origin ${quote(origin)} is not allowed`,
          };
        }
      }
      if (expected !== undefined) {
        const header = request.headers.get("authorization") ?? "";
        const m = /^Bearer[ \t]+(.*)$/i.exec(header);
        if (m === null || !constantTimeEqual(m[1].trim(), expected)) {
          return {
            status: 401,
            check: "token",
            reason: header === ""
              ? "Refused: a bearer token is required (Authorization: Bearer TOKEN)"
              : "Refused: the bearer token is wrong",
          };
        }
      }
      return undefined;
    },
  };
}

/**
 * The HTTP response for a refusal: the status, the reason as a JSON-RPC error body (what MCP
 * clients expect, `{"jsonrpc":"2.0","error":{"code":-32000,"message":REASON},"id":null}`) or as
 * plain text, and `WWW-Authenticate: Bearer` on a 401.
 *
 * @param refusal From {@linkcode HttpGuard.check}.
 * @param format `json-rpc` (default) or `text`.
 * @returns The response.
 */
export function refusalResponse(
  refusal: Refusal,
  format: "json-rpc" | "text" = "json-rpc",
): Response {
  const headers: Record<string, string> = format === "text"
    ? { "content-type": "text/plain; charset=utf-8" }
    : { "content-type": "application/json" };
  if (refusal.status === 401) headers["www-authenticate"] = "Bearer";
  const body = format === "text" ? `${refusal.reason}\n` : JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32000, message: refusal.reason },
    id: null,
  });
  return new Response(body, { status: refusal.status, headers });
}

/** What {@linkcode localHostNames} found. */
export interface LocalHostNames {
  /** Host values to accept on any port: names, IPv4 addresses, IPv6 addresses in brackets. */
  readonly names: readonly string[];
  /** The address to print in a URL for other machines: the first non-loopback IPv4, if any. */
  readonly shareable: string | undefined;
}

function granted(kind: "hostname" | "networkInterfaces"): boolean {
  return Deno.permissions.querySync?.({ name: "sys", kind }).state === "granted";
}

/**
 * The machine's own names, for a wildcard bind (see the module doc).
 *
 * @returns Names sorted, loopback left out (the guard has those already), and one shareable
 *   address for the banner.
 */
export function localHostNames(): LocalHostNames {
  const names = new Set<string>();
  let shareable: string | undefined;
  if (granted("hostname")) {
    const name = Deno.hostname().toLowerCase();
    if (name !== "" && name !== "localhost") names.add(name);
  }
  if (granted("networkInterfaces")) {
    for (const nic of Deno.networkInterfaces()) {
      if (nic.family === "IPv4") {
        if (nic.address.startsWith("127.")) continue;
        names.add(nic.address);
        shareable ??= nic.address;
      } else if (nic.address !== "::1") {
        // A link-local address carries a zone (`fe80::1%eth0`) that no Host header holds.
        if (nic.address.includes("%")) continue;
        names.add(`[${nic.address.toLowerCase()}]`);
      }
    }
  }
  return { names: [...names].sort(), shareable };
}
