/**
 * The one deterministic JSON writer: object keys sorted at every depth, so equal values give
 * equal bytes whatever order they were built in. Result files, run folders, capture files and
 * the hashes of configurations and catalogs all go through {@linkcode stableJson}. Beside it, the
 * nesting limit the readers of other people's JSON share ({@linkcode JSON_NESTING_LIMIT}).
 *
 * @module
 */

/**
 * Deepest nesting of arrays and objects mcpmeter reads from files and requests others write:
 * serde_json's default recursion limit (serde_json 1.0, `remaining_depth: 128`). Real documents
 * nest a dozen levels; deeper ones overflow recursive walkers (validators, jsonc-parser).
 */
export const JSON_NESTING_LIMIT = 128;

/**
 * Levels of arrays and objects in a parsed value, walked with a work list (any depth).
 *
 * @param value A parsed JSON value.
 * @returns 0 for a scalar, 1 for `[]` or `{}`, one more per level of nesting.
 *
 * @example Usage
 * ```ts
 * import { jsonNesting } from "./json.ts";
 * if (jsonNesting(7) !== 0 || jsonNesting({ a: [[], 1] }) !== 3) throw new Error();
 * ```
 */
export function jsonNesting(value: unknown): number {
  let max = 0;
  const todo: [unknown, number][] = [[value, 1]];
  while (todo.length > 0) {
    const [v, depth] = todo.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) max = depth;
    for (const item of Array.isArray(v) ? v : Object.values(v)) todo.push([item, depth + 1]);
  }
  return max;
}

/** Decimal places kept in result files (report.json, live records, forecasts' defaults). */
export const RESULT_DECIMALS = 5;

/** Options of {@linkcode stableJson}. */
export interface StableJsonOptions {
  /**
   * Decimal places kept for non-integer numbers (`-0` written as `0`); absent: every number as
   * `JSON.stringify` writes it.
   */
  readonly decimals?: number;
  /** Spaces per level; `0` writes one line. @default {2} */
  readonly indent?: number;
}

/**
 * Serializes a value as JSON with object keys sorted (UTF-16 order, as `Array.prototype.sort`)
 * at every depth; `undefined` members are dropped, as `JSON.stringify` drops them. Indented
 * text ends with a newline (it is a file); one-line text does not (it is a line or a key).
 *
 * @param value Any JSON-compatible value.
 * @param options Rounding and indentation.
 * @returns The JSON text.
 * @throws {RangeError} When a number is NaN or infinite (its path is quoted), as
 *   `JSON.stringify` would silently write `null`.
 *
 * @example Usage
 * ```ts
 * import { stableJson } from "./json.ts";
 * const pretty = stableJson({ b: 1 / 3, a: [1] }, { decimals: 5 });
 * if (pretty !== '{\n  "a": [\n    1\n  ],\n  "b": 0.33333\n}\n') throw new Error(pretty);
 * if (stableJson({ b: 1, a: { d: 2, c: 3 } }, { indent: 0 }) !== '{"a":{"c":3,"d":2},"b":1}') {
 *   throw new Error();
 * }
 * ```
 */
export function stableJson(value: unknown, options: StableJsonOptions = {}): string {
  const { decimals, indent = 2 } = options;
  const sorted = sortKeysDeep(value, (n, at) => {
    if (!Number.isFinite(n)) {
      throw new RangeError(
        `Cannot write JSON as ${at()} is not a finite number: current value is ${n}`,
      );
    }
    if (decimals === undefined || Number.isInteger(n)) return n;
    const rounded = Number(n.toFixed(decimals));
    return Object.is(rounded, -0) ? 0 : rounded;
  });
  return indent === 0 ? jsonText(sorted) : jsonText(sorted, indent) + "\n";
}

/**
 * Copies a JSON-compatible value with object keys sorted at every depth and `undefined` members
 * dropped; every number goes through `mapNumber`, whose second argument gives the number's
 * path (`$`, `$.rows[0].v`, ...) when called.
 */
function sortKeysDeep(
  value: unknown,
  mapNumber: (n: number, path: () => string) => number,
): unknown {
  // A work list, not recursion (a captured schema may nest thousands of levels), visiting nodes
  // in document order; each node's path is built from its parent links only when asked.
  interface Frame {
    readonly parent?: Frame;
    readonly step?: string | number;
  }
  const pathOf = (frame: Frame) => {
    const steps: (string | number)[] = [];
    for (let f: Frame | undefined = frame; f?.step !== undefined; f = f.parent) steps.push(f.step);
    return steps.reverse().reduce<string>(
      (p, s) => typeof s === "number" ? `${p}[${s}]` : `${p}.${s}`,
      "$",
    );
  };
  // Plain objects with an own "__proto__" key kept by defineProperty (schemas may contain one);
  // V8 writes null-prototype objects recursively, which overflowed on a deep schema.
  const set = (o: object, k: string, v: unknown) =>
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  let result: unknown;
  const todo: [unknown, Frame, (v: unknown) => void][] = [[value, {}, (v) => result = v]];
  while (todo.length > 0) {
    const [v, frame, put] = todo.pop()!;
    if (typeof v === "number") {
      put(mapNumber(v, () => pathOf(frame)));
    } else if (Array.isArray(v)) {
      const out = new Array(v.length);
      put(out);
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push([v[i], { parent: frame, step: i }, (x) => out[i] = x]);
      }
    } else if (v !== null && typeof v === "object") {
      const out = {};
      put(out);
      const rec = v as Record<string, unknown>;
      const keys = Object.keys(rec).sort().filter((k) => rec[k] !== undefined);
      for (const k of keys) set(out, k, null);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        todo.push([rec[k], { parent: frame, step: k }, (x) => set(out, k, x)]);
      }
    } else put(v);
  }
  return result;
}

/**
 * `JSON.stringify(value, null, indent)` of a JSON-like value, at any depth. V8 writes an object it holds in
 * dictionary mode (one a `delete` touched) recursively, and overflowed the call stack on a
 * captured schema 3,000 levels deep; then the same text is written with a work list. Members
 * that are `undefined`, functions or symbols are left out and array entries of them are `null`,
 * as JSON.stringify does; `toJSON` is not called (plain data only).
 *
 * @param value A JSON-like value.
 * @param indent Spaces per level; `0` writes one line. @default {0}
 * @returns Its JSON text.
 *
 * @example Usage
 * ```ts
 * import { jsonText } from "./json.ts";
 * if (jsonText({ a: [1, undefined], b: undefined }) !== '{"a":[1,null]}') throw new Error();
 * ```
 */
export function jsonText(value: unknown, indent = 0): string {
  try {
    return indent === 0 ? JSON.stringify(value) : JSON.stringify(value, null, indent);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  // JSON.stringify's layout: with an indent, each member or entry on its own line, `": "`
  // after a key, and an empty object or array written `{}` / `[]`.
  const out: string[] = [];
  const todo: ({ raw: string } | { value: unknown; level: number })[] = [{ value, level: 0 }];
  const kept = (v: unknown) => v !== undefined && typeof v !== "function" && typeof v !== "symbol";
  const pad = (level: number) => indent === 0 ? "" : `\n${" ".repeat(indent * level)}`;
  const colon = indent === 0 ? ":" : ": ";
  while (todo.length > 0) {
    const item = todo.pop()!;
    if ("raw" in item) {
      out.push(item.raw);
      continue;
    }
    const { value: v, level } = item;
    if (v === null || typeof v !== "object") {
      out.push(kept(v) ? JSON.stringify(v) : "null");
      continue;
    }
    const inner = pad(level + 1);
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push("[]");
        continue;
      }
      out.push("[");
      todo.push({ raw: `${pad(level)}]` });
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i], level: level + 1 });
        todo.push({ raw: i > 0 ? `,${inner}` : inner });
      }
      continue;
    }
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => kept(record[k]));
    if (keys.length === 0) {
      out.push("{}");
      continue;
    }
    out.push("{");
    todo.push({ raw: `${pad(level)}}` });
    for (let i = keys.length - 1; i >= 0; i--) {
      todo.push({ value: record[keys[i]], level: level + 1 });
      todo.push({ raw: `${i > 0 ? "," : ""}${inner}${JSON.stringify(keys[i])}${colon}` });
    }
  }
  return out.join("");
}
