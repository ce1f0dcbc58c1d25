/** JSON with sorted keys, and SHA-256 (private to lib/agent). @module */
import { sortKeysDeep } from "../core/json.ts";
import { sha256Hex } from "../catalog/load.ts";

/**
 * JSON text with object keys sorted (UTF-16 order) at every depth; `undefined`
 * properties are dropped. Compact unless `indent` is given.
 *
 * @param value Any JSON-compatible value.
 * @param indent Spaces per indentation level (as `JSON.stringify`'s third argument); default
 *   none (one line).
 * @returns The JSON text, without a trailing newline.
 * @throws {TypeError} on a non-finite number (JSON has no NaN).
 */
export function sortedJson(value: unknown, indent?: number): string {
  const finite = (n: number) => {
    if (!Number.isFinite(n)) throw new TypeError(`Cannot write JSON: ${n} is not a finite number`);
    return n;
  };
  return JSON.stringify(sortKeysDeep(value, finite), null, indent);
}

/** Lower-case hex SHA-256 (catalog's `sha256Hex`; a string is hashed as UTF-8). */
export { sha256Hex };
