/**
 * `baseline_json`: name, description and canonical input schema, the
 * reference every other arm's savings are measured against.
 *
 * @module
 */
import { armEntry } from "./_entry.ts";
import { canonicalJson, schemaText } from "../catalog/canonical.ts";
import type { Tool } from "../catalog/types.ts";
import { guarded, joinedBy, joinedListing, plainIndexFields } from "./_private.ts";
import type { ArmEntry, EncodingArm, JoinedListing } from "./types.ts";

/** How the listing joins the tools' texts. */
const JOIN: JoinedListing = joinedBy("\n\n");

/**
 * The `baseline_json` arm.
 *
 * - `encodeTool`: `name + "\n" + description`, then `"\n" + canonical schema`
 *   when the tool has an `inputSchema` (canonical JSON: keys sorted by UTF-8
 *   bytes, no whitespace, number literals as written; see `schemaText`).
 * - `encodeListing`: the per-tool texts joined by `"\n\n"`, no header.
 * - `indexFields.params`: canonical JSON of the parsed `inputSchema`.
 *
 * This is the cost definition of issue 2's "with schemas" metric.
 *
 * @example Usage
 * ```ts
 * import { baselineJson } from "./baseline_json.ts";
 * const tool = { id: "s:t", server: "s", name: "t", description: "Do it",
 *   inputSchema: { type: "object", properties: {} } };
 * const out = baselineJson.encodeTool(tool);
 * if (!out.ok || out.text !== 't\nDo it\n{"properties":{},"type":"object"}') throw new Error();
 * ```
 */
export const baselineJson: EncodingArm = {
  name: "baseline_json",
  altersIndex: false,
  lowerBound: false,
  encodeTool(tool: Tool) {
    return guarded("canonical JSON", () => {
      const schema = schemaText(tool);
      return `${tool.name}\n${tool.description}` + (schema === undefined ? "" : `\n${schema}`);
    });
  },
  encodeListing(tools: readonly Tool[]) {
    return joinedListing(tools, (t) => this.encodeTool(t), JOIN);
  },
  joined: JOIN,
  indexFields(tool: Tool) {
    return plainIndexFields(tool, (t) => canonicalJson(t.inputSchema!));
  },
};

/** Registry entry of `baseline_json`. */
export const baselineJsonEntry: ArmEntry = armEntry(
  baselineJson,
  "name, description and canonical inputSchema as JSON: the reference of every saving",
);
