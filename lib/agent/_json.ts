/** JSON with sorted keys, and SHA-256 (private to lib/agent). @module */

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
  return JSON.stringify(sortKeys(value), null, indent);
}

function sortKeys(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TypeError(`Cannot write JSON: ${value} is not a finite number`);
  }
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Lower-case hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
