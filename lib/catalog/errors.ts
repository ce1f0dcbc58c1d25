/**
 * The one domain error of the catalog loaders.
 *
 * @module
 */

import { InputFileError } from "../core/errors.ts";

/** Where in a catalog file a {@linkcode CatalogError} was found. */
export interface CatalogErrorOptions {
  /** File path as given by the caller, or `"<memory>"` for in-memory text. */
  readonly path: string;
  /**
   * The tool concerned: its id (`server:name`) when one can be formed, else
   * its JSON location in the file (e.g. `tools[3]`, `servers[1].tools[0]`).
   */
  readonly toolId?: string;
  /** The offending field as spelled in the file, e.g. `inputSchema`, `tool_count`, `schema`. */
  readonly field?: string;
  /** The underlying error (a `SyntaxError` from the JSON parser, an I/O error). */
  readonly cause?: unknown;
}

/**
 * A catalog file that cannot be loaded: unreadable, not JSON, or failing
 * validation (duplicate ids, empty names, header counts that disagree with the
 * rows, a schema that is not an object or not valid JSON, a field of the wrong
 * type).
 *
 * The message is one line meant for the user and names the file, the tool and
 * the field, e.g.
 * `Cannot load catalog "x.json": tool "fs:read" field "inputSchema" is not an object (got array)`.
 *
 * @example Usage
 * ```ts
 * import { CatalogError } from "./errors.ts";
 * const err = new CatalogError("is empty", { path: "a.json", toolId: "tools[0]", field: "name" });
 * if (err.message !== 'Cannot load catalog "a.json": tool "tools[0]" field "name" is empty') {
 *   throw new Error(err.message);
 * }
 * ```
 */
export class CatalogError extends InputFileError {
  /** The tool id, or its JSON location when no id can be formed; absent for file-level errors. */
  readonly toolId?: string;
  /** The offending field as spelled in the file; absent when no single field is at fault. */
  readonly field?: string;

  /**
   * Build the error and its one-line message from the detail and the location.
   *
   * @param detail What is wrong, e.g. `is not an object (got array)`; the
   *   file, tool and field are prefixed from `options`.
   * @param options Location of the fault and its cause.
   */
  constructor(detail: string, options: CatalogErrorOptions) {
    const where = (options.toolId !== undefined ? `tool ${JSON.stringify(options.toolId)} ` : "") +
      (options.field !== undefined ? `field ${JSON.stringify(options.field)} ` : "");
    super(
      options.path,
      `Cannot load catalog ${JSON.stringify(options.path)}: ${where}${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "CatalogError";
    if (options.toolId !== undefined) this.toolId = options.toolId;
    if (options.field !== undefined) this.field = options.field;
  }
}
