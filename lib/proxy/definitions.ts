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

/** Names of the proxy's tools, in `tools/list` order. */
export type ProxyToolName = "retrieve_tools" | "describe_tool" | "call_tool";

/** Repository-relative path of the definitions file. */
export const PROXY_DEFINITIONS_PATH = "fixtures/proxies/reference_proxy.tools.json";

/**
 * The reference proxy's tool definitions, embedded so lib/ reads no fixture at import time.
 * A test checks it equals the `tools` of `fixtures/proxies/reference_proxy.tools.json`, the
 * source of truth (its sha256 is in `fixtures/manifest.json`); edit both together.
 */
const REFERENCE_PROXY_TOOLS: readonly JsonObject[] = [
  {
    "name": "retrieve_tools",
    "description":
      "Search the tools of every connected MCP server and return the best matches for a task. Call this first whenever you need a capability you do not see among your tools. Describe the task in plain words; results are ranked by relevance and give each tool's id (server:tool), description and input schema, which you then pass to call_tool.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "query": {
          "type": "string",
          "description": 'What you want to do, in natural language, e.g. "open a pull request".',
        },
        "limit": {
          "type": "integer",
          "minimum": 1,
          "maximum": 50,
          "default": 10,
          "description": "Maximum number of tools to return.",
        },
        "detail": {
          "type": "string",
          "enum": [
            "full",
            "compact",
          ],
          "default": "full",
          "description":
            "full: description and input schema per tool; compact: one signature line per tool.",
        },
      },
      "required": [
        "query",
      ],
      "additionalProperties": false,
    },
    "annotations": {
      "readOnlyHint": true,
      "openWorldHint": false,
    },
  },
  {
    "name": "describe_tool",
    "description":
      "Return the complete definitions (description, input schema, output schema, annotations) of one or more tools found with retrieve_tools.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "tool_ids": {
          "type": "array",
          "items": {
            "type": "string",
          },
          "minItems": 1,
          "description": "Tool ids as server:tool.",
        },
      },
      "required": [
        "tool_ids",
      ],
      "additionalProperties": false,
    },
    "annotations": {
      "readOnlyHint": true,
      "openWorldHint": false,
    },
  },
  {
    "name": "call_tool",
    "description":
      "Call a tool on its upstream MCP server and return its result unchanged. Find the tool and its arguments with retrieve_tools first.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "name": {
          "type": "string",
          "description": "Tool id as server:tool.",
        },
        "arguments": {
          "type": "object",
          "description": "Arguments matching the tool's input schema.",
        },
      },
      "required": [
        "name",
      ],
      "additionalProperties": false,
    },
    "annotations": {
      "openWorldHint": true,
    },
  },
];

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

/**
 * The definition of one proxy tool.
 *
 * @param name Tool name.
 * @returns The frozen definition object.
 * @throws {RangeError} When the definitions file has no tool of that name.
 */
export function proxyToolDefinition(name: ProxyToolName): JsonObject {
  const found = PROXY_TOOL_DEFINITIONS.find((t) => t.name === name);
  if (found === undefined) {
    throw new RangeError(`The proxy definitions in ${PROXY_DEFINITIONS_PATH} lack tool "${name}"`);
  }
  return found;
}
