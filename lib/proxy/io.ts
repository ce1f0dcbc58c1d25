/**
 * The I/O edge of lib/proxy: connecting to upstream servers and serving the proxy over streamable HTTP or stdio.
 *
 * @module
 */
export { type ConnectOptions, connectUpstreams } from "./connect.ts";
export { type HttpProxy, type ServeHttpOptions, serveProxyHttp } from "./http.ts";
export { serveProxyStdio } from "./http.ts";
export {
  checkBindAddress,
  createHttpGuard,
  type HttpGuard,
  type HttpGuardOptions,
  type Refusal,
} from "../core/http_guard.ts";
