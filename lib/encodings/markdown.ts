/**
 * `markdown`: a human-readable listing, one heading per tool and a parameter table.
 *
 * @module
 */
import { armEntry } from "./_entry.ts";
import { canonicalJson } from "../catalog/canonical.ts";
import type { JsonValue, Tool } from "../catalog/types.ts";
import {
  joinedBy,
  joinedListing,
  memberTypes,
  orderedParams,
  plainIndexFields,
} from "./_private.ts";
import type { ArmEntry, EncodingArm, JoinedListing } from "./types.ts";

/** Escapes a table cell: `|` becomes `\|`, line breaks become one space. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*[\r\n]+\s*/g, " ");
}

function typeText(types: JsonValue[]): string {
  const names: string[] = [];
  for (const t of types) {
    const name = typeof t === "string" ? t : canonicalJson(t);
    if (!names.includes(name)) names.push(name);
  }
  return names.length === 0 ? "any" : names.join(" or ");
}

/** Table rows of a tool's top-level parameters (header included), or `""`. */
function parameterTable(tool: Tool): string {
  const params = orderedParams(tool.inputSchema);
  if (params.length === 0) return "";
  const rows = params.map((p) => {
    let type = typeText(memberTypes(p.schema));
    const values = p.schema?.enum;
    if (Array.isArray(values)) {
      type += ` (one of: ${values.map((v) => canonicalJson(v)).join(", ")})`;
    }
    const description = typeof p.schema?.description === "string" ? p.schema.description : "";
    return `| ${cell(p.name)} | ${cell(type)} | ${p.required ? "yes" : "no"} | ${
      cell(description)
    } |`;
  });
  return ["| Parameter | Type | Required | Description |", "| --- | --- | --- | --- |", ...rows]
    .join("\n");
}

/** How the listing joins the tools' texts. */
// Not memoized per tool (compact_sig's signature is): a table is most of a tool's markdown, so a
// memo costs peak memory for no measurable time (docs/performance.md).
const JOIN: JoinedListing = joinedBy("\n\n", "# Tools\n\n");

/**
 * The `markdown` arm.
 *
 * - `encodeTool`: `## name`, a blank line, the description verbatim (when not
 *   empty), then either a parameter table (`| Parameter | Type | Required |
 *   Description |`, rows in signature order: required first in `required`
 *   order, then optional by UTF-8 byte order) or `No parameters.` when the
 *   schema has no properties. Nothing follows the description when the tool
 *   has no schema. Type cells give the JSON type names joined by ` or `
 *   (from `type`, else `anyOf`/`oneOf` members; `any` if none) and any
 *   `enum` values (canonical JSON). Cells escape `|` and fold line breaks into spaces.
 * - `encodeListing`: `# Tools`, a blank line, then the tools joined by `"\n\n"`.
 *
 * Nested schemas, defaults and constraints are dropped, so it alters the
 * index; tool descriptions are kept verbatim.
 *
 * @example Usage
 * ```ts
 * import { markdown } from "./markdown.ts";
 * const out = markdown.encodeTool({ id: "s:t", server: "s", name: "t", description: "Hi",
 *   inputSchema: { properties: { q: { type: "string", description: "Query" } }, required: ["q"] } });
 * const expected = "## t\n\nHi\n\n| Parameter | Type | Required | Description |\n" +
 *   "| --- | --- | --- | --- |\n| q | string | yes | Query |";
 * if (!out.ok || out.text !== expected) throw new Error();
 * ```
 */
export const markdown: EncodingArm = {
  name: "markdown",
  altersIndex: true,
  lowerBound: false,
  encodeTool(tool: Tool) {
    const blocks = [`## ${tool.name}`];
    if (tool.description !== "") blocks.push(tool.description);
    if (tool.inputSchema !== undefined) blocks.push(parameterTable(tool) || "No parameters.");
    return { ok: true, text: blocks.join("\n\n") };
  },
  encodeListing(tools: readonly Tool[]) {
    return joinedListing(tools, (t) => this.encodeTool(t), JOIN);
  },
  joined: JOIN,
  indexFields(tool: Tool) {
    return plainIndexFields(tool, (t) => parameterTable(t) || "No parameters.");
  },
};

/** Registry entry of `markdown`. */
export const markdownEntry: ArmEntry = armEntry(
  markdown,
  "a heading per tool and a parameter table",
);
