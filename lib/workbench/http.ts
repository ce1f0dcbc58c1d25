/**
 * Request bodies of the workbench's API: a size limit (Hono's `bodyLimit`, before any route
 * reads a byte) and a JSON reader whose errors are one line.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { JSON_NESTING_LIMIT, jsonNesting } from "../core/json.ts";
import { WorkbenchError } from "./_paths.ts";

/** Default largest request body, bytes (1 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/**
 * Refuses a body over `maxBytes` with 413 (JSON under `/api/`, text elsewhere); a body without
 * `Content-Length` is counted as it arrives.
 *
 * @param maxBytes Limit, bytes.
 * @returns Hono middleware.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      const error = `request body over ${maxBytes} bytes`;
      return c.req.path.startsWith("/api/")
        ? c.json({ error }, 413)
        : c.text(`413 ${error}\n`, 413);
    },
  });
}

/**
 * Reads a JSON request body (its size was checked by {@linkcode limitBody}).
 *
 * @param c Hono context.
 * @returns The parsed value.
 * @throws {WorkbenchError} 400 for an empty body or malformed JSON (the message is one line:
 *   the parser's reason).
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") throw new WorkbenchError(400, "request body is empty; send JSON");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new WorkbenchError(400, `request body is not valid JSON: ${(e as Error).message}`);
  }
  const depth = jsonNesting(value);
  if (depth > MAX_BODY_DEPTH) {
    throw new WorkbenchError(
      400,
      `request body nests ${depth} levels deep; the API takes at most ${MAX_BODY_DEPTH}`,
    );
  }
  return value;
}

/**
 * Deepest nesting of objects and arrays a body may have: the documents the API takes (suites,
 * agents, servers, dashboards) nest a dozen levels; a body of 100,000 nested arrays (under the
 * size limit) overflowed the validators' recursion.
 */
export const MAX_BODY_DEPTH = JSON_NESTING_LIMIT;
