/**
 * `toon_listing`: tool definitions in TOON (Token-Oriented Object Notation).
 *
 * @module
 */
import { builtInArmEntry } from "./_entry.ts";
import { decode, encode } from "@toon-format/toon";
import { schemaText } from "../catalog/canonical.ts";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { asObject, decodedIndexFields, guarded, SkipCollector } from "./_private.ts";
import type { ArmEntry, EncodingArm, IndexFields } from "./types.ts";

/**
 * The object TOON renders for a tool: `{name, description, inputSchema}`, with
 * `inputSchema` left out when absent. The schema is the canonical form (keys
 * sorted by UTF-8 bytes) parsed back, so key order never depends on the source.
 */
function toonValue(tool: Tool): JsonObject {
  const schema = schemaText(tool);
  return schema === undefined
    ? { name: tool.name, description: tool.description }
    : { name: tool.name, description: tool.description, inputSchema: JSON.parse(schema) };
}

/**
 * The `toon_listing` arm, rendered by `npm:@toon-format/toon` with default
 * options (2-space indent, comma delimiter).
 *
 * - `encodeTool`: TOON of `{name, description, inputSchema}` for one tool.
 * - `encodeListing`: TOON of one root array of those objects, so the array
 *   header is paid once.
 * - `indexFields`: recovered by decoding the arm's own output, so a loss in
 *   the TOON round trip shows up as an index change.
 *
 * A tool whose value TOON cannot encode is a counted skip.
 *
 * @example Usage
 * ```ts
 * import { toonListing } from "./toon_listing.ts";
 * const out = toonListing.encodeTool({ id: "s:t", server: "s", name: "t", description: "Hi" });
 * if (!out.ok || out.text !== "name: t\ndescription: Hi") throw new Error(out.ok ? out.text : "");
 * ```
 */
export const toonListing: EncodingArm = {
  name: "toon_listing",
  altersIndex: false,
  lowerBound: false,
  encodeTool(tool: Tool) {
    return guarded("TOON encode", () => encode(toonValue(tool)));
  },
  encodeListing(tools: readonly Tool[]) {
    const skips = new SkipCollector();
    const values: JsonObject[] = [];
    const ids: string[] = [];
    for (const tool of tools) {
      // The tool's own rendering decides the skip (the arm runner reuses it per tool).
      const own = this.encodeTool(tool);
      if (own.ok) {
        values.push(toonValue(tool));
        ids.push(tool.id);
      } else {
        skips.add(tool.id, own.reason);
      }
    }
    return {
      text: values.length === 0 ? "" : encode(values),
      encodedIds: ids,
      skipped: skips.summary(),
    };
  },
  indexFields(tool: Tool): IndexFields {
    const encoded = this.encodeTool(tool);
    let decoded: JsonObject | undefined;
    try {
      decoded = encoded.ok ? asObject(decode(encoded.text) as JsonValue) : undefined;
    } catch {
      decoded = undefined;
    }
    return decodedIndexFields(tool, decoded);
  },
};

/** Registry entry of `toon_listing`. */
export const toonListingEntry: ArmEntry = builtInArmEntry(
  toonListing,
  "tool definitions in TOON (Token-Oriented Object Notation)",
);
