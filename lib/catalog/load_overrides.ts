/**
 * Read a tool-overrides file from disk: the I/O edge in front of {@linkcode parseToolOverrides}.
 *
 * Needs `--allow-read` for the file.
 *
 * @module
 */

import { readFailure } from "../core/errors.ts";
import { parseToolOverrides, type ToolOverrides, ToolOverridesError } from "./overrides.ts";

/**
 * Reads and parses an overrides file.
 *
 * @param path File path (relative to the working directory, or absolute).
 * @param file Path recorded as `file` in the result; default `path`.
 * @returns The document, `file` set.
 * @throws {ToolOverridesError} When the file is missing or unreadable, or fails
 *   {@linkcode parseToolOverrides}'s validation.
 *
 * @example Usage
 * ```ts ignore
 * import { loadToolOverrides } from "./load_overrides.ts";
 * const o = await loadToolOverrides("fixtures/overrides/reference_fs.overrides.json");
 * console.log(Object.keys(o.overrides).length);
 * ```
 */
export async function loadToolOverrides(path: string, file = path): Promise<ToolOverrides> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new ToolOverridesError(path, "", readFailure(e));
  }
  return parseToolOverrides(text, path, file);
}
