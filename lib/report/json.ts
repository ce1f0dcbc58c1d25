import { sortKeysDeep } from "../core/json.ts";

/**
 * Deterministic JSON for result files: sorted keys, fixed rounding, no NaN.
 *
 * @module
 */

/** Decimal places kept for non-integer numbers at the write boundary. */
export const DEFAULT_DECIMALS = 5;

/**
 * Serializes a value as pretty JSON with object keys sorted (UTF-16 order) at
 * every depth and non-integer numbers rounded to `decimals` places, so equal
 * inputs give equal bytes. `undefined` members are dropped, as in `JSON.stringify`.
 *
 * @param value Any JSON-compatible value.
 * @param decimals Places kept for non-integers. @default {DEFAULT_DECIMALS}
 * @returns JSON text with 2-space indentation and a trailing newline.
 * @throws {RangeError} When a number is NaN or infinite (its path is quoted),
 *   because `JSON.stringify` would silently write `null`.
 *
 * @example Usage
 * ```ts
 * import { stableJson } from "./json.ts";
 * const text = stableJson({ b: 1 / 3, a: [1] });
 * if (text !== '{\n  "a": [\n    1\n  ],\n  "b": 0.33333\n}\n') throw new Error(text);
 * ```
 */
export function stableJson(value: unknown, decimals: number = DEFAULT_DECIMALS): string {
  return JSON.stringify(normalize(value, decimals, "$"), null, 2) + "\n";
}

function normalize(value: unknown, decimals: number, path: string): unknown {
  return sortKeysDeep(value, (n, at) => {
    if (!Number.isFinite(n)) {
      throw new RangeError(
        `Cannot write JSON as ${at()} is not a finite number: current value is ${n}`,
      );
    }
    if (Number.isInteger(n)) return n;
    const rounded = Number(n.toFixed(decimals));
    return Object.is(rounded, -0) ? 0 : rounded;
  }, path);
}
