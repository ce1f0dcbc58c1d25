// TOON text of a JSON value, written directly: `encode` of `npm:@toon-format/toon` 4.4.0 with
// default options (2-space indent, comma delimiter), without its generators, its normalized copy
// of the value or its per-line arrays. Not part of the public surface.
//
// The trade: TOON is an arm, so its text is what the library renders, byte for byte; the library
// stays the reference (`_toon_text_test.ts` checks this writer against its `encode` on every tool
// of the reference corpus, LiveMCPBench, the hard cases, a synthetic catalog and arbitrary JSON
// values) and the fallback: for any value this writer does not cover (a lone surrogate, which the
// library rejects with its own message, or anything that is not plain JSON: `undefined`, a Date,
// a Map, a class instance, a bigint, ...) it answers `undefined` and the caller calls `encode`.
// Each function below mirrors the library function of the same role (named in its comment); a
// library upgrade must be checked against the test before this file is trusted again.
import type { JsonObject, JsonValue } from "../catalog/types.ts";

/** Thrown inside the writer when a value is outside what it covers; caught by `toonText`. */
const OUTSIDE = new Error("outside the TOON fast path");

/** The keys of an object in the order TOON is to write them. */
export type KeyOrder = (obj: JsonObject) => readonly string[];

/** Indentation of each depth (2 spaces per level), grown on demand. */
const INDENTS: string[] = [""];
function indent(depth: number): string {
  while (INDENTS.length <= depth) INDENTS.push(INDENTS[INDENTS.length - 1] + "  ");
  return INDENTS[depth];
}

/** A field of a tabular header: a column, or a nested object's columns (`extractTabularFields`). */
interface Field {
  readonly name: string;
  readonly children?: readonly Field[];
}

/** The lines written so far, joined by line breaks (the library's `Array.from(lines).join`). */
class Writer {
  text = "";
  #first = true;
  constructor(readonly keys: KeyOrder) {}
  line(depth: number, content: string): void {
    if (this.#first) {
      this.#first = false;
      this.text = indent(depth) + content;
    } else {
      this.text += "\n" + indent(depth) + content;
    }
  }
  item(depth: number, content: string): void {
    this.line(depth, "- " + content);
  }
}

/**
 * A string the writer may write (`isWellFormed`: no surrogate without its pair); else outside
 * (the library's `assertNoLoneSurrogate` throws).
 */
function checked(s: string): string {
  if (!s.isWellFormed()) throw OUTSIDE;
  return s;
}

/** Whether `value` is a primitive (`isEncodablePrimitive` after `normalizeValue`). */
function isPrimitive(value: unknown): value is null | boolean | number | string {
  if (value === null) return true;
  const t = typeof value;
  if (t === "string" || t === "number" || t === "boolean") return true;
  if (t === "object") return false;
  throw OUTSIDE; // undefined, bigint, function, symbol: normalized by the library's own rules
}

/** Whether `value` (not a primitive) is a plain object; throws outside for other objects. */
function isObject(value: object): value is JsonObject {
  if (Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw OUTSIDE;
  return true;
}

/** `escapeString`: backslash, quote, `\n`, `\r`, `\t`, other control characters as `\uXXXX`. */
function escapeString(value: string): string {
  // deno-lint-ignore no-control-regex
  if (!/[\\"\u0000-\u001F]/.test(value)) return value;
  return value.replace(/\\/g, `\\\\`).replace(/"/g, `\\"`).replace(/\n/g, `\\n`)
    .replace(/\r/g, `\\r`).replace(/\t/g, `\\t`)
    .replace(
      // deno-lint-ignore no-control-regex
      /[\u0000-\u001F]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
}

/** `NUMERIC_LIKE_PATTERN`. */
const NUMERIC_LIKE = /^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;
/** Characters that force quotes anywhere in a string (`isSafeUnquoted`, comma delimiter). */
// deno-lint-ignore no-control-regex
const UNSAFE_ANYWHERE = /[:"\\[\]{}\u0000-\u001F,]/;

/** `isSafeUnquoted` with the comma delimiter. */
function isSafeUnquoted(value: string): boolean {
  if (value === "") return false;
  const first = value.charCodeAt(0);
  // space, tab, "-", "#" first; space or tab last
  if (first === 0x20 || first === 0x09 || first === 0x2d || first === 0x23) return false;
  const last = value.charCodeAt(value.length - 1);
  if (last === 0x20 || last === 0x09) return false;
  if (value === "true" || value === "false" || value === "null") return false;
  if (UNSAFE_ANYWHERE.test(value)) return false;
  return !NUMERIC_LIKE.test(value);
}

/** `encodePrimitive` of a normalized primitive (-0 is `0`, a non-finite number `null`). */
function primitive(value: null | boolean | number | string): string {
  if (value === null) return "null";
  if (typeof value === "string") {
    checked(value);
    return isSafeUnquoted(value) ? value : `"${escapeString(value)}"`;
  }
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  return value ? "true" : "false";
}

const UNQUOTED_KEY = /^[A-Z_][\w.]*$/i;

/** `encodeKey`. */
function key(k: string): string {
  checked(k);
  return UNQUOTED_KEY.test(k) ? k : `"${escapeString(k)}"`;
}

/** `formatHeader` with the comma delimiter: `key[N]{fields}:`, `[N:]` when keyed. */
function header(
  length: number,
  k: string | undefined,
  fields?: readonly Field[],
  keyed = false,
): string {
  let out = k === undefined ? "" : key(k);
  out += keyed ? `[${length}:]` : `[${length}]`;
  if (fields !== undefined) out += `{${fieldSegment(fields)}}`;
  return out + ":";
}

/** `formatFieldSegment`. */
function fieldSegment(fields: readonly Field[]): string {
  let out = "";
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (i > 0) out += ",";
    out += key(f.name);
    if (f.children !== undefined) out += `{${fieldSegment(f.children)}}`;
  }
  return out;
}

/** `isArrayOfPrimitives`. */
function allPrimitives(values: readonly JsonValue[]): boolean {
  for (let i = 0; i < values.length; i++) if (!isPrimitive(values[i])) return false;
  return true;
}

/** Whether `value` is a non-empty plain object (`isJsonObject && !isEmptyObject`). */
function isNonEmptyObject(value: JsonValue): value is JsonObject {
  return !isPrimitive(value) && isObject(value) && Object.keys(value).length > 0;
}

/** `extractTabularFields`: the header fields when every row has the first row's shape. */
function tabularFields(w: Writer, rows: readonly JsonObject[]): Field[] | undefined {
  if (rows.length === 0) return undefined;
  const firstKeys = w.keys(rows[0]);
  if (firstKeys.length === 0) return undefined;
  for (const row of rows) {
    if (Object.keys(row).length !== firstKeys.length) return undefined;
    for (const k of firstKeys) if (!Object.hasOwn(row, k)) return undefined;
  }
  const fields: Field[] = [];
  for (const k of firstKeys) {
    const field = column(w, k, rows);
    if (field === undefined) return undefined;
    fields.push(field);
  }
  return fields;
}

/** `classifyColumn` of column `name` of `rows`. */
function column(w: Writer, name: string, rows: readonly JsonObject[]): Field | undefined {
  let primitives = true;
  for (const row of rows) {
    if (!isPrimitive(row[name])) {
      primitives = false;
      break;
    }
  }
  if (primitives) return { name };
  const values: JsonObject[] = [];
  for (const row of rows) {
    const v = row[name];
    if (!isNonEmptyObject(v)) return undefined;
    values.push(v);
  }
  const children = tabularFields(w, values);
  return children === undefined ? undefined : { name, children };
}

/** `extractKeyedTabularFields`: two or more entries, all non-empty objects of one shape. */
function keyedTabularFields(w: Writer, obj: JsonObject, keys: readonly string[]) {
  if (keys.length < 2) return undefined;
  const values: JsonObject[] = [];
  for (const k of keys) {
    const v = obj[k];
    if (!isNonEmptyObject(v)) return undefined;
    values.push(v);
  }
  return tabularFields(w, values);
}

/** `collectRowLeaves` joined as `encodeAndJoinPrimitives`. */
function rowText(row: JsonObject, fields: readonly Field[]): string {
  let out = "";
  let first = true;
  const walk = (obj: JsonObject, fs: readonly Field[]) => {
    for (const f of fs) {
      const v = obj[f.name];
      if (f.children !== undefined) {
        walk(v as JsonObject, f.children);
      } else {
        out += (first ? "" : ",") + primitive(v as null | boolean | number | string);
        first = false;
      }
    }
  };
  walk(row, fields);
  return out;
}

/** `encodeAndJoinPrimitives`. */
function joined(values: readonly JsonValue[]): string {
  let out = "";
  for (let i = 0; i < values.length; i++) {
    out += (i > 0 ? "," : "") + primitive(values[i] as null | boolean | number | string);
  }
  return out;
}

/** `encodeInlineArrayLine`. */
function inlineArray(values: readonly JsonValue[], k: string | undefined): string {
  const h = header(values.length, k);
  return values.length === 0 ? h : `${h} ${joined(values)}`;
}

/** `encodeObjectLines` of the `keys` of `obj`. */
function objectLines(
  w: Writer,
  obj: JsonObject,
  keys: readonly string[],
  from: number,
  depth: number,
) {
  for (let i = from; i < keys.length; i++) keyValue(w, keys[i], obj[keys[i]], depth);
}

/** `encodeKeyValuePairLines`. */
function keyValue(w: Writer, k: string, value: JsonValue, depth: number): void {
  if (isPrimitive(value)) {
    w.line(depth, `${key(k)}: ${primitive(value)}`);
  } else if (!isObject(value)) {
    arrayLines(w, k, value as readonly JsonValue[], depth);
  } else {
    const keys = w.keys(value);
    const fields = keyedTabularFields(w, value, keys);
    if (fields !== undefined) {
      keyedObject(w, k, value, keys, fields, depth);
      return;
    }
    w.line(depth, `${key(k)}:`);
    objectLines(w, value, keys, 0, depth + 1);
  }
}

/** `encodeKeyedObjectLines` (the header line at `depth`, as `item` when `asItem`). */
function keyedObject(
  w: Writer,
  k: string,
  obj: JsonObject,
  keys: readonly string[],
  fields: readonly Field[],
  depth: number,
  asItem = false,
): void {
  const h = header(keys.length, k, fields, true);
  if (asItem) w.item(depth, h);
  else w.line(depth, h);
  const rows = asItem ? depth + 2 : depth + 1;
  for (const entry of keys) {
    w.line(rows, `${key(entry)}: ${rowText(obj[entry] as JsonObject, fields)}`);
  }
}

/** Whether every item is a plain object (`isArrayOfObjects`, empty counts). */
function allObjects(values: readonly JsonValue[]): values is readonly JsonObject[] {
  for (const v of values) if (isPrimitive(v) || !isObject(v)) return false;
  return true;
}

/** `encodeArrayLines` (`k` undefined: no key). */
function arrayLines(
  w: Writer,
  k: string | undefined,
  value: readonly JsonValue[],
  depth: number,
): void {
  if (value.length === 0) {
    w.line(depth, k !== undefined ? `${key(k)}: []` : "[]");
    return;
  }
  if (allPrimitives(value)) {
    w.line(depth, inlineArray(value, k));
    return;
  }
  let arrays = true;
  for (const v of value) {
    if (isPrimitive(v) || isObject(v) || !allPrimitives(v as readonly JsonValue[])) {
      arrays = false;
      break;
    }
  }
  if (arrays) {
    // encodeArrayOfArraysAsListItemsLines
    w.line(depth, header(value.length, k));
    for (const arr of value) w.item(depth + 1, inlineArray(arr as readonly JsonValue[], undefined));
    return;
  }
  if (allObjects(value)) {
    const fields = tabularFields(w, value);
    if (fields !== undefined) {
      // encodeArrayOfObjectsAsTabularLines
      w.line(depth, header(value.length, k, fields));
      for (const row of value) w.line(depth + 1, rowText(row, fields));
      return;
    }
  }
  // encodeMixedArrayAsListItemsLines
  w.line(depth, header(value.length, k));
  for (const item of value) listItem(w, item, depth + 1);
}

/** `encodeListItemValueLines`. */
function listItem(w: Writer, value: JsonValue, depth: number): void {
  if (isPrimitive(value)) {
    w.item(depth, primitive(value));
  } else if (!isObject(value)) {
    const arr = value as readonly JsonValue[];
    if (allPrimitives(arr)) {
      w.item(depth, inlineArray(arr, undefined));
    } else {
      w.item(depth, header(arr.length, undefined));
      for (const item of arr) listItem(w, item, depth + 1);
    }
  } else {
    objectItem(w, value, depth);
  }
}

/** `encodeObjectAsListItemLines`. */
function objectItem(w: Writer, obj: JsonObject, depth: number): void {
  const keys = w.keys(obj);
  if (keys.length === 0) {
    w.line(depth, "-");
    return;
  }
  const k = keys[0];
  const first = obj[k];
  if (!isPrimitive(first)) {
    if (!isObject(first)) {
      const arr = first as readonly JsonValue[];
      if (allObjects(arr)) {
        const fields = tabularFields(w, arr);
        if (fields !== undefined) {
          w.item(depth, header(arr.length, k, fields));
          for (const row of arr) w.line(depth + 2, rowText(row, fields));
          objectLines(w, obj, keys, 1, depth + 1);
          return;
        }
      }
      if (arr.length === 0) w.item(depth, `${key(k)}: []`);
      else if (allPrimitives(arr)) w.item(depth, `${key(k)}${inlineArray(arr, undefined)}`);
      else {
        w.item(depth, `${key(k)}${header(arr.length, undefined)}`);
        for (const item of arr) listItem(w, item, depth + 2);
      }
    } else {
      const inner = w.keys(first);
      const fields = keyedTabularFields(w, first, inner);
      if (fields !== undefined) {
        keyedObject(w, k, first, inner, fields, depth, true);
        objectLines(w, obj, keys, 1, depth + 1);
        return;
      }
      w.item(depth, `${key(k)}:`);
      objectLines(w, first, inner, 0, depth + 2);
    }
  } else {
    w.item(depth, `${key(k)}: ${primitive(first)}`);
  }
  objectLines(w, obj, keys, 1, depth + 1);
}

/**
 * TOON of `value` as `encode(value)` of `@toon-format/toon` 4.4.0 renders it with default
 * options, where object keys come in the order `keys` gives (the library's is the object's
 * enumeration order, `Object.keys`); `undefined` where the writer does not cover the value (see
 * the file's header), for the caller to call the library.
 *
 * @param value A JSON value (as `JSON.parse` returns).
 * @param keys Each object's keys in writing order; must list exactly its own enumerable keys.
 * @returns The TOON text, or `undefined`.
 */
export function toonText(value: JsonValue, keys: KeyOrder = Object.keys): string | undefined {
  const w = new Writer(keys);
  try {
    if (isPrimitive(value)) {
      // encodeJsonValue's root primitive: a leading BOM is quoted, an empty text writes no line
      if (typeof value === "string" && value.startsWith("\uFEFF")) {
        checked(value);
        return `"${escapeString(value)}"`;
      }
      return primitive(value);
    }
    if (!isObject(value)) {
      arrayLines(w, undefined, value as readonly JsonValue[], 0);
      return w.text;
    }
    const rootKeys = keys(value);
    const fields = keyedTabularFields(w, value, rootKeys);
    if (fields !== undefined) {
      // encodeKeyedObjectLines with no key: formatHeader omits it
      const h = `[${rootKeys.length}:]{${fieldSegment(fields)}}:`;
      w.line(0, h);
      for (const entry of rootKeys) {
        w.line(1, `${key(entry)}: ${rowText(value[entry] as JsonObject, fields)}`);
      }
      return w.text;
    }
    objectLines(w, value, rootKeys, 0, 0);
    return w.text;
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  }
}
