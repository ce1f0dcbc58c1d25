/**
 * Reading an MCP client's JSON file: JSON with comments and trailing commas where the client
 * allows them (VS Code's and Cursor's files are JSONC), and a syntax error reported as one line
 * naming the file, the line and the column.
 *
 * @module
 */
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import type { JsonValue } from "../catalog/types.ts";

/** A file that is not valid JSON (or JSONC): where and why. */
export class ConfigSyntaxError extends SyntaxError {
  /** The file, as given. */
  readonly path: string;
  /** 1-based line of the first error. */
  readonly line: number;
  /** 1-based column of the first error. */
  readonly column: number;

  /**
   * An error at a position of a file.
   *
   * @param path The file.
   * @param line 1-based line.
   * @param column 1-based column.
   * @param reason What is wrong there, e.g. `a comma is expected`.
   */
  constructor(path: string, line: number, column: number, reason: string) {
    super(`${path}:${line}:${column}: not valid JSON: ${reason}`);
    this.name = "ConfigSyntaxError";
    this.path = path;
    this.line = line;
    this.column = column;
  }
}

/** jsonc-parser's error codes in words. */
const REASONS: Record<string, string> = {
  InvalidSymbol: "an unexpected character",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: "a property name (in double quotes) is expected",
  ValueExpected: "a value is expected",
  ColonExpected: "a colon is expected",
  CommaExpected: "a comma is expected",
  CloseBraceExpected: "a closing brace is expected",
  CloseBracketExpected: "a closing bracket is expected",
  EndOfFileExpected: "the end of the file is expected",
  InvalidCommentToken: "a comment, which this file may not hold",
  UnexpectedEndOfComment: "a comment that is not closed",
  UnexpectedEndOfString: "a string that is not closed",
  UnexpectedEndOfNumber: "a number that ends early",
  InvalidUnicode: "an invalid unicode escape",
  InvalidEscapeCharacter: "an invalid escape character",
  InvalidCharacter: "an invalid character in a string",
};

/**
 * Parses a client's JSON file.
 *
 * @param text The file's text.
 * @param path The file, for the error.
 * @param jsonc Allow `//` and block comments (VS Code, Cursor); trailing commas are always
 *   accepted, as the clients' own readers accept them.
 * @returns The value.
 * @throws {ConfigSyntaxError} At the first syntax error (an empty file is one: a value is expected).
 *
 * @example Usage
 * ```ts
 * import { ConfigSyntaxError, parseConfigText } from "./config_text.ts";
 * try {
 *   parseConfigText('{\n  "mcpServers": {\n    "a": {} "b": {}\n  }\n}', "x.json", false);
 *   throw new Error("expected a syntax error");
 * } catch (e) {
 *   if (!(e instanceof ConfigSyntaxError) || e.line !== 3 || e.column !== 13) throw e;
 * }
 * ```
 */
export function parseConfigText(text: string, path: string, jsonc: boolean): JsonValue {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: !jsonc });
  if (errors.length === 0 && value !== undefined) return value as JsonValue;
  const first = errors[0] ?? { error: 4, offset: text.length, length: 0 };
  const before = text.slice(0, first.offset).split("\n");
  const code = printParseErrorCode(first.error);
  throw new ConfigSyntaxError(
    path,
    before.length,
    before.at(-1)!.length + 1,
    REASONS[code] ?? code,
  );
}
