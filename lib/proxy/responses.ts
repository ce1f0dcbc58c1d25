/**
 * The text of the proxy's discovery responses. Pure: no I/O, no clock. The argument checks
 * against the proxy's published `inputSchema`s are in `arguments.ts`, apart, so that what reads
 * only the responses (the bench's cost-quality frontier, the code tools) does not load ajv.
 *
 * `retrieve_tools` answers one JSON object, written without whitespace, keys
 * in a fixed order:
 * - `detail: "full"`: `{"tools":[{"name":"server:tool","server":…,"description":…,"inputSchema":…,"score":…}],"usage":…}`;
 *   `inputSchema` is left out for a tool that has none;
 * - `detail: "compact"`: `{"tools":[{"name":"server:tool","signature":"tool(p:type, q?:type)","description":…,"score":…}],"usage":…}`,
 *   the signature following the `compact_sig` encoding arm's rules
 *   (`signatureParams` in lib/encodings).
 *
 * @module
 */
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { signatureParams } from "../encodings/compact_sig.ts";
import type { Hit } from "../retrieval/types.ts";

/** Response detail of `retrieve_tools`. */
export type RetrieveDetail = "full" | "compact";

/** The usage line of a `retrieve_tools` response, per detail. */
export const RETRIEVE_USAGE: Readonly<Record<RetrieveDetail, string>> = {
  full: "Call call_tool with name set to a tool's name and arguments matching its inputSchema.",
  compact:
    "Call call_tool with name set to a tool's name and arguments matching its signature (p?: optional); describe_tool gives the full schema.",
};

/**
 * The `retrieve_tools` response text for ranked hits.
 *
 * @param hits Ranked hits (ids must be tools of `lookup`).
 * @param lookup Finds a tool by id.
 * @param detail `full` or `compact`.
 * @returns One JSON text (see the module doc).
 * @throws {RangeError} When a hit id is not a known tool.
 *
 * @example Usage
 * ```ts
 * import { retrieveResponseText } from "./responses.ts";
 * const tool = { id: "fs:read", server: "fs", name: "read", description: "Read a file",
 *   inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } };
 * const text = retrieveResponseText([{ id: "fs:read", score: 1.5 }], () => tool, "compact");
 * if (JSON.parse(text).tools[0].signature !== "read(path:string)") throw new Error(text);
 * ```
 */
export function retrieveResponseText(
  hits: readonly Hit[],
  lookup: (id: string) => Tool | undefined,
  detail: RetrieveDetail,
): string {
  const tools = hits.map((hit) => {
    const tool = lookup(hit.id);
    if (tool === undefined) throw new RangeError(`Cannot render hit "${hit.id}": no such tool`);
    if (detail === "compact") {
      return {
        name: tool.id,
        signature: `${tool.name}(${signatureParams(tool)})`,
        description: tool.description,
        score: hit.score,
      };
    }
    return {
      name: tool.id,
      server: tool.server,
      description: tool.description,
      ...(tool.inputSchema === undefined ? {} : { inputSchema: tool.inputSchema }),
      score: hit.score,
    };
  });
  return JSON.stringify({ tools, usage: RETRIEVE_USAGE[detail] });
}

/**
 * The `describe_tool` response text: the full definitions of the known ids, in
 * request order (duplicates once), plus `unknown` ids when some were not found.
 *
 * Each definition: `name` (`server:tool`), `server`, `title` (when set),
 * `description`, `inputSchema`, `outputSchema`, `annotations` (each when set).
 *
 * @param ids Requested ids.
 * @param lookup Finds a tool by id.
 * @returns `{text, unknown}`: the JSON text and the ids that were not found.
 */
export function describeResponseText(
  ids: readonly string[],
  lookup: (id: string) => Tool | undefined,
): { readonly text: string; readonly unknown: readonly string[] } {
  const unknown: string[] = [];
  const tools: JsonObject[] = [];
  for (const id of new Set(ids)) {
    const tool = lookup(id);
    if (tool === undefined) {
      unknown.push(id);
      continue;
    }
    const def: Record<string, JsonValue> = { name: tool.id, server: tool.server };
    if (tool.title !== undefined) def.title = tool.title;
    def.description = tool.description;
    if (tool.inputSchema !== undefined) def.inputSchema = tool.inputSchema;
    if (tool.outputSchema !== undefined) def.outputSchema = tool.outputSchema;
    if (tool.annotations !== undefined) def.annotations = tool.annotations;
    tools.push(def);
  }
  const body: JsonObject = unknown.length === 0 ? { tools } : { tools, unknown };
  return { text: JSON.stringify(body), unknown };
}
