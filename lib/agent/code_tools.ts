/**
 * The `code` exposure's own catalog and its pure parts: the `retrieve_tools` and `run_code`
 * definitions (embedded; the source of truth is `fixtures/proxies/reference_code.tools.json`, the
 * file `deno task bench` counts as the `code` exposure mode), argument checks against their `inputSchema`s, the
 * `retrieve_tools` answer, and how a program's tool name is resolved.
 *
 * @module
 */

import { argumentChecker } from "../core/arguments.ts";
import type { JsonObject, Tool } from "../catalog/types.ts";
import referenceCode from "./reference_code.tools.json" with { type: "json" };
import type { Hit } from "../retrieval/types.ts";
import { retrieveResponseText } from "../proxy/responses.ts";

/**
 * The `code` exposure's tool definitions, a JSON module beside this file, so lib/ reads no
 * fixture at run time. A test checks it equals `fixtures/proxies/reference_code.tools.json`, the
 * frozen input the bench prices (its sha256 is in `fixtures/manifest.json`); edit both together.
 */
const REFERENCE_CODE_TOOLS: readonly JsonObject[] = referenceCode
  .tools as unknown as readonly JsonObject[];

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
