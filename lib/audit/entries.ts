/**
 * One server entry of an MCP client's config, read in that client's dialect: the keys and the
 * `${...}` variables each client documents are turned into mcpmeter's servers-config entry
 * (`lib/mcp/config.ts`), or into the reason the entry cannot be started here.
 *
 * Dialects (each client's documentation):
 * - `${env:NAME}` (VS Code, Cursor, Windsurf) is the variable NAME, expanded from the
 *   environment at capture like `${NAME}` (Claude Code's form, also `${NAME:-default}`);
 * - `${userHome}`, `${workspaceFolder}`, `${workspaceFolderBasename}`, `${pathSeparator}` and
 *   `${/}` (VS Code, Cursor) are the home folder, the project folder, its name and `/`;
 * - `${input:ID}` (VS Code) is a value VS Code prompts for and keeps to itself: such an entry
 *   cannot be started here, and says so;
 * - `serverUrl` (Windsurf) is the remote server's `url`;
 * - `disabled: true` (Windsurf, and others that write it) leaves the server out;
 * - `disabledTools` (Windsurf: the tools switched off in its MCP settings, kept in the server's
 *   entry) leaves those tools out of what the client sends; the server still lists them;
 * - `envFile` (VS Code, Cursor; stdio servers) names a file of more variables for the server,
 *   read by discovery; the entry's own `env` wins a shared name;
 * - `alwaysLoad: true` (Claude Code 2.1.121 and later) keeps the server's tools out of tool
 *   search deferral;
 * - Codex's `[mcp_servers.NAME]` tables ({@linkcode codexEntry}): `command`/`args`/`env`/`cwd`, or
 *   a streamable HTTP `url` with `http_headers`, `env_http_headers` and `bearer_token_env_var`;
 *   `env_vars`, `enabled = false`, `enabled_tools`/`disabled_tools`. Codex expands no `${...}`;
 * - Zed's `context_servers` entries ({@linkcode zedEntry}): `command`, `args`, `env` (or the older
 *   `command: {path, args, env}`), or `url` and `headers`; `enabled: false`.
 * - Kiro's entries: `disabled`, and `disabledTools` read as Windsurf's; `autoApprove` changes no
 *   cost and is ignored;
 * - Copilot CLI's `mcpServers` entries: `type` `local`/`stdio`, `http` or `sse`; `tools` the
 *   allow-list (`["*"]` all); `$NAME`, `${NAME}`, `${NAME:-default}` in `env` and `headers`.
 * - Cline's entries ({@linkcode clineEntry}): flat, or the `transport: {type, ...}` form its CLI
 *   writes; `type` (or the older `transportType`) `stdio`, `sse`, `streamableHttp`, a `url`
 *   without one being SSE;
 * - Roo Code's entries ({@linkcode rooEntry}): `type` `stdio`, `sse`, `streamable-http`, required
 *   with a `url`; `disabledTools` leaves those tools out, as Windsurf's does.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { ConfigError } from "../mcp/errors.ts";
import { META_KEYS, parseServersConfig, type ServerEntry } from "../mcp/config.ts";
import { parseLaunch } from "../mcp/launchers.ts";
import { VARIABLE_PATTERN } from "../core/secrets.ts";
import type { ClientId } from "./clients.ts";

/** Where a client's folder variables point. */
export interface FolderVariables {
  /** The home folder (`${userHome}`). */
  readonly home: string;
  /** The project folder (`${workspaceFolder}`), when the config belongs to one. */
  readonly workspace?: string;
}

/** One server as a client config declares it. */
export interface ConfiguredServer {
  /** Config key. */
  readonly name: string;
  /** Which part of the client's configuration declared it: `user`, `project`, `local`, ... */
  readonly scope: string;
  /** The file it was read from. */
  readonly source: string;
  /** The entry to capture (its `${VAR}` references left for the capture to expand). */
  readonly entry?: ServerEntry;
  /** Why it cannot be captured (a bad entry, a prompted input), when it cannot. */
  readonly problem?: string;
  /**
   * The client's loader refuses the table `problem` names, and so starts none of the config's
   * servers (Codex), or none of its file's (Cline; Roo Code's project file).
   */
  readonly refusesConfig?: boolean;
  /** Set off in the config (`disabled: true`, or the client's list of disabled servers). */
  readonly disabled: boolean;
  /** What keeps a disabled server from loading, when it is not its own config's switch. */
  readonly disabledBy?: string;
  /** `alwaysLoad: true`: its tools are never deferred (Claude Code). */
  readonly alwaysLoad: boolean;
  /** How it starts, without arguments or values: `npx @scope/pkg`, `node`, `http example.com`. */
  readonly launch: string;
  /** Names of the environment variables the entry sets (never their values). */
  readonly envNames: readonly string[];
  /**
   * Tools the client leaves out of what it sends (Windsurf's `disabledTools`), by the name the
   * server lists; absent when the config disables none.
   */
  readonly toolFilter?: ToolFilter;
  /**
   * Values the client's own settings give the variables the entry references (Claude Code's
   * settings `env`), bound before the capture expands the rest from the shell. Secrets: never
   * reported.
   */
  readonly variables?: Readonly<Record<string, string>>;
  /** What was noticed reading the entry (a malformed key), for the config's notes. */
  readonly notes?: readonly string[];
  /** `envFile` (VS Code, Cursor): the file of more variables for a stdio server, as resolved. */
  readonly envFile?: string;
  /** The variables read from `envFile`, which the entry's own `env` overrides. Secrets. */
  readonly fileEnv?: Readonly<Record<string, string>>;
}

/** Tools a client config switches off for one server. */
export interface ToolFilter {
  /** The config keys they were read from (`disabledTools`, `includeTools/excludeTools`). */
  readonly key: string;
  /** The tool names it disables. */
  readonly exclude: readonly string[];
  /**
   * When set, only these tools are kept (Gemini CLI's `includeTools`: a name, or a name followed
   * by `(`); `exclude` still wins.
   */
  readonly include?: readonly string[];
  /**
   * opencode's `tools` patterns (`*` any run, `?` one character) with their values, matched
   * against `globPrefix` and the tool's name; the longest matching pattern decides (ties: the
   * later in code-point order), and `false` leaves the tool out.
   */
  readonly globs?: readonly (readonly [string, boolean])[];
  /**
   * What precedes the tool's name in the name the globs match (`server_`); the tool's name is
   * matched with characters other than letters, digits, `_`, `-` written `_`, as opencode keys it.
   */
  readonly globPrefix?: string;
}

/**
 * Whether a client sends a listed tool under a config's filter.
 *
 * @param filter The server's filter, if any.
 * @param name The tool's name as the server lists it.
 * @returns `false` when the config switches the tool off.
 */
export function toolKept(filter: ToolFilter | undefined, name: string): boolean {
  if (filter === undefined) return true;
  if (filter.exclude.includes(name)) return false;
  if (filter.globs !== undefined) {
    const id = `${filter.globPrefix ?? ""}${name.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
    if (globValue(filter.globs, id) === false) return false;
  }
  return filter.include === undefined ||
    filter.include.some((t) => t === name || t.startsWith(`${name}(`));
}

/**
 * The value of the pattern that decides for `id`, as opencode's `Wildcard.all` decides
 * (anomalyco/opencode packages/opencode/src/util/wildcard.ts): patterns sorted by length, then
 * by code point, the last that matches winning.
 */
function globValue(
  globs: readonly (readonly [string, boolean])[],
  id: string,
): boolean | undefined {
  const sorted = [...globs].sort((a, b) =>
    a[0].length - b[0].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
  );
  let result: boolean | undefined;
  for (const [pattern, value] of sorted) {
    const regex = "^" + pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")
      .replace(/\?/g, ".") +
      "$";
    if (new RegExp(regex, "s").test(id)) result = value;
  }
  return result;
}

const FOLDER_VARIABLE = /\$\{(env:|input:)?([A-Za-z_][A-Za-z0-9_.-]*|\/)\}/g;

/**
 * Whether a config value is a JSON object (not null, not an array): the shape every client's
 * server table and entry must have.
 *
 * @param value A parsed config value.
 * @returns True for an object.
 */
export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Rewrites one string of an entry; returns the input ids it needs through `inputs`. */
function translate(text: string, folders: FolderVariables, inputs: Set<string>): string {
  return text.replace(FOLDER_VARIABLE, (whole, prefix: string | undefined, name: string) => {
    if (prefix === "env:") return `\${${name}}`;
    if (prefix === "input:") {
      inputs.add(name);
      return whole;
    }
    switch (name) {
      case "userHome":
        return folders.home;
      case "workspaceFolder":
        return folders.workspace ?? whole;
      case "workspaceFolderBasename":
        return folders.workspace?.split(/[\\/]/).filter((p) => p !== "").at(-1) ?? whole;
      case "pathSeparator":
      case "/":
        return "/";
      default:
        return whole;
    }
  });
}

function translateDeep(value: JsonValue, folders: FolderVariables, inputs: Set<string>): JsonValue {
  if (typeof value === "string") return translate(value, folders, inputs);
  if (Array.isArray(value)) return value.map((v) => translateDeep(v, folders, inputs));
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, translateDeep(v, folders, inputs)]),
    );
  }
  return value;
}

/** The fields mcpmeter starts a server from: only these are translated. */
const LAUNCH_FIELDS = ["command", "args", "env", "cwd", "url", "headers"] as const;

/**
 * How an entry starts, for display: the package runner and package (`npx @scope/pkg`), the
 * command's file name, or the transport and host of a remote server. Arguments, paths and
 * values are left out: they may hold secrets.
 */
export function launchLabel(entry: ServerEntry): string {
  if (entry.kind === "remote") {
    const host = /^[a-z]+:\/\/([^/?#@]*@)?([^/?#]+)/i.exec(entry.url)?.[2] ?? "remote";
    return `${entry.transport === "sse" ? "sse" : "http"} ${host}`;
  }
  const launch = parseLaunch(entry);
  if (launch !== undefined) return `${launch.runner} ${launch.package ?? launch.spec}`;
  return entry.command.replace(/\\/g, "/").split("/").at(-1) ?? entry.command;
}

/**
 * Reads one server entry of a client config.
 *
 * @param name The entry's key.
 * @param raw The entry as written.
 * @param where Scope, source file and the folder variables of the config.
 * @returns The server: its entry, or the problem that keeps it from starting.
 *
 * @example Usage
 * ```ts
 * import { readServerEntry } from "./entries.ts";
 * const s = readServerEntry(
 *   "docs",
 *   { command: "npx", args: ["-y", "@acme/docs-mcp", "${workspaceFolder}"], env: { KEY: "${env:KEY}" } },
 *   { scope: "workspace", source: ".vscode/mcp.json", folders: { home: "/h", workspace: "/w" } },
 * );
 * if (s.entry?.kind !== "stdio" || s.entry.args[2] !== "/w" || s.entry.env.KEY !== "${KEY}") {
 *   throw new Error(JSON.stringify(s));
 * }
 * if (s.launch !== "npx @acme/docs-mcp" || s.envNames.join() !== "KEY") throw new Error(s.launch);
 * ```
 */
export function readServerEntry(
  name: string,
  raw0: JsonValue,
  where: {
    readonly scope: string;
    readonly source: string;
    readonly folders: FolderVariables;
    /** The client whose dialect the entry is read in (its client-only keys); absent for a client
     * with no keys of its own (Claude Code). */
    readonly client?: ClientId;
    /** The shell's environment, when it is the audited account's (Codex's `env_vars`,
     * `env_http_headers` name variables whose absence changes what Codex sends). */
    readonly shell?: Readonly<Record<string, string | undefined>>;
  },
): ConfiguredServer {
  let raw = raw0;
  const base = { name, scope: where.scope, source: where.source };
  if (!isObject(raw)) {
    return {
      ...base,
      problem: "the entry is not an object",
      disabled: false,
      alwaysLoad: false,
      launch: "?",
      envNames: [],
    };
  }
  if (where.client === "codex") return codexServer(name, raw, base, where.source, where.shell);
  if (where.client === "zed" || where.client === "opencode") {
    const zed = where.client === "zed" ? zedEntry(raw) : opencodeEntry(raw);
    if (typeof zed === "string") {
      return {
        ...base,
        problem: zed,
        disabled: raw.enabled === false,
        alwaysLoad: false,
        launch: "?",
        envNames: [],
      };
    }
    raw = zed;
  }
  if (where.client === "cline" || where.client === "roo-code") {
    const read = where.client === "cline" ? clineEntry(raw) : rooEntry(raw);
    if (typeof read === "string") {
      return {
        ...base,
        problem: read,
        // Roo Code checks a url's type server by server; every other refusal is its schema's.
        ...(read === ROO_URL_NEEDS_TYPE ? {} : { refusesConfig: true }),
        disabled: raw.disabled === true,
        ...(raw.disabled === true ? { disabledBy: '"disabled": true in its entry' } : {}),
        alwaysLoad: false,
        launch: "?",
        envNames: [],
      };
    }
    raw = read;
  }
  const disabled = raw.disabled === true;
  const off = disabled
    ? {
      disabledBy: where.client === "zed" || where.client === "opencode"
        ? '"enabled": false in its entry'
        : '"disabled": true in its entry',
    }
    : {};
  const alwaysLoad = raw.alwaysLoad === true;
  const inputs = new Set<string>();
  const entry: Record<string, JsonValue> = { ...raw };
  if (entry.url === undefined && typeof raw.serverUrl === "string") entry.url = raw.serverUrl;
  delete entry.serverUrl;
  const filtered: {
    toolFilter?: ToolFilter;
    notes?: string[];
    envFile?: string;
  } = where.client === "windsurf" || where.client === "roo-code" || where.client === "kiro"
    ? toolFilter(name, raw, "disabledTools")
    : where.client === "gemini-cli"
    ? geminiFilter(name, raw)
    : where.client === "copilot-cli"
    ? copilotFilter(name, raw)
    : {};
  delete entry.disabledTools;
  if (where.client === "copilot-cli") {
    // Copilot CLI expands `$NAME` as well as `${NAME}` in `env` and `headers`; `tools` is its
    // allow-list, not a launch key.
    delete entry.tools;
    for (const k of ["env", "headers"]) {
      if (entry[k] !== undefined) entry[k] = bareVariables(entry[k]);
    }
  }
  // A switch, not a launch key: the same server switched on in two files is one capture.
  if (where.client === "cline" || where.client === "roo-code") delete entry.disabled;
  // mcpmeter's own keys mean something else in a client's file (VS Code writes `version` and
  // `gallery` on every server installed from its MCP registry): only a plain servers file
  // (`generic`) may carry mcpmeter's pins.
  if (where.client !== "generic") { for (const k of META_KEYS) delete entry[k]; }
  if (where.client === "gemini-cli") {
    // httpUrl is streamable HTTP, url alone the older SSE transport (unless a type says so).
    if (typeof raw.httpUrl === "string") {
      entry.url = raw.httpUrl;
      entry.type ??= "http";
    } else if (typeof raw.url === "string") entry.type ??= "sse";
    for (const k of ["httpUrl", "includeTools", "excludeTools", "trust", "timeout"]) {
      delete entry[k];
    }
  }
  if ((where.client === "vscode" || where.client === "cursor") && raw.envFile !== undefined) {
    delete entry.envFile;
    if (typeof raw.envFile === "string" && raw.command !== undefined) {
      filtered.envFile = translate(raw.envFile, where.folders, inputs);
    } else {
      filtered.notes = [
        `"${name}": envFile ${
          typeof raw.envFile === "string" ? "applies to stdio servers only" : "is not a path"
        }: ignored`,
      ];
    }
  }
  for (const field of LAUNCH_FIELDS) {
    if (entry[field] !== undefined) {
      // Gemini CLI also expands a bare `$NAME` in every string of its settings.
      const value = where.client === "gemini-cli" ? bareVariables(entry[field]) : entry[field];
      entry[field] = translateDeep(value, where.folders, inputs);
    }
  }
  const envNames = isObject(raw.env) ? Object.keys(raw.env).sort() : [];
  let parsed: ServerEntry;
  try {
    parsed = parseServersConfig({ mcpServers: { [name]: entry } }, { source: where.source })
      .servers[0];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const reason = error.message.replace(/^Cannot use servers config "(?:[^"\\]|\\.)*": /, "")
      .replace(/^server "(?:[^"\\]|\\.)*": /, "");
    return {
      ...base,
      problem: reason,
      // Cline's and Roo Code's schemas refuse such an entry too (see refusesConfig's use there).
      ...(where.client === "cline" || where.client === "roo-code" ? { refusesConfig: true } : {}),
      disabled,
      ...off,
      alwaysLoad,
      launch: "?",
      envNames,
      ...filtered,
    };
  }
  const launch = launchLabel(parsed);
  if (inputs.size > 0) {
    return {
      ...base,
      problem: `needs the VS Code input${inputs.size > 1 ? "s" : ""} ${
        [...inputs].map((i) => `"${i}"`).join(", ")
      }, which VS Code prompts for and keeps to itself; set the value in an environment ` +
        `variable and write \${env:NAME} to have it measured`,
      disabled,
      ...off,
      alwaysLoad,
      launch,
      envNames,
      ...filtered,
    };
  }
  if (/\$\{workspaceFolder(Basename)?\}/.test(JSON.stringify(entry))) {
    return {
      ...base,
      problem: "uses ${workspaceFolder}, but this config belongs to no project folder",
      disabled,
      ...off,
      alwaysLoad,
      launch,
      envNames,
      ...filtered,
    };
  }
  return { ...base, entry: parsed, disabled, ...off, alwaysLoad, launch, envNames, ...filtered };
}

/** `$NAME` written `${NAME}` in every string of a value. */
function bareVariables(value: JsonValue): JsonValue {
  if (typeof value === "string") return value.replace(/\$(\w+)/g, "${$1}");
  if (Array.isArray(value)) return value.map(bareVariables);
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bareVariables(v)]));
  }
  return value;
}

/** What a JSON value is, in words: `null`, `an object`, `a string`. */
function describe(value: JsonValue): string {
  return value === null ? "null" : isObject(value) ? "an object" : `a ${typeof value}`;
}

/** Gemini CLI's `includeTools` and `excludeTools` of an entry, as one filter. */
function geminiFilter(
  name: string,
  raw: JsonObject,
): { toolFilter?: ToolFilter; notes?: string[] } {
  const exclude = toolFilter(name, raw, "excludeTools");
  const include = toolFilter(name, raw, "includeTools");
  const notes = [...exclude.notes ?? [], ...include.notes ?? []];
  const hasInclude = Array.isArray(raw.includeTools);
  if (exclude.toolFilter === undefined && !hasInclude) return notes.length === 0 ? {} : { notes };
  return {
    toolFilter: {
      key: "includeTools/excludeTools",
      exclude: exclude.toolFilter?.exclude ?? [],
      ...(hasInclude ? { include: include.toolFilter?.exclude ?? [] } : {}),
    },
    ...(notes.length === 0 ? {} : { notes }),
  };
}

/**
 * Copilot CLI's `tools` of an entry (docs.github.com, Copilot CLI command reference, "MCP server
 * configuration"): `["*"]` (or any list holding `"*"`) enables every tool, a list of names only
 * those, an empty list none. Absent, every tool is counted and a note says the key is required.
 */
function copilotFilter(
  name: string,
  raw: JsonObject,
): { toolFilter?: ToolFilter; notes?: string[] } {
  const value = raw.tools;
  if (value === undefined) {
    return {
      notes: [
        `"${name}": no tools list (Copilot CLI's documentation requires one; ["*"] enables ` +
        `every tool): every tool is counted`,
      ],
    };
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    return {
      notes: [`"${name}": tools is not a list of tool names: ignored, every tool is counted`],
    };
  }
  if (value.includes("*")) return {};
  return { toolFilter: { key: "tools", exclude: [], include: [...new Set(value as string[])] } };
}

/** The tool filter of an entry's `key` (a list of tool names), or a note when it is malformed. */
function toolFilter(
  name: string,
  raw: JsonObject,
  key: string,
): { toolFilter?: ToolFilter; notes?: string[] } {
  const value = raw[key];
  if (value === undefined) return {};
  const names = Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  const notes = !Array.isArray(value)
    ? [`"${name}": ${key} is ${describe(value)}, not a list of tool names: ignored`]
    : names.length < value.length
    ? [`"${name}": ${key} holds items that are not tool names (strings): only its strings are used`]
    : [];
  return {
    ...(names.length === 0 ? {} : { toolFilter: { key, exclude: [...new Set(names)] } }),
    ...(notes.length === 0 ? {} : { notes }),
  };
}

/**
 * The entry with the variables in `vars` put in (`${NAME}`, and `${NAME:-default}`, whose default
 * applies when the value is empty); every other reference is left for the capture to expand.
 *
 * @param entry A parsed entry.
 * @param vars Values of some variables.
 * @returns The entry with those references replaced.
 *
 * @example Usage
 * ```ts
 * import { bindVariables } from "./entries.ts";
 * const e = bindVariables(
 *   { kind: "remote", name: "r", url: "https://${HOST}/mcp", headers: { A: "${KEY} ${OTHER}" },
 *     transport: "auto", meta: { extra: {} } },
 *   { HOST: "example.com", KEY: "k-1" },
 * );
 * if (e.kind !== "remote" || e.url !== "https://example.com/mcp" || e.headers.A !== "k-1 ${OTHER}") {
 *   throw new Error(JSON.stringify(e));
 * }
 * ```
 */
export function bindVariables(
  entry: ServerEntry,
  vars: Readonly<Record<string, string>>,
): ServerEntry {
  const bind = (text: string) =>
    text.replace(VARIABLE_PATTERN, (whole, key: string, fallback: string | undefined) => {
      if (!Object.hasOwn(vars, key)) return whole;
      return fallback !== undefined && vars[key] === "" ? fallback : vars[key];
    });
  const record = (r: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, bind(v)]));
  if (entry.kind === "remote") {
    return { ...entry, url: bind(entry.url), headers: record(entry.headers) };
  }
  return {
    ...entry,
    command: bind(entry.command),
    args: entry.args.map(bind),
    env: record(entry.env),
    ...(entry.cwd === undefined ? {} : { cwd: bind(entry.cwd) }),
  };
}

/**
 * The variables an entry references (`${NAME}` in its command, arguments, env values, cwd, URL
 * and header values), in order, once each.
 *
 * @param entry A parsed entry.
 * @returns Their names.
 */
export function entryVariables(entry: ServerEntry): string[] {
  const texts = entry.kind === "stdio"
    ? [entry.command, ...entry.args, ...Object.values(entry.env), entry.cwd ?? ""]
    : [entry.url, ...Object.values(entry.headers)];
  return [...new Set(texts.flatMap((t) => [...t.matchAll(VARIABLE_PATTERN)].map((m) => m[1])))];
}

/**
 * What a `${` Codex passes as written becomes, so that the capture's `${VAR}` expansion gives it
 * back as written: a reference to a variable nobody sets, whose default is `$`, then the `{`.
 */
const CODEX_DOLLAR = "${MCPMETER_CODEX_DOLLAR:-$}";

/** The keys of a Codex server table (codex-rs/core/src/config/types.rs, `RawMcpServerConfig`). */
const CODEX_KEYS: ReadonlySet<string> = new Set([
  "command",
  "args",
  "env",
  "env_vars",
  "cwd",
  "http_headers",
  "env_http_headers",
  "url",
  "bearer_token",
  "bearer_token_env_var",
  "startup_timeout_sec",
  "startup_timeout_ms",
  "tool_timeout_sec",
  "enabled",
  "required",
  "enabled_tools",
  "disabled_tools",
  "scopes",
  "oauth_resource",
]);

/** Keys each Codex transport refuses (the error Codex's config loader stops at). */
const CODEX_NOT_FOR: Readonly<Record<"stdio" | "streamable_http", readonly string[]>> = {
  stdio: [
    "url",
    "bearer_token_env_var",
    "bearer_token",
    "http_headers",
    "env_http_headers",
    "oauth_resource",
  ],
  streamable_http: ["args", "env", "env_vars", "cwd", "bearer_token"],
};

/** What {@linkcode codexEntry} makes of a Codex server table. */
export interface CodexEntry {
  /** The entry in mcpmeter's servers-config shape, when Codex would accept the table. */
  readonly entry?: JsonObject;
  /** Codex's own error for the table, when it refuses it. */
  readonly problem?: string;
  /** `enabled_tools` (only these) and `disabled_tools` (never these). */
  readonly toolFilter?: ToolFilter;
  /** What was noticed (an unset variable a header reads, a key Codex does not list). */
  readonly notes: readonly string[];
}

/**
 * A Codex `[mcp_servers.NAME]` table as mcpmeter's entry (codex-rs/core/src/config/types.rs and
 * mcp_connection_manager.rs): `command` makes a stdio server and `url` a streamable HTTP one (no
 * SSE), each refusing the other's keys, neither is Codex's "invalid transport"; `env_vars` passes
 * those variables from Codex's environment (the entry's `env` wins); `http_headers` are sent as
 * written, `env_http_headers` maps a header to a variable whose value it sends (no header when
 * the variable is unset or blank), `bearer_token_env_var` sends `Authorization: Bearer` its value;
 * `enabled_tools` keeps only the tools it names, `disabled_tools` then drops the ones it names.
 * Variables become `${NAME}` references, expanded (and kept secret) by the capture.
 *
 * @param name The table's key.
 * @param raw The table.
 * @param shell The shell's environment, when it is the audited account's.
 * @returns The entry, or Codex's error; the tool filter and notes.
 *
 * @example Usage
 * ```ts
 * import { codexEntry } from "./entries.ts";
 * const c = codexEntry("api", {
 *   url: "https://mcp.example.com/mcp",
 *   bearer_token_env_var: "API_TOKEN",
 *   env_http_headers: { "X-Team": "TEAM_ID" },
 *   disabled_tools: ["delete_all"],
 * }, { API_TOKEN: "t", TEAM_ID: "7" });
 * if (JSON.stringify(c.entry) !== JSON.stringify({
 *   url: "https://mcp.example.com/mcp", type: "http",
 *   headers: { "X-Team": "${TEAM_ID}", Authorization: "Bearer ${API_TOKEN}" },
 * }) || c.toolFilter?.exclude[0] !== "delete_all") throw new Error(JSON.stringify(c));
 * ```
 */
export function codexEntry(
  name: string,
  raw: JsonObject,
  shell?: Readonly<Record<string, string | undefined>>,
): CodexEntry {
  const notes: string[] = [];
  const unknown = Object.keys(raw).filter((k) => !CODEX_KEYS.has(k)).sort();
  if (unknown.length > 0) {
    notes.push(
      `"${name}": ${unknown.join(", ")} ${unknown.length > 1 ? "are" : "is"} not a key of ` +
        `Codex's server table (codex-rs/core/src/config/types.rs): ignored here`,
    );
  }
  const transport = raw.command !== undefined
    ? "stdio"
    : raw.url !== undefined
    ? "streamable_http"
    : undefined;
  if (transport === undefined) {
    return { problem: "invalid transport (no command and no url)", notes };
  }
  const refused = CODEX_NOT_FOR[transport].find((k) => raw[k] !== undefined);
  if (refused !== undefined) {
    return { problem: `${refused} is not supported for ${transport}`, notes };
  }
  for (const key of ["enabled", "required"]) {
    if (raw[key] !== undefined && typeof raw[key] !== "boolean") {
      return { problem: `${key} is ${describe(raw[key])}, not true or false`, notes };
    }
  }
  // Codex's loader reads these as strings (a mistyped bearer_token_env_var would otherwise leave
  // the server without its Authorization header).
  for (const key of ["command", "url", "cwd", "bearer_token_env_var"]) {
    if (raw[key] !== undefined && typeof raw[key] !== "string") {
      return { problem: `${key} is ${describe(raw[key])}, not a string`, notes };
    }
  }
  const names = (key: string): string[] | undefined => {
    const v = raw[key];
    return Array.isArray(v) && v.every((x) => typeof x === "string") ? v as string[] : undefined;
  };
  for (const key of ["args", "env_vars", "enabled_tools", "disabled_tools"]) {
    if (raw[key] !== undefined && names(key) === undefined) {
      return { problem: `${key} is not a list of strings`, notes };
    }
  }
  const table = (key: string): JsonObject | undefined | "bad" => {
    const v = raw[key];
    if (v === undefined) return undefined;
    return isObject(v) && Object.values(v).every((x) => typeof x === "string") ? v : "bad";
  };
  for (const key of ["env", "http_headers", "env_http_headers"]) {
    if (table(key) === "bad") return { problem: `${key} is not a table of strings`, notes };
  }
  // A variable Codex reads: a reference when the shell sets it, or when the shell is not read.
  const isSet = (v: string) => shell === undefined || (shell[v] ?? "").trim() !== "";
  // Codex passes every string as written: a `${NAME}` in one stays text, not a variable.
  const literal: string[] = [];
  const asWritten = (value: JsonValue, field: string): JsonValue => {
    if (Array.isArray(value)) return value.map((v) => asWritten(v, field));
    if (isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, asWritten(v, `${field}.${k}`)]),
      );
    }
    if (typeof value !== "string" || !value.includes("${")) return value;
    if (!literal.includes(field)) literal.push(field);
    return value.replaceAll("${", `${CODEX_DOLLAR}{`);
  };
  let entry: JsonObject;
  if (transport === "stdio") {
    const command = asWritten(raw.command!, "command");
    const args = raw.args === undefined ? undefined : asWritten(raw.args, "args");
    const env: Record<string, JsonValue> = {};
    for (const v of names("env_vars") ?? []) if (shell?.[v] !== undefined) env[v] = `\${${v}}`;
    Object.assign(env, asWritten(table("env") ?? {}, "env") as JsonObject);
    entry = {
      command,
      ...(args === undefined ? {} : { args }),
      ...(Object.keys(env).length === 0 ? {} : { env }),
      ...(raw.cwd === undefined ? {} : { cwd: asWritten(raw.cwd, "cwd") }),
    };
  } else {
    const url = asWritten(raw.url!, "url");
    const headers = {
      ...asWritten(table("http_headers") as JsonObject ?? {}, "http_headers") as JsonObject,
    };
    for (const [header, v] of Object.entries(table("env_http_headers") as JsonObject ?? {})) {
      if (isSet(String(v))) headers[header] = `\${${v}}`;
      else {notes.push(
          `"${name}": ${header} reads ${v}, which is not set: Codex sends no ${header}`,
        );}
    }
    if (typeof raw.bearer_token_env_var === "string") {
      headers.Authorization = `Bearer \${${raw.bearer_token_env_var}}`;
    }
    entry = {
      url,
      type: "http",
      ...(Object.keys(headers).length === 0 ? {} : { headers }),
    };
  }
  if (literal.length > 0) {
    notes.push(
      `"${name}": ${literal.join(", ")} ${literal.length > 1 ? "hold" : "holds"} "\${", ` +
        `passed as written: Codex expands no variables (env_vars, env_http_headers and ` +
        `bearer_token_env_var read the shell)`,
    );
  }
  const enabledTools = names("enabled_tools");
  const disabledTools = names("disabled_tools") ?? [];
  return {
    entry,
    ...(enabledTools === undefined && disabledTools.length === 0 ? {} : {
      toolFilter: {
        key: "enabled_tools/disabled_tools",
        exclude: [...new Set(disabledTools)],
        ...(enabledTools === undefined ? {} : { include: [...new Set(enabledTools)] }),
      },
    }),
    notes,
  };
}

/** One Codex server table read as a {@linkcode ConfiguredServer}. */
function codexServer(
  name: string,
  raw: JsonObject,
  base: { readonly name: string; readonly scope: string; readonly source: string },
  source: string,
  shell: Readonly<Record<string, string | undefined>> | undefined,
): ConfiguredServer {
  const c = codexEntry(name, raw, shell);
  const disabled = raw.enabled === false;
  const common = {
    ...base,
    disabled,
    ...(disabled ? { disabledBy: "enabled = false in its table" } : {}),
    alwaysLoad: false,
    envNames: isObject(raw.env) ? Object.keys(raw.env).sort() : [],
    ...(c.toolFilter === undefined ? {} : { toolFilter: c.toolFilter }),
    ...(c.notes.length === 0 ? {} : { notes: c.notes }),
  };
  if (c.problem !== undefined || c.entry === undefined) {
    return { ...common, problem: c.problem!, refusesConfig: true, launch: "?" };
  }
  // The table is read under a stand-in name: a name Codex refuses is checked on its own below.
  let parsed: ServerEntry;
  try {
    parsed = parseServersConfig({ mcpServers: { server: c.entry } }, { source }).servers[0];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const reason = error.message.replace(/^Cannot use servers config "(?:[^"\\]|\\.)*": /, "")
      .replace(/^server "(?:[^"\\]|\\.)*": /, "").replace(
        /^server "server"/,
        `server ${JSON.stringify(name)}`,
      );
    return { ...common, problem: reason, launch: "?" };
  }
  // Codex starts a server only under a name of letters, digits, `_` and `-`; another name fails
  // that server alone (an empty one too).
  if (!/^[a-zA-Z0-9_-]+$/.test(name)) {
    return {
      ...common,
      problem: "Codex starts no server under this name: it must be letters, digits, _ and - only",
      launch: launchLabel(parsed),
    };
  }
  parsed = { ...parsed, name };
  return { ...common, entry: parsed, launch: launchLabel(parsed) };
}

/**
 * A Zed `context_servers` entry (zed-industries/zed, `ContextServerSettingsContent`;
 * zed.dev/docs/ai/mcp) in the shape of the other clients: `command` (a path), `args`, `env` start
 * a stdio server, the older `command: {path, args, env}` likewise; `url` and `headers` reach a
 * remote one; `enabled: false` is `disabled: true`. Zed's own keys (`source`, `remote`, `timeout`)
 * are dropped.
 *
 * @param raw The entry.
 * @returns The entry to read, or why it cannot be started here (an extension's server).
 *
 * @example Usage
 * ```ts
 * import { zedEntry } from "./entries.ts";
 * const e = zedEntry({ source: "custom", command: { path: "node", args: ["s.js"] }, enabled: false });
 * if (JSON.stringify(e) !== '{"command":"node","args":["s.js"],"disabled":true}') {
 *   throw new Error(JSON.stringify(e));
 * }
 * ```
 */
export function zedEntry(raw: JsonObject): JsonObject | string {
  const out: Record<string, JsonValue> = {};
  const cmd = raw.command;
  if (isObject(cmd)) {
    out.command = cmd.path ?? null;
    if (cmd.args !== undefined) out.args = cmd.args;
    if (cmd.env !== undefined) out.env = cmd.env;
  } else if (cmd !== undefined) {
    out.command = cmd;
    if (raw.args !== undefined) out.args = raw.args;
    if (raw.env !== undefined) out.env = raw.env;
  } else if (raw.url !== undefined) {
    out.url = raw.url;
    if (raw.headers !== undefined) out.headers = raw.headers;
  } else if (raw.settings !== undefined || raw.source === "extension") {
    return "provided by a Zed extension, which supplies its command: not started here";
  }
  if (raw.enabled === false) out.disabled = true;
  return out;
}

/** Keys of Cline's and Roo Code's entries that do not change how a server starts or its tools. */
const CLINE_ROO_SETTINGS = [
  "autoApprove",
  "alwaysAllow",
  "timeout",
  "watchPaths",
  "remoteConfigured",
  "metadata",
  "oauth",
  "oauthClient",
  "transportType",
] as const;

/**
 * A Cline server entry (`cline_mcp_settings.json`) as a plain servers-config entry, or why Cline
 * cannot start it. Cline 4 reads two shapes (cline/cline v4.1.13,
 * apps/vscode/src/services/mcp/schemas.ts and hosts/vscode/mcp-settings-legacy-migration.ts):
 * flat `command`/`args`/`cwd`/`env` or `url`/`headers`, and its CLI's `transport: {type, ...}`,
 * the entry's own keys winning. `type`, else the older `transportType` (`http` meaning
 * `streamableHttp`), is `stdio`, `sse` or `streamableHttp`; a `command` means stdio and a `url`
 * without a type SSE. `oauth` holds tokens: it is dropped with the other settings.
 *
 * @param raw The entry as written.
 * @returns The entry to capture, or the reason it cannot start.
 *
 * @example Usage
 * ```ts
 * import { clineEntry } from "./entries.ts";
 * const e = clineEntry({ transport: { type: "streamableHttp", url: "https://x.test/mcp" }, disabled: false });
 * if (typeof e === "string" || e.type !== "streamable-http" || e.url !== "https://x.test/mcp") {
 *   throw new Error(JSON.stringify(e));
 * }
 * ```
 */
export function clineEntry(raw: JsonObject): JsonObject | string {
  const out: Record<string, JsonValue> = isObject(raw.transport)
    ? { ...raw.transport, ...raw }
    : { ...raw };
  delete out.transport;
  const kind = (v: JsonValue | undefined) =>
    v === "http" || v === "streamableHttp" ? "streamableHttp" : v;
  const type = kind(out.type) ?? kind(out.transportType);
  for (const k of CLINE_ROO_SETTINGS) delete out[k];
  if (type !== undefined && type !== "stdio" && type !== "sse" && type !== "streamableHttp") {
    return `type ${JSON.stringify(type)} is none of Cline's ("stdio", "sse", "streamableHttp")`;
  }
  if (out.command !== undefined) {
    if (type !== undefined && type !== "stdio") {
      return `type "${type}" with a command: Cline expects type "stdio" for a command`;
    }
    delete out.type;
    delete out.url;
    delete out.headers;
    return out;
  }
  if (type === "stdio") return 'type "stdio" without a command';
  out.type = type === "streamableHttp" ? "streamable-http" : "sse";
  return out;
}

/** Why Roo Code does not start a `url` entry without a `type` (a check of its own, per server). */
const ROO_URL_NEEDS_TYPE = 'a "url" without "type" ("sse" or "streamable-http")';

/**
 * A Roo Code server entry (`mcp_settings.json`, `.roo/mcp.json`) as a plain servers-config
 * entry, or why Roo Code refuses it (RooCodeInc/Roo-Code v3.52.1, src/services/mcp/McpHub.ts,
 * `validateServerConfig`): `command` and `url` together are refused; a `command` is stdio;
 * a `url` needs `type` `sse` or `streamable-http`; any other type is refused; so are a `timeout`
 * outside 1 to 3600 seconds and an `alwaysAllow`, `disabledTools` or `watchPaths` that is not a
 * list of strings.
 *
 * @param raw The entry as written.
 * @returns The entry to capture (its `disabledTools` kept for the tool filter), or the reason.
 *
 * @example Usage
 * ```ts
 * import { rooEntry } from "./entries.ts";
 * if (rooEntry({ url: "https://x.test/mcp" }) !== 'a "url" without "type" ("sse" or "streamable-http")') {
 *   throw new Error();
 * }
 * ```
 */
export function rooEntry(raw: JsonObject): JsonObject | string {
  const t = raw.timeout;
  if (t !== undefined && (typeof t !== "number" || t < 1 || t > 3600)) {
    return `timeout ${JSON.stringify(t)} is not a number of seconds from 1 to 3600`;
  }
  for (const k of ["alwaysAllow", "disabledTools", "watchPaths"]) {
    const v = raw[k];
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === "string"))) {
      return `${k} is not a list of strings`;
    }
  }
  const out: Record<string, JsonValue> = { ...raw };
  for (const k of CLINE_ROO_SETTINGS) delete out[k];
  const type = out.type;
  if (out.command !== undefined && out.url !== undefined) return 'both "command" and "url"';
  if (type !== undefined && type !== "stdio" && type !== "sse" && type !== "streamable-http") {
    return `type ${JSON.stringify(type)} is none of Roo Code's ("stdio", "sse", "streamable-http")`;
  }
  if (out.command !== undefined) {
    if (type !== undefined && type !== "stdio") return `type "${type}" with a "command"`;
    delete out.type;
    return out;
  }
  if (out.url === undefined) return 'neither "command" nor "url"';
  if (type === undefined) return ROO_URL_NEEDS_TYPE;
  if (type === "stdio") return 'type "stdio" with a "url"';
  return out;
}

/** opencode's `{env:NAME}`, replaced by the variable's value in the config's text. */
const OPENCODE_ENV = /\{env:([^}]+)\}/g;

/**
 * An opencode `mcp` entry (opencode.ai/docs/mcp-servers) in the shape of the other clients:
 * `type: "local"` starts `command` (an array: the program, then its arguments) with
 * `environment`; `type: "remote"` reaches `url` with `headers` (streamable HTTP, then SSE, as
 * opencode tries them); `enabled: false` is `disabled: true`. `{env:NAME}` (opencode.ai/docs/
 * config, "Variables") becomes the variable NAME, empty when unset; a `{file:PATH}` value is not
 * read here.
 *
 * @param raw The entry.
 * @returns The entry to read, or why it cannot be started here.
 *
 * @example Usage
 * ```ts
 * import { opencodeEntry } from "./entries.ts";
 * const e = opencodeEntry({
 *   type: "local", command: ["npx", "-y", "@acme/mcp"], environment: { KEY: "{env:ACME_KEY}" },
 * });
 * if (JSON.stringify(e) !== '{"command":"npx","args":["-y","@acme/mcp"],"env":{"KEY":"${ACME_KEY:-}"}}') {
 *   throw new Error(JSON.stringify(e));
 * }
 * ```
 */
export function opencodeEntry(raw: JsonObject): JsonObject | string {
  if (/\{file:[^}]*\}/.test(JSON.stringify(raw))) {
    return "reads a {file:PATH} value, which the audit does not read: not started here";
  }
  // opencode puts the value, or "" when it is unset or empty, where {env:NAME} stands and
  // expands nothing else: a "${" it passes as written stays so through the capture's expansion.
  const env = (value: JsonValue): JsonValue =>
    typeof value === "string"
      ? value.replaceAll("${", `${CODEX_DOLLAR}{`).replace(
        OPENCODE_ENV,
        (_, name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `\${${name}:-}` : "",
      )
      : Array.isArray(value)
      ? value.map(env)
      : isObject(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, env(v)]))
      : value;
  const out: Record<string, JsonValue> = {};
  if (raw.type === "local") {
    const cmd = raw.command;
    if (!Array.isArray(cmd) || cmd.length === 0 || cmd.some((c) => typeof c !== "string")) {
      return 'type "local" needs command as a list of strings: the program, then its arguments';
    }
    out.command = env(cmd[0]);
    if (cmd.length > 1) out.args = env(cmd.slice(1));
    if (raw.environment !== undefined) out.env = env(raw.environment);
  } else if (raw.type === "remote") {
    if (raw.url !== undefined) out.url = env(raw.url);
    if (raw.headers !== undefined) out.headers = env(raw.headers);
  } else {
    return `type is ${
      raw.type === undefined ? "missing" : JSON.stringify(raw.type)
    }: opencode expects "local" or "remote"`;
  }
  if (raw.enabled === false) out.disabled = true;
  return out;
}
