/**
 * The catalog parser's fast path: a {@linkcode JsonNode} view over `JSON.parse`'s value, for
 * text whose canonical form the plain value gives exactly as the lossless tree would.
 *
 * `jsonNodeCanonical` of a lossless node writes each number as its source literal, and the
 * lossless parser rejects a repeated key; `canonicalJson` of the plain value writes each number
 * as `JSON.stringify` does, and `JSON.parse` keeps the last of repeated keys. Everything else
 * (keys sorted by UTF-8 bytes, strings written by `JSON.stringify` from the same decoded value,
 * arrays in order) is the same. So when every number literal of the text is the one
 * `JSON.stringify` writes for its value, and no object repeats a key, the two give the same text
 * for every subtree, and the plain value equals the lossless tree's `value`.
 * {@linkcode parseJsonPlain} checks both on the text (one scan: the number literals, and the
 * member count, which equals the parsed objects' key count exactly when no key repeats), and
 * answers undefined otherwise (the caller takes the lossless path, which also gives the
 * positioned error of invalid text).
 *
 * The view is lazy: a container's children are made when first read, one level at a time, so
 * reading a catalog's rows and their top-level fields builds a few small nodes per tool, not a
 * node per JSON value. Its nodes have no source offsets (`start` and `end` are -1); the catalog
 * parser reads none.
 *
 * @module
 */
import { canonicalJson, type JsonMember, type JsonNode, jsonNodeCanonical } from "./canonical.ts";
import type { JsonObject, JsonValue } from "./types.ts";

class PlainArray {
  readonly kind = "array" as const;
  readonly start = -1;
  readonly end = -1;
  #items: JsonNode[] | undefined;
  constructor(readonly value: readonly JsonValue[]) {}
  get items(): readonly JsonNode[] {
    return this.#items ??= this.value.map(plainNode);
  }
}

class PlainObject {
  readonly kind = "object" as const;
  readonly start = -1;
  readonly end = -1;
  #members: JsonMember[] | undefined;
  constructor(readonly value: JsonObject) {}
  get members(): readonly JsonMember[] {
    return this.#members ??= Object.keys(this.value).map((key) => ({
      key,
      node: plainNode(this.value[key]),
    }));
  }
}

function plainNode(value: JsonValue): JsonNode {
  if (value === null) return { kind: "null", start: -1, end: -1, value };
  switch (typeof value) {
    case "boolean":
      return { kind: "boolean", start: -1, end: -1, value };
    case "number":
      // The text's literal, by the check of parseJsonPlain.
      return { kind: "number", start: -1, end: -1, literal: JSON.stringify(value), value };
    case "string":
      return { kind: "string", start: -1, end: -1, value };
  }
  return Array.isArray(value) ? new PlainArray(value) : new PlainObject(value as JsonObject);
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, MINUS = 0x2d;

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** What {@linkcode scanJsonText} finds in valid JSON text. */
export interface JsonTextScan {
  /** Object members (strings followed by `:`), -1 when the scan stopped at a fragile literal. */
  readonly members: number;
  /**
   * The distinct number literals that `JSON.stringify` writes otherwise for their value (`1.0`,
   * `1e3`, `-0`, `0.10`, past 2^53, ...), in order of first appearance (only the first when
   * the scan stops there).
   */
  readonly fragile: readonly string[];
}

/**
 * One pass over valid JSON text (as `JSON.parse` accepts it; other text gives figures of no
 * meaning): its member count and its fragile number literals, never counting what strings hold.
 *
 * @param text Valid JSON text.
 * @param stopAtFragile Stop at the first fragile literal (members -1).
 * @returns The members and the fragile literals.
 */
export function scanJsonText(text: string, stopAtFragile: boolean): JsonTextScan {
  const len = text.length;
  const fragile = new Set<string>();
  let members = 0;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // The closing quote is the next one not escaped (preceded by an even run of backslashes).
      let close = text.indexOf('"', i + 1);
      while (true) {
        let slashes = 0;
        while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        close = text.indexOf('"', close + 1);
      }
      i = close + 1;
      while (i < len && isJsonSpace(text.charCodeAt(i))) i++;
      if (text.charCodeAt(i) === COLON) members++;
      continue;
    }
    if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < len) {
        const d = text.charCodeAt(j);
        // Digits, ".", "e", "E", "+", "-": the text is valid JSON, so the run is one literal.
        if (
          (d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b ||
          d === MINUS
        ) j++;
        else break;
      }
      const literal = text.slice(i, j);
      if (JSON.stringify(Number(literal)) !== literal) {
        fragile.add(literal);
        if (stopAtFragile) return { members: -1, fragile: [...fragile] };
      }
      i = j;
      continue;
    }
    i++;
  }
  return { members, fragile: [...fragile] };
}

/**
 * Own keys of every object in a parsed value (iterative: depth is not bounded by the stack).
 * For the value of `JSON.parse(text)` it equals `scanJsonText(text).members` exactly when no
 * object of the text repeats a key.
 *
 * @param value A parsed JSON value.
 * @returns The number of keys.
 */
export function countKeys(value: JsonValue): number {
  let keys = 0;
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === "object") stack.push(item);
      continue;
    }
    const obj = v as JsonObject;
    // for-in, not Object.keys: no array per object (a parsed value has no inherited keys).
    for (const key in obj) {
      keys++;
      const item = obj[key];
      if (item !== null && typeof item === "object") stack.push(item);
    }
  }
  return keys;
}

/**
 * The plain-value tree of `text` when it canonicalizes as the lossless tree would (see the
 * module doc), else undefined: invalid JSON, a repeated key, or a number literal that
 * `JSON.stringify` would write otherwise.
 *
 * @param text JSON text.
 * @returns The root node, or undefined (then parse the text with `parseJsonLossless`).
 */
export function parseJsonPlain(text: string): JsonNode | undefined {
  let value: JsonValue;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { members } = scanJsonText(text, true);
  if (members < 0 || members !== countKeys(value)) return undefined;
  return plainNode(value);
}

/**
 * Canonical text of a node of either tree: `canonicalJson` of a plain container's value (the
 * same text, see the module doc), else `jsonNodeCanonical`.
 *
 * @param node A node of {@linkcode parseJsonPlain} or `parseJsonLossless`.
 * @returns Its canonical JSON text.
 */
export function nodeCanonical(node: JsonNode): string {
  return node instanceof PlainArray || node instanceof PlainObject
    ? canonicalJson(node.value)
    : jsonNodeCanonical(node);
}
