/**
 * The audit report of one client config: per server, its tools' tokens in the client's
 * provider request format (the sent form, `lib/catalog/sent.ts`) and as received (the wire
 * form: the `tools/list` result's tools array, minified, keys in received order), its share of
 * a context window, the heaviest tools, the deferral posture with where it was read, the
 * session-start cost where tools are deferred, and what removing the heaviest tools saves.
 * Totals are per client config; configs are never added up.
 *
 * Pure: counting is passed in.
 *
 * @module
 */
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { normalizeForProvider } from "../catalog/normalize.ts";
import { createHash } from "node:crypto";
import { jsonText } from "../core/json.ts";
import { claudeCodeToolName } from "../modes/deferred.ts";
import { type SentFormat, sentFormatDialect, type SentTool, sentTools } from "../catalog/sent.ts";
import type { CaptureOutcome, ServerCaptureRecord } from "../mcp/types.ts";
import {
  type ClientId,
  CLIENTS,
  DEFAULT_CONTEXT_WINDOW,
  familyOf,
  type ModelFamily,
} from "./clients.ts";
import { type ClientConfig, tilde } from "./discover.ts";
import { type ConfiguredServer, toolKept } from "./entries.ts";
import { type DeferralPosture, resolvePosture } from "./posture.ts";
import { clineToolSchema, opencodeToolSchema, rooToolSchema } from "./client_schemas.ts";
import {
  addFeatures,
  type BillingProvider,
  calibrationEntry,
  DEFAULT_CALIBRATION,
  DEFAULT_ESTIMATE_MODEL,
  estimateTokens,
  providerFeatures,
} from "../billing/mod.ts";

/** Version of the audit report's shape (2: servers carry `toolsListed` and `disabledTools`). */
export const AUDIT_SCHEMA_VERSION = 2;

/** Tools Cascade has at any one time (docs.windsurf.com, Cascade MCP, "Configuring MCP tools"). */
const WINDSURF_TOOL_LIMIT = 100;

/** Heaviest tools listed per config, unless asked otherwise. */
export const DEFAULT_HEAVIEST = 5;

/** One tool's cost. */
export interface ToolCost {
  /** The server's config key. */
  readonly server: string;
  /** The tool's name as the server lists it. */
  readonly tool: string;
  /** Tokens of this tool alone in the sent form (a one-tool `tools` value). */
  readonly sentTokens: number;
}

/** A billed estimate: the provider's own count of the tools, from a calibration. */
export interface BilledEstimate {
  /** Central estimate, tokens. */
  readonly tokens: number;
  /** Low end of the interval. */
  readonly low: number;
  /** High end of the interval. */
  readonly high: number;
}

/**
 * The provider and model a family's bill is estimated for: each provider's
 * {@linkcode DEFAULT_ESTIMATE_MODEL} (what its users pay today), as the bench estimates it.
 */
export const BILLING_OF_FAMILY: Readonly<
  Record<ModelFamily, { readonly provider: BillingProvider; readonly model: string | null }>
> = {
  claude: { provider: "anthropic", model: DEFAULT_ESTIMATE_MODEL.anthropic },
  gpt: { provider: "openai", model: DEFAULT_ESTIMATE_MODEL.openai },
  gemini: { provider: "gemini", model: DEFAULT_ESTIMATE_MODEL.gemini },
};

/** What happened to a server, in the report. */
export type ServerStatus = CaptureOutcome | "disabled" | "not-started";

/** One server of a client config. */
export interface ServerReport {
  /** Config key. */
  readonly name: string;
  /** Where the client declares it (`user`, `project`, `local`, `global`, `workspace`, `file`). */
  readonly scope: string;
  /** The file it comes from (`~`-relative). */
  readonly source: string;
  /** How it starts, without arguments or values (`npx @scope/pkg`, `http host`). */
  readonly launch: string;
  /** Names of the environment variables its entry sets (never their values). */
  readonly envNames: readonly string[];
  /** `ok`, a capture failure, `disabled`, or `not-started` (an entry that cannot start). */
  readonly status: ServerStatus;
  /** Why it was not measured, one line. */
  readonly cause?: string;
  /** `alwaysLoad: true`: never deferred. */
  readonly alwaysLoad: boolean;
  /** Tools the client sends: those listed, less the ones the config disables; `null` when not measured. */
  readonly tools: number | null;
  /** Tools the server listed; `null` when not measured. */
  readonly toolsListed: number | null;
  /** Listed tools the config disables (Windsurf's `disabledTools`), in listed order. */
  readonly disabledTools: readonly string[];
  /** The provider's count of its tools, estimated (no request overhead); `null` when not measured. */
  readonly billed: BilledEstimate | null;
  /** Tokens of its tools in the sent form; `null` when not measured. */
  readonly sentTokens: number | null;
  /** Tokens of its tools as received (wire form); `null` when not measured. */
  readonly wireTokens: number | null;
  /** `billed.tokens` over the context window; `null` when not measured. */
  readonly share: number | null;
  /** Tokens of the `instructions` it sent in `initialize` (0 when none); `null` when not measured. */
  readonly instructionsTokens: number | null;
  /** Its tools, heaviest first (ties by name). */
  readonly toolCosts: readonly ToolCost[];
  /** Capture warnings (non-fatal). */
  readonly warnings: readonly string[];
}

/** The session-start cost of a deferring client: what it pays before any search. */
export interface SessionStart {
  /** Tokens loaded at session start: names, instructions, and the tools of `alwaysLoad` servers. */
  readonly tokens: number;
  /** What was counted. */
  readonly counted: string;
  /**
   * The provider's count of it, estimated: `tokens` scaled by this config's billed/sent ratio
   * of its tools (each bound by its own; OpenAI: `tokens` itself, o200k_base being its models'
   * tokenizer), plus the request's tool-use overhead (the search tool is a tool). Absent in
   * reports written before it was added.
   */
  readonly billed?: BilledEstimate;
  /** `billed.tokens` over the context window. */
  readonly share?: number;
}

/** What removing the heaviest tools would save. */
export interface Removal {
  /** Tools removed (the heaviest). */
  readonly tools: readonly string[];
  /** Sent tokens saved per request when tools load up front. */
  readonly sentTokens: number;
  /** `sentTokens` over the config's sent tokens. */
  readonly share: number;
  /** Session-start tokens saved when deferred (their names); `null` when not deferred. */
  readonly sessionStartTokens: number | null;
}

/** One client config in the report. */
export interface ConfigReport {
  /** Stable key (baselines). */
  readonly id: string;
  /** Which client. */
  readonly client: ClientId;
  /** Display name. */
  readonly label: string;
  /** Project folder (`~`-relative), for per-project configs. */
  readonly folder?: string;
  /** Files read (`~`-relative). */
  readonly files: readonly string[];
  /** The request format of the sent form. */
  readonly format: SentFormat;
  /** Why that format. */
  readonly formatWhy: string;
  /** Model family (sets the default window). */
  readonly family: ModelFamily;
  /** Context window, tokens. */
  readonly contextWindow: number;
  /** Where the window came from. */
  readonly contextWindowFrom: string;
  /** The deferral posture. */
  readonly posture: DeferralPosture;
  /** How the bill is estimated: calibration, entry, model, provenance. */
  readonly billing: {
    readonly provider: BillingProvider;
    readonly model: string | null;
    readonly calibration: string;
    readonly provenance: "estimated";
  };
  /** Servers, by name. */
  readonly servers: readonly ServerReport[];
  /** Totals of this config (never summed across configs). */
  readonly totals: {
    /** Servers configured (disabled ones included). */
    readonly servers: number;
    /** Servers measured. */
    readonly measured: number;
    /** Tools of the measured servers. */
    readonly tools: number;
    /** The provider's count of every measured tool with the request's tool-use overhead, estimated. */
    readonly billed: BilledEstimate;
    /** Tokens of every measured tool in one sent `tools` value. */
    readonly sentTokens: number;
    /** Tokens of the measured servers' tools as received (sum per server). */
    readonly wireTokens: number;
    /** `billed.tokens` over the context window. */
    readonly share: number;
  };
  /** Session start when tools are deferred; `null` when they are not (or unknown) or no server was measured. */
  readonly sessionStart: SessionStart | null;
  /**
   * For a Claude Code config that loads its tools up front: its session start were tool search
   * on (`ENABLE_TOOL_SEARCH=true`), counted as `sessionStart` is; `null` otherwise. Absent in
   * reports written before it was added.
   */
  readonly ifDeferred?: SessionStart | null;
  /** The heaviest tools of the config. */
  readonly heaviest: readonly ToolCost[];
  /** Removing the heaviest tools; `null` when no tool was measured. */
  readonly removal: Removal | null;
  /** Notes from reading the config. */
  readonly notes: readonly string[];
}

/** Choices for {@linkcode buildConfigReport}. */
export interface ReportOptions {
  /** Counts tokens of a text (o200k_base in the flow). */
  readonly count: (text: string) => number;
  /** The home folder (paths are shown `~`-relative). */
  readonly home: string;
  /** Context window for every config, tokens; absent: the family's default. */
  readonly contextWindow?: number;
  /** Sent format per client, overriding the client's default. */
  readonly formats?: Readonly<Partial<Record<ClientId, SentFormat>>>;
  /** Heaviest tools listed (and removed in the estimate). @default {DEFAULT_HEAVIEST} */
  readonly heaviest?: number;
}

function byCost(a: ToolCost, b: ToolCost): number {
  return b.sentTokens - a.sentTokens || (a.server < b.server ? -1 : a.server > b.server ? 1 : 0) ||
    (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0);
}

/**
 * The name a client gives a server's tool in its requests: Claude Code writes
 * `mcp__SERVER__TOOL` (its documented naming of MCP tools; `claudeCodeToolName`, lib/modes);
 * Gemini CLI `mcp_SERVER_TOOL` made a valid Gemini function name ({@linkcode geminiCliToolName});
 * Codex `mcp__SERVER__TOOL` made a valid Responses API name ({@linkcode codexToolName});
 * Amazon Q CLI the tool's own name, made valid as it makes it ({@linkcode amazonQToolName});
 * opencode `SERVER_TOOL` ({@linkcode opencodeToolName});
 * Copilot CLI `SERVER-TOOL` (docs.github.com, Copilot CLI command reference, "MCP server naming";
 * no rewriting of other characters is documented, so none is applied);
 * Cline `SERVER__TOOL` ({@linkcode clineToolName}) and Roo Code `mcp--SERVER--TOOL`
 * ({@linkcode rooToolName}), as their source builds them;
 * the other clients' naming is not documented, and the tool's own name is used.
 */
export function clientToolName(client: ClientId, server: string, tool: string): string {
  return client === "claude-code"
    ? claudeCodeToolName(server, tool)
    : client === "gemini-cli"
    ? geminiCliToolName(server, tool)
    : client === "codex"
    ? codexToolName(server, tool)
    : client === "copilot-cli"
    ? `${server}-${tool}`
    : client === "amazon-q"
    ? amazonQToolName(tool)
    : client === "opencode"
    ? opencodeToolName(server, tool)
    : client === "cline"
    ? clineToolName(server, tool)
    : client === "roo-code"
    ? rooToolName(server, tool)
    : tool;
}

/**
 * Cline's name for an MCP tool (cline/cline v4.1.13,
 * sdk/packages/core/src/extensions/mcp/name-transform.ts): `SERVER__TOOL` as written when it is
 * made of ASCII letters, digits, `_`, `-` and is at most 64 characters; otherwise each run of
 * other characters becomes one `_`, the result is cut to 55 characters (`mcp_tool` if nothing
 * is left), and `_` and the first 8 hex digits of the SHA-1 of `SERVER__TOOL` are appended.
 *
 * @param server The server's config key.
 * @param tool The tool's name as the server lists it.
 * @returns The function name Cline sends.
 *
 * @example Usage
 * ```ts
 * import { clineToolName } from "./report.ts";
 * if (clineToolName("docs", "search") !== "docs__search") throw new Error();
 * ```
 */
export function clineToolName(server: string, tool: string): string {
  const raw = `${server}__${tool}`;
  const clean = raw.replace(/[^a-zA-Z0-9_-]+/g, "_");
  if (clean === raw && raw.length <= 64) return raw;
  const hash = createHash("sha1").update(raw).digest("hex").slice(0, 8);
  return `${clean.slice(0, 55) || "mcp_tool"}_${hash}`;
}

/**
 * Roo Code's name for an MCP tool (RooCodeInc/Roo-Code v3.52.1, src/utils/mcp-name.ts,
 * `buildMcpToolName`): `mcp--SERVER--TOOL`, each part with its runs of white space made `_`,
 * other characters than ASCII letters, digits, `_`, `-` dropped, `--` runs made one `-`, a `_`
 * put first when it does not start with a letter or `_` (`_unnamed` when nothing is left, `_`
 * for an empty name), the whole cut to 64 characters.
 *
 * @param server The server's config key.
 * @param tool The tool's name as the server lists it.
 * @returns The function name Roo Code sends.
 *
 * @example Usage
 * ```ts
 * import { rooToolName } from "./report.ts";
 * if (rooToolName("my docs", "search.pages") !== "mcp--my_docs--searchpages") throw new Error();
 * ```
 */
export function rooToolName(server: string, tool: string): string {
  const part = (name: string) => {
    if (name === "") return "_";
    let s = name.replace(/\s+/g, "_").replace(/[^a-zA-Z0-9_-]/g, "").replace(/--+/g, "-");
    if (s !== "" && !/^[a-zA-Z_]/.test(s)) s = `_${s}`;
    return s === "" ? "_unnamed" : s;
  };
  return `mcp--${part(server)}--${part(tool)}`.slice(0, 64);
}

/**
 * Codex's name for an MCP tool (codex-rs/core/src/mcp_connection_manager.rs, `qualify_tools`):
 * `mcp__SERVER__TOOL`, each character other than an ASCII letter, digit, `_` or `-` replaced by
 * `_`; a name over 64 characters becomes its first 24 characters followed by the 40 hex digits
 * of the SHA-1 of the name as first written (before the replacement).
 *
 * @param server The server's config key.
 * @param tool The tool's name as the server lists it.
 * @returns The function name Codex sends.
 *
 * @example Usage
 * ```ts
 * import { codexToolName } from "./report.ts";
 * if (codexToolName("docs", "search.pages") !== "mcp__docs__search_pages") throw new Error();
 * ```
 */
export function codexToolName(server: string, tool: string): string {
  const raw = `mcp__${server}__${tool}`;
  const name = raw.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (name.length <= 64) return name;
  return name.slice(0, 24) + createHash("sha1").update(raw).digest("hex");
}

/**
 * Gemini CLI's name for an MCP tool (geminicli.com/docs/tools/mcp-server, "Tool naming and
 * namespaces" and "Name sanitization"): `mcp_SERVER_TOOL` (no second `mcp_` when the server's
 * name starts with one), each character other than a letter,
 * digit, `_`, `-`, `.`, `:` replaced by `_`, a `_` put first when it does not start with a letter
 * or `_`, and a name longer than 63 characters cut to its first 30 and last 30 around `...`.
 *
 * @param server The server's config key.
 * @param tool The tool's name as the server lists it.
 * @returns The function name Gemini CLI declares.
 *
 * @example Usage
 * ```ts
 * import { geminiCliToolName } from "./report.ts";
 * if (geminiCliToolName("git hub", "create/issue") !== "mcp_git_hub_create_issue") throw new Error();
 * ```
 */
export function geminiCliToolName(server: string, tool: string): string {
  const qualified = `${server}_${tool}`;
  let name = (qualified.startsWith("mcp_") ? qualified : `mcp_${qualified}`)
    .replace(/[^a-zA-Z0-9_\-.:]/g, "_");
  if (/^[^a-zA-Z_]/.test(name)) name = `_${name}`;
  return name.length > 63 ? `${name.slice(0, 30)}...${name.slice(-30)}` : name;
}

function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as JsonObject
    : undefined;
}

/**
 * A received tool as the client sends it: its name and the schema normalized for the format, or
 * rewritten as Cline and Roo Code rewrite it (`client_schemas.ts`).
 */
export function sentToolOf(
  client: ClientId,
  server: string,
  item: JsonObject,
  format: SentFormat,
): SentTool {
  const name = String(item.name ?? "");
  const listed = asObject(item.inputSchema);
  // opencode rewrites the schema before its provider normalizes it.
  const schema = client === "opencode" ? opencodeToolSchema(listed) : listed;
  const tool: Tool = {
    id: `${server}:${name}`,
    server,
    name,
    description: typeof item.description === "string" ? item.description : "",
    ...(schema === undefined ? {} : { inputSchema: schema }),
  };
  return {
    name: clientToolName(client, server, name),
    description: client === "cline"
      ? clineDescription(server, name, tool.description)
      : tool.description,
    // Cline and Roo Code rewrite the schema themselves, whatever the provider.
    inputSchema: client === "cline"
      ? clineToolSchema(schema)
      : client === "roo-code"
      ? rooToolSchema(schema)
      : normalizeForProvider(tool, sentFormatDialect(format)).schema,
  };
}

/**
 * The description Cline sends: the tool's own, trimmed, or for a tool without one the line its
 * source writes in its place (cline/cline v4.1.13, sdk/packages/core/src/extensions/mcp/tools.ts).
 */
function clineDescription(server: string, tool: string, description: string): string {
  const own = description.trim();
  return own !== "" ? own : `Execute MCP tool "${tool}" from server "${server}".`;
}

/**
 * The report of one client config from its capture records.
 *
 * @param config The config (from discovery).
 * @param recordOf The capture record of a configured server (`undefined` when it was not
 *   captured: disabled, or an entry that cannot start).
 * @param options Counter, home, window, formats, how many heaviest tools.
 * @returns The config's report.
 */
export function buildConfigReport(
  config: ClientConfig,
  recordOf: (server: ConfiguredServer) => ServerCaptureRecord | undefined,
  options: ReportOptions,
): ConfigReport {
  // The model a config names (opencode) sets the format where no --sent-form does.
  const info = config.model ?? CLIENTS[config.client];
  const format = options.formats?.[config.client] ?? info.format;
  const family: ModelFamily = format === info.format ? info.family : familyOf(format);
  const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW[family];
  const contextWindowFrom = options.contextWindow === undefined
    ? `the ${family} family's default`
    : "--context-window";
  const count = options.count;
  const sentCount = (tools: readonly SentTool[]) =>
    tools.length === 0 ? 0 : count(jsonText(sentTools(tools, format)));
  const billing = BILLING_OF_FAMILY[family];
  const entry = calibrationEntry(DEFAULT_CALIBRATION, billing.provider, billing.model)!;
  // A server's share leaves out the request's fixed tool-use overhead; the config's total has it.
  const billedOf = (tools: readonly SentTool[], overhead: boolean): BilledEstimate => {
    if (tools.length === 0) return { tokens: 0, low: 0, high: 0 };
    const f = providerFeatures(billing.provider, tools);
    return estimateTokens(
      entry,
      addFeatures(...f.perTool, ...(overhead ? [f.wrapper] : [])),
      overhead,
    );
  };
  const measured: {
    server: ConfiguredServer;
    sent: SentTool[];
    tools: readonly JsonObject[];
    record: ServerCaptureRecord;
  }[] = [];
  const notes = [...config.notes];
  const servers = config.servers.map((s): ServerReport => {
    const base = {
      name: s.name,
      scope: s.scope,
      source: tilde(s.source, options.home),
      launch: s.launch,
      envNames: s.envNames,
      alwaysLoad: s.alwaysLoad,
    };
    const unmeasured = (
      status: ServerStatus,
      cause?: string,
      warnings: readonly string[] = [],
    ) => ({
      ...base,
      status,
      ...(cause === undefined ? {} : { cause }),
      tools: null,
      toolsListed: null,
      disabledTools: [],
      billed: null,
      sentTokens: null,
      wireTokens: null,
      share: null,
      instructionsTokens: null,
      toolCosts: [],
      warnings,
    });
    if (s.disabled) return unmeasured("disabled", s.disabledBy ?? "set off in the config");
    if (s.problem !== undefined) return unmeasured("not-started", s.problem);
    const record = recordOf(s);
    if (record === undefined) return unmeasured("not-started", "not captured");
    // Notes of the capture (mcpmeter's own steps, no fault of the server) are the config's.
    for (const note of record.notes ?? []) notes.push(`"${s.name}": ${note}`);
    if (record.outcome !== "ok") {
      return unmeasured(record.outcome, record.message ?? record.outcome, record.warnings);
    }
    // The tools the client sends: the listed ones its config does not switch off.
    const kept = (t: JsonObject) => toolKept(s.toolFilter, String(t.name ?? ""));
    const tools = record.tools.filter(kept);
    const disabledTools = record.tools.filter((t) => !kept(t)).map((t) => String(t.name));
    if (s.toolFilter !== undefined) {
      const listed = new Set(record.tools.map((t) => String(t.name ?? "")));
      const unknown = [
        ...s.toolFilter.exclude,
        ...(s.toolFilter.include ?? []).map((t) => t.replace(/\(.*$/s, "")),
      ].filter((n) => !listed.has(n));
      notes.push(
        `"${s.name}": ${disabledTools.length} of ${record.tools.length} listed tools disabled ` +
          `in the config (${s.toolFilter.key}${
            disabledTools.length === 0 ? "" : `: ${disabledTools.join(", ")}`
          }), not counted as sent${
            unknown.length === 0
              ? ""
              : `; ${s.toolFilter.key} also names ${unknown.join(", ")}, which the server ` +
                `does not list`
          }`,
      );
    }
    const sent = tools.map((t) => sentToolOf(config.client, s.name, t, format));
    measured.push({ server: s, sent, tools, record });
    const sentTokens = sentCount(sent);
    const billed = billedOf(sent, false);
    const toolCosts = sent.map((t, i): ToolCost => ({
      server: s.name,
      tool: String(tools[i].name ?? ""),
      sentTokens: sentCount([t]),
    })).sort(byCost);
    return {
      ...base,
      status: "ok",
      tools: sent.length,
      toolsListed: record.tools.length,
      disabledTools,
      billed,
      sentTokens,
      // The wire form: the tools array as received, without whitespace, keys in received order.
      wireTokens: record.tools.length === 0 ? 0 : count(jsonText(record.tools)),
      share: billed.tokens / contextWindow,
      instructionsTokens: record.instructions === undefined ? 0 : count(record.instructions),
      toolCosts,
      warnings: record.warnings,
    };
  });
  const all = measured.flatMap((m) => m.sent);
  if (config.client === "windsurf" && all.length > WINDSURF_TOOL_LIMIT) {
    notes.push(
      `${all.length} tools are enabled: Windsurf gives Cascade at most ${WINDSURF_TOOL_LIMIT} ` +
        `at a time (docs.windsurf.com, Cascade MCP) and does not document which it leaves out; ` +
        `all are counted`,
    );
  }
  const sentTokens = sentCount(all);
  const billed = billedOf(all, true);
  const posture = resolvePosture(config.deferral, {
    toolTokens: billed.tokens,
    contextWindow,
    toolCount: all.length,
  });
  const heaviestN = options.heaviest ?? DEFAULT_HEAVIEST;
  const costs = servers.flatMap((s) => s.toolCosts).sort(byCost);
  const heaviest = costs.slice(0, heaviestN);
  const deferred = posture.state === "deferred";
  // Names (one a line, as Claude Code lists deferred tools) of the servers that are deferred.
  const namesTokens = (tools: readonly SentTool[]) =>
    tools.length === 0 ? 0 : count(tools.map((t) => t.name).join("\n"));
  const withInstructions = config.client === "claude-code";
  const removed = new Set(heaviest.map((h) => `${h.server}\u0000${h.tool}`));
  const keep = (m: (typeof measured)[number], drop: ReadonlySet<string>) =>
    m.sent.filter((_, i) => !drop.has(`${m.server.name}\u0000${m.tools[i].name}`));
  // The session start of a deferring client, as lib/modes/deferred.ts prices `client_deferred`:
  // the deferred tools' names one a line, and the servers' instructions one a line; plus the
  // full tools of alwaysLoad servers, which are never deferred.
  const instructions = withInstructions
    ? measured.map((m) => m.record.instructions?.trim() ?? "").filter((t) => t !== "").join("\n")
    : "";
  // Kiro CLI lists each deferred tool as `server::tool: description`, the description cut to
  // 1 KB (kiro.dev/docs/cli/mcp/tool-search, "How it works").
  const kiroLines = (m: (typeof measured)[number], drop: ReadonlySet<string>) =>
    m.tools.filter((t) => !drop.has(`${m.server.name}\u0000${t.name}`)).map((t) =>
      `${m.server.name}::${t.name}: ${firstBytes(String(t.description ?? ""), 1024)}`
    );
  const listTokens = (drop: ReadonlySet<string>) => {
    const deferredOnes = measured.filter((m) => !m.server.alwaysLoad);
    if (config.client !== "kiro") return namesTokens(deferredOnes.flatMap((m) => keep(m, drop)));
    const lines = deferredOnes.flatMap((m) => kiroLines(m, drop));
    return lines.length === 0 ? 0 : count(lines.join("\n"));
  };
  const startTokens = (drop: ReadonlySet<string>) =>
    listTokens(drop) +
    (instructions === "" ? 0 : count(instructions)) +
    sentCount(measured.filter((m) => m.server.alwaysLoad).flatMap((m) => keep(m, drop)));
  // In billed terms: scaled as this config's tools scale from sent to billed (1 when no tool
  // was sent), each bound by its own, plus the overhead the full request carries. OpenAI's
  // ratio is that of its compact function rendering, which a text does not get: its current
  // models bill a text's o200k_base tokens, the count itself.
  const deferredStart = (tokens: number): SessionStart => {
    const tools = billedOf(all, false);
    const asText = billing.provider === "openai" || sentTokens === 0;
    const scaled = (part: number, whole: number) =>
      Math.round(asText ? tokens : tokens * part / sentTokens) + (whole - part);
    const startBilled = {
      tokens: scaled(tools.tokens, billed.tokens),
      low: scaled(tools.low, billed.low),
      high: scaled(tools.high, billed.high),
    };
    return {
      tokens,
      billed: startBilled,
      share: startBilled.tokens / contextWindow,
      counted: withInstructions
        ? "the tools' names (one a line), each server's instructions and the alwaysLoad " +
          "servers' tools; the search tool itself is not counted"
        : config.client === "kiro"
        ? "a line per tool, server::tool: description (cut to 1 KB); the tool_search tool " +
          "itself is not counted"
        : "the tools' names (one a line); the lookup tool itself is not counted",
    };
  };
  const sessionStart = deferred && measured.length > 0
    ? deferredStart(startTokens(new Set()))
    : null;
  // Whether turning tool search on would pay: what the session would start with instead.
  const ifDeferred =
    config.client === "claude-code" && posture.state === "upfront" && measured.length > 0
      ? deferredStart(startTokens(new Set()))
      : null;
  const kept = measured.flatMap((m) => keep(m, removed));
  const saved = sentTokens - sentCount(kept);
  return {
    id: config.id,
    client: config.client,
    label: config.label,
    ...(config.folder === undefined ? {} : { folder: tilde(config.folder, options.home) }),
    files: config.files.map((f) => tilde(f, options.home)),
    format,
    formatWhy: format === info.format ? info.formatWhy : "chosen with --sent-form",
    family,
    contextWindow,
    contextWindowFrom,
    posture,
    billing: {
      provider: billing.provider,
      model: billing.model,
      calibration: `${DEFAULT_CALIBRATION.name}: ${entry.label}`,
      provenance: "estimated",
    },
    servers,
    totals: {
      servers: servers.length,
      measured: measured.length,
      tools: all.length,
      billed,
      sentTokens,
      wireTokens: servers.reduce((sum, s) => sum + (s.wireTokens ?? 0), 0),
      share: billed.tokens / contextWindow,
    },
    sessionStart,
    ifDeferred,
    heaviest,
    removal: heaviest.length === 0 ? null : {
      tools: heaviest.map((h) => `${h.server}:${h.tool}`),
      sentTokens: saved,
      share: sentTokens === 0 ? 0 : saved / sentTokens,
      sessionStartTokens: sessionStart === null ? null : sessionStart.tokens - startTokens(removed),
    },
    notes,
  };
}

/** The longest start of `text` whose UTF-8 encoding fits in `limit` bytes. */
function firstBytes(text: string, limit: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return text;
  // Cut at the limit, then drop a partly cut character at the end.
  return new TextDecoder().decode(bytes.slice(0, limit)).replace(/\uFFFD$/, "");
}

/**
 * Amazon Q CLI's name for an MCP tool (aws/amazon-q-developer-cli, crates/chat-cli/src/cli/chat/
 * tool_manager.rs, `process_tool_specs` and `sanitize_name`): the tool's own name when it matches
 * `^[a-zA-Z][a-zA-Z0-9_]*$`; otherwise its ASCII letters, digits and `_` with `___` taken out,
 * an `a` put first when it does not start with a letter. A name left empty becomes `a` and a
 * three-digit hash, written `a000` here (same length; the hash is not reproduced), and the `1`
 * Q CLI appends to a rewritten name another tool already has is not added.
 *
 * @param tool The tool's name as the server lists it.
 * @returns The name the model receives.
 *
 * @example Usage
 * ```ts
 * import { amazonQToolName } from "./report.ts";
 * if (amazonQToolName("search-docs.v2") !== "searchdocsv2") throw new Error();
 * if (amazonQToolName("2fa_check") !== "a2fa_check") throw new Error();
 * ```
 */
export function amazonQToolName(tool: string): string {
  if (/^[a-zA-Z][a-zA-Z0-9_]*$/.test(tool) && !tool.includes("___")) return tool;
  const kept = tool.replace(/[^a-zA-Z0-9_]/g, "").replaceAll("___", "");
  if (kept === "") return "a000";
  return /^[a-zA-Z]/.test(kept) ? kept : `a${kept}`;
}

/**
 * opencode's name for an MCP tool (anomalyco/opencode, packages/opencode/src/mcp/index.ts,
 * `tools`): the server's key and the tool's name, each with characters other than ASCII letters,
 * digits, `_` and `-` written `_`, joined by `_`.
 *
 * @param server The server's config key.
 * @param tool The tool's name as the server lists it.
 * @returns The name opencode registers and sends.
 *
 * @example Usage
 * ```ts
 * import { opencodeToolName } from "./report.ts";
 * if (opencodeToolName("my docs", "search.pages") !== "my_docs_search_pages") throw new Error();
 * ```
 */
export function opencodeToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, "_");
  return `${clean(server)}_${clean(tool)}`;
}
