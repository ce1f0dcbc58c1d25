/**
 * The `code` exposure's own catalog and its pure parts: the `retrieve_tools` and `run_code`
 * definitions (embedded; the source of truth is `fixtures/proxies/reference_code.tools.json`, the
 * file `deno task bench` counts as the `code` exposure mode), argument checks against their `inputSchema`s, the
 * `retrieve_tools` answer, and how a program's tool name is resolved.
 *
 * @module
 */

import { argumentChecker } from "../_arguments.ts";
import type { JsonObject, Tool } from "../catalog/types.ts";
import type { Hit } from "../retrieval/types.ts";
import { retrieveResponseText } from "../proxy/responses.ts";

/** Repository-relative path of the definitions file. */
export const CODE_DEFINITIONS_PATH = "fixtures/proxies/reference_code.tools.json";

/**
 * The `code` exposure's tool definitions, embedded so lib/ reads no fixture at import time.
 * A test checks it equals the `tools` of `fixtures/proxies/reference_code.tools.json`, the
 * source of truth (its sha256 is in `fixtures/manifest.json`); edit both together.
 */
const REFERENCE_CODE_TOOLS: readonly JsonObject[] = [
  {
    "name": "retrieve_tools",
    "description":
      "Search the tools of every connected MCP server and return the best matches for a task, each as a TypeScript function signature you can call from run_code. Describe the task in plain words.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "query": {
          "type": "string",
          "description": "What you want to do, in natural language.",
        },
        "limit": {
          "type": "integer",
          "minimum": 1,
          "maximum": 50,
          "default": 10,
          "description": "Maximum number of tools to return.",
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
    "name": "run_code",
    "description":
      'Run a TypeScript program in a sandbox and return what it prints. Inside the program, `await tools.call("server:tool", args)` calls any tool found with retrieve_tools and returns its result, so several calls, loops and filtering can happen in one step without passing intermediate results through the conversation.',
    "inputSchema": {
      "type": "object",
      "properties": {
        "code": {
          "type": "string",
          "description": "TypeScript source; use console.log for output.",
        },
        "timeout_ms": {
          "type": "integer",
          "minimum": 100,
          "maximum": 120000,
          "default": 30000,
          "description": "Wall-clock limit for the program, in milliseconds.",
        },
      },
      "required": [
        "code",
      ],
      "additionalProperties": false,
    },
    "annotations": {
      "openWorldHint": true,
    },
  },
];

/** The `code` exposure's tool definitions exactly as in the data file, in file order. */
export const CODE_TOOL_DEFINITIONS: readonly JsonObject[] = REFERENCE_CODE_TOOLS;

/** Usage line of the code exposure's `retrieve_tools` answer. */
export const CODE_RETRIEVE_USAGE =
  'In run_code, call a tool with `await tools.call("<name>", { ...arguments })`; it resolves to the result text and throws when the tool reports an error. Arguments follow the signature (p?: optional).';

/**
 * Checks the arguments of a `code` exposure tool against its published `inputSchema` (ajv).
 *
 * @param name `retrieve_tools` or `run_code`.
 * @param args Arguments from the model.
 * @returns `undefined` when valid, else a one-line reason naming the tool and the failing path.
 *
 * @example Usage
 * ```ts
 * import { checkCodeArguments } from "./code_tools.ts";
 * if (checkCodeArguments("run_code", { code: "1" }) !== undefined) throw new Error();
 * if (checkCodeArguments("run_code", { code: "1", timeout_ms: 5 }) === undefined) throw new Error();
 * ```
 */
export function checkCodeArguments(name: string, args: unknown): string | undefined {
  return checkCode(name, args);
}

const checkCode = argumentChecker(
  CODE_TOOL_DEFINITIONS,
  (name) => `Unknown tool "${name}": the code exposure offers retrieve_tools and run_code`,
);

/**
 * The `retrieve_tools` answer of the code exposure: the proxy's `compact` answer (name
 * `server:tool`, signature, description, score), with the usage line telling how to call the
 * tools from `run_code`.
 *
 * @param hits Ranked hits.
 * @param lookup Finds a tool by id.
 * @returns One JSON text.
 * @throws {RangeError} When a hit id is not a known tool.
 *
 * @example Usage
 * ```ts
 * import { codeRetrieveText } from "./code_tools.ts";
 * const tool = { id: "m:add", server: "m", name: "add", description: "Adds",
 *   inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } };
 * const body = JSON.parse(codeRetrieveText([{ id: "m:add", score: 2 }], () => tool));
 * if (body.tools[0].signature !== "add(a:number)" || !/tools\.call/.test(body.usage)) throw new Error();
 * ```
 */
export function codeRetrieveText(
  hits: readonly Hit[],
  lookup: (id: string) => Tool | undefined,
): string {
  const body = JSON.parse(retrieveResponseText(hits, lookup, "compact"));
  return JSON.stringify({ tools: body.tools, usage: CODE_RETRIEVE_USAGE });
}

/**
 * Finds the tool a program or a `call_tool` means: the exact id `server:tool`, else a bare tool
 * name that exactly one server has (the proxy's rule).
 *
 * @param tools Tools of the agent's servers.
 * @param name Name as written.
 * @returns The tool, or `undefined` (unknown or ambiguous).
 *
 * @example Usage
 * ```ts
 * import { resolveToolName } from "./code_tools.ts";
 * const tools = [
 *   { id: "a:x", server: "a", name: "x", description: "" },
 *   { id: "b:x", server: "b", name: "x", description: "" },
 *   { id: "b:y", server: "b", name: "y", description: "" },
 * ];
 * if (resolveToolName(tools, "y")?.id !== "b:y" || resolveToolName(tools, "x") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function resolveToolName(tools: readonly Tool[], name: string): Tool | undefined {
  const exact = tools.find((t) => t.id === name);
  if (exact !== undefined) return exact;
  const bare = tools.filter((t) => t.name === name);
  return bare.length === 1 ? bare[0] : undefined;
}
