/**
 * `toon_listing`: tool definitions in TOON (Token-Oriented Object Notation).
 *
 * @module
 */
import { armEntry } from "./_entry.ts";
import { decode, encode } from "@toon-format/toon";
import { compareUtf8, isArrayIndexKey, schemaText } from "../catalog/canonical.ts";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import {
  asObject,
  decodedIndexFields,
  guarded,
  listingOfParts,
  SkipCollector,
} from "./_private.ts";
import type { ArmEntry, EncodingArm, IndexFields, ToolPart } from "./types.ts";
import { toonText } from "./_toon_text.ts";

/**
 * The object TOON renders for a tool: `{name, description, inputSchema}`, with
 * `inputSchema` left out when absent. The schema is the canonical form (keys
 * sorted by UTF-8 bytes) parsed back, so key order never depends on the source;
 * except that integer-like keys (`"2"`, `"10"`) come first, in ascending numeric
 * order, the one order a JS object holds them in (TOON's encoder writes an
 * object's keys in its enumeration order), so `{"b", "10", "2"}` renders 2, 10, b.
 */
function toonValue(tool: Tool): JsonObject {
  const schema = schemaText(tool);
  return schema === undefined
    ? { name: tool.name, description: tool.description }
    : { name: tool.name, description: tool.description, inputSchema: JSON.parse(schema) };
}

/**
 * The keys of a schema object in the order `JSON.parse` of its canonical text enumerates them:
 * array-index keys first, ascending (as `Object.keys` of any object gives them), then the others
 * sorted by UTF-8 bytes (the canonical text's order).
 */
function canonicalKeys(obj: JsonObject): readonly string[] {
  const keys = Object.keys(obj);
  let start = 0;
  while (start < keys.length && isArrayIndexKey(keys[start])) start++;
  let sorted = true;
  for (let i = start + 1; i < keys.length; i++) {
    if (compareUtf8(keys[i - 1], keys[i]) > 0) {
      sorted = false;
      break;
    }
  }
  if (sorted) return keys;
  const rest = keys.slice(start).sort(compareUtf8);
  return start === 0 ? rest : keys.slice(0, start).concat(rest);
}

const WITH_SCHEMA: readonly string[] = ["name", "description", "inputSchema"];

/**
 * A tool's TOON text: `encode(toonValue(tool))`, written by `toonText` from `tool.inputSchema`
 * in canonical key order (so without parsing the canonical text again; the two hold the same
 * value, as the `Tool` contract says) where it covers the value, else by the library. The
 * canonical text is still asked for first, so a schema JSON cannot hold fails as it did.
 */
function toolText(tool: Tool): string {
  const schema = schemaText(tool);
  if (schema === undefined) {
    const root = { name: tool.name, description: tool.description };
    const text = toonText(root);
    if (text !== undefined) return text;
  } else if (tool.inputSchema !== undefined) {
    const root = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
    const text = toonText(root, (obj) => obj === root ? WITH_SCHEMA : canonicalKeys(obj));
    if (text !== undefined) return text;
  }
  return encode(toonValue(tool));
}

/** A JSON primitive, as TOON's encoder tells one (`isJsonPrimitive`). */
function isPrimitive(value: JsonValue): boolean {
  return value === null || typeof value === "string" || typeof value === "number" ||
    typeof value === "boolean";
}

/** A non-empty object (not an array), as TOON's `isJsonObject && !isEmptyObject`. */
function isNonEmptyObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    Object.keys(value).length > 0;
}

/**
 * Whether `row` fits the table whose first row is `first`: the same keys and no other, and
 * under each key a primitive where `first` has one, or a non-empty object that fits the
 * nested table of `first`'s object.
 */
function sameShape(first: JsonObject, row: JsonObject): boolean {
  const keys = Object.keys(first);
  if (keys.length === 0 || Object.keys(row).length !== keys.length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(row, key)) return false;
    const a = first[key];
    const b = row[key];
    if (isPrimitive(a)) {
      if (!isPrimitive(b)) return false;
    } else if (!isNonEmptyObject(a) || !isNonEmptyObject(b) || !sameShape(a, b)) {
      return false;
    }
  }
  return true;
}

/** What precedes a tool's own text as an item of the listing's root list. */
const ITEM_PREFIX = "\n  - ";
/** What follows each line break of a tool's own text as an item (depth 2). */
const ITEM_INDENT = "    ";

/**
 * The `toon_listing` arm: the text `npm:@toon-format/toon` (4.4.0) renders with default
 * options (2-space indent, comma delimiter).
 *
 * Fidelity to the library is the contract, speed the reason for a writer of our own: a tool's
 * text is written by `_toon_text.ts` (3.5 times as fast as the library's `encode` on the
 * reference corpus and 5.8 times on a 10,000-tool synthetic catalog, `toon_listing_bench.ts`,
 * without parsing the canonical schema text again), which the tests check byte for byte
 * against the library's `encode` on every tool of the reference corpus, LiveMCPBench, the hard
 * cases, a 10,000-tool synthetic catalog and arbitrary JSON values; the library stays the
 * reference there and the fallback here, for any value the writer does not cover (a lone
 * surrogate, which the library rejects with its own message, or a value that is not plain
 * JSON) and for decoding.
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
    return guarded("TOON encode", () => toolText(tool));
  },
  encodeListing(tools: readonly Tool[]) {
    return listingOfParts(this.listingParts!(tools));
  },
  /**
   * The listing in parts: one part when TOON renders the tools as one table, else each tool as
   * a list item built from its own TOON text (its first line after `\n  - `, the others
   * indented by 4 more spaces: TOON's `encodeObjectAsListItemLines`, the first field on the
   * hyphen line and the rest at depth 2), after the header `[N]:`, returned at the end. Exact
   * because a TOON line never holds a raw line break (strings that need one are quoted and
   * escaped); `toon_listing_test.ts` checks it against the library's own `encode` of the array.
   *
   * TOON's table rule (`extractTabularFields`, v4.4): every row has the first row's keys and no
   * other, and each column holds only primitives, or only non-empty objects that are themselves
   * tabular; that is, every row has the first row's shape. Tools are held only while every one
   * so far has the first one's shape (the usual catalog differs at its second tool); from the
   * first that does not, each is given as soon as it is rendered.
   */
  *listingParts(tools: readonly Tool[]) {
    const skips = new SkipCollector();
    const ids: string[] = [];
    let first: JsonObject | undefined; // the first tool's value, while a table is possible
    let table = true;
    let held: { tool: Tool; text: string }[] = [];
    const item = (tool: Tool, text: string): ToolPart => ({
      text: ITEM_PREFIX + text.replaceAll("\n", "\n" + ITEM_INDENT),
      tool,
      reindented: { own: text, prefix: ITEM_PREFIX, indent: ITEM_INDENT },
    });
    for (const tool of tools) {
      // The tool's own rendering decides the skip (the arm runner reuses it per tool).
      const own = this.encodeTool(tool);
      if (!own.ok) {
        skips.add(tool.id, own.reason);
        continue;
      }
      ids.push(tool.id);
      if (table) {
        const value = toonValue(tool);
        first ??= value;
        table = sameShape(first, value);
        if (table) {
          held.push({ tool, text: own.text });
          continue;
        }
        for (const h of held) yield item(h.tool, h.text);
        held = [];
      }
      yield item(tool, own.text);
    }
    if (table && held.length > 0) {
      const values = held.map((h) => toonValue(h.tool));
      yield toonText(values) ?? encode(values);
      return { encodedIds: ids, skipped: skips.summary() };
    }
    const header = ids.length > 0 ? { header: `[${ids.length}]:` } : {};
    return { encodedIds: ids, skipped: skips.summary(), ...header };
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
export const toonListingEntry: ArmEntry = armEntry(
  toonListing,
  "tool definitions in TOON (Token-Oriented Object Notation)",
);
