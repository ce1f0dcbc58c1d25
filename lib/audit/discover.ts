/**
 * Finds the MCP client configurations of one account: each client's documented config files
 * under a home folder (and a project folder), read into one {@linkcode ClientConfig} per client
 * and project, with the servers that client would start and what its deferral posture is read
 * from. Reading is passed in, so this module touches no disk.
 *
 * Locations (each client's documentation; `docs/audit.md` lists the sources):
 * - Claude Code: `~/.claude.json` (`mcpServers`: user scope; `projects[FOLDER].mcpServers`: local
 *   scope), `FOLDER/.mcp.json` and each parent folder's (project scope); settings `~/.claude/settings.json`,
 *   `FOLDER/.claude/settings.json`, `FOLDER/.claude/settings.local.json` and the machine's
 *   managed settings; `CLAUDE_CONFIG_DIR` moves `~/.claude` and `~/.claude.json`. A name in more
 *   than one scope: local wins over project, project over user.
 * - Claude Desktop: `claude_desktop_config.json` under `~/Library/Application Support/Claude`
 *   (macOS), `%APPDATA%\Claude` (Windows) and `~/.config/Claude` (Linux builds).
 * - Cursor: `~/.cursor/mcp.json` and `FOLDER/.cursor/mcp.json` (the project's wins).
 * - VS Code: the user profile's `mcp.json` (`servers`, plus `inputs`) and `settings.json`
 *   (`mcp.servers`, the older place), and `FOLDER/.vscode/mcp.json` (the workspace's wins).
 * - Windsurf: `~/.codeium/windsurf/mcp_config.json`.
 * - Gemini CLI: `~/.gemini/settings.json`, `FOLDER/.gemini/settings.json`, the machine's system
 *   settings and defaults (see `geminiCli`).
 * - Codex: `/etc/codex/config.toml`, `~/.codex/config.toml` (`CODEX_HOME` moves `~/.codex`) and
 *   the trusted project's `.codex/config.toml` files (see `codex`).
 * - Zed: `settings.json` in Zed's config folder and `FOLDER/.zed/settings.json` (see `zed`).
 * - Kiro: `~/.kiro/settings/mcp.json` and `FOLDER/.kiro/settings/mcp.json` (the workspace's wins).
 * - Amazon Q CLI: its default agent's servers, by default `FOLDER/.amazonq/mcp.json` and
 *   `~/.aws/amazonq/mcp.json` (see `amazonQ`).
 * - opencode: `~/.config/opencode/opencode.json(c)`, `OPENCODE_CONFIG`, the project's
 *   `opencode.json(c)` files (see `opencode`).
 * - LM Studio: `~/.lmstudio/mcp.json` (see `lmStudio`).
 * - Copilot CLI: `~/.copilot/mcp-config.json` (`COPILOT_HOME` moves `~/.copilot`), the `.mcp.json`
 *   files from FOLDER up to its git root and the root's `.github/mcp.json` (see `copilotCli`).
 * - Cline: `~/.cline/data/settings/cline_mcp_settings.json`, else the files of Cline before 4.0
 *   in each VS Code-based editor's extension storage (see `cline`).
 * - Roo Code: `mcp_settings.json` in each VS Code-based editor's extension storage and
 *   `FOLDER/.roo/mcp.json` (the project's wins; see `rooCode`).
 *
 * @module
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import { parse as parseDotEnv } from "dotenv";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { type ClientId, type ClientInfo, CLIENTS } from "./clients.ts";
import {
  CLAUDE_CODE_JSON,
  CLAUDE_CODE_MCP_JSON,
  ConfigSyntaxError,
  GEMINI_JSON,
  type JsonDialect,
  parseConfigText,
  parseTomlText,
} from "./config_text.ts";
import {
  type ConfiguredServer,
  entryVariables,
  type FolderVariables,
  isObject,
  readServerEntry,
  type ToolFilter,
} from "./entries.ts";
import { type DeferralInputs, readVariable, type SettingsLayer } from "./posture.ts";
import { checkServer, readServerPolicy, type ServerPolicy } from "./policy.ts";

/** The operating systems whose file layouts the audit knows. */
export type Platform = "linux" | "darwin" | "windows";

/** Options of {@linkcode discoverConfigs}. */
export interface DiscoverOptions {
  /** The home folder audited. */
  readonly home: string;
  /** The working folder (a project); its `.mcp.json`, `.cursor/`, `.vscode/` are read. */
  readonly project?: string;
  /** This machine's OS (machine-wide files: Claude Code's managed settings). */
  readonly platform: Platform;
  /**
   * The account is this process's own: read machine-wide files and the shell's environment
   * (`CLAUDE_CONFIG_DIR`, `APPDATA`, `XDG_CONFIG_HOME`, and the variables a posture reads).
   * False for `--home`, which audits a folder, not this shell.
   */
  readonly system: boolean;
  /** The shell's environment (read only when `system`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads a file: its text, or `undefined` when it does not exist. */
  readonly read: (path: string) => Promise<string | undefined>;
  /**
   * Whether a file or folder exists (Codex's project root is the closest folder holding a
   * `.git`); absent: the project folder is its own root.
   */
  readonly exists?: (path: string) => Promise<boolean>;
}

/** One client configuration: the servers one client starts in one place. */
export interface ClientConfig {
  /** Stable key (baselines): the client and its folder or main file, `~`-relative. */
  readonly id: string;
  /** Which client. */
  readonly client: ClientId;
  /** Display name, e.g. `Claude Code`. */
  readonly label: string;
  /** The project folder, for per-project configs. */
  readonly folder?: string;
  /** The config files its servers come from. */
  readonly files: readonly string[];
  /** Servers after the client's precedence, sorted by name. */
  readonly servers: readonly ConfiguredServer[];
  /** What was noticed while reading (shadowed names, unapproved project servers). */
  readonly notes: readonly string[];
  /** What its deferral posture is read from (never reported: it may hold secrets). */
  readonly deferral: DeferralInputs;
  /** The model its config names, when that sets the request format (opencode's `model`). */
  readonly model?: Pick<ClientInfo, "format" | "family" | "formatWhy">;
}

/** A file that could not be read or parsed. */
export interface ConfigProblem {
  /** The file. */
  readonly path: string;
  /** One line: the file, the position and the reason. */
  readonly message: string;
}

/** What {@linkcode discoverConfigs} found. */
export interface Discovery {
  /** One config per client and project, in client order. */
  readonly configs: readonly ClientConfig[];
  /** Files that exist but could not be read or parsed. */
  readonly problems: readonly ConfigProblem[];
  /** Every path looked at. */
  readonly searched: readonly string[];
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** `path` with the home folder written `~`. */
export function tilde(path: string, home: string): string {
  const h = home.replace(/[\\/]+$/, "");
  return path === h
    ? "~"
    : path.startsWith(h + "/") || path.startsWith(h + "\\")
    ? "~" + path.slice(h.length)
    : path;
}

/** What a JSON value is, in words: `null`, `an array`, `a string`. */
function kindOf(value: JsonValue): string {
  return value === null
    ? "null"
    : Array.isArray(value)
    ? "an array"
    : typeof value === "object"
    ? "an object"
    : `a ${typeof value}`;
}

/**
 * The strings of the list a settings object holds at `key`; a value there that is not a list is
 * noted (once) as ignored, naming where it is.
 */
function listOf(value: JsonObject, key: string, where: string, notes: string[]): string[] {
  const v = value[key];
  if (v !== undefined && !Array.isArray(v)) {
    const note = `${where}: ${key} is ${kindOf(v)}, not a list of server names: ignored`;
    if (!notes.includes(note)) notes.push(note);
  }
  return strings(v);
}

class Reader {
  readonly problems: ConfigProblem[] = [];
  readonly searched: string[] = [];
  readonly #cache = new Map<string, Promise<JsonValue | undefined>>();
  constructor(readonly options: DiscoverOptions) {}

  /**
   * The parsed file, or undefined when it is absent or broken (then a problem is kept, unless
   * `quiet`: a machine-wide file this process may not read is as good as absent).
   */
  load(
    path: string,
    jsonc: boolean | JsonDialect | "toml",
    quiet = false,
  ): Promise<JsonValue | undefined> {
    let cached = this.#cache.get(path);
    if (cached === undefined) {
      cached = this.#load(path, jsonc, quiet);
      this.#cache.set(path, cached);
    }
    return cached;
  }

  async #load(
    path: string,
    jsonc: boolean | JsonDialect | "toml",
    quiet: boolean,
  ): Promise<JsonValue | undefined> {
    this.searched.push(path);
    let text: string | undefined;
    try {
      text = await this.options.read(path);
    } catch (error) {
      if (quiet) return undefined;
      this.problems.push({ path, message: `${path}: cannot read: ${(error as Error).message}` });
      return undefined;
    }
    if (text === undefined) return undefined;
    let value: JsonValue;
    try {
      value = jsonc === "toml" ? parseTomlText(text, path) : parseConfigText(text, path, jsonc);
    } catch (error) {
      if (!(error instanceof ConfigSyntaxError)) throw error;
      this.problems.push({ path, message: error.message });
      return undefined;
    }
    // Every file the clients keep is one JSON object; any other value holds nothing to read.
    if (isObject(value)) return value;
    this.problems.push({
      path,
      message: `${path}: the file holds ${kindOf(value)}, not a JSON object: nothing read from it`,
    });
    return undefined;
  }

  /**
   * The servers of a table (`mcpServers` or the like) of `source`; a table that is there but is
   * not an object is a problem naming `field`, where it sits in the file.
   */
  servers(
    table: JsonValue | undefined,
    scope: string,
    source: string,
    folders: FolderVariables,
    field = "mcpServers",
    client?: ClientId,
    shell?: Readonly<Record<string, string | undefined>>,
  ): ConfiguredServer[] {
    if (!isObject(table)) {
      if (table !== undefined) this.notATable(source, field, table);
      return [];
    }
    return Object.keys(table).sort().map((name) =>
      readServerEntry(name, table[name], {
        scope,
        source,
        folders,
        ...(client === undefined ? {} : { client }),
        ...(shell === undefined ? {} : { shell }),
      })
    );
  }

  /** Keeps the problem of a servers table that is not an object (once per file and field). */
  notATable(source: string, field: string, table: JsonValue): void {
    const message = `${source}: ${field} is ${
      kindOf(table)
    }, not an object of servers: no server read from it`;
    if (!this.problems.some((p) => p.message === message)) {
      this.problems.push({ path: source, message });
    }
  }
}

/** Servers by name, the first list winning; the names it hides become notes. */
function merge(
  lists: readonly (readonly ConfiguredServer[])[],
  notes: string[],
): ConfiguredServer[] {
  const out = new Map<string, ConfiguredServer>();
  for (const list of lists) {
    for (const s of list) {
      const kept = out.get(s.name);
      if (kept === undefined) out.set(s.name, s);
      else notes.push(`"${s.name}" in ${s.source} (${s.scope}) is hidden by the ${kept.scope} one`);
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Marks the servers a list names as disabled; `listedIn` maps a name to the list's place. */
function withDisabled(servers: ConfiguredServer[], listedIn: ReadonlyMap<string, string>) {
  return servers.map((s) => {
    const where = listedIn.get(s.name);
    return where === undefined || s.disabled
      ? s
      : { ...s, disabled: true, disabledBy: `listed in ${where}` };
  });
}

function managedDir(platform: Platform): string {
  return platform === "darwin"
    ? "/Library/Application Support/ClaudeCode"
    : platform === "windows"
    ? "C:\\Program Files\\ClaudeCode"
    : "/etc/claude-code";
}

async function claudeCode(
  r: Reader,
  claudeJsonPath: string | undefined,
  onlyMcpJson?: string,
): Promise<ClientConfig[]> {
  const { home, project, system, env, platform } = r.options;
  const configDir = system && env.CLAUDE_CONFIG_DIR ? env.CLAUDE_CONFIG_DIR : join(home, ".claude");
  const claudeJson = claudeJsonPath === undefined
    ? undefined
    : await r.load(claudeJsonPath, CLAUDE_CODE_JSON);
  const userSettingsPath = join(configDir, "settings.json");
  const userSettings = await r.load(userSettingsPath, CLAUDE_CODE_JSON);
  const managedSettingsPath = join(managedDir(platform), "managed-settings.json");
  const managedMcpPath = join(managedDir(platform), "managed-mcp.json");
  const managedSettings = system
    ? await r.load(managedSettingsPath, CLAUDE_CODE_JSON, true)
    : undefined;
  const managedMcp = system ? await r.load(managedMcpPath, CLAUDE_CODE_JSON, true) : undefined;
  const projects = isObject(claudeJson) && isObject(claudeJson.projects) ? claudeJson.projects : {};
  const field = (folder: string) => `projects[${JSON.stringify(folder)}].mcpServers`;
  if (onlyMcpJson === undefined) {
    // A project whose servers are not an object has none to audit: say so, not skip it silently.
    for (const [folder, p] of Object.entries(projects)) {
      if (isObject(p) && p.mcpServers !== undefined && !isObject(p.mcpServers)) {
        r.notATable(claudeJsonPath!, field(folder), p.mcpServers);
      }
    }
  }
  const folders = onlyMcpJson !== undefined ? [dirname(onlyMcpJson)] : [
    ...new Set([
      ...(project === undefined ? [] : [project]),
      ...Object.keys(projects).filter((f) => {
        const p = projects[f];
        return isObject(p) && isObject(p.mcpServers) && Object.keys(p.mcpServers).length > 0;
      }).sort(),
    ]),
  ];
  const out: ClientConfig[] = [];
  for (const folder of folders.length > 0 ? folders : [undefined]) {
    const vars: FolderVariables = { home, ...(folder === undefined ? {} : { workspace: folder }) };
    const entry = folder === undefined ? undefined : projects[folder];
    const local = isObject(entry) ? entry : {};
    const mcpJsons = (await Promise.all(
      (onlyMcpJson !== undefined ? [onlyMcpJson] : folder === undefined ? [] : mcpJsonFiles(folder))
        .map(async (path) => ({ path, value: await r.load(path, CLAUDE_CODE_MCP_JSON) })),
    )).filter((m) => m.value !== undefined);
    const folderSettings = folder === undefined ? [] : await Promise.all(
      [".claude/settings.local.json", ".claude/settings.json"].map(async (rel) => {
        const path = join(folder, rel);
        return { path, value: await r.load(path, CLAUDE_CODE_JSON) };
      }),
    );
    // Run from the home folder, the project's .claude/settings.json is the user's: read once.
    const layers = [
      ...(system ? [{ path: managedSettingsPath, value: managedSettings }] : []),
      ...folderSettings,
      { path: userSettingsPath, value: userSettings },
    ].filter((l, i, all) => all.findIndex((m) => m.path === l.path) === i);
    const present = layers.filter((l) => l.value !== undefined);
    const notes: string[] = [];
    // name → where it is listed first (the disabled server's cause names the key and file)
    const settingsListed = (key: string) => {
      const where = new Map<string, string>();
      const add = (names: string[], place: string) => {
        for (const n of names) if (!where.has(n)) where.set(n, `${key} of ${place}`);
      };
      for (const l of present) {
        if (isObject(l.value)) add(listOf(l.value, key, l.path, notes), tilde(l.path, home));
      }
      add(
        listOf(local, key, `${claudeJsonPath} projects[${JSON.stringify(folder)}]`, notes),
        `${tilde(claudeJsonPath ?? "", home)} (this project's entry)`,
      );
      return where;
    };
    const settingsList = (key: string) => new Set(settingsListed(key).keys());
    const provided = providedServers(r, managedSettings, managedSettingsPath, vars, notes);
    const files = [
      ...(managedMcp === undefined ? [] : [managedMcpPath]),
      ...(provided.length === 0 ? [] : [managedSettingsPath]),
      ...(onlyMcpJson === undefined && claudeJson !== undefined ? [claudeJsonPath!] : []),
      ...mcpJsons.map((m) => m.path),
    ];
    if (files.length === 0) continue;
    const projectServers = mcpJsons.map((m) =>
      withDisabled(
        r.servers(isObject(m.value) ? m.value.mcpServers : undefined, "project", m.path, vars),
        settingsListed("disabledMcpjsonServers"),
      )
    );
    const merged = withDisabled(
      merge([
        r.servers(
          isObject(managedMcp) ? managedMcp.mcpServers : undefined,
          "managed",
          managedMcpPath,
          vars,
        ),
        provided,
        onlyMcpJson === undefined
          ? r.servers(local.mcpServers, "local", claudeJsonPath!, vars, field(folder!))
          : [],
        ...projectServers,
        onlyMcpJson === undefined && isObject(claudeJson)
          ? r.servers(claudeJson.mcpServers, "user", claudeJsonPath!, vars)
          : [],
      ], notes),
      settingsListed("disabledMcpServers"),
    );
    const settingsLayers = present.map((l): SettingsLayer => ({
      where: tilde(l.path, home),
      ...(isObject(l.value) && isObject(l.value.env) ? { env: l.value.env } : {}),
    }));
    const policy = readServerPolicy(
      layers.map((l) => ({
        where: tilde(l.path, home),
        managed: l.path === managedSettingsPath,
        value: l.value,
      })),
      notes,
    );
    const servers = merged.map((s) =>
      loadedUnderPolicy(
        withSettingsVariables(s, settingsLayers, notes),
        policy,
        isObject(managedMcp),
        system ? env : {},
      )
    );
    const approved = settingsList("enabledMcpjsonServers");
    const approveAll = present.some((l) =>
      isObject(l.value) && l.value.enableAllProjectMcpServers === true
    );
    const pending = servers.filter((s) =>
      s.scope === "project" && !s.disabled && !approveAll && !approved.has(s.name)
    );
    if (pending.length > 0) {
      notes.push(
        `${pending.length} project server(s) of ${
          [...new Set(pending.map((s) => tilde(s.source, home)))].join(", ")
        } are not recorded as ` +
          `approved: Claude Code asks before starting them (counted here)`,
      );
    }
    const id = `claude-code ${
      onlyMcpJson !== undefined ? onlyMcpJson : folder === undefined ? "~" : tilde(folder, home)
    }`;
    out.push({
      id,
      client: "claude-code",
      label: CLIENTS["claude-code"].label,
      ...(folder === undefined ? {} : { folder }),
      files,
      servers,
      notes,
      deferral: {
        kind: "claude-code",
        layers: settingsLayers,
        consulted: present.map((l) => tilde(l.path, home)),
        ...(system ? { shell: env } : {}),
      },
    });
  }
  return out;
}

const MANAGED_MCP_DOCS = "code.claude.com/docs/en/managed-mcp";

/**
 * The `.mcp.json` files Claude Code reads for a working folder, the closest first (it wins a
 * shared name): the folder's and every parent folder's up to the filesystem root (not its own),
 * except inside a `connector-downloads` folder, where Claude Code saves claude.ai connectors'
 * files and ignores them (as bundled in Claude Code 2.1.328).
 */
function mcpJsonFiles(folder: string): string[] {
  const out: string[] = [];
  for (let dir = folder; dirname(dir) !== dir; dir = dirname(dir)) {
    if (!dir.split(/[\\/]/).includes("connector-downloads")) out.push(join(dir, ".mcp.json"));
  }
  return out;
}

/** Server names Claude Code keeps for its built-in servers: a config entry named so is skipped. */
const RESERVED_NAMES: ReadonlySet<string> = new Set([
  "workspace",
  "claude-in-chrome",
  "computer-use",
  "Claude Preview",
  "Claude Browser",
]);

/**
 * The remote servers the managed settings provide (`managedMcpServers`), each entry checked as
 * Claude Code checks it: `type` `http`, `streamable-http` or `sse`, an `https://` URL, no
 * `command`, `args`, `env` or `headersHelper`, no `${VAR}`, a name of letters, digits, `-` and
 * `_`. An entry that fails is left out with a note, as Claude Code drops it.
 */
function providedServers(
  r: Reader,
  settings: JsonValue | undefined,
  path: string,
  folders: FolderVariables,
  notes: string[],
): ConfiguredServer[] {
  const table = isObject(settings) ? settings.managedMcpServers : undefined;
  if (table === undefined) return [];
  if (!isObject(table)) {
    notes.push(
      `${path}: managedMcpServers is not an object of servers (Claude Desktop's array form?): ` +
        `Claude Code loads none of it (${MANAGED_MCP_DOCS})`,
    );
    return [];
  }
  const kept: Record<string, JsonValue> = {};
  for (const name of Object.keys(table).sort()) {
    const raw = table[name];
    const why = !/^[A-Za-z0-9_-]+$/.test(name)
      ? "its name has characters other than letters, digits, - and _"
      : !isObject(raw)
      ? "it is not an object"
      : !["http", "streamable-http", "sse"].includes(String(raw.type))
      ? "its type is not http or sse"
      : typeof raw.url !== "string" || !/^https:\/\//i.test(raw.url)
      ? "its url is not an https:// URL"
      : ["command", "args", "env", "headersHelper"].some((k) => raw[k] !== undefined)
      ? "it has a command, args, env or headersHelper"
      : /\$\{/.test(JSON.stringify(raw))
      ? "it has a ${VAR} reference, which Claude Code does not expand there"
      : undefined;
    if (why === undefined) kept[name] = raw;
    else {
      notes.push(
        `managedMcpServers "${name}" in ${path} is not loaded: ${why} (${MANAGED_MCP_DOCS})`,
      );
    }
  }
  return r.servers(kept, "managed settings", path, folders, "managedMcpServers");
}

/**
 * The server as Claude Code loads it: a reserved name is skipped; with `managed-mcp.json`
 * deployed only its servers and the managed settings' load (exclusive control); a denylist
 * match, or a missing allowlist match, keeps a server from loading.
 */
function loadedUnderPolicy(
  server: ConfiguredServer,
  policy: ServerPolicy,
  exclusive: boolean,
  shell: Readonly<Record<string, string | undefined>>,
): ConfiguredServer {
  if (server.disabled) return server;
  if (RESERVED_NAMES.has(server.name)) {
    return {
      ...server,
      disabled: true,
      disabledBy: `not loaded: "${server.name}" is reserved for a Claude Code built-in server ` +
        `(code.claude.com/docs/en/mcp, Configuration warnings)`,
    };
  }
  const organization = server.scope === "managed"
    ? "managed-file"
    : server.scope === "managed settings"
    ? "managed-settings"
    : false;
  if (exclusive && organization === false) {
    return {
      ...server,
      disabled: true,
      disabledBy: `not loaded: managed-mcp.json has exclusive control (${MANAGED_MCP_DOCS})`,
    };
  }
  if (server.entry === undefined) return server;
  const verdict = checkServer(policy, {
    name: server.name,
    entry: server.entry,
    organization,
  }, { ...shell, ...server.variables });
  return verdict.allowed
    ? server
    : { ...server, disabled: true, disabledBy: `${verdict.why} (${MANAGED_MCP_DOCS})` };
}

/** Variables the capture gives its own values (the throwaway home and temporary folder). */
const CAPTURE_VARIABLES: ReadonlySet<string> = new Set(["HOME", "TMPDIR"]);

/**
 * The server with the values Claude Code's settings `env` blocks give the variables its entry
 * references: Claude Code applies those blocks to its own environment, which `${VAR}` in every
 * scope's entries is expanded from (the highest-precedence file setting a name wins; the shell's
 * value only when none does). A non-string value is read as `readVariable` reads it, and noted.
 */
function withSettingsVariables(
  server: ConfiguredServer,
  layers: readonly SettingsLayer[],
  notes: string[],
): ConfiguredServer {
  if (server.entry === undefined) return server;
  const variables: Record<string, string> = {};
  for (const name of entryVariables(server.entry)) {
    if (CAPTURE_VARIABLES.has(name)) continue;
    const read = readVariable(name, layers, undefined);
    for (const note of read.notes) if (!notes.includes(note)) notes.push(note);
    if (read.value !== undefined) variables[name] = read.value;
  }
  return Object.keys(variables).length === 0 ? server : { ...server, variables };
}

function userDirs(options: DiscoverOptions, ...rel: string[]): string[] {
  const { home, system, env } = options;
  const bases = [
    join(home, "Library", "Application Support"),
    join(home, "AppData", "Roaming"),
    join(home, ".config"),
    ...(system && env.APPDATA ? [env.APPDATA] : []),
    ...(system && env.XDG_CONFIG_HOME ? [env.XDG_CONFIG_HOME] : []),
  ];
  return [...new Set(bases.map((b) => join(b, ...rel)))];
}

async function single(
  r: Reader,
  client: ClientId,
  path: string,
  value: JsonValue | undefined,
  folder: string | undefined,
  deferral: DeferralInputs,
): Promise<ClientConfig | undefined> {
  if (value === undefined) return undefined;
  const { home } = r.options;
  const vars: FolderVariables = { home, ...(folder === undefined ? {} : { workspace: folder }) };
  const table = isObject(value) ? value.mcpServers ?? value.servers : undefined;
  const notes: string[] = [];
  if (!isObject(table)) {
    r.problems.push({
      path,
      message: `${path}: no "mcpServers" (or "servers") object: not an MCP servers config`,
    });
    return undefined;
  }
  const field = isObject(value) && value.mcpServers !== undefined ? "mcpServers" : "servers";
  const servers = await withEnvFiles(
    r,
    r.servers(table, "file", path, vars, field, client),
    folder,
  );
  return {
    id: `${client} ${tilde(path, home)}`,
    client,
    label: CLIENTS[client].label,
    ...(folder === undefined ? {} : { folder }),
    files: [path],
    servers,
    notes: [...notes, ...servers.flatMap((s) => s.notes ?? [])],
    deferral,
  };
}

/**
 * Finds every MCP client configuration under `options.home` (and `options.project`).
 *
 * @param options Home and project folders, platform, whether the account is this shell's, and
 *   the file reader.
 * @returns The configs (client order: Claude Code, Claude Desktop, Cursor, VS Code, Windsurf,
 *   Gemini CLI, Codex, Zed, Copilot CLI, Kiro, Amazon Q CLI, opencode, LM Studio),
 *   the files that could not be parsed (one line each), and every path looked at.
 */
export async function discoverConfigs(options: DiscoverOptions): Promise<Discovery> {
  const r = new Reader(options);
  const { home, project, system, env } = options;
  const configs: ClientConfig[] = [];
  const claudeJson = system && env.CLAUDE_CONFIG_DIR
    ? join(env.CLAUDE_CONFIG_DIR, ".claude.json")
    : join(home, ".claude.json");
  configs.push(...await claudeCode(r, claudeJson));

  for (const path of userDirs(options, "Claude", "claude_desktop_config.json")) {
    const value = await r.load(path, false);
    // Claude Desktop keeps its preferences in the same file: one without servers has none.
    if (isObject(value) && value.mcpServers === undefined) continue;
    const c = await single(r, "claude-desktop", path, value, undefined, {
      kind: "claude-desktop",
    });
    if (c !== undefined) configs.push(c);
  }

  const cursorGlobal = join(home, ".cursor", "mcp.json");
  const cursorProject = project === undefined ? undefined : join(project, ".cursor", "mcp.json");
  const cursorFiles = [
    ...(cursorProject === undefined
      ? []
      : [{ path: cursorProject, scope: "project", inProject: true }]),
    { path: cursorGlobal, scope: "global" },
  ];
  configs.push(...await layered(r, "cursor", cursorFiles, { kind: "cursor" }));

  const workspaceSettingsPath = project === undefined
    ? undefined
    : join(project, ".vscode", "settings.json");
  const workspaceSettings = workspaceSettingsPath === undefined
    ? undefined
    : await r.load(workspaceSettingsPath, true);
  for (const flavor of ["Code", "Code - Insiders"]) {
    const dirs: (string | undefined)[] = [];
    for (const dir of userDirs(options, flavor, "User")) {
      const present = await r.load(join(dir, "mcp.json"), true) !== undefined ||
        await r.load(join(dir, "settings.json"), true) !== undefined;
      if (present) dirs.push(dir);
    }
    // A workspace file with no user profile found still belongs to VS Code.
    if (dirs.length === 0 && flavor === "Code") dirs.push(undefined);
    for (const dir of dirs) {
      const settingsPath = dir === undefined ? undefined : join(dir, "settings.json");
      const settings = settingsPath === undefined ? undefined : await r.load(settingsPath, true);
      // A setting of the workspace's settings.json, else of the user's.
      const setting = (key: string) =>
        isObject(workspaceSettings) && workspaceSettings[key] !== undefined
          ? { value: workspaceSettings[key], where: tilde(workspaceSettingsPath!, home) }
          : isObject(settings) && settings[key] !== undefined
          ? { value: settings[key], where: tilde(settingsPath!, home) }
          : undefined;
      const threshold = setting("github.copilot.chat.virtualTools.threshold");
      const access = setting("chat.mcp.access") ?? setting("chat.mcp.enabled");
      const files = [
        ...(project === undefined
          ? []
          : [{ path: join(project, ".vscode", "mcp.json"), scope: "workspace", inProject: true }]),
        ...(dir === undefined ? [] : [
          { path: join(dir, "mcp.json"), scope: "user" },
          { path: settingsPath!, scope: "user settings", mcpKey: true },
        ]),
        ...discoveredFiles(options, setting("chat.mcp.discovery.enabled")?.value),
      ];
      const found = await layered(r, "vscode", files, {
        kind: "vscode",
        ...(threshold === undefined ? {} : { threshold }),
      });
      configs.push(...found.map((c) => ({
        ...withMcpAccess(c, access),
        label: flavor === "Code" ? "VS Code" : "VS Code Insiders",
        id: `vscode ${tilde(dir ?? files[0].path, home)}`,
      })));
    }
  }

  configs.push(
    ...await layered(r, "windsurf", [{
      path: join(home, ".codeium", "windsurf", "mcp_config.json"),
      scope: "user",
    }], { kind: "none", client: "Windsurf" }),
  );
  configs.push(...await geminiCli(r));
  configs.push(...await codex(r));
  configs.push(...await zed(r));
  configs.push(...await copilotCli(r));
  configs.push(...await cline(r));
  configs.push(...await rooCode(r));
  configs.push(...await kiro(r));
  configs.push(...await amazonQ(r));
  configs.push(...await opencode(r));
  configs.push(...await lmStudio(r));
  return { configs, problems: r.problems, searched: r.searched };
}

/** The user folders of the VS Code-based editors an extension's storage can be under, by label. */
const EDITOR_HOSTS: readonly (readonly [folder: string, label: string])[] = [
  ["Code", "VS Code"],
  ["Code - Insiders", "VS Code Insiders"],
  ["Cursor", "Cursor"],
  ["Windsurf", "Windsurf"],
  ["VSCodium", "VSCodium"],
];

/** `JSON.parse` of the file's text, as Node.js extensions read theirs: no comment, BOM or trailing comma. */
const NODE_JSON: JsonDialect = { comments: false, trailingCommas: false, bom: false };

/** Cline's reading: `JSON.parse`, a blank file holding no server (McpHub, v4.1.13). */
const CLINE_JSON: JsonDialect = { ...NODE_JSON, blankIsEmpty: true };

const CLINE_FILE = "cline_mcp_settings.json";
const CLINE_DOCS = "docs.cline.bot, Config";

/**
 * Cline (docs.cline.bot, Config; cline/cline v4.1.13, apps/vscode/src/hosts/vscode/
 * mcp-settings-legacy-migration.ts): Cline 4 (the VS Code extension and the CLI) keeps its MCP
 * servers in `~/.cline/data/settings/cline_mcp_settings.json` (`CLINE_MCP_SETTINGS_PATH` names
 * the file, `CLINE_DATA_DIR` the `data` folder, `CLINE_DIR` the `.cline` folder). Cline before 4.0
 * kept them in `settings/cline_mcp_settings.json` of its editor's extension storage
 * (`globalStorage/saoudrizwan.claude-dev`) or `~/Documents/Cline/MCP/`; Cline 4 copies those
 * servers into its own file once, at its first start, and reads them no more. So the older files
 * are read only when Cline 4's file does not exist (an install not yet updated), one config each.
 */
async function cline(r: Reader): Promise<ClientConfig[]> {
  const { home, system, env } = r.options;
  const set = (name: string) => system ? env[name]?.trim() || undefined : undefined;
  const shared = set("CLINE_MCP_SETTINGS_PATH") ??
    join(
      set("CLINE_DATA_DIR") ?? join(set("CLINE_DIR") ?? join(home, ".cline"), "data"),
      "settings",
      CLINE_FILE,
    );
  const older = [
    ...EDITOR_HOSTS.flatMap(([folder]) =>
      userDirs(
        r.options,
        folder,
        "User",
        "globalStorage",
        "saoudrizwan.claude-dev",
        "settings",
        CLINE_FILE,
      )
    ),
    join(home, "Documents", "Cline", "MCP", CLINE_FILE),
  ];
  const deferral: DeferralInputs = { kind: "none", client: "Cline" };
  const current =
    (await layered(r, "cline", [{ path: shared, scope: "user" }], deferral, CLINE_JSON))
      .map(withRefusal("Cline", r.options.home));
  const exists = r.options.exists ??
    (async (path: string) => await r.options.read(path) !== undefined);
  if (current.length > 0) {
    const left = [];
    for (const path of older) if (await exists(path)) left.push(tilde(path, home));
    if (left.length === 0) return current;
    return [{
      ...current[0],
      notes: [
        ...current[0].notes,
        `${left.join(", ")}: the file${left.length > 1 ? "s" : ""} of Cline before 4.0, whose ` +
        `servers Cline 4 copied into ${
          tilde(shared, home)
        } at its first start: not read (${CLINE_DOCS})`,
      ],
    }];
  }
  const configs: ClientConfig[] = [];
  for (const path of older) {
    for (
      const c of (await layered(r, "cline", [{ path, scope: "user" }], deferral, CLINE_JSON)).map(
        withRefusal("Cline", r.options.home),
      )
    ) {
      configs.push({
        ...c,
        notes: [
          ...c.notes,
          `no ${
            tilde(shared, home)
          }: this is the file of a Cline before 4.0, which put MCP tools ` +
          `in its system prompt as text, or sent them under other names with native tool calls; ` +
          `Cline 4 copies these servers at its first start. Counted as Cline 4 sends them`,
        ],
      });
    }
  }
  return configs;
}

/**
 * Roo Code (docs.roocode.com/features/mcp/using-mcp-in-roo; RooCodeInc/Roo-Code v3.52.1,
 * src/services/mcp/McpHub.ts, src/utils/storage.ts): the global `settings/mcp_settings.json` of
 * its extension storage (`globalStorage/rooveterinaryinc.roo-cline`, or the folder the editor's
 * user setting `roo-cline.customStoragePath` names), in each VS Code-based editor it is installed
 * in, and the project's `FOLDER/.roo/mcp.json`, whose entry wins a shared name. Both are read
 * with `JSON.parse`.
 */
async function rooCode(r: Reader): Promise<ClientConfig[]> {
  const { project } = r.options;
  const projectFile = project === undefined
    ? []
    : [{ path: join(project, ".roo", "mcp.json"), scope: "project", inProject: true }];
  const deferral: DeferralInputs = { kind: "none", client: "Roo Code" };
  const configs: ClientConfig[] = [];
  for (const [folder, label] of EDITOR_HOSTS) {
    for (const dir of userDirs(r.options, folder, "User")) {
      const settings = await r.load(join(dir, "settings.json"), true, true);
      const custom = isObject(settings) ? settings["roo-cline.customStoragePath"] : undefined;
      const base = typeof custom === "string" && custom.trim() !== ""
        ? custom
        : join(dir, "globalStorage", "rooveterinaryinc.roo-cline");
      const path = join(base, "settings", "mcp_settings.json");
      if (await r.load(path, NODE_JSON) === undefined) continue;
      const found = await layered(
        r,
        "roo-code",
        [...projectFile, { path, scope: "global" }],
        deferral,
        NODE_JSON,
      );
      configs.push(
        ...found.map(withRefusal("Roo Code", r.options.home)).map((c) => ({
          ...c,
          label: folder === "Code" ? CLIENTS["roo-code"].label : `Roo Code (${label})`,
        })),
      );
    }
  }
  // A project file with no global one found still belongs to Roo Code.
  if (configs.length === 0 && projectFile.length > 0) {
    configs.push(
      ...(await layered(r, "roo-code", projectFile, deferral, NODE_JSON)).map(
        withRefusal("Roo Code", r.options.home),
      ),
    );
  }
  return configs;
}

/**
 * A note for a file whose entries a client's schema refuses: Cline 4 then loads no server of its
 * file (cline/cline v4.1.13, McpHub `readAndValidateMcpSettingsFile`), Roo Code none of a project
 * file's (`initializeMcpServers`; its global file's other servers still load). As for Codex, the
 * valid servers are measured, as they would load once the file is fixed.
 */
function withRefusal(client: string, home: string): (c: ClientConfig) => ClientConfig {
  return (c) => {
    const bad = c.servers.filter((s) =>
      s.refusesConfig === true && (client === "Cline" || s.scope === "project")
    );
    if (bad.length === 0) return c;
    const file = tilde(bad[0].source, home);
    return {
      ...c,
      notes: [
        ...c.notes,
        `${client} loads no server of ${file} while an entry there fails its schema (${
          bad.map((s) => `"${s.name}"`).join(", ")
        }): until it is fixed, ${client} starts none of them; the valid ones are measured here`,
      ],
    };
  };
}

const ZED_DOCS = "zed.dev/docs/ai/mcp";

/**
 * Zed (zed.dev/docs/ai/mcp; zed-industries/zed crates/paths, `ContextServerSettingsContent`):
 * `context_servers` of the user's `settings.json` in Zed's config folder (`~/.config/zed` on
 * macOS, `$XDG_CONFIG_HOME/zed` on Linux, `%APPDATA%\Zed` on Windows) and of the project's
 * `.zed/settings.json`, the project's entry winning a shared name. Both files are JSONC.
 */
async function zed(r: Reader): Promise<ClientConfig[]> {
  const { home, project, system, env, platform } = r.options;
  const userPath = platform === "windows"
    ? join(
      system && env.APPDATA ? env.APPDATA : join(home, "AppData", "Roaming"),
      "Zed",
      "settings.json",
    )
    : platform === "linux" && system && env.XDG_CONFIG_HOME
    ? join(env.XDG_CONFIG_HOME, "zed", "settings.json")
    : join(home, ".config", "zed", "settings.json");
  const projectPath = project === undefined ? undefined : join(project, ".zed", "settings.json");
  const files = [
    ...(projectPath === undefined || projectPath === userPath
      ? []
      : [{ path: projectPath, scope: "project", inProject: true }]),
    { path: userPath, scope: "user" },
  ];
  const vars: FolderVariables = { home, ...(project === undefined ? {} : { workspace: project }) };
  const lists: ConfiguredServer[][] = [];
  const used: typeof files = [];
  for (const f of files) {
    const value = await r.load(f.path, true);
    if (!isObject(value) || value.context_servers === undefined) continue;
    used.push(f);
    lists.push(r.servers(value.context_servers, f.scope, f.path, vars, "context_servers", "zed"));
  }
  if (used.length === 0) return [];
  const notes: string[] = [];
  const servers = merge(lists, notes);
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  if (used.some((f) => f.scope === "project")) {
    notes.push(
      `Zed starts MCP servers in a project automatically only once its worktree is trusted, a ` +
        `state Zed keeps in its database, not a file: every server is counted (${ZED_DOCS})`,
    );
  }
  return [{
    id: `zed ${tilde(userPath, home)}`,
    client: "zed",
    label: CLIENTS.zed.label,
    ...(used.some((f) => f.scope === "project") ? { folder: project } : {}),
    files: used.map((f) => f.path),
    servers,
    notes,
    deferral: { kind: "none", client: "Zed" },
  }];
}

const CODEX_DOCS = "developers.openai.com/codex/config-basic";

/** One Codex config layer: a file and its table. */
interface CodexLayer {
  readonly path: string;
  readonly scope: string;
  readonly value: JsonObject;
}

/** `overlay` merged into `base` as Codex merges its layers: tables key by key, anything else replaced. */
function mergeToml(base: JsonValue | undefined, overlay: JsonValue): JsonValue {
  if (!isObject(base) || !isObject(overlay)) return overlay;
  const out: Record<string, JsonValue> = { ...base };
  for (const [k, v] of Object.entries(overlay)) out[k] = mergeToml(out[k], v);
  return out;
}

/**
 * Codex (developers.openai.com/codex/config-basic, .../mcp; codex-rs/core/src/config_loader):
 * its layers, lowest first, are `/etc/codex/config.toml` (Unix), `$CODEX_HOME/config.toml`
 * (`~/.codex`), then the `.codex/config.toml` of each folder from the project root (the closest
 * folder up from the working folder holding one of `project_root_markers`, `.git` by default)
 * down to the working folder, merged table by table, the later winning key by key. A project
 * layer loads only when `projects."FOLDER".trust_level` is `"trusted"` for that folder or the
 * project root; a file that does not parse stops Codex, as does an invalid server table.
 */
async function codex(r: Reader): Promise<ClientConfig[]> {
  const { home, project, system, env, platform } = r.options;
  const moved = system && env.CODEX_HOME ? env.CODEX_HOME : undefined;
  // A relative CODEX_HOME is Codex's working folder's, not this process's.
  const codexHome = moved === undefined
    ? join(home, ".codex")
    : isAbsolute(moved)
    ? moved
    : join(project ?? home, moved);
  const userPath = join(codexHome, "config.toml");
  // Codex stops at a CODEX_HOME that is not there (codex-rs find_codex_home): it starts nothing.
  if (moved !== undefined && !(await r.options.exists?.(codexHome) ?? true)) {
    r.problems.push({
      path: codexHome,
      message: `${codexHome}: CODEX_HOME names a folder that does not exist: Codex refuses to ` +
        `start until it does, so no Codex config is read`,
    });
    return [];
  }
  const systemPath = "/etc/codex/config.toml";
  const layers: CodexLayer[] = [];
  const notes: string[] = [];
  let broken = false;
  const add = async (path: string, scope: string, quiet = false) => {
    const before = r.problems.length;
    const value = await r.load(path, "toml", quiet);
    if (r.problems.length > before) broken = true;
    if (isObject(value)) layers.push({ path, scope, value });
  };
  if (system && platform !== "windows") await add(systemPath, "system", true);
  await add(userPath, "user");
  // The project layers, from the project root down to the working folder.
  const disabled: CodexLayer[] = [];
  if (project !== undefined) {
    const merged = layers.reduce<JsonValue>((acc, l) => mergeToml(acc, l.value), {});
    const m = isObject(merged) ? merged : {};
    const markers = Array.isArray(m.project_root_markers)
      ? strings(m.project_root_markers)
      : [".git"];
    let root = project;
    if (markers.length > 0 && r.options.exists !== undefined) {
      search: for (let dir = project;; dir = dirname(dir)) {
        for (const marker of markers) {
          if (await r.options.exists(join(dir, marker))) {
            root = dir;
            break search;
          }
        }
        if (dirname(dir) === dir) break;
      }
    }
    const dirs: string[] = [];
    for (let dir = project;; dir = dirname(dir)) {
      dirs.unshift(dir);
      if (dir === root || dirname(dir) === dir) break;
    }
    const projects = isObject(m.projects) ? m.projects : {};
    const trustOf = (dir: string) => {
      const p = projects[dir] ?? projects[root];
      return isObject(p) ? p.trust_level : undefined;
    };
    for (const dir of dirs) {
      const path = join(dir, ".codex", "config.toml");
      if (join(dir, ".codex") === codexHome) continue;
      const trusted = trustOf(dir) === "trusted";
      const value = await r.load(path, "toml");
      if (!isObject(value)) {
        if (value === undefined && trusted && r.problems.some((p) => p.path === path)) {
          broken = true;
        }
        continue;
      }
      const layer = { path, scope: "project", value };
      if (trusted) layers.push(layer);
      else {
        disabled.push(layer);
        notes.push(
          `${tilde(path, home)} is not loaded: ${tilde(dir, home)} is ${
            trustOf(dir) === "untrusted" ? "marked untrusted" : "not a trusted project"
          } in ${tilde(userPath, home)} (Codex loads a project's .codex/config.toml only when ` +
            `it is trusted; ${CODEX_DOCS})`,
        );
      }
    }
  }
  const hasServers = (l: CodexLayer) => l.value.mcp_servers !== undefined;
  // Codex stops at a config file it cannot parse (the problem names it): it starts no server.
  if (broken || (!layers.some(hasServers) && !disabled.some(hasServers))) return [];
  const merged = layers.reduce<JsonValue>((acc, l) => mergeToml(acc, l.value), {}) as JsonObject;
  const vars: FolderVariables = { home, ...(project === undefined ? {} : { workspace: project }) };
  const table = merged.mcp_servers;
  let servers: ConfiguredServer[] = [];
  if (table !== undefined && !isObject(table)) {
    const from = [...layers].reverse().find(hasServers)!;
    r.notATable(from.path, "mcp_servers", from.value.mcp_servers);
  } else if (isObject(table)) {
    servers = Object.keys(table).sort().map((name) => {
      // The file a server is read from: the highest layer writing any of its keys.
      const from = layers.filter((l) =>
        isObject(l.value.mcp_servers) && name in l.value.mcp_servers
      );
      const top = from.at(-1)!;
      if (from.length > 1) {
        notes.push(
          `"${name}" merges its keys from ${
            from.map((l) => tilde(l.path, home)).join(" and ")
          } (Codex merges tables key by key, the later file winning)`,
        );
      }
      return r.servers(
        { [name]: table[name] },
        top.scope,
        top.path,
        vars,
        "mcp_servers",
        "codex",
        system ? env : undefined,
      )[0];
    });
  }
  // An untrusted project's servers, listed as not loaded where no loaded file has the name.
  for (const l of disabled) {
    const t = l.value.mcp_servers;
    if (!isObject(t)) continue;
    for (
      const s of r.servers(
        t,
        "project",
        l.path,
        vars,
        "mcp_servers",
        "codex",
        system ? env : undefined,
      )
    ) {
      if (servers.some((x) => x.name === s.name)) continue;
      servers.push({
        ...s,
        disabled: true,
        disabledBy: `not loaded: ${
          tilde(dirname(dirname(l.path)), home)
        } is not a trusted project (${CODEX_DOCS})`,
      });
    }
  }
  servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A table Codex cannot read stops its config loader; a value it reads but cannot start (a bad
  // name, an empty command, a URL that is none) fails that server alone.
  const invalid = servers.filter((s) =>
    s.refusesConfig === true && !(s.disabledBy ?? "").startsWith("not loaded")
  );
  if (invalid.length > 0) {
    notes.push(
      `Codex refuses to start with an invalid server table (${
        invalid.map((s) => `"${s.name}"`).join(", ")
      }): until it is fixed, Codex starts none of these servers; the valid ones are measured here`,
    );
  }
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  const features = isObject(merged.features) ? merged.features : {};
  return [{
    id: `codex ${tilde(userPath, home)}`,
    client: "codex",
    label: CLIENTS.codex.label,
    ...(layers.some((l) => l.scope === "project") ? { folder: project } : {}),
    files: layers.filter(hasServers).map((l) => l.path),
    servers,
    notes,
    deferral: { kind: "codex", alwaysDefer: features.tool_search_always_defer_mcp_tools === true },
  }];
}

const GEMINI_DOCS = "geminicli.com/docs/tools/mcp-server";

function geminiSystemPath(options: DiscoverOptions): string {
  const { platform, env } = options;
  return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH ??
    (platform === "darwin"
      ? "/Library/Application Support/GeminiCli/settings.json"
      : platform === "windows"
      ? "C:\\ProgramData\\gemini-cli\\settings.json"
      : "/etc/gemini-cli/settings.json");
}

/**
 * Gemini CLI (geminicli.com/docs/cli/configuration, .../tools/mcp-server): `mcpServers` of the
 * system defaults, the user's `~/.gemini/settings.json`, the project's `.gemini/settings.json`
 * and the system settings, merged by name in that order (the later wins); `mcp.allowed` (every
 * file's list intersected, without case) and `mcp.excluded` (every file's list joined) by
 * server name; servers turned off with `gemini mcp disable` (`~/.gemini/mcp-server-enablement.json`);
 * folder trust (`~/.gemini/trustedFolders.json`, the longest matching rule): in a folder marked
 * not trusted, the project's settings are ignored and no server starts.
 */
async function geminiCli(r: Reader): Promise<ClientConfig[]> {
  const { home, project, system } = r.options;
  const userPath = join(home, ".gemini", "settings.json");
  const workspacePath = project === undefined
    ? undefined
    : join(project, ".gemini", "settings.json");
  const systemPath = geminiSystemPath(r.options);
  const defaultsPath = join(dirname(systemPath), "system-defaults.json");
  const load = async (path: string | undefined, quiet = false) =>
    path === undefined ? undefined : { path, value: await r.load(path, GEMINI_JSON, quiet) };
  const layers = [
    ...(system ? [await load(defaultsPath, true)] : []),
    await load(userPath),
    // the project's file is the user's own when the project is the home folder
    await load(workspacePath === userPath ? undefined : workspacePath),
    ...(system ? [await load(systemPath, true)] : []),
  ].filter((l): l is { path: string; value: JsonValue } => l !== undefined && isObject(l.value));
  if (!layers.some((l) => isObject(l.value) && l.value.mcpServers !== undefined)) return [];
  const notes: string[] = [];
  const setting = (pick: (v: JsonObject) => JsonValue | undefined, from = layers) =>
    from.map((l) => pick(l.value as JsonObject)).filter((v) => v !== undefined).at(-1);
  const obj = (v: JsonValue | undefined) => isObject(v) ? v : undefined;
  // Folder trust, decided by the files a project cannot write.
  const trustOn = setting(
    (v) => obj(obj(v.security)?.folderTrust)?.enabled,
    layers.filter((l) => l.path !== workspacePath),
  ) !== false;
  let trusted: boolean | undefined = true;
  if (trustOn && project !== undefined) {
    const rules = await r.load(join(home, ".gemini", "trustedFolders.json"), true);
    trusted = undefined;
    let longest = -1;
    for (const [rule, level] of Object.entries(isObject(rules) ? rules : {})) {
      const dir = level === "TRUST_PARENT" ? dirname(rule) : rule;
      const inside = project === dir || project.startsWith(dir.replace(/[\\/]+$/, "") + "/");
      if (inside && rule.length > longest) {
        longest = rule.length;
        trusted = level === "DO_NOT_TRUST"
          ? false
          : level === "TRUST_FOLDER" || level === "TRUST_PARENT"
          ? true
          : trusted;
      }
    }
    if (trusted === undefined) {
      notes.push(
        `Gemini CLI asks whether to trust ${tilde(project, home)} before it starts any server ` +
          `(folder trust); counted as trusted`,
      );
    }
  }
  const used = layers.filter((l) => trusted !== false || l.path !== workspacePath);
  const vars: FolderVariables = { home, ...(project === undefined ? {} : { workspace: project }) };
  const byName = new Map<string, ConfiguredServer>();
  for (const l of used) {
    const scope = l.path === userPath
      ? "user"
      : l.path === workspacePath
      ? "project"
      : l.path === systemPath
      ? "system"
      : "system defaults";
    const table = (l.value as JsonObject).mcpServers;
    for (const s of r.servers(table, scope, l.path, vars, "mcpServers", "gemini-cli")) {
      const hidden = byName.get(s.name);
      if (hidden !== undefined) {
        notes.push(
          `"${s.name}" in ${hidden.source} (${hidden.scope}) is hidden by the ${s.scope} one`,
        );
      }
      byName.set(s.name, s);
    }
  }
  // Gemini CLI keeps the first list's names that every other list has (without case), then
  // looks a server's name up in them as written.
  const norm = (n: string) => n.toLowerCase().trim();
  const mcpList = (l: { path: string; value: JsonValue }, key: string) => {
    const mcp = obj((l.value as JsonObject).mcp);
    return mcp === undefined ? [] : listOf(mcp, key, `${l.path} mcp`, notes);
  };
  const allowLists = used.filter((l) => Array.isArray(obj((l.value as JsonObject).mcp)?.allowed))
    .map((l) => mcpList(l, "allowed"));
  for (const l of used) mcpList(l, "allowed"); // notes a value that is not a list
  const allowed = allowLists.length === 0
    ? undefined
    : allowLists.reduce((acc, list) => acc.filter((n) => list.map(norm).includes(norm(n))));
  const excluded = new Set(used.flatMap((l) => mcpList(l, "excluded")));
  const enablement = await r.load(join(home, ".gemini", "mcp-server-enablement.json"), true);
  const off = (name: string) => {
    const state = isObject(enablement) ? enablement[norm(name)] : undefined;
    return isObject(state) && state.enabled === false;
  };
  const servers = [...byName.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  )
    .map((s): ConfiguredServer => {
      if (s.disabled) return s;
      const why = trusted === false
        ? `not started: ${
          tilde(project!, home)
        } is marked not trusted in ~/.gemini/trustedFolders.json`
        : allowed !== undefined && allowed.length > 0 &&
            !allowed.includes(s.name)
        ? "not in mcp.allowed"
        : excluded.has(s.name)
        ? "in mcp.excluded"
        : off(s.name)
        ? "turned off with gemini mcp disable (~/.gemini/mcp-server-enablement.json)"
        : undefined;
      return why === undefined
        ? s
        : { ...s, disabled: true, disabledBy: `${why} (${GEMINI_DOCS})` };
    });
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  return [{
    id: `gemini-cli ${tilde(used.find((l) => l.path === userPath)?.path ?? used[0].path, home)}`,
    client: "gemini-cli",
    label: CLIENTS["gemini-cli"].label,
    ...(project !== undefined && used.some((l) => l.path === workspacePath)
      ? { folder: project }
      : {}),
    files: used.filter((l) => isObject(l.value) && (l.value as JsonObject).mcpServers !== undefined)
      .map((l) => l.path),
    servers,
    notes,
    deferral: { kind: "none", client: "Gemini CLI" },
  }];
}

/**
 * The other apps' config files VS Code reads when `chat.mcp.discovery.enabled` turns their
 * discovery on: `true` for all of them, or an object naming each (`claude-desktop`, `windsurf`,
 * `cursor-global`, `cursor-workspace`) with `true`.
 */
function discoveredFiles(
  options: DiscoverOptions,
  setting: JsonValue | undefined,
): LayerFile[] {
  const on = (key: string) => setting === true || (isObject(setting) && setting[key] === true);
  const { home, project } = options;
  return [
    ...(on("claude-desktop")
      ? userDirs(options, "Claude", "claude_desktop_config.json").map((path) => ({
        path,
        scope: "discovered: Claude Desktop",
      }))
      : []),
    ...(on("windsurf")
      ? [{
        path: join(home, ".codeium", "windsurf", "mcp_config.json"),
        scope: "discovered: Windsurf",
      }]
      : []),
    ...(on("cursor-workspace") && project !== undefined
      ? [{
        path: join(project, ".cursor", "mcp.json"),
        scope: "discovered: Cursor workspace",
        inProject: true,
      }]
      : []),
    ...(on("cursor-global")
      ? [{ path: join(home, ".cursor", "mcp.json"), scope: "discovered: Cursor" }]
      : []),
  ];
}

const VSCODE_MCP_DOCS = "code.visualstudio.com/docs, MCP configuration reference, settings";

/**
 * A VS Code config under `chat.mcp.access` (or the older `chat.mcp.enabled`): `none` (`false`)
 * lets VS Code use no MCP server, so every one is listed as disabled; `registry` limits it to
 * servers installed from its registry, which no file records, so all are counted and noted.
 */
function withMcpAccess(
  config: ClientConfig,
  access: { readonly value: JsonValue; readonly where: string } | undefined,
): ClientConfig {
  if (access === undefined) return config;
  if (access.value === "none" || access.value === false) {
    const why = `not used: ${access.where} sets ${
      access.value === false ? "chat.mcp.enabled to false" : 'chat.mcp.access to "none"'
    } (${VSCODE_MCP_DOCS})`;
    return {
      ...config,
      servers: config.servers.map((s) =>
        s.disabled ? s : { ...s, disabled: true, disabledBy: why }
      ),
    };
  }
  if (access.value === "registry") {
    return {
      ...config,
      notes: [
        ...config.notes,
        `${access.where} sets chat.mcp.access to "registry": VS Code uses only servers installed ` +
        `from its MCP registry, which no file records; every server is counted`,
      ],
    };
  }
  return config;
}

/**
 * The servers with the variables of their `envFile` read (VS Code, Cursor): a file that cannot be
 * read or still holds a `${...}` it cannot resolve is noted, and the server starts without it.
 */
function withEnvFiles(
  r: Reader,
  servers: ConfiguredServer[],
  base: string | undefined,
): Promise<ConfiguredServer[]> {
  return Promise.all(servers.map(async (s): Promise<ConfiguredServer> => {
    if (s.envFile === undefined) return s;
    const note = (why: string) => ({ ...s, notes: [...s.notes ?? [], `"${s.name}": ${why}`] });
    if (/\$\{/.test(s.envFile)) {
      return note(`envFile ${s.envFile} names a folder this config lacks`);
    }
    // A relative path starts in the project folder, else beside the config file.
    const path = isAbsolute(s.envFile) ? s.envFile : join(base ?? dirname(s.source), s.envFile);
    let text: string | undefined;
    try {
      text = await r.options.read(path);
    } catch (error) {
      return note(
        `envFile ${tilde(path, r.options.home)}: cannot read: ${(error as Error).message}`,
      );
    }
    r.searched.push(path);
    if (text === undefined) {
      return note(
        `envFile ${tilde(path, r.options.home)} does not exist: its variables are not set`,
      );
    }
    const fileEnv = parseDotEnv(text);
    return {
      ...s,
      envFile: path,
      fileEnv,
      envNames: [...new Set([...s.envNames, ...Object.keys(fileEnv)])].sort(),
    };
  }));
}

/** One file of a layered config. */
interface LayerFile {
  /** The file. */
  readonly path: string;
  /** The scope its servers are listed under. */
  readonly scope: string;
  /** Its servers are under `mcp.servers` (VS Code's settings.json), not `mcpServers`. */
  readonly mcpKey?: boolean;
  /** It belongs to the project folder (the config is that project's). */
  readonly inProject?: boolean;
}

/** One config from files of one client, the first file winning on a shared name. */
async function layered(
  r: Reader,
  client: ClientId,
  files: readonly LayerFile[],
  deferral: DeferralInputs,
  dialect?: JsonDialect,
): Promise<ClientConfig[]> {
  const { home, project } = r.options;
  const vars: FolderVariables = { home, ...(project === undefined ? {} : { workspace: project }) };
  const lists: ConfiguredServer[][] = [];
  const used: LayerFile[] = [];
  // A file listed twice is read once, as its last (user-wide) listing: run from the home
  // folder, the project's .cursor/mcp.json is the global one.
  for (const f of files.filter((f, i) => !files.slice(i + 1).some((g) => g.path === f.path))) {
    const value = await r.load(f.path, dialect ?? client !== "claude-code");
    if (!isObject(value)) continue;
    const table = f.mcpKey
      ? (isObject(value.mcp) ? value.mcp.servers : value["mcp.servers"])
      : value.mcpServers ?? value.servers;
    if (table === undefined && f.mcpKey) continue;
    used.push(f);
    const field = !f.mcpKey
      ? value.mcpServers !== undefined ? "mcpServers" : "servers"
      : isObject(value.mcp)
      ? "mcp.servers"
      : `"mcp.servers"`;
    lists.push(r.servers(table, f.scope, f.path, vars, field, client));
  }
  if (used.length === 0) return [];
  const notes: string[] = [];
  const servers = await withEnvFiles(r, merge(lists, notes), project);
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  return [{
    id: `${client} ${tilde(used.at(-1)!.path, home)}`,
    client,
    label: CLIENTS[client].label,
    ...(project !== undefined && used.some((f) => f.inProject) ? { folder: project } : {}),
    files: used.map((f) => f.path),
    servers,
    notes,
    deferral,
  }];
}

/**
 * Reads one config file given on the command line (`--config`), as the client it belongs to:
 * `.claude.json` (every Claude Code project in it), `.mcp.json` (that project's Claude Code
 * servers alone, with the project's and the user's settings for the posture),
 * `claude_desktop_config.json`, Copilot CLI's `mcp-config.json` or `.github/mcp.json`, a
 * `.cursor/mcp.json`, a `.vscode/mcp.json` (or any file whose
 * table is `servers`), Windsurf's `mcp_config.json`, Cline's `cline_mcp_settings.json`, Roo
 * Code's `mcp_settings.json` or `.roo/mcp.json`, Gemini CLI's `.gemini/settings.json` (its
 * servers alone), a Codex `config.toml` (any `.toml` file: its `mcp_servers` alone); any other
 * file is a plain servers config.
 *
 * @param path The file.
 * @param options As for {@linkcode discoverConfigs} (home, platform, reader).
 * @returns The configs it holds, problems (one line each) and the paths read.
 */
export async function readConfigFile(path: string, options: DiscoverOptions): Promise<Discovery> {
  const r = new Reader(options);
  const name = basename(path);
  const norm = path.replace(/\\/g, "/");
  const claudeFile = name === ".claude.json" || name === ".mcp.json";
  const geminiFile = norm.includes("/.gemini/") && name === "settings.json";
  if (/^opencode\.jsonc?$/.test(name)) {
    const value = await r.load(path, true);
    if (value === undefined && !r.problems.some((p) => p.path === path)) {
      r.problems.push({ path, message: `${path}: no such file` });
    }
    return { configs: opencodeFile(r, path, value), problems: r.problems, searched: r.searched };
  }
  if (name.endsWith(".toml")) {
    const c = await codexFile(r, path);
    return { configs: c === undefined ? [] : [c], problems: r.problems, searched: r.searched };
  }
  if (name === "settings.json" && /\/\.?zed\//i.test(norm)) {
    const value = await r.load(path, true);
    if (value === undefined && !r.problems.some((p) => p.path === path)) {
      r.problems.push({ path, message: await absentFile(r, path) });
    }
    return { configs: zedFile(r, path, value), problems: r.problems, searched: r.searched };
  }
  const named = clientOfPath(name, norm, geminiFile);
  const value = await r.load(
    path,
    geminiFile
      ? GEMINI_JSON
      : name === ".mcp.json"
      ? CLAUDE_CODE_MCP_JSON
      : claudeFile
      ? CLAUDE_CODE_JSON
      : named === "amazon-q"
      ? SERDE_JSON
      : named === "cline"
      ? CLINE_JSON
      : named === "roo-code"
      ? NODE_JSON
      : true,
  );
  const configs: ClientConfig[] = [];
  if (value === undefined) {
    if (!r.problems.some((p) => p.path === path)) {
      r.problems.push({ path, message: await absentFile(r, path) });
    }
  } else if (
    !claudeFile && !geminiFile && isObject(value) && value.mcpServers === undefined &&
    value.servers === undefined && value.context_servers !== undefined
  ) {
    // Zed's settings saved under another name or folder: its `context_servers` say whose it is.
    configs.push(...zedFile(r, path, value));
  } else if (claudeFile) {
    configs.push(
      ...await claudeCode(
        r,
        name === ".claude.json" ? path : undefined,
        name === ".mcp.json" ? path : undefined,
      ),
    );
  } else {
    const client: ClientId = named ??
      (isObject(value) && value.mcpServers === undefined && isObject(value.servers)
        ? "vscode"
        : "generic");
    const deferral: DeferralInputs = client === "claude-desktop"
      ? { kind: "claude-desktop" }
      : client === "cursor"
      ? { kind: "cursor" }
      : client === "vscode"
      ? { kind: "vscode" }
      : client === "copilot-cli"
      ? { kind: "copilot-cli" }
      : client === "kiro"
      ? { kind: "kiro", toolSearch: {} }
      : client === "amazon-q" || client === "lm-studio"
      ? { kind: "none", client: CLIENTS[client].label }
      : {
        kind: "none",
        client: client === "windsurf" || client === "gemini-cli" || client === "cline" ||
            client === "roo-code"
          ? CLIENTS[client].label
          : "This file's client",
      };
    const folder = client === "cursor" || client === "vscode" ||
        (client === "roo-code" && name === "mcp.json")
      ? dirname(dirname(path))
      : undefined;
    // A blank Cline file (or `{}`) holds no servers, as discovery reads it.
    const servers = client === "cline" && isObject(value) && Object.keys(value).length === 0
      ? { mcpServers: {} }
      : value;
    const c = await single(r, client, path, servers, folder, deferral);
    if (c !== undefined) configs.push(c);
  }
  return { configs, problems: r.problems, searched: r.searched };
}

/** The client whose file a `--config` path names, by its name or folder (`norm`: with `/`). */
function clientOfPath(name: string, norm: string, geminiFile: boolean): ClientId | undefined {
  return name === "claude_desktop_config.json"
    ? "claude-desktop"
    : name === "mcp-config.json" || norm.endsWith("/.github/mcp.json")
    ? "copilot-cli"
    : name === CLINE_FILE
    ? "cline"
    : name === "mcp_settings.json" || (norm.includes("/.roo/") && name === "mcp.json")
    ? "roo-code"
    : norm.endsWith("/.kiro/settings/mcp.json")
    ? "kiro"
    : /\/\.(aws\/)?amazonq\/mcp\.json$/.test(norm)
    ? "amazon-q"
    : /\/(\.lmstudio|\.cache\/lm-studio)\/mcp\.json$/.test(norm)
    ? "lm-studio"
    : norm.includes("/.cursor/")
    ? "cursor"
    : norm.includes("/windsurf/") || name === "mcp_config.json"
    ? "windsurf"
    : geminiFile
    ? "gemini-cli"
    : norm.includes("/.vscode/")
    ? "vscode"
    : undefined;
}

/** A Zed `settings.json` given with `--config`: its `context_servers`, no other file merged. */
function zedFile(
  r: Reader,
  path: string,
  value: JsonValue | undefined,
): ClientConfig[] {
  const table = isObject(value) ? value.context_servers : undefined;
  if (value !== undefined && !isObject(table)) {
    r.problems.push({
      path,
      message: `${path}: no "context_servers" object: no Zed server in it`,
    });
    return [];
  }
  if (!isObject(table)) return [];
  const servers = r.servers(
    table,
    "file",
    path,
    { home: r.options.home },
    "context_servers",
    "zed",
  );
  return [{
    id: `zed ${tilde(path, r.options.home)}`,
    client: "zed",
    label: CLIENTS.zed.label,
    files: [path],
    servers,
    notes: servers.flatMap((s) => s.notes ?? []),
    deferral: { kind: "none", client: "Zed" },
  }];
}

/** Why a file given with `--config` gave nothing: it is absent, or a folder stands in its place. */
async function absentFile(r: Reader, path: string): Promise<string> {
  return await r.options.exists?.(path)
    ? `${path}: a folder, not a config file`
    : `${path}: no such file`;
}

/** A Codex `config.toml` given with `--config`: its own servers, no other layer merged. */
async function codexFile(r: Reader, path: string): Promise<ClientConfig | undefined> {
  const { home, system, env } = r.options;
  const before = r.problems.length;
  const value = await r.load(path, "toml");
  if (value === undefined) {
    if (r.problems.length === before) r.problems.push({ path, message: await absentFile(r, path) });
    return undefined;
  }
  const table = isObject(value) ? value.mcp_servers : undefined;
  if (!isObject(table)) {
    r.problems.push({
      path,
      message: table === undefined
        ? `${path}: no [mcp_servers] table: not a Codex MCP config`
        : `${path}: mcp_servers is ${
          kindOf(table)
        }, not a table of servers: no server read from it`,
    });
    return undefined;
  }
  const servers = r.servers(
    table,
    "file",
    path,
    { home },
    "mcp_servers",
    "codex",
    system ? env : undefined,
  );
  const features = isObject(value) && isObject(value.features) ? value.features : {};
  return {
    id: `codex ${tilde(path, home)}`,
    client: "codex",
    label: CLIENTS.codex.label,
    files: [path],
    servers,
    notes: servers.flatMap((s) => s.notes ?? []),
    deferral: { kind: "codex", alwaysDefer: features.tool_search_always_defer_mcp_tools === true },
  };
}

const COPILOT_DOCS = "docs.github.com/en/copilot, Copilot CLI: Adding MCP servers";

const COPILOT_MANAGED_DOCS =
  "docs.github.com/en/copilot, Copilot CLI configuration directory, managed MCP server allow/deny list";

/** Copilot CLI's file-based managed settings (the MDM plist and registry are not files). */
function copilotManagedPath(
  platform: Platform,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return platform === "darwin"
    ? "/Library/Application Support/GitHubCopilot/managed-settings.json"
    : platform === "windows"
    ? join(env.ProgramFiles ?? "C:\\Program Files", "GitHubCopilot", "managed-settings.json")
    : "/etc/github-copilot/managed-settings.json";
}

/** The closest folder from `dir` up holding a `.git`, or `undefined` (none, or no way to look). */
async function gitRoot(r: Reader, dir: string): Promise<string | undefined> {
  if (r.options.exists === undefined) return undefined;
  for (let d = dir;; d = dirname(d)) {
    if (await r.options.exists(join(d, ".git"))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * GitHub Copilot CLI (docs.github.com/en/copilot: "Adding MCP servers for GitHub Copilot CLI",
 * "GitHub Copilot CLI configuration directory", the CLI command reference): `mcpServers` of
 * `~/.copilot/mcp-config.json` (`COPILOT_HOME` replaces `~/.copilot`), of every `.mcp.json` from
 * the working folder up to its git root (the closest winning a shared name) and of the root's
 * `.github/mcp.json`, project files winning over the user's. Project files load only in a
 * trusted folder (`trusted_folders` of `~/.copilot/config.json`); `disabledMcpServers` of the
 * user's `settings.json` and the repository's `.github/copilot/settings.json` and
 * `settings.local.json` (a union) keeps servers from starting.
 */
async function copilotCli(r: Reader): Promise<ClientConfig[]> {
  const { home, project, system, env } = r.options;
  const moved = system && env.COPILOT_HOME ? env.COPILOT_HOME : undefined;
  const copilotHome = moved === undefined
    ? join(home, ".copilot")
    : isAbsolute(moved)
    ? moved
    : join(project ?? home, moved);
  const userPath = join(copilotHome, "mcp-config.json");
  const root = project === undefined ? undefined : await gitRoot(r, project) ?? project;
  const files: LayerFile[] = [];
  if (project !== undefined) {
    // Outside a git repository the working folder is its own root.
    for (let dir = project;; dir = dirname(dir)) {
      files.push({ path: join(dir, ".mcp.json"), scope: "workspace", inProject: true });
      if (dir === root || dirname(dir) === dir) break;
    }
    files.push({ path: join(root!, ".github", "mcp.json"), scope: "repository", inProject: true });
  }
  files.push({ path: userPath, scope: "user" });
  const vars: FolderVariables = { home, ...(project === undefined ? {} : { workspace: project }) };
  const lists: ConfiguredServer[][] = [];
  const used: LayerFile[] = [];
  for (const f of files) {
    const value = await r.load(f.path, true);
    if (!isObject(value) || value.mcpServers === undefined) continue;
    used.push(f);
    lists.push(r.servers(value.mcpServers, f.scope, f.path, vars, "mcpServers", "copilot-cli"));
  }
  // A project's .mcp.json is Claude Code's file too: without Copilot CLI's own folder, it is not
  // a sign that Copilot CLI is used.
  if (
    used.length === 0 ||
    (!used.some((f) => f.path === userPath) && !(await r.options.exists?.(copilotHome) ?? false))
  ) return [];
  const notes: string[] = [];
  // Folder trust: a folder in trusted_folders (or below one) loads its project servers.
  const state = await r.load(join(copilotHome, "config.json"), true);
  const trustedDirs = isObject(state)
    ? [...strings(state.trusted_folders), ...strings(state.trustedFolders)]
    : [];
  const trusted = project === undefined || trustedDirs.some((d) => {
    const t = d.replace(/[\\/]+$/, "");
    return project === t || project.startsWith(t + "/") || project.startsWith(t + "\\");
  });
  if (!trusted && used.some((f) => f.inProject)) {
    notes.push(
      `${tilde(project!, home)} is not in the trusted folders of ${
        tilde(join(copilotHome, "config.json"), home)
      }: Copilot CLI asks whether to trust it and loads the project's servers only once it is ` +
        `trusted; counted here (${COPILOT_DOCS})`,
    );
  }
  // disabledMcpServers: the user's settings and the repository's, joined.
  const settingsFiles = [
    join(copilotHome, "settings.json"),
    ...(root === undefined ? [] : [
      join(root, ".github", "copilot", "settings.json"),
      join(root, ".github", "copilot", "settings.local.json"),
    ]),
  ];
  const listedIn = new Map<string, string>();
  let toolSearch: { value: JsonValue; where: string } | undefined;
  for (const path of settingsFiles) {
    const value = await r.load(path, true);
    if (!isObject(value)) continue;
    for (const n of listOf(value, "disabledMcpServers", path, notes)) {
      if (!listedIn.has(n)) listedIn.set(n, `disabledMcpServers of ${tilde(path, home)}`);
    }
    if (path === settingsFiles[0] && value.toolSearch !== undefined) {
      toolSearch = { value: value.toolSearch, where: tilde(path, home) };
    }
  }
  // The managed settings' allowedMcpServers and deniedMcpServers (this account's audit only).
  const shell = system ? env : {};
  const managedPath = copilotManagedPath(r.options.platform, shell);
  const managed = system ? await r.load(managedPath, true, true) : undefined;
  const policy = readServerPolicy([{ where: managedPath, managed: true, value: managed }], notes);
  const servers = withDisabled(merge(lists, notes), listedIn).map((s): ConfiguredServer => {
    if (s.disabled || s.entry === undefined) return s;
    const verdict = checkServer(
      policy,
      { name: s.name, entry: s.entry, organization: false },
      shell,
    );
    return verdict.allowed ? s : {
      ...s,
      disabled: true,
      // The allowlist's reason names its file; the denylist's does not.
      disabledBy: `${verdict.why}${
        verdict.why?.startsWith("blocked") ? ` of ${managedPath}` : ""
      } (${COPILOT_MANAGED_DOCS})`,
    };
  });
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  return [{
    id: `copilot-cli ${tilde(userPath, home)}`,
    client: "copilot-cli",
    label: CLIENTS["copilot-cli"].label,
    ...(used.some((f) => f.inProject) ? { folder: project } : {}),
    files: used.map((f) => f.path),
    servers,
    notes,
    deferral: { kind: "copilot-cli", ...(toolSearch === undefined ? {} : { toolSearch }) },
  }];
}

/**
 * Kiro (kiro.dev/docs/mcp/configuration, kiro.dev/docs/cli/mcp/configuration): `mcpServers` of
 * the user's `~/.kiro/settings/mcp.json` and the workspace's `.kiro/settings/mcp.json`, merged by
 * name, the workspace winning; Kiro CLI's `~/.kiro/settings/cli.json` holds its tool search
 * settings (`toolSearch.enabled`, `.minPct`, `.minTokens`, written flat or nested).
 */
async function kiro(r: Reader): Promise<ClientConfig[]> {
  const { home, project } = r.options;
  const settings = join(home, ".kiro", "settings", "cli.json");
  const value = await r.load(settings, true);
  const nested = isObject(value) && isObject(value.toolSearch) ? value.toolSearch : {};
  const key = (k: string) =>
    isObject(value) && value[`toolSearch.${k}`] !== undefined
      ? value[`toolSearch.${k}`]
      : nested[k];
  const toolSearch = {
    ...(key("enabled") === undefined ? {} : { enabled: key("enabled") }),
    ...(key("minPct") === undefined ? {} : { minPct: key("minPct") }),
    ...(key("minTokens") === undefined ? {} : { minTokens: key("minTokens") }),
  };
  const deferral: DeferralInputs = {
    kind: "kiro",
    ...(value === undefined ? {} : { settings: tilde(settings, home) }),
    toolSearch,
  };
  const workspaceFile = project === undefined
    ? undefined
    : join(project, ".kiro", "settings", "mcp.json");
  const userFile = join(home, ".kiro", "settings", "mcp.json");
  const configs = await layered(r, "kiro", [
    ...(workspaceFile === undefined
      ? []
      : [{ path: workspaceFile, scope: "workspace", inProject: true }]),
    { path: userFile, scope: "user" },
  ], deferral);
  // Kiro CLI's default agent, when its settings name one an agent file holds: its servers first.
  const named = isObject(value) && typeof value["chat.defaultAgent"] === "string"
    ? value["chat.defaultAgent"] as string
    : undefined;
  if (named === undefined) return configs;
  const dirs = [
    ...(project === undefined || project === home ? [] : [join(project, ".kiro", "agents")]),
    join(home, ".kiro", "agents"),
  ];
  let agentPath: string | undefined;
  let agent: JsonObject | undefined;
  for (const dir of dirs) {
    const found = await r.load(join(dir, `${named}.json`), true);
    const wrong = isObject(found) ? agentError(found) : undefined;
    if (wrong !== undefined) {
      const path = join(dir, `${named}.json`);
      r.problems.push({ path, message: `${path}: ${wrong}: Kiro CLI does not load this agent` });
    } else if (isObject(found)) {
      agentPath = join(dir, `${named}.json`);
      agent = found;
      break;
    }
  }
  if (agent === undefined || agentPath === undefined) return configs;
  const vars: FolderVariables = { home, ...(project === undefined ? {} : { workspace: project }) };
  // The agent's own servers, then (includeMcpJson, or its older name useLegacyMcpJson) the
  // workspace's and the user's mcp.json: the first name wins.
  const withFiles = agent.includeMcpJson === true || agent.useLegacyMcpJson === true;
  const lists: ConfiguredServer[][] = [];
  const used: string[] = [];
  for (
    const [path, scope] of [
      [agentPath, "agent"],
      ...(withFiles
        ? [...(workspaceFile === undefined ? [] : [[workspaceFile, "workspace"]]), [
          userFile,
          "user",
        ]]
        : []),
    ] as [string, string][]
  ) {
    const v = path === agentPath ? agent : await r.load(path, true);
    if (!isObject(v) || v.mcpServers === undefined) continue;
    used.push(path);
    lists.push(r.servers(v.mcpServers, scope, path, vars, "mcpServers", "kiro"));
  }
  const notes = [
    `Kiro CLI's default agent is ${tilde(agentPath, home)} (chat.defaultAgent in ${
      tilde(settings, home)
    }); the Kiro IDE reads the mcp.json files alone${
      withFiles ? "" : ", which this agent does not include (includeMcpJson)"
    }`,
  ];
  const tools = Array.isArray(agent.tools) ? strings(agent.tools) : ["*"];
  const servers = merge(lists, notes).map((s) => {
    const filter = agentToolFilter(tools, s.name);
    if (filter === undefined) return s;
    // disabledTools still applies inside what the agent's tools list keeps
    return { ...s, toolFilter: { ...filter, exclude: s.toolFilter?.exclude ?? [] } };
  });
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  return [...configs, {
    id: `kiro ${tilde(agentPath, home)}`,
    client: "kiro",
    label: "Kiro CLI",
    ...(project !== undefined && used.some((p) => p.startsWith(project + "/"))
      ? { folder: project }
      : {}),
    files: used,
    servers,
    notes,
    deferral,
  }];
}

const AMAZON_Q_SOURCE =
  "aws/amazon-q-developer-cli docs/default-agent-behavior.md, agent-format.md";

/** serde_json's reader (Amazon Q CLI): no comment, trailing comma or byte order mark. */
const SERDE_JSON: JsonDialect = { comments: false, trailingCommas: false, bom: false };

/**
 * The tool filter an agent's `tools` list gives one server (aws/amazon-q-developer-cli,
 * docs/agent-format.md): `*` or `@SERVER` keeps every tool of the server, `@SERVER/TOOL` that
 * tool; a server the list does not name sends none. `undefined`: every tool.
 */
function agentToolFilter(tools: readonly string[], server: string): ToolFilter | undefined {
  if (tools.includes("*") || tools.includes(`@${server}`) || tools.includes(`@${server}/*`)) {
    return undefined;
  }
  const prefix = `@${server}/`;
  const include = tools.filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length));
  return { key: "tools (agent)", exclude: [], include: [...new Set(include)] };
}

/**
 * Why serde would refuse an agent file's keys that the audit reads (their types in Amazon Q CLI's
 * docs/agent-format.md and Kiro CLI's custom agents reference), or `undefined`.
 */
function agentError(agent: JsonObject): string | undefined {
  const { mcpServers, tools, useLegacyMcpJson, includeMcpJson } = agent;
  if (mcpServers !== undefined && !isObject(mcpServers)) {
    return `mcpServers is ${kindOf(mcpServers)}, not an object`;
  }
  if (tools !== undefined && (!Array.isArray(tools) || tools.some((t) => typeof t !== "string"))) {
    return `tools is ${kindOf(tools)}, not a list of strings`;
  }
  if (useLegacyMcpJson !== undefined && typeof useLegacyMcpJson !== "boolean") {
    return `useLegacyMcpJson is ${kindOf(useLegacyMcpJson)}, not true or false`;
  }
  if (includeMcpJson !== undefined && typeof includeMcpJson !== "boolean") {
    return `includeMcpJson is ${kindOf(includeMcpJson)}, not true or false`;
  }
  return undefined;
}

/**
 * Amazon Q Developer CLI (aws/amazon-q-developer-cli: docs/default-agent-behavior.md,
 * docs/agent-format.md, crates/chat-cli/src/util/mcp.rs `load_mcp_configs`): the servers of its
 * default agent. That agent is the one `chat.defaultAgent` of its settings names, or a
 * `q_cli_default.json`, looked up in `FOLDER/.amazonq/cli-agents/` then
 * `~/.aws/amazonq/cli-agents/`; without one, the built-in default, which reads the legacy files.
 * An agent's own `mcpServers` come first; with `useLegacyMcpJson` (the built-in default's, an
 * agent file's only when it sets it), the workspace's `.amazonq/mcp.json` then the global
 * `~/.aws/amazonq/mcp.json` add the names not yet taken. The agent's `tools` list filters them.
 */
async function amazonQ(r: Reader): Promise<ClientConfig[]> {
  const { home, project, system, env, platform } = r.options;
  // Q CLI reads no workspace file when it runs in the home folder.
  const workspace = project === undefined || project === home ? undefined : project;
  const settingsPath = platform === "darwin"
    ? join(home, "Library", "Application Support", "amazon-q", "settings.json")
    : platform === "windows"
    ? join(
      system && env.APPDATA ? env.APPDATA : join(home, "AppData", "Roaming"),
      "amazon-q",
      "settings.json",
    )
    : join(
      system && env.XDG_DATA_HOME ? env.XDG_DATA_HOME : join(home, ".local", "share"),
      "amazon-q",
      "settings.json",
    );
  const settings = await r.load(settingsPath, SERDE_JSON);
  const named = isObject(settings) && typeof settings["chat.defaultAgent"] === "string"
    ? settings["chat.defaultAgent"] as string
    : undefined;
  const notes: string[] = [];
  let agentPath: string | undefined;
  let agent: JsonObject | undefined;
  for (const name of named === undefined ? ["q_cli_default"] : [named, "q_cli_default"]) {
    for (
      const dir of [
        ...(workspace === undefined ? [] : [join(workspace, ".amazonq", "cli-agents")]),
        join(home, ".aws", "amazonq", "cli-agents"),
      ]
    ) {
      const value = await r.load(join(dir, `${name}.json`), SERDE_JSON);
      const wrong = isObject(value) ? agentError(value) : undefined;
      if (wrong !== undefined) {
        r.problems.push({
          path: join(dir, `${name}.json`),
          message: `${join(dir, `${name}.json`)}: ${wrong}: Amazon Q CLI does not load this ` +
            `agent (${AMAZON_Q_SOURCE})`,
        });
      } else if (isObject(value)) {
        agentPath = join(dir, `${name}.json`);
        agent = value;
        break;
      }
    }
    if (agent !== undefined) break;
    if (name === named) {
      notes.push(
        `chat.defaultAgent names "${named}", which no agent file holds: Amazon Q CLI falls back ` +
          `to its default agent (${AMAZON_Q_SOURCE})`,
      );
    }
  }
  const legacy = agent === undefined || agent.useLegacyMcpJson === true;
  const vars: FolderVariables = { home, ...(workspace === undefined ? {} : { workspace }) };
  const files = [
    ...(agentPath === undefined ? [] : [{ path: agentPath, scope: "agent" }]),
    ...(!legacy ? [] : [
      ...(workspace === undefined
        ? []
        : [{ path: join(workspace, ".amazonq", "mcp.json"), scope: "workspace" }]),
      { path: join(home, ".aws", "amazonq", "mcp.json"), scope: "global" },
    ]),
  ];
  const lists: ConfiguredServer[][] = [];
  const used: string[] = [];
  for (const f of files) {
    const value = f.path === agentPath ? agent : await r.load(f.path, SERDE_JSON);
    if (!isObject(value) || value.mcpServers === undefined) continue;
    used.push(f.path);
    lists.push(r.servers(value.mcpServers, f.scope, f.path, vars, "mcpServers", "amazon-q"));
  }
  if (used.length === 0) return [];
  const tools = agent === undefined ? ["*"] : strings(agent.tools);
  const servers = merge(lists, notes).map((s) => {
    const filter = agentToolFilter(tools, s.name);
    return filter === undefined ? s : { ...s, toolFilter: filter };
  });
  if (agentPath !== undefined) {
    notes.push(
      `the default agent is ${tilde(agentPath, home)}${
        legacy ? "" : " (useLegacyMcpJson is not true: the mcp.json files are not read)"
      }`,
    );
  }
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  return [{
    id: `amazon-q ${tilde(join(home, ".aws", "amazonq"), home)}`,
    client: "amazon-q",
    label: CLIENTS["amazon-q"].label,
    ...(workspace !== undefined && used.some((p) => p.startsWith(workspace + "/"))
      ? { folder: workspace }
      : {}),
    files: used,
    servers,
    notes,
    deferral: { kind: "none", client: "Amazon Q CLI" },
  }];
}

const OPENCODE_DOCS = "opencode.ai/docs/config";

/** The request format the provider of an opencode `model` ("provider/model") calls. */
function opencodeModel(model: JsonValue | undefined, where: string): ClientConfig["model"] {
  if (typeof model !== "string") return undefined;
  const provider = model.split("/")[0];
  const why = `the model ${JSON.stringify(model)} set in ${where}`;
  return provider === "anthropic"
    ? { format: "anthropic-messages", family: "claude", formatWhy: `${why} (Anthropic's API)` }
    : provider === "openai"
    ? { format: "openai-responses", family: "gpt", formatWhy: `${why} (OpenAI's Responses API)` }
    : provider === "google"
    ? { format: "gemini", family: "gemini", formatWhy: `${why} (the Gemini API)` }
    : undefined;
}

/**
 * opencode (opencode.ai/docs/config, .../mcp-servers, .../tools; anomalyco/opencode issue 3407
 * for the files it looks at): its global config folder's `config.json`, `opencode.json`,
 * `opencode.jsonc` (`~/.config/opencode`, `$XDG_CONFIG_HOME/opencode`), the file
 * `OPENCODE_CONFIG` names, then the project's `opencode.jsonc` files and `opencode.json` files from
 * the git root (or, outside a repository, the filesystem root) down to the working folder, merged
 * in that order, objects key by key, the later file winning. Servers are `mcp`; the `tools`
 * patterns set to `false` switch MCP tools off; `model` names the provider.
 */
async function opencode(r: Reader): Promise<ClientConfig[]> {
  const { home, project, system, env } = r.options;
  const dir = system && env.XDG_CONFIG_HOME
    ? join(env.XDG_CONFIG_HOME, "opencode")
    : join(home, ".config", "opencode");
  const files: { path: string; scope: string }[] = [
    ...["config.json", "opencode.json", "opencode.jsonc"].map((f) => ({
      path: join(dir, f),
      scope: "global",
    })),
    ...(system && env.OPENCODE_CONFIG ? [{ path: env.OPENCODE_CONFIG, scope: "custom" }] : []),
  ];
  if (project !== undefined) {
    const root = await gitRoot(r, project);
    const dirs: string[] = [];
    for (let d = project;; d = dirname(d)) {
      dirs.unshift(d);
      if (d === root || dirname(d) === d) break;
    }
    for (const name of ["opencode.jsonc", "opencode.json"]) {
      for (const d of dirs) files.push({ path: join(d, name), scope: "project" });
    }
  }
  const layers: { path: string; scope: string; value: JsonObject }[] = [];
  for (const f of files.filter((f, i) => files.findIndex((g) => g.path === f.path) === i)) {
    const value = await r.load(f.path, true);
    if (isObject(value)) layers.push({ ...f, value });
  }
  const withServers = layers.filter((l) => l.value.mcp !== undefined);
  if (withServers.length === 0) return [];
  const merged = layers.reduce<JsonValue>((acc, l) => mergeToml(acc, l.value), {}) as JsonObject;
  const notes: string[] = [];
  const vars: FolderVariables = { home, ...(project === undefined ? {} : { workspace: project }) };
  const tools = isObject(merged.tools) ? merged.tools : {};
  const globs = Object.entries(tools).filter((e): e is [string, boolean] =>
    typeof e[1] === "boolean"
  );
  const table = merged.mcp;
  let servers: ConfiguredServer[] = [];
  if (!isObject(table)) {
    const from = withServers.at(-1)!;
    r.notATable(from.path, "mcp", from.value.mcp);
  } else {
    servers = Object.keys(table).sort().map((name) => {
      const from = withServers.filter((l) => isObject(l.value.mcp) && name in l.value.mcp);
      const top = from.at(-1) ?? withServers.at(-1)!;
      if (from.length > 1) {
        notes.push(
          `"${name}" merges its keys from ${
            from.map((l) => tilde(l.path, home)).join(" and ")
          } (opencode merges its config files key by key, the later winning; ${OPENCODE_DOCS})`,
        );
      }
      const s = r.servers({ [name]: table[name] }, top.scope, top.path, vars, "mcp", "opencode")[0];
      return globs.some(([, v]) => v === false)
        ? {
          ...s,
          toolFilter: {
            key: "tools",
            exclude: [],
            globs,
            globPrefix: `${name.replace(/[^a-zA-Z0-9_-]/g, "_")}_`,
          },
        }
        : s;
    });
  }
  notes.push(...servers.flatMap((s) => s.notes ?? []));
  const modelFrom = [...layers].reverse().find((l) => l.value.model !== undefined);
  const model = opencodeModel(merged.model, tilde(modelFrom?.path ?? "", home));
  const overridden = isObject(table)
    ? Object.keys(table).filter((n) =>
      isObject(table[n]) && (table[n] as JsonObject).tool_search !== undefined
    )
    : [];
  return [{
    id: `opencode ${tilde(dir, home)}`,
    client: "opencode",
    label: CLIENTS.opencode.label,
    ...(withServers.some((l) => l.scope === "project") ? { folder: project } : {}),
    files: withServers.map((l) => l.path),
    servers,
    notes,
    deferral: {
      kind: "opencode",
      ...(merged.mcp_tool_search === undefined ? {} : { setting: merged.mcp_tool_search }),
      ...(overridden.length === 0 ? {} : { overridden }),
    },
    ...(model === undefined ? {} : { model }),
  }];
}

/** An opencode config file given with `--config`: its own `mcp` and `tools`, no other merged. */
function opencodeFile(r: Reader, path: string, value: JsonValue | undefined): ClientConfig[] {
  const table = isObject(value) ? value.mcp : undefined;
  if (value !== undefined && !isObject(table)) {
    r.problems.push({ path, message: `${path}: no "mcp" object: no opencode server in it` });
    return [];
  }
  if (!isObject(table) || !isObject(value)) return [];
  const tools = isObject(value.tools) ? value.tools : {};
  const globs = Object.entries(tools).filter((e): e is [string, boolean] =>
    typeof e[1] === "boolean"
  );
  const servers = r.servers(table, "file", path, { home: r.options.home }, "mcp", "opencode")
    .map((s) =>
      globs.some(([, v]) => v === false)
        ? {
          ...s,
          toolFilter: {
            key: "tools",
            exclude: [],
            globs,
            globPrefix: `${s.name.replace(/[^a-zA-Z0-9_-]/g, "_")}_`,
          },
        }
        : s
    );
  const model = opencodeModel(value.model, tilde(path, r.options.home));
  return [{
    id: `opencode ${tilde(path, r.options.home)}`,
    client: "opencode",
    label: CLIENTS.opencode.label,
    files: [path],
    servers,
    notes: servers.flatMap((s) => s.notes ?? []),
    deferral: {
      kind: "opencode",
      ...(value.mcp_tool_search === undefined ? {} : { setting: value.mcp_tool_search }),
    },
    ...(model === undefined ? {} : { model }),
  }];
}

/**
 * LM Studio (lmstudio-ai/docs, 0_app/2_mcp: `mcp.json` in `~/.lmstudio`, `%USERPROFILE%\.lmstudio`
 * on Windows, in Cursor's notation): one file of `mcpServers`. LM Studio's older home folder,
 * `~/.cache/lm-studio`, is read when `~/.lmstudio` holds no `mcp.json`
 * (lmstudio-ai/lmstudio-bug-tracker issue 1371).
 */
async function lmStudio(r: Reader): Promise<ClientConfig[]> {
  const { home } = r.options;
  const current = join(home, ".lmstudio", "mcp.json");
  const older = join(home, ".cache", "lm-studio", "mcp.json");
  const found = await layered(r, "lm-studio", [{ path: current, scope: "user" }], {
    kind: "none",
    client: CLIENTS["lm-studio"].label,
  });
  if (found.length > 0 || r.problems.some((p) => p.path === current)) return found;
  return await layered(r, "lm-studio", [{ path: older, scope: "user" }], {
    kind: "none",
    client: CLIENTS["lm-studio"].label,
  });
}
