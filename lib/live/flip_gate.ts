/**
 * The flip gate: may a proxy switch `retrieve_tools` from `detail=full` to
 * `detail=compact`? Only if the ranking is unchanged, and it is worth it only
 * if responses shrink without hiding what an agent needs to call the tool.
 *
 * @module
 */
import { median } from "simple-statistics";
import { schemaText } from "../catalog/canonical.ts";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { signatureParams } from "../encodings/compact_sig.ts";
import type { Tokenizer } from "../tokens/types.ts";

/** Why a compact signature drops information an agent may need. */
export type SignatureLoss =
  | "unparseable_schema"
  | "nested_object"
  | "enum_values"
  | "composite_type"
  | "reference";

/** The loss reasons, in report order. */
export const SIGNATURE_LOSSES: readonly SignatureLoss[] = [
  "unparseable_schema",
  "nested_object",
  "enum_values",
  "composite_type",
  "reference",
];

function asObject(v: JsonValue | undefined): JsonObject | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v as JsonObject : undefined;
}

function own(o: JsonObject, k: string): JsonValue | undefined {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

function hasNestedObject(schema: JsonObject): boolean {
  if (asObject(own(schema, "properties")) !== undefined) return true;
  if (asObject(own(schema, "patternProperties")) !== undefined) return true;
  if (asObject(own(schema, "additionalProperties")) !== undefined) return true;
  const items = own(schema, "items");
  const itemList = Array.isArray(items) ? items : items === undefined ? [] : [items];
  for (const item of itemList) {
    const o = asObject(item);
    if (o !== undefined && hasNestedObject(o)) return true;
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const members = own(schema, key);
    if (Array.isArray(members)) {
      for (const m of members) {
        const o = asObject(m);
        if (o !== undefined && hasNestedObject(o)) return true;
      }
    }
  }
  return false;
}

/**
 * What a tool's `compact_sig` signature drops, beyond what the format drops by
 * design for every tool (parameter descriptions, defaults and numeric or
 * string constraints are never counted as a loss here).
 *
 * Reasons, checked on the `inputSchema`:
 * - `unparseable_schema`: the signature cannot show the parameters at all: the
 *   top level has no `properties` object but has `anyOf`/`oneOf`/`allOf`/
 *   `$ref`/`not`/`if`, or a `type` other than `"object"`, or `properties`
 *   that is not an object;
 * - `nested_object`: a parameter is an object with its own properties (or
 *   `additionalProperties`/`patternProperties` schemas), or an array of such
 *   objects; the signature shows only `obj`/`arr`;
 * - `enum_values`: a parameter has `enum` or `const`; the allowed values vanish;
 * - `composite_type`: a parameter has `allOf`, or `anyOf`/`oneOf` members
 *   that are not plain `{type}` schemas;
 * - `reference`: a parameter is a `$ref`; its type shows as `any`.
 *
 * @param tool The tool.
 * @returns Reasons in {@linkcode SIGNATURE_LOSSES} order; `[]` when the
 *   signature is faithful or the tool has no schema.
 *
 * @example Usage
 * ```ts
 * import { signatureLosses } from "./flip_gate.ts";
 * const tool = { id: "s:t", server: "s", name: "t", description: "", inputSchema: {
 *   type: "object", properties: { mode: { enum: ["a", "b"] }, opts: { type: "object", properties: {} } } } };
 * if (signatureLosses(tool).join() !== "nested_object,enum_values") throw new Error();
 * ```
 */
export function signatureLosses(tool: Tool): SignatureLoss[] {
  const schema = tool.inputSchema;
  if (schema === undefined) return [];
  const found = new Set<SignatureLoss>();
  const props = own(schema, "properties");
  const propsObject = asObject(props);
  if (propsObject === undefined) {
    const type = own(schema, "type");
    if (
      props !== undefined ||
      ["anyOf", "oneOf", "allOf", "$ref", "not", "if"].some((k) => own(schema, k) !== undefined) ||
      (type !== undefined && type !== "object")
    ) {
      found.add("unparseable_schema");
    }
  } else {
    for (const value of Object.values(propsObject)) {
      const p = asObject(value);
      if (p === undefined) continue;
      if (hasNestedObject(p)) found.add("nested_object");
      if (own(p, "enum") !== undefined || own(p, "const") !== undefined) found.add("enum_values");
      if (own(p, "allOf") !== undefined) found.add("composite_type");
      for (const key of ["anyOf", "oneOf"]) {
        const members = own(p, key);
        if (!Array.isArray(members)) continue;
        const plain = members.every((m) => {
          const o = asObject(m);
          return o !== undefined &&
            Object.keys(o).every((k) => k === "type" || k === "description");
        });
        if (!plain) found.add("composite_type");
      }
      if (own(p, "$ref") !== undefined) found.add("reference");
    }
  }
  return SIGNATURE_LOSSES.filter((r) => found.has(r));
}

/** One golden query asked with both details. */
export interface FlipPair {
  /** Query id. */
  readonly queryId: string;
  /** Ranked tool ids of the `detail=full` response. */
  readonly fullIds: readonly string[];
  /** Ranked tool ids of the `detail=compact` response. */
  readonly compactIds: readonly string[];
  /** Tokens of the full response text. */
  readonly fullTokens: number;
  /** Tokens of the compact response text. */
  readonly compactTokens: number;
}

/** Options of {@linkcode flipGate}. */
export interface FlipGateOptions {
  /** Finds a tool by id (for the lossy-signature check). */
  readonly lookup: (id: string) => Tool | undefined;
  /** Tokenizer for the weight of a lossy tool's schema. */
  readonly tokenizer: Tokenizer;
  /**
   * How many lossy signatures to list, heaviest schema first.
   * @default {10}
   */
  readonly heaviest?: number;
}

/** One lossy signature in the heaviest list. */
export interface LossySignature {
  /** Tool id. */
  readonly toolId: string;
  /** Tokens of the canonical input schema the signature replaces. */
  readonly schemaTokens: number;
  /** The signature the compact response shows. */
  readonly signature: string;
  /** What it drops. */
  readonly reasons: readonly SignatureLoss[];
}

/** Result of the flip gate. */
export interface FlipGateResult {
  /** Queries compared (both details answered). */
  readonly queryCount: number;
  /** Queries whose full and compact rankings are the same ids in the same order. */
  readonly identicalCount: number;
  /** identicalCount ÷ queryCount (fraction; must be 1). `null` when no query was compared. */
  readonly identityRate: number | null;
  /** True when every compared ranking is identical (and at least one was compared). */
  readonly rankingIdentical: boolean;
  /** Queries whose rankings differ, with both rankings. */
  readonly mismatches: readonly {
    readonly queryId: string;
    readonly full: readonly string[];
    readonly compact: readonly string[];
  }[];
  /** Median tokens of a full response (tokens), `null` when none. */
  readonly medianFullTokens: number | null;
  /** Median tokens of a compact response (tokens), `null` when none. */
  readonly medianCompactTokens: number | null;
  /**
   * Median over queries of 1 − compact ÷ full tokens (fraction; 0.6 = 60 % fewer);
   * queries with an empty full response are skipped; `null` when none is left.
   */
  readonly medianReduction: number | null;
  /** Lossy signatures among the distinct tools the compact responses returned. */
  readonly lossy: {
    /** Distinct tools returned in compact responses (count). */
    readonly signatureCount: number;
    /** Of those, tools whose signature drops information (count). */
    readonly lossyCount: number;
    /** lossyCount ÷ signatureCount (fraction), `null` when no signature was returned. */
    readonly rate: number | null;
    /** Tools per loss reason (a tool can have several). */
    readonly byReason: { readonly [K in SignatureLoss]: number };
    /** The lossy signatures with the heaviest schemas, heaviest first (ties by id). */
    readonly heaviest: readonly LossySignature[];
  };
}

/**
 * Compares `detail=full` and `detail=compact` answers to the same queries.
 *
 * @param pairs One row per query.
 * @param options Tool lookup, tokenizer, length of the heaviest list.
 * @returns Ranked-id identity (with mismatches), median token reduction, and
 *   the lossy-signature rate with the heaviest lossy signatures.
 * @throws {RangeError} When a token count is negative or not finite.
 */
export function flipGate(pairs: readonly FlipPair[], options: FlipGateOptions): FlipGateResult {
  const mismatches: FlipGateResult["mismatches"][number][] = [];
  const reductions: number[] = [];
  const returned = new Set<string>();
  for (const p of pairs) {
    for (const v of [p.fullTokens, p.compactTokens]) {
      if (!Number.isFinite(v) || v < 0) {
        throw new RangeError(`Cannot run the flip gate: token count ${v} of query "${p.queryId}"`);
      }
    }
    const same = p.fullIds.length === p.compactIds.length &&
      p.fullIds.every((id, i) => id === p.compactIds[i]);
    if (!same) mismatches.push({ queryId: p.queryId, full: p.fullIds, compact: p.compactIds });
    if (p.fullTokens > 0) reductions.push(1 - p.compactTokens / p.fullTokens);
    for (const id of p.compactIds) returned.add(id);
  }
  const byReason = Object.fromEntries(SIGNATURE_LOSSES.map((r) => [r, 0])) as Record<
    SignatureLoss,
    number
  >;
  const lossy: LossySignature[] = [];
  for (const id of returned) {
    const tool = options.lookup(id);
    if (tool === undefined) continue;
    const reasons = signatureLosses(tool);
    if (reasons.length === 0) continue;
    for (const r of reasons) byReason[r]++;
    lossy.push({
      toolId: id,
      schemaTokens: options.tokenizer.count(schemaText(tool) ?? ""),
      signature: `${tool.name}(${signatureParams(tool)})`,
      reasons,
    });
  }
  lossy.sort((a, b) =>
    b.schemaTokens - a.schemaTokens || (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0)
  );
  const n = pairs.length;
  return {
    queryCount: n,
    identicalCount: n - mismatches.length,
    identityRate: n === 0 ? null : (n - mismatches.length) / n,
    rankingIdentical: n > 0 && mismatches.length === 0,
    mismatches,
    medianFullTokens: n === 0 ? null : median(pairs.map((p) => p.fullTokens)),
    medianCompactTokens: n === 0 ? null : median(pairs.map((p) => p.compactTokens)),
    medianReduction: reductions.length === 0 ? null : median(reductions),
    lossy: {
      signatureCount: returned.size,
      lossyCount: lossy.length,
      rate: returned.size === 0 ? null : lossy.length / returned.size,
      byReason,
      heaviest: lossy.slice(0, options.heaviest ?? 10),
    },
  };
}
