/**
 * Domain errors of the MCP capture layer. Caller mistakes (a negative
 * timeout, a concurrency of zero) throw the built-in `RangeError`/`TypeError`.
 *
 * @module
 */

import { InputFileError } from "../core/errors.ts";

/**
 * A servers config that cannot be used: malformed JSON, a missing or
 * ill-typed field, or a `${VAR}` whose variable is not defined.
 *
 * The message names the config source (file path), the server and the field,
 * e.g. `Cannot use servers config "a.json": server "github" field "env.TOKEN": variable "GH" is not defined`.
 *
 * @example
 * ```ts
 * import { ConfigError } from "./errors.ts";
 * const error = new ConfigError("a.json", "bad", { server: "x", field: "command" });
 * if (error.message !== 'Cannot use servers config "a.json": server "x" field "command": bad') {
 *   throw new Error(error.message);
 * }
 * ```
 */
export class ConfigError extends InputFileError {
  /** Where the config came from (a file path, or `"<inline>"`). */
  readonly source: string;
  /** The server entry at fault, when one is. */
  readonly server?: string;
  /** The dotted field path at fault inside the server entry (or the file), when one is. */
  readonly field?: string;

  /**
   * Builds the message from the source, the location and the reason.
   *
   * @param source Where the config came from (file path or `"<inline>"`).
   * @param reason What is wrong, in a few words.
   * @param where The server name and dotted field path at fault, when known.
   */
  constructor(
    source: string,
    reason: string,
    where: { readonly server?: string; readonly field?: string } = {},
  ) {
    const at: string[] = [];
    if (where.server !== undefined) at.push(`server ${JSON.stringify(where.server)}`);
    if (where.field !== undefined) at.push(`field ${JSON.stringify(where.field)}`);
    const prefix = `Cannot use servers config ${JSON.stringify(source)}`;
    super(source, at.length > 0 ? `${prefix}: ${at.join(" ")}: ${reason}` : `${prefix}: ${reason}`);
    this.name = "ConfigError";
    this.source = source;
    if (where.server !== undefined) this.server = where.server;
    if (where.field !== undefined) this.field = where.field;
  }
}

/**
 * A paginated list (`tools/list`, `prompts/list`, `resources/list`) that would
 * never end: the server sent a cursor it had already sent, or more pages than
 * the limit.
 */
export class PaginationError extends Error {
  /** The MCP method that was being paged, e.g. `"tools/list"`. */
  readonly method: string;
  /** How many pages had been received when the error was raised. */
  readonly pages: number;

  /**
   * Builds the message from the method, the page count and the reason.
   *
   * @param method The MCP list method, e.g. `"tools/list"`.
   * @param pages Pages received so far (count).
   * @param reason What went wrong, in a few words.
   */
  constructor(method: string, pages: number, reason: string) {
    super(`${method} pagination stopped after ${pages} page(s): ${reason}`);
    this.name = "PaginationError";
    this.method = method;
    this.pages = pages;
  }
}
