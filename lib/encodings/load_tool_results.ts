/**
 * Reads a frozen tool-results file (`deno task capture-results` output): the
 * I/O edge in front of {@linkcode measureToolResults}.
 *
 * Needs `--allow-read` for the file.
 *
 * @module
 */
import { sha256Hex } from "../catalog/load.ts";
import type { ToolResultRecord } from "./toon_results.ts";

/** The `format` value of a tool-results file. */
export const TOOL_RESULTS_FORMAT = "mcpmeter-tool-results";

/** A parsed tool-results file. */
export interface ToolResultsFile {
  /** File id, e.g. `results_v1`. */
  readonly id: string;
  /** Recorded results, in file order. */
  readonly results: readonly ToolResultRecord[];
  /** Lower-case hex SHA-256 of the file's bytes, set by {@linkcode loadToolResults}. */
  readonly sha256?: string;
}

/**
 * Parses the text of a tool-results file.
 *
 * @param text File text (JSON).
 * @param path Name used in error messages.
 * @returns Its id and results.
 * @throws {TypeError} When the text is not JSON, `format` is not
 *   `mcpmeter-tool-results`, or a result lacks a string `id`, `server` or `tool`;
 *   the message quotes the path and the offending value.
 *
 * @example Usage
 * ```ts
 * import { parseToolResults } from "./load_tool_results.ts";
 * const file = parseToolResults(
 *   '{"format":"mcpmeter-tool-results","id":"r","results":[{"id":"a","server":"s","tool":"t","content":[]}]}',
 * );
 * if (file.results.length !== 1) throw new Error();
 * ```
 */
export function parseToolResults(text: string, path = "<memory>"): ToolResultsFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TypeError(
      `Cannot load tool results "${path}": not valid JSON (${(error as Error).message})`,
    );
  }
  const root = data as { format?: unknown; id?: unknown; results?: unknown };
  if (root?.format !== TOOL_RESULTS_FORMAT) {
    throw new TypeError(
      `Cannot load tool results "${path}": field "format" is ${
        JSON.stringify(root?.format)
      }, expected "${TOOL_RESULTS_FORMAT}"`,
    );
  }
  if (!Array.isArray(root.results)) {
    throw new TypeError(`Cannot load tool results "${path}": field "results" is not an array`);
  }
  for (const [i, r] of (root.results as Record<string, unknown>[]).entries()) {
    for (const key of ["id", "server", "tool"]) {
      if (typeof r?.[key] !== "string") {
        throw new TypeError(
          `Cannot load tool results "${path}": results[${i}] field "${key}" is ${
            JSON.stringify(r?.[key]) ?? "missing"
          }, expected a string`,
        );
      }
    }
  }
  return {
    id: typeof root.id === "string" ? root.id : "unnamed",
    results: root.results as ToolResultRecord[],
  };
}

/**
 * Reads and parses a tool-results file.
 *
 * @param path File path, e.g. `fixtures/tool_results/results_v1.json`.
 * @returns Its id and results, with the SHA-256 of the bytes read.
 * @throws {TypeError} As {@linkcode parseToolResults}, or when the file cannot be read.
 */
export async function loadToolResults(path: string): Promise<ToolResultsFile> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    throw new TypeError(`Cannot load tool results "${path}": ${(error as Error).message}`);
  }
  return {
    ...parseToolResults(new TextDecoder().decode(bytes), path),
    sha256: await sha256Hex(bytes),
  };
}
