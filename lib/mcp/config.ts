/**
 * Servers config in the `mcpServers` shape shared by Claude Desktop, Cursor
 * and VS Code, plus the optional keys mcpmeter uses for its reference corpus.
 *
 * ```json
 * {
 *   "mcpServers": {
 *     "memory": { "command": "node", "args": ["${BIN}"], "env": { "MEMORY_FILE_PATH": "${SCRATCH}/m.jsonl" } },
 *     "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${TOKEN}" } }
 *   }
 * }
 * ```
 *
 * An entry with `command` is a stdio server (`args`, `env`, `cwd` optional).
 * An entry with `url` is a remote server: `type: "http"` (or
 * `"streamable-http"`) uses streamable HTTP only, `type: "sse"` uses the legacy
 * SSE transport only, and no `type` tries streamable HTTP first and falls back
 * to SSE. VS Code's top-level `servers` key is accepted as an alias of
 * `mcpServers`.
 *
 * `${VAR}` and `${VAR:-default}` in `command`, `args`, `env` values, `cwd`,
 * `url`, `headers` values and `files` contents are expanded from an env record
 * the caller passes in ({@linkcode expandServerEntry}), as the shell does:
 * `${VAR:-default}` gives the default when VAR is unset or empty; a variable
 * that is unset and has no default is a {@linkcode ConfigError} naming it, the
 * server and the field. Keys are never expanded.
 *
 * mcpmeter's optional keys per entry (all validated, none required):
 * - `package` (npm name) and `version` (exact version): the package the
 *   capture task installs with `npm install --prefix`, and records in the corpus;
 * - `bin`: which `bin` entry of the package `${BIN}` points at (default: the
 *   only one, or the one named like the unscoped package);
 * - `license`: SPDX id to record when the installed package.json has none;
 * - `timeoutMs`: this server's overall capture timeout (ms), overriding the default;
 * - `installScripts`: `true` to run the package's install scripts (default:
 *   `npm install --ignore-scripts`);
 * - `files`: files to create before the server starts, `{ "path": content }`;
 *   a path is relative to the server's scratch folder (`${SCRATCH}`), or to its
 *   throwaway HOME when it starts with `~/`; it may not be absolute or contain
 *   `..`. Content is a string (written as text), any other JSON value except
 *   `null` (written as pretty JSON), or `null` (an empty directory);
 * - `notes`: free text (why the dummy arguments look the way they do).
 *
 * Any other key is kept in {@linkcode ServerMeta.extra} and otherwise ignored.
 *
 * Variables the capture supplies per server run (they win over the caller's
 * environment): `${HOME}` (a throwaway home folder), `${SCRATCH}` (the
 * server's scratch folder and default cwd, where `files` land), `${TMPDIR}`,
 * and, for entries with `package`/`version` captured with an install folder,
 * `${BIN}` (the package's bin script) and `${PACKAGE_DIR}` (its folder). All
 * of them are removed after the run.
 *
 * @module
 */

import { expandVariables, VARIABLE_PATTERN } from "../core/secrets.ts";
import { badNumberIn } from "../core/numbers.ts";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { ConfigError } from "./errors.ts";
import { parse as parseJsonc, type ParseError } from "jsonc-parser";

/** How a remote server is reached: streamable HTTP, legacy SSE, or HTTP then SSE. */
export type RemoteTransport = "streamable-http" | "sse" | "auto";

/** mcpmeter's optional per-entry keys; see the module doc for their meaning. */
export interface ServerMeta {
  /** npm package name, e.g. `@modelcontextprotocol/server-memory`. */
  readonly package?: string;
  /** Exact package version, e.g. `2026.8.31`. */
  readonly version?: string;
  /** Name of the package `bin` entry that `${BIN}` resolves to. */
  readonly bin?: string;
  /** License to record when the installed package.json declares none. */
  readonly license?: string;
  /** Overall capture timeout for this server, in ms (positive integer). */
  readonly timeoutMs?: number;
  /** Run the package's npm install scripts (default false: `--ignore-scripts`). */
  readonly installScripts?: boolean;
  /** Files to create before start: path (scratch-relative or `~/`) to content. */
  readonly files?: Readonly<Record<string, JsonValue>>;
  /** Free-text notes. */
  readonly notes?: string;
  /** Unknown keys of the entry, kept as written. */
  readonly extra: JsonObject;
}

/** A server started as a child process speaking MCP over stdin/stdout. */
export interface StdioServerEntry {
  /** Discriminant: a child process speaking MCP over stdio. */
  readonly kind: "stdio";
  /** Config key; becomes `Tool.server`. */
  readonly name: string;
  /** Executable (looked up on `PATH` when it has no `/`). */
  readonly command: string;
  /** Command-line arguments. */
  readonly args: readonly string[];
  /** Extra environment variables for the server. */
  readonly env: Readonly<Record<string, string>>;
  /** Working directory; absent means the capture's scratch folder. */
  readonly cwd?: string;
  /** mcpmeter's optional keys and the unknown keys of the entry. */
  readonly meta: ServerMeta;
}

/** A server reached over HTTP (streamable HTTP or SSE). */
export interface RemoteServerEntry {
  /** Discriminant: a server reached over HTTP. */
  readonly kind: "remote";
  /** Config key; becomes `Tool.server`. */
  readonly name: string;
  /** Endpoint URL. */
  readonly url: string;
  /** Extra HTTP request headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** Transport choice derived from `type`. */
  readonly transport: RemoteTransport;
  /** mcpmeter's optional keys and the unknown keys of the entry. */
  readonly meta: ServerMeta;
}

/** One entry of a servers config. */
export type ServerEntry = StdioServerEntry | RemoteServerEntry;

/** A parsed servers config. */
export interface ServersConfig {
  /** Where it came from (file path or `"<inline>"`), used in error messages. */
  readonly source: string;
  /** Entries sorted by name (UTF-16 code unit order). */
  readonly servers: readonly ServerEntry[];
}

/**
 * The value of a JSON-with-comments text (VS Code's `mcp.json` allows `//` and block comments
 * and trailing commas), or undefined when it is not valid even so.
 */
function jsonc(text: string): JsonValue | undefined {
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length === 0 && value !== undefined ? value as JsonValue : undefined;
}

function fail(source: string, message: string): never {
  throw new ConfigError(source, message);
}

/** Options of {@linkcode parseServersConfig}. */
export interface ParseServersConfigOptions {
  /** Name of the input in error messages (default `"<inline>"`). */
  readonly source?: string;
  /**
   * When given, every entry is expanded with {@linkcode expandServerEntry}
   * right away; when absent, `${VAR}` references are left as written.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const STDIO_KEYS = ["command", "args", "env", "cwd"] as const;
const REMOTE_KEYS = ["url", "headers", "type"] as const;
/** mcpmeter's own optional keys of an entry (pins, install and capture settings). */
export const META_KEYS = [
  "package",
  "version",
  "bin",
  "license",
  "timeoutMs",
  "installScripts",
  "files",
  "notes",
] as const;
const KNOWN_KEYS = new Set<string>([...STDIO_KEYS, ...REMOTE_KEYS, ...META_KEYS]);

/**
 * Parses and validates a servers config.
 *
 * @param input JSON text, or an already parsed JSON value.
 * @param options `source` for messages; `env` to expand `${VAR}` right away.
 * @returns The entries sorted by name.
 * @throws {ConfigError} On malformed JSON, a missing `mcpServers`/`servers`
 *   object, an entry that has both or neither of `command` and `url`, an
 *   ill-typed field, or (with `env`) an undefined variable. The message names
 *   the source, the server and the field.
 *
 * @example
 * ```ts
 * import { parseServersConfig } from "./config.ts";
 * const config = parseServersConfig(
 *   '{"mcpServers":{"b":{"url":"http://h/mcp"},"a":{"command":"node","args":["${X}"]}}}',
 *   { env: { X: "s.js" } },
 * );
 * const a = config.servers[0];
 * if (a.kind !== "stdio" || a.args[0] !== "s.js" || config.servers[1].name !== "b") throw new Error();
 * ```
 */
export function parseServersConfig(
  input: string | JsonValue,
  options: ParseServersConfigOptions = {},
): ServersConfig {
  const source = options.source ?? "<inline>";
  let value: JsonValue;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input) as JsonValue;
    } catch (error) {
      value = jsonc(input) ??
        fail(
          source,
          `not valid JSON (${
            (error as Error).message
          }); comments and trailing commas are allowed, as in VS Code's mcp.json`,
        );
    }
  } else {
    value = input;
  }
  if (!isObject(value)) {
    throw new ConfigError(source, `expected a JSON object, got ${describe(value)}`);
  }
  // The number rule (lib/core/numbers.ts): 1e999 parses as Infinity, which no field may hold.
  const bad = badNumberIn(value);
  if (bad !== undefined) {
    throw new ConfigError(source, `${bad.problem} (${bad.value})`, { field: bad.field });
  }
  const key = "mcpServers" in value ? "mcpServers" : "servers" in value ? "servers" : undefined;
  if (key === undefined) {
    throw new ConfigError(source, `missing the "mcpServers" object`, { field: "mcpServers" });
  }
  const table = value[key];
  if (key === "servers" && Array.isArray(table)) {
    // MAVERIK's mcp-servers.json: a list of {name, transport, endpoint, headers}, not a table.
    const slash = source.lastIndexOf("/");
    const folder = source.startsWith("<") ? "ITS_FOLDER" : slash < 0 ? "." : source.slice(0, slash);
    throw new ConfigError(
      source,
      `is a list of servers (MAVERIK's mcp-servers.json shape), not a table of name → server: ` +
        `convert it with "deno task import-maverik --from ${folder} --out DIR" and use ` +
        `DIR/agents/servers.json, or write "mcpServers": {"NAME": {"url": ...}}`,
      { field: key },
    );
  }
  if (!isObject(table)) {
    throw new ConfigError(source, `expected an object, got ${describe(table)}`, { field: key });
  }
  const servers: ServerEntry[] = [];
  for (const name of Object.keys(table).sort()) {
    const entry = parseEntry(source, name, table[name]);
    servers.push(options.env === undefined ? entry : expandServerEntry(entry, options.env, source));
  }
  return { source, servers };
}

/**
 * Expands `${VAR}` and `${VAR:-default}` in every expandable string of an
 * entry (see the module doc). `$` not followed by `{` is kept as is.
 *
 * @param entry A parsed entry.
 * @param env Variable values; `undefined` counts as not defined.
 * @param source Config source for error messages (default `"<inline>"`).
 * @returns A new entry with the strings expanded.
 * @throws {ConfigError} When a referenced variable is not defined and has no
 *   default; the message names the variable, the server and the field.
 *
 * @example
 * ```ts
 * import { expandServerEntry, parseServersConfig } from "./config.ts";
 * const [entry] = parseServersConfig('{"mcpServers":{"s":{"command":"${A:-node}","env":{"K":"${B}/x"}}}}').servers;
 * const out = expandServerEntry(entry, { B: "/tmp" });
 * if (out.kind !== "stdio" || out.command !== "node" || out.env.K !== "/tmp/x") throw new Error();
 * ```
 */
export function expandServerEntry(
  entry: ServerEntry,
  env: Readonly<Record<string, string | undefined>>,
  source = "<inline>",
): ServerEntry {
  const x = (text: string, field: string) => expandString(text, env, source, entry.name, field);
  const meta = expandMeta(entry.meta, x);
  if (entry.kind === "stdio") {
    const out: StdioServerEntry = {
      kind: "stdio",
      name: entry.name,
      command: x(entry.command, "command"),
      args: entry.args.map((arg, i) => x(arg, `args[${i}]`)),
      env: mapRecord(entry.env, (v, k) => x(v, `env.${k}`)),
      ...(entry.cwd === undefined ? {} : { cwd: x(entry.cwd, "cwd") }),
      meta,
    };
    return out;
  }
  return {
    kind: "remote",
    name: entry.name,
    url: x(entry.url, "url"),
    headers: mapRecord(entry.headers, (v, k) => x(v, `headers.${k}`)),
    transport: entry.transport,
    meta,
  };
}

/**
 * Lists the variable names referenced by `${...}` in one string, in order of
 * appearance (duplicates kept).
 *
 * @param text Any string.
 * @returns Variable names, e.g. `["HOME", "X"]` for `"${HOME}/${X:-a}"`.
 */
export function referencedVariables(text: string): string[] {
  return [...text.matchAll(VARIABLE_PATTERN)].map((m) => m[1]);
}

function expandString(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  source: string,
  server: string,
  field: string,
): string {
  return expandVariables(text, env, (name) => {
    throw new ConfigError(source, `variable ${JSON.stringify(name)} is not defined`, {
      server,
      field,
    });
  });
}

function expandMeta(meta: ServerMeta, x: (text: string, field: string) => string): ServerMeta {
  if (meta.files === undefined) return meta;
  const files: Record<string, JsonValue> = {};
  for (const [path, content] of Object.entries(meta.files)) {
    files[path] = expandJson(content, (s, sub) => x(s, `files.${path}${sub}`), "");
  }
  return { ...meta, files };
}

function expandJson(
  value: JsonValue,
  x: (text: string, sub: string) => string,
  at: string,
): JsonValue {
  if (typeof value === "string") return x(value, at);
  if (Array.isArray(value)) return value.map((v, i) => expandJson(v, x, `${at}[${i}]`));
  if (isObject(value)) {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandJson(v, x, `${at}.${k}`);
    return out;
  }
  return value;
}

function parseEntry(source: string, name: string, value: JsonValue): ServerEntry {
  const fail = (reason: string, field?: string): never => {
    throw new ConfigError(
      source,
      reason,
      field === undefined ? { server: name } : {
        server: name,
        field,
      },
    );
  };
  if (name.trim() === "" || name.includes(":")) {
    fail(`server names must be non-empty and contain no ":" (tool ids are "server:name")`);
  }
  if (!isObject(value)) return fail(`expected an object, got ${describe(value)}`);
  const hasCommand = value.command !== undefined;
  const hasUrl = value.url !== undefined;
  if (hasCommand && hasUrl) fail(`has both "command" and "url"; use one`);
  if (!hasCommand && !hasUrl) fail(`needs "command" (stdio) or "url" (HTTP)`);

  const str = (field: string, optional: boolean): string | undefined => {
    const v = value[field];
    if (v === undefined && optional) return undefined;
    if (typeof v !== "string" || v === "") {
      return fail(`expected a non-empty string, got ${describe(v)}`, field);
    }
    return v;
  };
  // `env` and `headers` hold secrets: a message names what a wrong value is, never the value.
  const strRecord = (field: string): Record<string, string> => {
    const v = value[field];
    if (v === undefined) return {};
    if (!isObject(v)) return fail(`expected an object of strings, got ${kindOf(v)}`, field);
    const out: Record<string, string> = {};
    for (const [k, item] of Object.entries(v)) {
      if (typeof item !== "string") {
        fail(`expected a string, got ${kindOf(item)}`, `${field}.${k}`);
      }
      out[k] = item as string;
    }
    return out;
  };

  const meta = parseMeta(value, fail, str);
  if (hasCommand) {
    const args = value.args ?? [];
    if (!Array.isArray(args)) fail(`expected an array of strings, got ${describe(args)}`, "args");
    (args as JsonValue[]).forEach((a, i) => {
      if (typeof a !== "string") fail(`expected a string, got ${describe(a)}`, `args[${i}]`);
    });
    const cwd = str("cwd", true);
    return {
      kind: "stdio",
      name,
      command: str("command", false)!,
      args: [...(args as string[])],
      env: strRecord("env"),
      ...(cwd === undefined ? {} : { cwd }),
      meta,
    };
  }
  const url = str("url", false)!;
  if (!/^https?:\/\//i.test(url) && !url.startsWith("${")) {
    fail(`expected an http:// or https:// URL, got ${JSON.stringify(urlShown(url))}`, "url");
  }
  const type = str("type", true);
  let transport: RemoteTransport = "auto";
  if (type === "sse") transport = "sse";
  else if (type === "http" || type === "streamable-http" || type === "streamableHttp") {
    transport = "streamable-http";
  } else if (type !== undefined) {
    fail(`expected "http", "streamable-http" or "sse", got ${JSON.stringify(type)}`, "type");
  }
  return { kind: "remote", name, url, headers: strRecord("headers"), transport, meta };
}

function parseMeta(
  value: JsonObject,
  fail: (reason: string, field?: string) => never,
  str: (field: string, optional: boolean) => string | undefined,
): ServerMeta {
  const extra: Record<string, JsonValue> = {};
  for (const key of Object.keys(value).sort()) {
    if (!KNOWN_KEYS.has(key)) extra[key] = value[key];
  }
  const meta: {
    -readonly [K in keyof ServerMeta]: ServerMeta[K];
  } = { extra };
  const pkg = str("package", true);
  if (pkg !== undefined) meta.package = pkg;
  const version = str("version", true);
  if (version !== undefined) meta.version = version;
  if (version !== undefined && pkg === undefined) fail(`"version" needs "package"`, "version");
  const bin = str("bin", true);
  if (bin !== undefined) meta.bin = bin;
  const license = str("license", true);
  if (license !== undefined) meta.license = license;
  const notes = value.notes;
  if (notes !== undefined) {
    if (typeof notes !== "string") fail(`expected a string, got ${describe(notes)}`, "notes");
    meta.notes = notes as string;
  }
  const timeoutMs = value.timeoutMs;
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== "number" || !Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      fail(`expected a positive integer (ms), got ${describe(timeoutMs)}`, "timeoutMs");
    }
    meta.timeoutMs = timeoutMs as number;
  }
  const scripts = value.installScripts;
  if (scripts !== undefined) {
    if (typeof scripts !== "boolean") {
      fail(`expected true or false, got ${describe(scripts)}`, "installScripts");
    }
    meta.installScripts = scripts as boolean;
  }
  const files = value.files;
  if (files !== undefined) {
    if (!isObject(files)) fail(`expected an object, got ${describe(files)}`, "files");
    for (const path of Object.keys(files as JsonObject)) {
      const problem = filePathProblem(path);
      if (problem !== undefined) fail(problem, `files.${path}`);
    }
    meta.files = files as JsonObject;
  }
  return meta;
}

/**
 * Why a `files` key is not acceptable, or `undefined` when it is.
 *
 * @param path A key of an entry's `files` object.
 * @returns A reason, or `undefined`.
 */
export function filePathProblem(path: string): string | undefined {
  const rel = path.startsWith("~/") ? path.slice(2) : path;
  if (rel === "" || rel.startsWith("/") || /^[A-Za-z]:/.test(rel)) {
    return `paths must be relative to the scratch folder or start with "~/", got ${
      JSON.stringify(path)
    }`;
  }
  if (rel.split(/[\\/]/).some((part) => part === "..")) {
    return `paths may not contain "..", got ${JSON.stringify(path)}`;
  }
  return undefined;
}

function mapRecord(
  record: Readonly<Record<string, string>>,
  f: (value: string, key: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record)) out[k] = f(v, k);
  return out;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a value is, without the value: `a number`, `a string`, `an array`, `null`. */
function kindOf(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * A URL for a message: the credentials before an `@` and everything from `?` or `#` on (where
 * keys travel) replaced by `…`.
 */
function urlShown(url: string): string {
  return url.replace(/^([^/?#]*\/\/)?[^/?#@]*@/, "$1…@").replace(/[?#].*$/s, "?…");
}

function describe(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`;
}
