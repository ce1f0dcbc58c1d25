/**
 * `compact_sig`: one line per tool, `name(params)|description`.
 *
 * @module
 */
import { armEntry } from "./_entry.ts";
import type { JsonValue, Tool } from "../catalog/types.ts";
import {
  joinedBy,
  joinedListing,
  memberTypes,
  orderedParams,
  perTool,
  plainIndexFields,
} from "./_private.ts";
import type { ArmEntry, EncodingArm, JoinedListing } from "./types.ts";

const TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ["string", "string"],
  ["integer", "int"],
  ["number", "number"],
  ["boolean", "bool"],
  ["object", "obj"],
  ["array", "arr"],
]);

function shortType(type: JsonValue): string {
  return typeof type === "string" ? TYPE_NAMES.get(type) ?? "any" : "any";
}

/**
 * The parameter list of a tool's signature, without the parentheses.
 *
 * Only `properties` and `required` are read. Required parameters come first in
 * `required` order (names missing from `properties` dropped, duplicates once),
 * then optional ones sorted by UTF-8 byte order; joined by `", "`. A required
 * parameter renders `p:type`, an optional one `p?:type`. Types map
 * string→`string`, integer→`int`, number→`number`, boolean→`bool`,
 * object→`obj`, array→`arr`, anything else→`any`. A `type` array (or, with no
 * `type`, the member types of `anyOf`, else `oneOf`) maps each member, drops
 * `null` and duplicates, keeps the order and joins with `|`; `any` when nothing
 * is left. Enums, defaults, nested properties and item types are dropped.
 *
 * @param tool The tool.
 * @returns The parameter text, `""` when there is no schema or no properties.
 *
 * @example Usage
 * ```ts
 * import { signatureParams } from "./compact_sig.ts";
 * const tool = { id: "s:t", server: "s", name: "t", description: "",
 *   inputSchema: { properties: { b: { type: ["integer", "null"] }, a: {} }, required: ["b"] } };
 * if (signatureParams(tool) !== "b:int, a?:any") throw new Error();
 * ```
 */
export function signatureParams(tool: Tool): string {
  return orderedParams(tool.inputSchema).map((p) => {
    const types: string[] = [];
    for (const t of memberTypes(p.schema)) {
      if (t === "null") continue;
      const short = shortType(t);
      if (!types.includes(short)) types.push(short);
    }
    return `${p.name}${p.required ? ":" : "?:"}${types.length === 0 ? "any" : types.join("|")}`;
  }).join(", ");
}

/** {@linkcode signatureParams}, once per tool: the arm and the index read it. */
const signature = perTool(signatureParams);

/** How the listing joins the tools' texts. */
const JOIN: JoinedListing = joinedBy("\n\n");

/**
 * The `compact_sig` arm: `name(params)|description` per tool (see
 * {@linkcode signatureParams}), description verbatim; listing joined by
 * `"\n\n"`. It never skips. It alters the index (parameter descriptions,
 * enums and nested schemas are dropped) but keeps tool descriptions whole.
 *
 * @example Usage
 * ```ts
 * import { compactSig } from "./compact_sig.ts";
 * const out = compactSig.encodeTool({ id: "s:t", server: "s", name: "t", description: "Hi" });
 * if (!out.ok || out.text !== "t()|Hi") throw new Error();
 * ```
 */
export const compactSig: EncodingArm = {
  name: "compact_sig",
  altersIndex: true,
  lowerBound: false,
  encodeTool(tool: Tool) {
    return { ok: true, text: `${tool.name}(${signature(tool)})|${tool.description}` };
  },
  encodeListing(tools: readonly Tool[]) {
    return joinedListing(tools, (t) => this.encodeTool(t), JOIN);
  },
  joined: JOIN,
  indexFields(tool: Tool) {
    return plainIndexFields(tool, signature);
  },
};

/** Registry entry of `compact_sig`. */
export const compactSigEntry: ArmEntry = armEntry(
  compactSig,
  "one line per tool: `name(params)|description`",
);
