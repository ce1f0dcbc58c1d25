/**
 * The reference discovery proxy's own tool catalog: the `retrieve_tools`,
 * `describe_tool` and `call_tool` definitions, the `tools` of the data file
 * `fixtures/proxies/reference_proxy.tools.json` (a raw `tools/list` result), embedded here.
 *
 * There is one definition: the proxy serves exactly these objects in its
 * `tools/list`, validates call arguments against their `inputSchema`, and
 * `deno task bench` counts the same file as the `proxy` exposure mode.
 *
 * @module
 */
import type { JsonObject } from "../catalog/types.ts";
import referenceProxy from "./reference_proxy.tools.json" with { type: "json" };

/** Names of the proxy's tools, in `tools/list` order. */
export type ProxyToolName = "retrieve_tools" | "describe_tool" | "call_tool";

/** Repository-relative path of the definitions file. */
export const PROXY_DEFINITIONS_PATH = "fixtures/proxies/reference_proxy.tools.json";

/**
 * The reference proxy's tool definitions, a JSON module beside this file, so lib/ reads no
 * fixture at run time. A test checks it equals `fixtures/proxies/reference_proxy.tools.json`,
 * the frozen input the bench prices (its sha256 is in `fixtures/manifest.json`); edit both
 * together.
 */
const REFERENCE_PROXY_TOOLS: readonly JsonObject[] = referenceProxy
  .tools as unknown as readonly JsonObject[];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The proxy's tool definitions exactly as in the data file (frozen), in file order.
 *
 * @example Usage
 * ```ts
 * import { PROXY_TOOL_DEFINITIONS } from "./definitions.ts";
 * const names = PROXY_TOOL_DEFINITIONS.map((t) => t.name).join(",");
 * if (names !== "retrieve_tools,describe_tool,call_tool") throw new Error(names);
 * ```
 */
export const PROXY_TOOL_DEFINITIONS: readonly JsonObject[] = deepFreeze(
  REFERENCE_PROXY_TOOLS,
);
