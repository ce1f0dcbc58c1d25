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
 * `JSON.stringify` would drop them. Every number goes through `mapNumber`,
 * which may return a replacement or throw; its second argument gives the
 * number's path (`$`, `$.rows[0].v`, ...) when called (the walk makes no path
 * string unless asked, as most policies only quote it in an error).
 *
 * @param value The value.
 * @param mapNumber Number policy (rounding, rejecting NaN, ...).
 * @param path Path of `value` in the whole document. @default {"$"}
 * @returns The sorted copy.
 */
export function sortKeysDeep(
  value: unknown,
  mapNumber: (n: number, path: () => string) => number,
  path = "$",
): unknown {
  // The keys and indexes from `value` down to the node being copied.
  const steps: (string | number)[] = [];
  const at = () =>
    steps.reduce<string>((p, s) => typeof s === "number" ? `${p}[${s}]` : `${p}.${s}`, path);
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
