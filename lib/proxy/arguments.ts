/**
 * Argument checks of the proxy's tools against the `inputSchema`s it publishes
 * (`definitions.ts`), with ajv. Pure: no I/O, no clock. Apart from `responses.ts`, so that what
 * reads only the response texts does not load ajv.
 *
 * @module
 */
import { argumentChecker } from "../core/arguments.ts";
import { PROXY_TOOL_DEFINITIONS, type ProxyToolName } from "./definitions.ts";

/**
 * Checks a proxy tool's arguments against the `inputSchema` it publishes
 * (the same definitions file the proxy lists), with ajv.
 *
 * @param name Proxy tool name.
 * @param args The call's `arguments` (absent counts as `{}`).
 * @returns `undefined` when valid, else a one-line reason naming the tool and the failing path.
 *
 * @example Usage
 * ```ts
 * import { checkProxyArguments } from "./arguments.ts";
 * if (checkProxyArguments("retrieve_tools", { query: "x" }) !== undefined) throw new Error();
 * if (checkProxyArguments("retrieve_tools", { query: "x", limit: 0 }) === undefined) throw new Error();
 * ```
 */
export function checkProxyArguments(name: ProxyToolName, args: unknown): string | undefined {
  return checkProxy(name, args);
}

const checkProxy = argumentChecker(
  PROXY_TOOL_DEFINITIONS,
  (name) => `unknown proxy tool "${name}"`,
);
