/**
 * What a discovery response's tokens pay for: token counts attributed to
 * components by byte spans of the exact response text.
 *
 * Method:
 * 1. The text is parsed once with the lossless parser (`parseJsonLossless`,
 *    which keeps the source offset of every key and value); nothing is
 *    re-serialized.
 * 2. Walking the tree, each object member is classified by its key (compared
 *    lower-cased, with `_` and `-` removed); a classified member's span runs
 *    from its key's opening quote to the end of its value and is not looked
 *    into further, so a `description` inside an `inputSchema` counts as
 *    `input_schemas`:
 *    - `input_schemas`: `inputSchema`, `input_schema`, `parameters`, `params`,
 *      `schema`, `argsSchema`, `jsonSchema`, `signature` (a compact rendering
 *      of the parameters);
 *    - `descriptions`: `description`, `desc`, `summary`;
 *    - `usage_instructions`: `usage`, `usageInstructions`, `instructions`,
 *      `instruction`, `hint`, `hints`, `nextSteps`, `howToUse`, `note`,
 *      `notes`, `tip`, `tips`;
 *    - `metadata`: `annotations`, `outputSchema`, `_meta`, and any other key
 *      whose value is a string, number, boolean or null (`name`, `server`,
 *      `score`, `id`, ...);
 *    - any other key whose value is an object or array is not classified; the
 *      walk descends into its value.
 * 3. Everything outside the classified spans (braces, brackets, commas,
 *    whitespace, unclassified keys such as `"tools":`) is `other`.
 * 4. The whole text is tokenized once; each token is credited to the span
 *    holding its first byte (UTF-8). So the components sum exactly to the
 *    text's token count.
 *
 * Text that is not one JSON value goes wholly to `other`, with a warning.
 *
 * @module
 */
import { type JsonNode, parseJsonLossless } from "../catalog/canonical.ts";
import { tokenByteOffsets } from "../tokens/spans.ts";
import type { TokenizerName } from "../tokens/types.ts";

/** Response components, in report order. */
export const RESPONSE_COMPONENTS = [
  "input_schemas",
  "descriptions",
  "usage_instructions",
  "metadata",
  "other",
] as const;

/** One response component. */
export type ResponseComponent = typeof RESPONSE_COMPONENTS[number];

/** Tokens per component (tokens); the five values sum to the text's token count. */
export type ComponentTokens = { readonly [K in ResponseComponent]: number };

/** A classified span of the text, in UTF-16 code unit offsets (`end` exclusive). */
export interface ComponentSpan {
  /** Offset of the first character (UTF-16 code units). */
  readonly start: number;
  /** Offset just past the last character (UTF-16 code units). */
  readonly end: number;
  /** Component the span belongs to. */
  readonly component: Exclude<ResponseComponent, "other">;
}

/** Component spans of one text. */
export interface ResponseSpans {
  /** Whether the text parsed as one JSON value. */
  readonly json: boolean;
  /** Classified spans, sorted by `start`, non-overlapping. */
  readonly spans: readonly ComponentSpan[];
  /** Why the text counted wholly as `other`, when it did. */
  readonly warnings: readonly string[];
}

/** Token attribution of one response text. */
export interface Attribution {
  /** Tokens of the whole text (tokens). */
  readonly tokens: number;
  /** UTF-8 bytes of the whole text (bytes). */
  readonly bytes: number;
  /** Tokens per component; sums to `tokens`. */
  readonly components: ComponentTokens;
  /** Whether the text parsed as JSON (false: everything is `other`). */
  readonly json: boolean;
  /** Non-fatal findings (non-JSON text), naming the parse error. */
  readonly warnings: readonly string[];
}

/**
 * Gives the UTF-8 byte offset at which each token of `text` starts (strictly
 * increasing, first 0) and the text's UTF-8 length.
 */
export type TokenBoundaries = (text: string) => {
  readonly starts: readonly number[];
  readonly byteLength: number;
};

const KEY_CLASSES: ReadonlyMap<string, Exclude<ResponseComponent, "other">> = new Map([
  ...["inputschema", "parameters", "params", "schema", "argsschema", "jsonschema", "signature"]
    .map((k) => [k, "input_schemas"] as const),
  ...["description", "desc", "summary"].map((k) => [k, "descriptions"] as const),
  ...[
    "usage",
    "usageinstructions",
    "instructions",
    "instruction",
    "hint",
    "hints",
    "nextsteps",
    "howtouse",
    "note",
    "notes",
    "tip",
    "tips",
  ].map((k) => [k, "usage_instructions"] as const),
  ...["annotations", "outputschema", "meta"].map((k) => [k, "metadata"] as const),
]);

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "");
}

/**
 * Classifies the spans of a response text (steps 1–3 of the module doc).
 *
 * @param text The exact response text.
 * @returns Whether it is JSON, the classified spans (UTF-16 offsets), warnings.
 *
 * @example Usage
 * ```ts
 * import { componentSpans } from "./attribution.ts";
 * const { spans } = componentSpans('{"tools":[{"name":"a","description":"b"}]}');
 * // "name":"a" is metadata (offsets 11-21), "description":"b" is descriptions (22-39).
 * if (JSON.stringify(spans.map((s) => [s.start, s.end, s.component])) !==
 *   '[[11,21,"metadata"],[22,39,"descriptions"]]') throw new Error();
 * ```
 */
export function componentSpans(text: string): ResponseSpans {
  let root: JsonNode;
  try {
    root = parseJsonLossless(text);
  } catch (error) {
    return {
      json: false,
      spans: [],
      warnings: [`response is not JSON (${(error as Error).message}); all tokens counted as other`],
    };
  }
  const spans: ComponentSpan[] = [];
  const stack: JsonNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === "array") {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
      continue;
    }
    if (node.kind !== "object") continue;
    const children: JsonNode[] = [];
    for (const member of node.members) {
      const value = member.node;
      const start = member.keyStart ?? value.start;
      const cls = KEY_CLASSES.get(normalizeKey(member.key));
      if (cls !== undefined) {
        spans.push({ start, end: value.end, component: cls });
      } else if (value.kind === "object" || value.kind === "array") {
        children.push(value);
      } else {
        spans.push({ start, end: value.end, component: "metadata" });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  spans.sort((a, b) => a.start - b.start);
  return { json: true, spans, warnings: [] };
}

/**
 * UTF-8 byte offset of every UTF-16 index of `text` (length `text.length + 1`).
 * A surrogate pair is 4 bytes (its low half maps to the pair's start + 4 at
 * the next index); a lone surrogate is 3 bytes (U+FFFD), as TextEncoder writes it.
 */
function utf8OffsetTable(text: string): Int32Array {
  const table = new Int32Array(text.length + 1);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = bytes;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        table[i + 1] = bytes - 2; // inside the pair; never a span boundary
        i++;
        continue;
      }
      bytes += 3;
    } else bytes += 3;
  }
  table[text.length] = bytes;
  return table;
}

/**
 * The default token boundaries of an encoding (`tokenByteOffsets` in lib/tokens).
 *
 * @param name Encoding name.
 * @returns A {@linkcode TokenBoundaries} function.
 */
export function encodingBoundaries(name: TokenizerName): TokenBoundaries {
  return (text) => tokenByteOffsets(text, name);
}

/**
 * Attributes the tokens of one response text to components (see the module doc).
 *
 * @param text The exact response text.
 * @param boundaries Token boundaries: an encoding name (`cl100k_base`,
 *   `o200k_base`) or a function (tests use simple ones).
 * @returns Tokens, bytes, tokens per component (summing to `tokens`), JSON flag, warnings.
 * @throws {RangeError} When `boundaries` names an unknown encoding.
 *
 * @example Usage
 * ```ts
 * import { attributeResponse } from "./attribution.ts";
 * // One token per byte makes the arithmetic visible: 30 bytes, of which
 * // `"description":"hi"` (18) and `"score":1` (9) are classified; `{` `,` `}` are other.
 * const perByte = (t: string) => {
 *   const n = new TextEncoder().encode(t).length;
 *   return { starts: Array.from({ length: n }, (_, i) => i), byteLength: n };
 * };
 * const a = attributeResponse('{"description":"hi","score":1}', perByte);
 * if (a.components.descriptions !== 18 || a.components.metadata !== 9 || a.components.other !== 3) {
 *   throw new Error(JSON.stringify(a));
 * }
 * ```
 */
export function attributeResponse(
  text: string,
  boundaries: TokenizerName | TokenBoundaries,
): Attribution {
  const split = typeof boundaries === "function" ? boundaries : encodingBoundaries(boundaries);
  const { starts, byteLength } = split(text);
  const { json, spans, warnings } = componentSpans(text);
  const counts: Record<ResponseComponent, number> = {
    input_schemas: 0,
    descriptions: 0,
    usage_instructions: 0,
    metadata: 0,
    other: 0,
  };
  const table = spans.length > 0 ? utf8OffsetTable(text) : undefined;
  let s = 0;
  for (const start of starts) {
    // Advance past spans that end at or before this token's first byte.
    while (s < spans.length && table![spans[s].end] <= start) s++;
    const span = spans[s];
    if (span !== undefined && table![span.start] <= start) counts[span.component]++;
    else counts.other++;
  }
  return { tokens: starts.length, bytes: byteLength, components: counts, json, warnings };
}

/**
 * Adds component counts (e.g. over several text blocks of one result).
 *
 * @param a First counts.
 * @param b Second counts.
 * @returns Per-component sums.
 */
export function addComponents(a: ComponentTokens, b: ComponentTokens): ComponentTokens {
  const out = {} as Record<ResponseComponent, number>;
  for (const k of RESPONSE_COMPONENTS) out[k] = a[k] + b[k];
  return out;
}

/** Component counts that are all zero. */
export const ZERO_COMPONENTS: ComponentTokens = Object.freeze({
  input_schemas: 0,
  descriptions: 0,
  usage_instructions: 0,
  metadata: 0,
  other: 0,
});
