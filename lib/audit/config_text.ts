/**
 * Reading an MCP client's JSON file in that client's dialect: comments where the client allows
 * them (VS Code's and Cursor's files are JSONC), trailing commas and a leading byte order mark
 * unless the client is known to reject them (Gemini CLI), and a syntax error reported as one line
 * naming the file, the line and the column. Codex's `config.toml` is TOML 1.0, read with
 * smol-toml, its errors reported the same way.
 *
 * @module
 */
import { createScanner, parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml, TomlDate, TomlError } from "smol-toml";
import type { JsonValue } from "../catalog/types.ts";
import { JSON_NESTING_LIMIT as MAX_DEPTH, jsonNesting } from "../core/json.ts";

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
   * @param format The file's language, as the message names it.
   */
  constructor(path: string, line: number, column: number, reason: string, format = "JSON") {
    super(`${path}:${line}:${column}: not valid ${format}: ${reason}`);
    this.name = "ConfigSyntaxError";
    this.path = path;
    this.line = line;
    this.column = column;
  }
}

/** How a client reads its JSON files. */
export interface JsonDialect {
  /** `//` and block comments are allowed. */
  readonly comments: boolean;
  /** A comma before a closing brace or bracket is allowed. */
  readonly trailingCommas: boolean;
  /** A leading byte order mark is skipped (editors that decode the file first skip it). */
  readonly bom: boolean;
  /** A blank file holds no servers, not an error (Claude Code's `.mcp.json`). */
  readonly blankIsEmpty?: boolean;
}

/** VS Code's JSONC (also Cursor's and Windsurf's): comments, trailing commas, a BOM. */
export const JSONC: JsonDialect = { comments: true, trailingCommas: true, bom: true };

/**
 * Plain JSON, read leniently where the client's reader is not known (Claude Desktop): no
 * comments; trailing commas and a BOM are passed over.
 */
export const LENIENT_JSON: JsonDialect = { comments: false, trailingCommas: true, bom: true };

/**
 * Claude Code's reader: `JSON.parse` of the text less a leading BOM (its `safeParseJSON`, as
 * bundled in Claude Code 2.1.328), so a comment or a trailing comma makes the file an error.
 */
export const CLAUDE_CODE_JSON: JsonDialect = { comments: false, trailingCommas: false, bom: true };

/** Claude Code's reader for a project's `.mcp.json`, which reads a blank file as no servers. */
export const CLAUDE_CODE_MCP_JSON: JsonDialect = { ...CLAUDE_CODE_JSON, blankIsEmpty: true };

/**
 * Gemini CLI's reader: `JSON.parse(stripJsonComments(text))` (packages/cli/src/config/settings.ts,
 * strip-json-comments 3.1.1 with its defaults), so comments are allowed but a trailing comma or
 * a BOM makes the whole file an error, which Gemini CLI reports and reads nothing from.
 */
export const GEMINI_JSON: JsonDialect = { comments: true, trailingCommas: false, bom: false };

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
 * @param dialect The client's reader: `true` is {@linkcode JSONC}, `false`
 *   {@linkcode LENIENT_JSON}.
 * @returns The value.
 * @throws {ConfigSyntaxError} At the first syntax error (an empty file is one).
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
export function parseConfigText(
  text: string,
  path: string,
  dialect: boolean | JsonDialect,
): JsonValue {
  const d = dialect === true ? JSONC : dialect === false ? LENIENT_JSON : dialect;
  if (text.startsWith("\uFEFF")) {
    if (!d.bom) {
      throw new ConfigSyntaxError(path, 1, 1, "a byte order mark (BOM) before the JSON");
    }
    text = text.slice(1);
  }
  if (text.trim() === "") {
    if (d.blankIsEmpty) return {};
    throw new ConfigSyntaxError(path, 1, 1, "the file is empty");
  }
  const errors: ParseError[] = [];
  let value: unknown;
  let overflow = false;
  try {
    value = parse(text, errors, {
      allowTrailingComma: d.trailingCommas,
      disallowComments: !d.comments,
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    overflow = true;
  }
  // Deeper nesting than any client file needs overflows the stack of the recursive readers
  // (jsonc-parser's, and the report's walks over the values): refused where it starts.
  if (overflow || (errors.length === 0 && jsonNesting(value) > MAX_DEPTH)) {
    const before = text.slice(0, tooDeep(text) ?? 0).split("\n");
    throw new ConfigSyntaxError(
      path,
      before.length,
      before.at(-1)!.length + 1,
      `arrays and objects nested more than ${MAX_DEPTH} deep (the limit of serde_json, ` +
        "Amazon Q CLI's reader)",
    );
  }
  if (errors.length === 0 && value !== undefined) return value as JsonValue;
  const first = errors[0] ?? { error: 4, offset: text.length, length: 0 };
  const before = text.slice(0, first.offset).split("\n");
  const code = printParseErrorCode(first.error);
  // A comma right before the closing brace or bracket jsonc-parser stopped at.
  const trailing = !d.trailingCommas && /^[}\]]/.test(text.slice(first.offset)) &&
    /,\s*$/.test(stripComments(text.slice(0, first.offset)));
  throw new ConfigSyntaxError(
    path,
    before.length,
    before.at(-1)!.length + 1,
    trailing ? "a comma before a closing bracket" : REASONS[code] ?? code,
  );
}

/** The offset of the first bracket nested deeper than {@linkcode MAX_DEPTH}, if any. */
function tooDeep(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  // A token's first character tells a bracket from a string or comment that holds one.
  while (scanner.scan() !== 17 /* SyntaxKind.EOF, a const enum not importable here */) {
    const at = scanner.getTokenOffset();
    if (text[at] === "{" || text[at] === "[") {
      if (++depth > MAX_DEPTH) return at;
    } else if (text[at] === "}" || text[at] === "]") depth--;
  }
  return undefined;
}

/** The text without its `//` and block comments (for telling a trailing comma). */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
}

/** A TOML value as JSON: a date or time becomes its TOML text; every other value is JSON's. */
function tomlToJson(value: unknown): JsonValue {
  if (value instanceof TomlDate) return value.toISOString();
  if (Array.isArray(value)) return value.map(tomlToJson);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tomlToJson(v)]));
  }
  return value as JsonValue;
}

/**
 * Parses a TOML file (Codex's `config.toml`) into its JSON value: tables are objects, integers
 * and floats numbers, dates their TOML text.
 *
 * @param text The file's text.
 * @param path The file, for the error.
 * @returns The document's table.
 * @throws {ConfigSyntaxError} At the first syntax error, with its line and column.
 *
 * @example Usage
 * ```ts
 * import { ConfigSyntaxError, parseTomlText } from "./config_text.ts";
 * const v = parseTomlText('[mcp_servers.docs]\ncommand = "npx"\n', "config.toml");
 * if (JSON.stringify(v) !== '{"mcp_servers":{"docs":{"command":"npx"}}}') throw new Error();
 * try {
 *   parseTomlText('[mcp_servers.docs]\ncommand = npx\n', "config.toml");
 *   throw new Error("expected a syntax error");
 * } catch (e) {
 *   if (!(e instanceof ConfigSyntaxError) || e.line !== 2) throw e;
 * }
 * ```
 */
export function parseTomlText(text: string, path: string): JsonValue {
  try {
    return tomlToJson(parseToml(text));
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message is "Invalid TOML document: REASON" followed by a code excerpt.
    const reason = error.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    throw new ConfigSyntaxError(path, error.line, error.column, reason, "TOML");
  }
}
