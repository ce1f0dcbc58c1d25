/**
 * `minified_json`: each tool as a compact `tools/list` entry.
 *
 * @module
 */
import { armEntry } from "./_entry.ts";
import { canonicalJson, schemaText } from "../catalog/canonical.ts";
import type { JsonValue, Tool } from "../catalog/types.ts";
import { asObject, decodedIndexFields, guarded, joinedListing } from "./_private.ts";
import type { ArmEntry, EncodingArm, IndexFields, JoinedListing } from "./types.ts";

function entry(tool: Tool): string {
  const parts = [`"name":${JSON.stringify(tool.name)}`];
  if (tool.title !== undefined) parts.push(`"title":${JSON.stringify(tool.title)}`);
  if (tool.description !== "") parts.push(`"description":${JSON.stringify(tool.description)}`);
  const schema = schemaText(tool);
  if (schema !== undefined) parts.push(`"inputSchema":${schema}`);
  if (tool.outputSchema !== undefined) {
    parts.push(`"outputSchema":${canonicalJson(tool.outputSchema)}`);
  }
  if (tool.annotations !== undefined) {
    parts.push(`"annotations":${canonicalJson(tool.annotations)}`);
  }
  return `{${parts.join(",")}}`;
}

/** How the listing joins the tools' texts. */
const JOIN: JoinedListing = { header: "[", separator: ",", footer: "]", empty: "[]" };

/**
 * The `minified_json` arm: each tool exactly as a `tools/list` entry, compact
 * JSON, which is what many clients send to the model.
 *
 * - `encodeTool`: `{"name","title"?,"description"?,"inputSchema"?,"outputSchema"?,"annotations"?}`
 *   in that (MCP `Tool`) field order; schemas and annotations in canonical
 *   JSON. `description` is left out when empty (the server sent none) and
 *   `inputSchema` when the corpus has none.
 * - `encodeListing`: a JSON array of the entries, `[e1,e2,...]`.
 * - `indexFields`: recovered by parsing the arm's own output.
 *
 * @example Usage
 * ```ts
 * import { minifiedJson } from "./minified_json.ts";
 * const out = minifiedJson.encodeTool({ id: "s:t", server: "s", name: "t", description: "Hi",
 *   inputSchema: { type: "object" } });
 * if (!out.ok || out.text !== '{"name":"t","description":"Hi","inputSchema":{"type":"object"}}') {
 *   throw new Error();
 * }
 * ```
 */
export const minifiedJson: EncodingArm = {
  name: "minified_json",
  altersIndex: false,
  lowerBound: false,
  encodeTool(tool: Tool) {
    return guarded("canonical JSON", () => entry(tool));
  },
  encodeListing(tools: readonly Tool[]) {
    return joinedListing(tools, (t) => this.encodeTool(t), JOIN);
  },
  joined: JOIN,
  indexFields(tool: Tool): IndexFields {
    const encoded = this.encodeTool(tool);
    return decodedIndexFields(
      tool,
      encoded.ok ? asObject(JSON.parse(encoded.text) as JsonValue) : undefined,
    );
  },
};

/** Registry entry of `minified_json`. */
export const minifiedJsonEntry: ArmEntry = armEntry(
  minifiedJson,
  "each tool as a compact `tools/list` entry",
);
