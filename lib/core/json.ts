/**
 * The one deterministic JSON writer: object keys sorted at every depth, so equal values give
 * equal bytes whatever order they were built in. Result files, run folders, capture files and
 * the hashes of configurations and catalogs all go through {@linkcode stableJson}.
 *
 * @module
 */

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
  return indent === 0 ? JSON.stringify(sorted) : JSON.stringify(sorted, null, indent) + "\n";
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
  // The keys and indexes from `value` down to the node being copied.
  const steps: (string | number)[] = [];
  const at = () =>
    steps.reduce<string>((p, s) => typeof s === "number" ? `${p}[${s}]` : `${p}.${s}`, "$");
  const walk = (v: unknown): unknown => {
    if (typeof v === "number") return mapNumber(v, at);
    if (Array.isArray(v)) {
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) {
        steps.push(i);
        out[i] = walk(v[i]);
        steps.pop();
      }
      return out;
    }
    if (v !== null && typeof v === "object") {
      // A null prototype keeps a "__proto__" key an ordinary member (schemas may contain one).
      const out: Record<string, unknown> = Object.create(null);
      for (const key of Object.keys(v).sort()) {
        const member = (v as Record<string, unknown>)[key];
        if (member === undefined) continue;
        steps.push(key);
        out[key] = walk(member);
        steps.pop();
      }
      return out;
    }
    return v;
  };
  return walk(value);
}

/**
 * `JSON.stringify(value)` of a JSON-like value, at any depth. V8 writes an object it holds in
 * dictionary mode (one a `delete` touched) recursively, and overflowed the call stack on a
 * captured schema 3,000 levels deep; then the same text is written with a work list. Members
 * that are `undefined`, functions or symbols are left out and array entries of them are `null`,
 * as JSON.stringify does; `toJSON` is not called (plain data only).
 *
 * @param value A JSON-like value.
 * @returns Its JSON text.
 *
 * @example Usage
 * ```ts
 * import { jsonText } from "./json.ts";
 * if (jsonText({ a: [1, undefined], b: undefined }) !== '{"a":[1,null]}') throw new Error();
 * ```
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  const out: string[] = [];
  const todo: ({ raw: string } | { value: unknown })[] = [{ value }];
  const kept = (v: unknown) => v !== undefined && typeof v !== "function" && typeof v !== "symbol";
  while (todo.length > 0) {
    const item = todo.pop()!;
    if ("raw" in item) {
      out.push(item.raw);
      continue;
    }
    const v = item.value;
    if (v === null || typeof v !== "object") {
      out.push(kept(v) ? JSON.stringify(v) : "null");
      continue;
    }
    if (Array.isArray(v)) {
      out.push("[");
      todo.push({ raw: "]" });
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] });
        if (i > 0) todo.push({ raw: "," });
      }
      continue;
    }
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => kept(record[k]));
    out.push("{");
    todo.push({ raw: "}" });
    for (let i = keys.length - 1; i >= 0; i--) {
      todo.push({ value: record[keys[i]] });
      todo.push({ raw: `${JSON.stringify(keys[i])}:` });
      if (i > 0) todo.push({ raw: "," });
    }
  }
  return out.join("");
}
