// Helpers shared by the arms. Not part of the public surface.
import { canonicalJson, compareUtf8 } from "../catalog/canonical.ts";
import { firstSorted } from "../core/order.ts";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import {
  type EncodedTool,
  type IndexFields,
  type JoinedListing,
  type Listing,
  type ListingInfo,
  MAX_SKIP_EXAMPLES,
  type SkipSummary,
  type ToolPart,
  type ToolSkip,
} from "./types.ts";

/** Returns `value` when it is a plain JSON object, else undefined. */
export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as JsonObject
    : undefined;
}

/** Own-property lookup that ignores inherited names such as `constructor`. */
export function own(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Message of any thrown value, on one line. */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, " ").slice(0, 300);
}

/** Collects skips, keeping the count and the first examples. */
export class SkipCollector {
  #count = 0;
  readonly #examples: ToolSkip[] = [];

  add(toolId: string, reason: string): void {
    this.#count++;
    if (this.#examples.length < MAX_SKIP_EXAMPLES) this.#examples.push({ toolId, reason });
  }

  summary(): SkipSummary {
    return { count: this.#count, examples: [...this.#examples] };
  }
}

/** Runs an encoder, turning a throw into a skip with `label` and the message. */
export function guarded(label: string, encode: () => string): EncodedTool {
  try {
    return { ok: true, text: encode() };
  } catch (error) {
    return { ok: false, reason: `${label} failed: ${errorMessage(error)}` };
  }
}

/**
 * `render` memoized per tool object: the arm's listing, its `encodeTool` and its `indexFields`
 * (read by `changedIndexFields` and by every retrieval index built on the arm) then render a
 * tool's text once per run. Exact: `render` is a pure function of the tool, and a corpus's
 * tools are not changed after loading (a changed tool is a new object, e.g. `--overrides`).
 * The memo holds a tool's text as long as the tool object lives.
 */
export function perTool(render: (tool: Tool) => string): (tool: Tool) => string {
  const memo = new WeakMap<Tool, string>();
  return (tool) => {
    let text = memo.get(tool);
    if (text === undefined) memo.set(tool, text = render(tool));
    return text;
  };
}

/** The text of a listing part. */
export function partText(part: string | ToolPart): string {
  return typeof part === "string" ? part : part.text;
}

/**
 * The listing whose text is the header `parts` return, then the concatenation of `parts` (see
 * `EncodingArm.listingParts`).
 */
export function listingOfParts(
  parts: Generator<string | ToolPart, ListingInfo, undefined>,
): Listing {
  const texts: string[] = [];
  let next = parts.next();
  for (; !next.done; next = parts.next()) texts.push(partText(next.value));
  const { header, encodedIds, skipped } = next.value;
  return { text: (header ?? "") + texts.join(""), encodedIds, skipped };
}

/** The {@linkcode JoinedListing} of `separator`, after `header` when a tool is encoded. */
export function joinedBy(separator: string, header = ""): JoinedListing {
  return { header, separator, footer: "", empty: "" };
}

/**
 * The listing of per-tool texts as `join` says (see `EncodingArm.joined`): the texts joined by
 * its separator between its header and footer, or its `empty` text when no tool is encoded.
 */
export function joinedListing(
  tools: readonly Tool[],
  encodeTool: (tool: Tool) => EncodedTool,
  join: JoinedListing,
): Listing {
  const skips = new SkipCollector();
  const texts: string[] = [];
  const ids: string[] = [];
  for (const tool of tools) {
    const encoded = encodeTool(tool);
    if (encoded.ok) {
      texts.push(encoded.text);
      ids.push(tool.id);
    } else {
      skips.add(tool.id, encoded.reason);
    }
  }
  return {
    text: texts.length === 0 ? join.empty : join.header + texts.join(join.separator) + join.footer,
    encodedIds: ids,
    skipped: skips.summary(),
  };
}

/** One parameter of a schema's top-level `properties`. */
export interface Param {
  readonly name: string;
  readonly required: boolean;
  /** The property's schema; `true`/other non-objects become undefined. */
  readonly schema: JsonObject | undefined;
}

/**
 * Top-level parameters of an input schema in signature order: required ones
 * first in `required` order (names missing from `properties` dropped,
 * duplicates once), then optional ones sorted by UTF-8 byte order.
 * Returns an empty list when there is no schema or `properties` is not an object.
 */
export function orderedParams(schema: JsonObject | undefined): Param[] {
  if (schema === undefined) return [];
  const properties = asObject(own(schema, "properties"));
  if (properties === undefined) return [];
  const names = Object.keys(properties);
  const present = new Set(names);
  const requiredRaw = own(schema, "required");
  const required: string[] = [];
  const seen = new Set<string>();
  if (Array.isArray(requiredRaw)) {
    for (const r of requiredRaw) {
      if (typeof r === "string" && present.has(r) && !seen.has(r)) {
        seen.add(r);
        required.push(r);
      }
    }
  }
  const optional = names.filter((n) => !seen.has(n)).sort(compareUtf8);
  return [
    ...required.map((name) => ({ name, required: true, schema: asObject(properties[name]) })),
    ...optional.map((name) => ({ name, required: false, schema: asObject(properties[name]) })),
  ];
}

/**
 * Raw type names of a property schema, flattened: its `type` (a string or each
 * member of an array), or with no `type` the member types of `anyOf` (else
 * `oneOf`). Callers map them, drop `null` and duplicates.
 */
export function memberTypes(schema: JsonObject | undefined): JsonValue[] {
  if (schema === undefined) return [];
  const flat = (type: JsonValue): JsonValue[] => Array.isArray(type) ? [...type] : [type];
  if (Object.hasOwn(schema, "type")) return flat(schema.type);
  const members = own(schema, "anyOf") ?? own(schema, "oneOf");
  const out: JsonValue[] = [];
  if (Array.isArray(members)) {
    for (const m of members) {
      const member = asObject(m);
      if (member !== undefined && Object.hasOwn(member, "type")) out.push(...flat(member.type));
    }
  }
  return out;
}

/**
 * Index fields of an arm that keeps the name and description as written; `params` renders the
 * parameters (empty when the tool has no `inputSchema`), on first read of the field and once:
 * a reader that needs only the other fields (`changedIndexFields` once it has seen `params`
 * change) renders nothing.
 */
export function plainIndexFields(tool: Tool, params: (tool: Tool) => string): IndexFields {
  const { name, server, description } = tool;
  if (tool.inputSchema === undefined) return { name, server, description, params: "" };
  let text: string | undefined;
  return {
    name,
    server,
    description,
    get params() {
      return text ??= params(tool);
    },
  };
}

/**
 * Index fields read back from an arm's own rendering of a tool, decoded to an object: its
 * `name`, `description` and canonical `inputSchema` (empty when absent or not text); the server
 * comes from the tool.
 */
export function decodedIndexFields(tool: Tool, decoded: JsonObject | undefined): IndexFields {
  const text = (v: JsonValue | undefined) => typeof v === "string" ? v : "";
  const schema = decoded?.inputSchema;
  return {
    name: text(decoded?.name),
    server: tool.server,
    description: text(decoded?.description),
    params: schema === undefined ? "" : canonicalJson(schema),
  };
}

/**
 * The first `k` tools of the heaviest order (tokens descending, id ascending, then input order):
 * what a stable sort of every tool by that order, cut at `k`, gives, in one pass that keeps
 * only `k` (the arms' `heaviest`, over every tool of a corpus).
 */
export function heaviestFirst(
  ids: readonly string[],
  tokens: readonly number[],
  k: number,
): { toolId: string; tokens: number }[] {
  const order = (i: number, j: number) =>
    tokens[j] - tokens[i] || (ids[i] < ids[j] ? -1 : ids[i] > ids[j] ? 1 : 0);
  return firstSorted(ids.keys(), k, order).map((i) => ({ toolId: ids[i], tokens: tokens[i] }));
}
