/**
 * HTTP helpers shared by the workbench's features: a size-limited JSON body reader whose errors
 * are one line, and HTML escaping.
 *
 * @module
 */

import type { Context } from "hono";
import { WorkbenchError } from "./_paths.ts";

/** Default largest request body, bytes (1 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/**
 * Reads a JSON request body, at most `maxBytes` (a chunked body is counted as it arrives).
 *
 * @param c Hono context.
 * @param maxBytes Limit. @default DEFAULT_MAX_BODY_BYTES
 * @returns The parsed value.
 * @throws {WorkbenchError} 413 over the limit; 400 for an empty body or malformed JSON (the
 *   message is one line: the parser's reason).
 */
export async function readJsonBody(
  c: Context,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<unknown> {
  const body = c.req.raw.body;
  if (body === null) throw new WorkbenchError(400, "request body is empty; send JSON");
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new WorkbenchError(413, `request body over ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const ch of chunks) {
    bytes.set(ch, at);
    at += ch.length;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") throw new WorkbenchError(400, "request body is empty; send JSON");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new WorkbenchError(400, `request body is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * Escapes text for HTML content and attribute values.
 *
 * @param text Any value (stringified).
 * @returns Escaped text.
 */
export function esc(text: unknown): string {
  return String(text ?? "").replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** JSON for embedding in a `<script type="application/json">` element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
