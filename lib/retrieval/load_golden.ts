/**
 * File loaders for golden sets (the I/O edge of the retrieval module).
 *
 * @module
 */

import { sha256Hex } from "../catalog/load.ts";
import { readFailure } from "../core/errors.ts";
import { GoldenSetError } from "./errors.ts";
import { basename } from "node:path";
import { type GoldenParseOptions, parseMcpproxyGolden } from "./golden.ts";
import type { GoldenSet } from "./types.ts";

/**
 * Read an mcpproxy-format golden set from disk.
 *
 * @param path JSON file path.
 * @param options Set id (default: file name without `.json`) and strictness.
 * @returns The parsed {@linkcode GoldenSet}, with the SHA-256 of the bytes read.
 * @throws {GoldenSetError} (its `path` the file) when the file cannot be read (`Cannot use
 *   golden set "q.json": file not found`), is not JSON (the message gives line and column:
 *   `Cannot use golden set "q.json": is not valid JSON: Unexpected end of input, expected a
 *   JSON value at line 1 column 52 (offset 51)`) or has invalid content.
 */
export async function loadGolden(
  path: string,
  options: Partial<GoldenParseOptions> = {},
): Promise<GoldenSet> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    throw new GoldenSetError(path, [readFailure(e)]);
  }
  const text = new TextDecoder().decode(bytes);
  const id = options.id ?? basename(path).replace(/\.json$/, "");
  try {
    return { ...parseMcpproxyGolden(text, { ...options, id }), sha256: await sha256Hex(bytes) };
  } catch (e) {
    if (e instanceof SyntaxError) {
      throw new GoldenSetError(path, [`is not valid JSON: ${e.message}`]);
    }
    throw e;
  }
}
