/**
 * Canonical JSON for schemas: the one text form mcpmeter counts and hashes.
 *
 * Rules (applied at every depth):
 * - object keys sorted by UTF-8 byte order, which is the same as Unicode code
 *   point order (so `"\uFF61"` sorts before `"\uD83D\uDE00"`, the reverse of
 *   UTF-16 code unit order); a lone surrogate compares as its own code unit
 *   value, which is the byte order of its WTF-8 encoding;
 * - array elements in their original order;
 * - no whitespace between tokens;
 * - number literals exactly as written in the source text (`0.10`, `1e3`, `-0`,
 *   `9007199254740993` stay as they are) when the input is text; when the input
 *   is an already-parsed JS value, numbers are written as `JSON.stringify`
 *   writes them (so `-0` becomes `0`);
 * - strings written as `JSON.stringify` writes them: only `"`, `\` and control
 *   characters are escaped, `<` `>` `&` and non-ASCII text are written raw,
 *   `\u00e9` in the source becomes `é`, lone surrogates become `\udXXX`.
 *
 * Parsing is strict RFC 8259: one value, surrounded only by JSON whitespace
 * (space, tab, line feed, carriage return); anything after it is a
 * `SyntaxError`. Duplicate keys in one object are rejected with a
 * `SyntaxError` naming the key, because which value "wins" differs between
 * parsers and the canonical text would otherwise depend on that choice.
 *
 * The parser and the writers are iterative (an explicit stack, no recursion),
 * so nesting depth is limited by memory, not by the call stack.
 *
 * Why not an npm parser: `lossless-json` keeps literals but gives no source offsets (the
 * billing and attribution spans need them) and accepts a repeated key whose values are equal;
 * `jsonc-parser` and `@humanwhocodes/momoa` give offsets; all three recurse (100,000 nested
 * arrays overflow the stack). On the 93 MB 40,000-tool catalog their trees alone peak at 1.5 GB
 * (jsonc-parser) and 2.0 GB (lossless-json) against 0.95 GB for this one, at no gain in time
 * (docs/performance.md, "Lossless JSON parsers").
 *
 * @module
 */

import type { JsonObject, JsonValue, Tool } from "./types.ts";

/** Fields shared by every {@linkcode JsonNode}: its span in the source text (UTF-16 code unit offsets). */
export interface JsonNodeBase {
  /** Offset (UTF-16 code units) of the first character of the value in the source text. */
  readonly start: number;
  /** Offset (UTF-16 code units) just past the last character of the value in the source text. */
  readonly end: number;
}

/** A `null` literal. */
export interface JsonNullNode extends JsonNodeBase {
  /** Node kind tag. */
  readonly kind: "null";
  /** Always `null`. */
  readonly value: null;
}

/** A `true` or `false` literal. */
export interface JsonBooleanNode extends JsonNodeBase {
  /** Node kind tag. */
  readonly kind: "boolean";
  /** The literal's value. */
  readonly value: boolean;
}

/** A number: `literal` is the exact source text, `value` its (possibly rounded) JS number. */
export interface JsonNumberNode extends JsonNodeBase {
  /** Node kind tag. */
  readonly kind: "number";
  /** The number exactly as written, e.g. `"0.10"`, `"1e3"`, `"-0"`. */
  readonly literal: string;
  /** `Number(literal)`; may lose precision (integers past 2^53) or be `-0`. */
  readonly value: number;
}

/** A string, with escapes decoded. */
export interface JsonStringNode extends JsonNodeBase {
  /** Node kind tag. */
  readonly kind: "string";
  /** The string with escapes decoded. */
  readonly value: string;
}

/** An array; `value` is the plain JS array built from the items' values. */
export interface JsonArrayNode extends JsonNodeBase {
  /** Node kind tag. */
  readonly kind: "array";
  /** Element nodes in source order. */
  readonly items: readonly JsonNode[];
  /** The plain JS array (as `JSON.parse` would return it). */
  readonly value: readonly JsonValue[];
}

/** One `key: value` member of an object, in source order. */
export interface JsonMember {
  /** The key with escapes decoded. */
  readonly key: string;
  /** Offset (UTF-16 code units) of the key's opening quote in the source text. */
  readonly keyStart?: number;
  /** The member's value node. */
  readonly node: JsonNode;
}

/** An object; `members` keep source order, `value` is the plain JS object (source key order). */
export interface JsonObjectNode extends JsonNodeBase {
  /** Node kind tag. */
  readonly kind: "object";
  /** Members in source order (keys unique: duplicates are rejected by the parser). */
  readonly members: readonly JsonMember[];
  /** The plain JS object (as `JSON.parse` would return it, keys in source order). */
  readonly value: JsonObject;
}

/**
 * A node of the lossless JSON tree returned by {@linkcode parseJsonLossless}.
 *
 * Every node carries `value`, the plain JS value `JSON.parse` would give for
 * that subtree (sharing objects with its parent's `value`: do not mutate it),
 * and its `start`/`end` offsets in the source text. Number nodes also keep
 * their literal text, so {@linkcode jsonNodeCanonical} can reproduce it.
 */
export type JsonNode =
  | JsonNullNode
  | JsonBooleanNode
  | JsonNumberNode
  | JsonStringNode
  | JsonArrayNode
  | JsonObjectNode;

/**
 * Whether `key` is an array index as a JS object orders its keys: the canonical decimal of 0 to
 * 2^32 - 2 (`"0"`, `"10"`; not `"01"`, `"1e3"` or `"4294967295"`). An object enumerates such keys
 * first, in ascending numeric order, whatever order they were written in (ECMA-262
 * OrdinaryOwnPropertyKeys).
 *
 * @param key A property name.
 * @returns True for an array index.
 *
 * @example Usage
 * ```ts
 * import { isArrayIndexKey } from "./canonical.ts";
 * if (!isArrayIndexKey("10") || isArrayIndexKey("01")) throw new Error("wrong");
 * ```
 */
export function isArrayIndexKey(key: string): boolean {
  const c = key.charCodeAt(0);
  if (!(c >= 0x30 && c <= 0x39)) return false;
  const n = Number(key);
  return n < 4294967295 && String(n) === key;
}

/**
 * Compare two strings by the byte order of their UTF-8 encodings.
 *
 * UTF-8 byte order equals Unicode code point order, so the comparison walks
 * code points and never allocates. A lone surrogate compares as its code unit
 * value (0xD800–0xDFFF), which matches the byte order of its WTF-8 encoding.
 *
 * @param a First string.
 * @param b Second string.
 * @returns A negative number when `a` sorts first, positive when `b` does, 0 when equal.
 *
 * @example Usage
 * ```ts
 * import { compareUtf8 } from "./canonical.ts";
 * // UTF-16 order puts "\uD83D\uDE00" (U+1F600) first; UTF-8 order puts U+FF61 first.
 * if (!(compareUtf8("\uFF61", "\uD83D\uDE00") < 0)) throw new Error("wrong order");
 * ```
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

const WS_SPACE = 0x20, WS_TAB = 0x09, WS_LF = 0x0a, WS_CR = 0x0d;
const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** Describe the character at `pos` for an error message. */
function describeAt(text: string, pos: number): string {
  if (pos >= text.length) return "end of input";
  const cp = text.codePointAt(pos)!;
  const ch = String.fromCodePoint(cp);
  return cp < 0x20 || cp === 0x7f ? `character U+${cp.toString(16).padStart(4, "0")}` : `"${ch}"`;
}

/** Line (1-based) and column (1-based, UTF-16 units) of `pos`. */
function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === WS_LF) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: pos - lineStart + 1 };
}

function syntaxError(text: string, pos: number, what: string): SyntaxError {
  const { line, column } = lineColumn(text, pos);
  return new SyntaxError(`${what} at line ${line} column ${column} (offset ${pos})`);
}

/** Mutable twins of the container nodes, used only while parsing. */
interface ArrayFrame {
  readonly kind: "array";
  readonly start: number;
  readonly items: JsonNode[];
  readonly value: JsonValue[];
}
interface ObjectFrame {
  readonly kind: "object";
  readonly start: number;
  readonly members: JsonMember[];
  readonly value: Record<string, JsonValue>;
  readonly seen: Set<string>;
  key: string;
  keyStart: number;
}
type Frame = ArrayFrame | ObjectFrame;

/**
 * Parse JSON text into a lossless tree that keeps every number literal.
 *
 * Accepts exactly RFC 8259 JSON (one value, JSON whitespace around it).
 * Objects are built with own data properties, so a `"__proto__"` key is an
 * ordinary key, as with `JSON.parse`.
 *
 * @param text The JSON text.
 * @returns The root {@linkcode JsonNode}.
 * @throws {SyntaxError} On invalid JSON, a duplicate key in one object (the
 *   message names the key), or any non-whitespace after the first value; the
 *   message gives the line, column and offset.
 *
 * @example Usage
 * ```ts
 * import { jsonNodeCanonical, parseJsonLossless } from "./canonical.ts";
 * const root = parseJsonLossless('{"b": 0.10, "a": [1e3]}');
 * if (jsonNodeCanonical(root) !== '{"a":[1e3],"b":0.10}') throw new Error("not canonical");
 * ```
 */
export function parseJsonLossless(text: string): JsonNode {
  if (typeof text !== "string") {
    throw new TypeError(`Cannot parse JSON: expected a string, got ${typeof text}`);
  }
  const len = text.length;
  let pos = 0;
  const stack: Frame[] = [];

  const skipWs = () => {
    while (pos < len) {
      const c = text.charCodeAt(pos);
      if (c === WS_SPACE || c === WS_LF || c === WS_CR || c === WS_TAB) pos++;
      else break;
    }
  };

  const parseString = (): string => {
    // text[pos] is the opening quote. The scan validates (with positioned messages); the value
    // comes from the engine's JSON.parse of the literal, which decodes the same escapes into a
    // fresh string: compact (one byte per character when it can be) and no view of `text`, so
    // a parsed catalog does not keep the whole file text alive.
    const open = pos;
    pos++;
    let plain = true;
    while (true) {
      if (pos >= len) throw syntaxError(text, open, "Unterminated string starting");
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        pos++;
        return plain && pos - open < 4
          ? text.slice(open + 1, pos - 1)
          : JSON.parse(text.slice(open, pos));
      }
      if (c === 0x5c) {
        plain = false;
        const e = text.charCodeAt(pos + 1);
        if (e === 0x75) {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
            throw syntaxError(text, pos, "Invalid \\u escape in string");
          }
          pos += 6;
          continue;
        }
        if (
          e !== 0x22 && e !== 0x5c && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e &&
          e !== 0x72 && e !== 0x74
        ) {
          throw syntaxError(text, pos, `Invalid escape ${describeAt(text, pos + 1)} in string`);
        }
        pos += 2;
        continue;
      }
      if (c < 0x20) {
        throw syntaxError(text, pos, `Unescaped control ${describeAt(text, pos)} in string`);
      }
      pos++;
    }
  };

  /** Parse `"key"` then `:` for the object frame on top of the stack. */
  const parseKey = (frame: ObjectFrame) => {
    skipWs();
    if (text.charCodeAt(pos) !== 0x22) {
      throw syntaxError(text, pos, `Expected a string key but found ${describeAt(text, pos)}`);
    }
    const keyStart = pos;
    const key = parseString();
    if (frame.seen.has(key)) {
      throw syntaxError(text, keyStart, `Duplicate key ${JSON.stringify(key)} in object`);
    }
    frame.seen.add(key);
    frame.key = key;
    frame.keyStart = keyStart;
    skipWs();
    if (text.charCodeAt(pos) !== 0x3a) {
      throw syntaxError(text, pos, `Expected ":" after key but found ${describeAt(text, pos)}`);
    }
    pos++;
  };

  const attach = (frame: Frame, node: JsonNode) => {
    if (frame.kind === "array") {
      frame.items.push(node);
      frame.value.push(node.value);
    } else {
      frame.members.push({ key: frame.key, keyStart: frame.keyStart, node });
      if (frame.key === "__proto__") {
        // Assignment would set the prototype; JSON.parse makes it an own data property.
        Object.defineProperty(frame.value, frame.key, {
          value: node.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        frame.value[frame.key] = node.value;
      }
    }
  };

  while (true) {
    // Expect a value.
    skipWs();
    const start = pos;
    const c = text.charCodeAt(pos);
    let done: JsonNode | undefined;
    if (c === 0x7b /* { */) {
      pos++;
      const frame: ObjectFrame = {
        kind: "object",
        start,
        members: [],
        value: {},
        seen: new Set(),
        key: "",
        keyStart: 0,
      };
      skipWs();
      if (text.charCodeAt(pos) === 0x7d) {
        pos++;
        done = { kind: "object", start, end: pos, members: frame.members, value: frame.value };
      } else {
        stack.push(frame);
        parseKey(frame);
        continue;
      }
    } else if (c === 0x5b /* [ */) {
      pos++;
      const frame: ArrayFrame = { kind: "array", start, items: [], value: [] };
      skipWs();
      if (text.charCodeAt(pos) === 0x5d) {
        pos++;
        done = { kind: "array", start, end: pos, items: frame.items, value: frame.value };
      } else {
        stack.push(frame);
        continue;
      }
    } else if (c === 0x22) {
      const value = parseString();
      done = { kind: "string", start, end: pos, value };
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER_RE.lastIndex = pos;
      const m = NUMBER_RE.exec(text);
      if (!m) throw syntaxError(text, pos, `Invalid number`);
      // A long match would be a view of `text`: copy it, so the tree keeps no part of the text.
      const literal = m[0].length < 13 ? m[0] : (" " + m[0]).slice(1);
      pos += literal.length;
      done = { kind: "number", start, end: pos, literal, value: Number(literal) };
    } else if (text.startsWith("true", pos)) {
      pos += 4;
      done = { kind: "boolean", start, end: pos, value: true };
    } else if (text.startsWith("false", pos)) {
      pos += 5;
      done = { kind: "boolean", start, end: pos, value: false };
    } else if (text.startsWith("null", pos)) {
      pos += 4;
      done = { kind: "null", start, end: pos, value: null };
    } else {
      throw syntaxError(text, pos, `Unexpected ${describeAt(text, pos)}, expected a JSON value`);
    }

    // Climb: attach the finished value, close containers, or ask for the next value.
    while (true) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        skipWs();
        if (pos < len) {
          throw syntaxError(
            text,
            pos,
            `Unexpected ${describeAt(text, pos)} after the JSON value`,
          );
        }
        return done;
      }
      attach(frame, done);
      skipWs();
      const d = text.charCodeAt(pos);
      if (d === 0x2c /* , */) {
        pos++;
        if (frame.kind === "object") parseKey(frame);
        break;
      }
      if (frame.kind === "array" && d === 0x5d) {
        pos++;
        stack.pop();
        done = {
          kind: "array",
          start: frame.start,
          end: pos,
          items: frame.items,
          value: frame.value,
        };
        continue;
      }
      if (frame.kind === "object" && d === 0x7d) {
        pos++;
        stack.pop();
        done = {
          kind: "object",
          start: frame.start,
          end: pos,
          members: frame.members,
          value: frame.value,
        };
        continue;
      }
      const expected = frame.kind === "array" ? `"," or "]"` : `"," or "}"`;
      throw syntaxError(text, pos, `Expected ${expected} but found ${describeAt(text, pos)}`);
    }
  }
}

/**
 * Canonical JSON text of a node of a lossless tree (see the module doc).
 *
 * Number literals come out exactly as they were written in the source text.
 *
 * @param node A node from {@linkcode parseJsonLossless}, e.g. the `inputSchema` member.
 * @returns The canonical text: sorted keys, no whitespace, literals kept.
 *
 * @example Usage
 * ```ts
 * import { jsonNodeCanonical, jsonNodeMember, parseJsonLossless } from "./canonical.ts";
 * const root = parseJsonLossless('{"schema": {"z": 1.50, "a": null}}');
 * const schema = jsonNodeMember(root, "schema")!;
 * if (jsonNodeCanonical(schema) !== '{"a":null,"z":1.50}') throw new Error("not canonical");
 * ```
 */
export function jsonNodeCanonical(node: JsonNode): string {
  const out: string[] = [];
  const stack: (JsonNode | string)[] = [node];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    switch (item.kind) {
      case "null":
        out.push("null");
        break;
      case "boolean":
        out.push(item.value ? "true" : "false");
        break;
      case "number":
        out.push(item.literal);
        break;
      case "string":
        out.push(JSON.stringify(item.value));
        break;
      case "array": {
        out.push("[");
        stack.push("]");
        for (let i = item.items.length - 1; i >= 0; i--) {
          stack.push(item.items[i]);
          if (i > 0) stack.push(",");
        }
        break;
      }
      case "object": {
        out.push("{");
        stack.push("}");
        const members = [...item.members].sort((x, y) => compareUtf8(x.key, y.key));
        for (let i = members.length - 1; i >= 0; i--) {
          stack.push(members[i].node);
          stack.push((i > 0 ? "," : "") + JSON.stringify(members[i].key) + ":");
        }
        break;
      }
    }
  }
  return out.join("");
}

/**
 * The member `key` of an object node, or `undefined` when the node is not an
 * object or has no such key.
 *
 * @param node Any node.
 * @param key The member name (escapes already decoded).
 * @returns The member's node, or `undefined`.
 */
export function jsonNodeMember(node: JsonNode, key: string): JsonNode | undefined {
  if (node.kind !== "object") return undefined;
  for (const m of node.members) if (m.key === key) return m.node;
  return undefined;
}

/**
 * Canonicalize JSON text, keeping number literals exactly as written.
 *
 * @param text JSON text.
 * @returns Canonical JSON text (see the module doc).
 * @throws {SyntaxError} On invalid JSON, duplicate keys or trailing content.
 *
 * @example Usage
 * ```ts
 * import { canonicalizeJsonText } from "./canonical.ts";
 * const out = canonicalizeJsonText('{ "b": 1e3, "a": "\\u00e9<&>" }');
 * if (out !== '{"a":"é<&>","b":1e3}') throw new Error(out);
 * ```
 */
export function canonicalizeJsonText(text: string): string {
  return jsonNodeCanonical(parseJsonLossless(text));
}

/** Marks text to emit verbatim on the writer's stack (values may be strings). */
class Raw {
  constructor(readonly text: string) {}
}
/** Marks the end of an object or array, to pop it from the in-progress set. */
class Leave {
  constructor(readonly container: object) {}
}

/**
 * Canonical JSON text of an already-parsed value.
 *
 * Numbers are written as `JSON.stringify` writes them (`-0` → `0`,
 * `1e21` → `1e+21`); use {@linkcode canonicalizeJsonText} or
 * {@linkcode jsonNodeCanonical} when the literal text is available.
 *
 * @param value A JSON value: `null`, boolean, finite number, string, array or
 *   plain object (prototype `Object.prototype` or `null`).
 * @returns Canonical JSON text (see the module doc).
 * @throws {TypeError} On a value JSON cannot represent (`undefined`, a
 *   function, a bigint, a symbol, a non-finite number, a non-plain object such
 *   as a `Date`), or a circular reference.
 *
 * @example Usage
 * ```ts
 * import { canonicalJson } from "./canonical.ts";
 * const out = canonicalJson({ type: "object", properties: { b: {}, a: {} } });
 * if (out !== '{"properties":{"a":{},"b":{}},"type":"object"}') throw new Error(out);
 * ```
 */
export function canonicalJson(value: JsonValue): string {
  // A value JSON.parse could give (every schema of a loaded catalog) takes the recursive
  // writer; anything else (a cycle, past its depth, a value JSON cannot write) the iterative
  // one, which writes the same text or throws the error.
  try {
    return fastCanonical(value);
  } catch (e) {
    if (e !== NOT_FAST) throw e;
  }
  return iterativeCanonicalJson(value);
}

/** Thrown by {@linkcode fastCanonical} where the iterative writer takes over. */
const NOT_FAST = new Error("not a plain JSON value within the recursive writer's depth");

/** Containers nested deeper than this (or a cycle) go to the iterative writer. */
const FAST_DEPTH = 256;

/** True when a key holds a UTF-16 code unit at or past U+D800, where UTF-16 and UTF-8 orders can part. */
function pastBmpOrder(keys: readonly string[]): boolean {
  for (const key of keys) {
    for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) >= 0xd800) return true;
  }
  return false;
}

/**
 * {@linkcode canonicalJson}'s text, written recursively: the same text wherever it answers
 * (`canonical_test.ts` checks it against {@linkcode iterativeCanonicalJson}); throws NOT_FAST
 * where that writer must decide (a value JSON cannot write, a cycle, deep nesting).
 *
 * The pieces go to one array joined once: a text built by `+=` is a rope of a cell per piece
 * until first read, which for a catalog's schemas is several times the texts' memory, and is
 * flattened, a copy, by whoever reads it first.
 */
function fastCanonical(v: unknown): string {
  // Already in canonical order (a catalog mcpmeter wrote, e.g. a capture or a synthetic one):
  // JSON.stringify writes the same text, natively.
  if (inCanonicalOrder(v, 0)) return JSON.stringify(v);
  const out: string[] = [];
  writeFast(v, 0, out);
  return out.length === 1 ? out[0] : out.join("");
}

/**
 * Whether `JSON.stringify(v)` is {@linkcode writeFast}'s text: `v` is a value `writeFast` writes
 * (null, a boolean, a finite number, a string, an array or a plain object of such values, within
 * its depth) whose every object enumerates its keys in strictly ascending code unit order, all
 * below U+D800 (where that order is UTF-8 byte order), so `writeFast`'s sort keeps them as they
 * are; `JSON.stringify` then writes the same keys in the same order, and every string and number
 * as `writeFast` does (through `JSON.stringify`). False as soon as one object is out of order.
 */
function inCanonicalOrder(v: unknown, depth: number): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v);
    case "object":
      break;
    default:
      return false;
  }
  if (depth >= FAST_DEPTH) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!inCanonicalOrder(v[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(v);
  const rec = v as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (i > 0 && !(keys[i - 1] < key)) return false;
    for (let j = 0; j < key.length; j++) if (key.charCodeAt(j) >= 0xd800) return false;
    if (!inCanonicalOrder(rec[key], depth + 1)) return false;
  }
  return true;
}

function writeFast(v: unknown, depth: number, out: string[]): void {
  if (v === null) {
    out.push("null");
    return;
  }
  switch (typeof v) {
    case "string":
      out.push(JSON.stringify(v));
      return;
    case "number":
      if (!Number.isFinite(v)) throw NOT_FAST;
      out.push(JSON.stringify(v));
      return;
    case "boolean":
      out.push(v ? "true" : "false");
      return;
    case "object":
      break;
    default:
      throw NOT_FAST;
  }
  if (depth >= FAST_DEPTH) throw NOT_FAST;
  if (Array.isArray(v)) {
    out.push("[");
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(",");
      writeFast(v[i], depth + 1, out);
    }
    out.push("]");
    return;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw NOT_FAST;
  const keys = Object.keys(v);
  // Code unit order is UTF-8 byte order for keys below U+D800.
  if (pastBmpOrder(keys)) keys.sort(compareUtf8);
  else keys.sort();
  const rec = v as Record<string, unknown>;
  out.push("{");
  for (let i = 0; i < keys.length; i++) {
    const item = rec[keys[i]];
    if (item === undefined) throw NOT_FAST;
    out.push(i > 0 ? "," + JSON.stringify(keys[i]) + ":" : JSON.stringify(keys[i]) + ":");
    writeFast(item, depth + 1, out);
  }
  out.push("}");
}

/**
 * {@linkcode canonicalJson} with an explicit stack: the writer of record for any value, any
 * depth, and its errors; exported for the test that holds the recursive writer to it.
 *
 * @internal
 * @param value As for {@linkcode canonicalJson}.
 * @returns As {@linkcode canonicalJson}.
 * @throws {TypeError} As {@linkcode canonicalJson}.
 */
export function iterativeCanonicalJson(value: JsonValue): string {
  const out: string[] = [];
  const active = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Raw) {
      out.push(item.text);
      continue;
    }
    if (item instanceof Leave) {
      active.delete(item.container);
      continue;
    }
    if (item === null) {
      out.push("null");
      continue;
    }
    switch (typeof item) {
      case "boolean":
        out.push(item ? "true" : "false");
        continue;
      case "number":
        if (!Number.isFinite(item)) {
          throw new TypeError(`Cannot write ${item} as JSON: numbers must be finite`);
        }
        out.push(JSON.stringify(item));
        continue;
      case "string":
        out.push(JSON.stringify(item));
        continue;
      case "object":
        break;
      default:
        throw new TypeError(`Cannot write a ${typeof item} as JSON`);
    }
    const obj = item as object;
    if (active.has(obj)) throw new TypeError("Cannot write a circular structure as JSON");
    active.add(obj);
    stack.push(new Leave(obj));
    if (Array.isArray(obj)) {
      out.push("[");
      stack.push(new Raw("]"));
      for (let i = obj.length - 1; i >= 0; i--) {
        stack.push(obj[i]);
        if (i > 0) stack.push(new Raw(","));
      }
      continue;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      const name = (obj as { constructor?: { name?: string } }).constructor?.name ?? "object";
      throw new TypeError(`Cannot write a ${name} as JSON: only plain objects are JSON objects`);
    }
    const keys = Object.keys(obj).sort(compareUtf8);
    out.push("{");
    stack.push(new Raw("}"));
    const rec = obj as Record<string, unknown>;
    for (let i = keys.length - 1; i >= 0; i--) {
      const v = rec[keys[i]];
      if (v === undefined) {
        throw new TypeError(
          `Cannot write key ${JSON.stringify(keys[i])} as JSON: its value is undefined`,
        );
      }
      stack.push(v);
      stack.push(new Raw((i > 0 ? "," : "") + JSON.stringify(keys[i]) + ":"));
    }
  }
  return out.join("");
}

/**
 * The canonical text of a tool's `inputSchema`, the form that is counted and hashed.
 *
 * @param tool A tool from a corpus loader or built by hand.
 * @returns `tool.inputSchemaCanonical` when a loader recorded it (literals as
 *   in the source file), else {@linkcode canonicalJson} of `tool.inputSchema`,
 *   else `undefined` when the tool has no schema.
 * @throws {TypeError} When `inputSchema` holds a value JSON cannot represent.
 *
 * @example Usage
 * ```ts
 * import { schemaText } from "./canonical.ts";
 * const tool = { id: "s:t", server: "s", name: "t", description: "", inputSchema: { type: "object" } };
 * if (schemaText(tool) !== '{"type":"object"}') throw new Error("wrong text");
 * ```
 */
export function schemaText(tool: Tool): string | undefined {
  if (tool.inputSchemaCanonical !== undefined) return tool.inputSchemaCanonical;
  if (tool.inputSchema === undefined) return undefined;
  return canonicalJson(tool.inputSchema);
}
