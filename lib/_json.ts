/**
 * The one key-sorting walk behind every deterministic JSON writer in lib/
 * (`stableJson` in report, `stringifySorted` in mcp, `sortedJson` in agent).
 * Private: each writer keeps its own number policy and error.
 *
 * @module
 */

/**
 * Copies a JSON-compatible value with object keys sorted (UTF-16 order, as
 * `Array.prototype.sort`) at every depth and `undefined` members dropped, as
 * `JSON.stringify` would drop them. Every number goes through `mapNumber`
 * with its path (`$`, `$.rows[0].v`, ...), which may return a replacement or
 * throw.
 *
 * @param value The value.
 * @param mapNumber Number policy (rounding, rejecting NaN, ...).
 * @param path Path of `value` in the whole document. @default {"$"}
 * @returns The sorted copy.
 */
export function sortKeysDeep(
  value: unknown,
  mapNumber: (n: number, path: string) => number,
  path = "$",
): unknown {
  if (typeof value === "number") return mapNumber(value, path);
  if (Array.isArray(value)) return value.map((v, i) => sortKeysDeep(v, mapNumber, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    // A null prototype keeps a "__proto__" key an ordinary member (schemas may contain one).
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeysDeep(v, mapNumber, `${path}.${key}`);
    }
    return out;
  }
  return value;
}
