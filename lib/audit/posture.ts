/**
 * Deferral posture: whether a client sends every MCP tool definition with each request, or
 * defers them behind a search and loads only names (and server instructions) at session start,
 * read from the client's settings and environment, with where each value was read.
 *
 * Claude Code (code.claude.com/docs/en/mcp, "Configure tool search"): `ENABLE_TOOL_SEARCH`
 * unset defers every MCP tool, except on Vertex AI (`CLAUDE_CODE_USE_VERTEX`) or when
 * `ANTHROPIC_BASE_URL` names a host other than Anthropic's, where tools load up front; `true`
 * defers everywhere; `auto` defers when the tools take more than 10% of the context window,
 * `auto:N` more than N%; `false` loads every tool up front. The variable is read from the `env`
 * block of the settings files (managed, then `.claude/settings.local.json`, then
 * `.claude/settings.json`, then `~/.claude/settings.json`), which override the shell's own
 * environment (code.claude.com/docs/en/settings, `env`). A server with `alwaysLoad: true` is never
 * deferred. Other clients: see {@linkcode resolvePosture}.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../catalog/types.ts";

/** The `env` block of one settings file. */
export interface SettingsLayer {
  /** The file, for "read from". */
  readonly where: string;
  /** Its `env` object, when it has one. */
  readonly env?: JsonObject;
}

/** What a client config's posture is read from (kept out of reports: it may hold secrets). */
export type DeferralInputs =
  | {
    readonly kind: "claude-code";
    /** Settings files with an `env` block, highest precedence first. */
    readonly layers: readonly SettingsLayer[];
    /** Settings files looked at (with or without an `env` block), for "read from". */
    readonly consulted: readonly string[];
    /** The shell's environment, when it is the audited account's (not with `--home`). */
    readonly shell?: Readonly<Record<string, string | undefined>>;
  }
  | { readonly kind: "claude-desktop" }
  | { readonly kind: "cursor" }
  | {
    readonly kind: "vscode";
    /** `github.copilot.chat.virtualTools.threshold` as written, and where. */
    readonly threshold?: { readonly value: JsonValue; readonly where: string };
  }
  | {
    readonly kind: "codex";
    /** `[features] tool_search_always_defer_mcp_tools = true` in the merged config. */
    readonly alwaysDefer: boolean;
  }
  | {
    readonly kind: "copilot-cli";
    /** `toolSearch` of the user's `settings.json` as written, and where. */
    readonly toolSearch?: { readonly value: JsonValue; readonly where: string };
  }
  | {
    readonly kind: "kiro";
    /** Kiro CLI's settings file, when it exists. */
    readonly settings?: string;
    /** `toolSearch.enabled`, `toolSearch.minPct`, `toolSearch.minTokens` as written. */
    readonly toolSearch: {
      readonly enabled?: JsonValue;
      readonly minPct?: JsonValue;
      readonly minTokens?: JsonValue;
    };
  }
  | {
    readonly kind: "opencode";
    /** `mcp_tool_search` of the merged config as written (`off`, `auto`, `always`). */
    readonly setting?: JsonValue;
    /** Servers whose entry sets its own `tool_search`. */
    readonly overridden?: readonly string[];
  }
  | { readonly kind: "none"; readonly client: string };

/** Codex sends MCP tools directly below this many (`DIRECT_MCP_TOOL_EXPOSURE_THRESHOLD`). */
export const CODEX_DEFER_THRESHOLD = 100;

/** A client's deferral posture for one config. */
export interface DeferralPosture {
  /**
   * - `deferred`: tools are held back behind a search; session start loads names (and
   *   instructions), plus the tools of `alwaysLoad` servers;
   * - `upfront`: every tool definition is sent with each request;
   * - `grouped`: VS Code groups the tools into virtual tools it activates on demand;
   * - `unknown`: the setting holds a value the client documents no meaning for;
   * - `unrecorded`: the client defers by a choice made in its app, not kept in a file;
   * - `none-documented`: the client documents no deferral: every tool is assumed sent.
   */
  readonly state: "deferred" | "upfront" | "grouped" | "unknown" | "unrecorded" | "none-documented";
  /** One sentence: the rule that gave the state, with the value's meaning. */
  readonly rule: string;
  /** Where the deciding value was read (a file and key, the shell, or the documented default). */
  readonly readFrom: string;
  /** Files and variables consulted. */
  readonly consulted: readonly string[];
  /** The documentation the rule comes from. */
  readonly source: string;
  /** Caveats (a non-string value, an undocumented reading). */
  readonly notes: readonly string[];
}

/** Measured figures a threshold rule needs. */
export interface PostureFigures {
  /** Tokens of every MCP tool as the provider counts them (estimated from the sent form). */
  readonly toolTokens: number;
  /** The context window, in tokens. */
  readonly contextWindow: number;
  /** MCP tools configured. */
  readonly toolCount: number;
}

/** A variable as a client sees it: its text, where it was read, and caveats. */
export interface VariableRead {
  /** The value's text, when some source sets it. */
  readonly value?: string;
  /** The file and key, or the shell, it was read from (`""` when unset). */
  readonly where: string;
  /** Caveats (non-string values). */
  readonly notes: readonly string[];
}

/**
 * The value of one variable as Claude Code sees it: the first settings file (highest precedence)
 * whose `env` block sets it, else the shell. A JSON number or boolean is read as its text, as an
 * assignment to a process environment turns it into one (the settings schema asks for strings;
 * that reading is noted); any other non-string is noted and skipped.
 *
 * @param name The variable.
 * @param layers Settings files' `env` blocks, highest precedence first.
 * @param shell The shell's environment, when it counts.
 * @returns The value, where it was read, and notes.
 */
export function readVariable(
  name: string,
  layers: readonly SettingsLayer[],
  shell: Readonly<Record<string, string | undefined>> | undefined,
): VariableRead {
  const notes: string[] = [];
  for (const layer of layers) {
    const v = layer.env?.[name];
    if (v === undefined) continue;
    if (typeof v === "string") return { value: v, where: `${layer.where} (env.${name})`, notes };
    const kind = v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
    if (typeof v === "number" || typeof v === "boolean") {
      notes.push(
        `${layer.where} sets env.${name} to a ${kind}, not a string: read as its text, as a ` +
          `process environment stores it (the settings schema asks for a string)`,
      );
      return { value: String(v), where: `${layer.where} (env.${name})`, notes };
    }
    notes.push(`${layer.where} sets env.${name} to ${kind}, which has no text: left out`);
  }
  const fromShell = shell?.[name];
  if (fromShell !== undefined) return { value: fromShell, where: `the shell (${name})`, notes };
  return { where: "", notes };
}

const CLAUDE_CODE_DOCS = "code.claude.com/docs/en/mcp, Configure tool search";

function claudeCode(
  inputs: Extract<DeferralInputs, { kind: "claude-code" }>,
  figures: PostureFigures,
): DeferralPosture {
  const consulted = [
    ...inputs.consulted,
    ...(inputs.shell === undefined ? [] : ["the shell's environment"]),
  ];
  const setting = readVariable("ENABLE_TOOL_SEARCH", inputs.layers, inputs.shell);
  const notes = [...setting.notes];
  if (inputs.shell === undefined) {
    notes.push("the shell's environment is not read for another account's folder (--home)");
  }
  const base = { consulted, source: CLAUDE_CODE_DOCS };
  const share = figures.contextWindow > 0 ? figures.toolTokens / figures.contextWindow : 0;
  const threshold = (percent: number, what: string): DeferralPosture => {
    const over = share * 100 > percent;
    return {
      ...base,
      state: over ? "deferred" : "upfront",
      rule: `${what}: tools are deferred when they take more than ${percent}% of the context ` +
        `window; they take ${(share * 100).toFixed(1)}%, so they are ${
          over ? "deferred" : "loaded up front"
        }`,
      readFrom: setting.where,
      notes: [
        ...notes,
        "the share is mcpmeter's estimate; Claude Code counts its own tokens, so near the " +
        "threshold the outcome may differ",
      ],
    };
  };
  const value = setting.value;
  if (value === undefined) {
    const url = readVariable("ANTHROPIC_BASE_URL", inputs.layers, inputs.shell);
    const vertex = readVariable("CLAUDE_CODE_USE_VERTEX", inputs.layers, inputs.shell);
    notes.push(...url.notes, ...vertex.notes);
    const host = url.value === undefined ? undefined : hostOf(url.value);
    if (vertex.value !== undefined && /^(1|true|yes|on)$/i.test(vertex.value.trim())) {
      return {
        ...base,
        state: "upfront",
        rule: "ENABLE_TOOL_SEARCH is not set and Claude Code runs on Vertex AI " +
          "(CLAUDE_CODE_USE_VERTEX): tools load up front",
        readFrom: vertex.where,
        notes,
      };
    }
    if (host !== undefined && host !== "api.anthropic.com") {
      return {
        ...base,
        state: "upfront",
        rule: "ENABLE_TOOL_SEARCH is not set and ANTHROPIC_BASE_URL names a host other than " +
          "Anthropic's: tools load up front (most proxies do not forward tool_reference blocks)",
        readFrom: url.where,
        notes,
      };
    }
    return {
      ...base,
      state: "deferred",
      rule: "ENABLE_TOOL_SEARCH is not set: Claude Code defers every MCP tool (its default)",
      readFrom: "the documented default",
      notes,
    };
  }
  const v = value.trim();
  if (v === "true") {
    return {
      ...base,
      state: "deferred",
      rule: "ENABLE_TOOL_SEARCH is true: every MCP tool is deferred",
      readFrom: setting.where,
      notes,
    };
  }
  if (v === "false") {
    return {
      ...base,
      state: "upfront",
      rule: "ENABLE_TOOL_SEARCH is false: every MCP tool loads up front",
      readFrom: setting.where,
      notes,
    };
  }
  if (v === "auto") return threshold(10, "ENABLE_TOOL_SEARCH is auto");
  const n = /^auto:(\d{1,3})$/.exec(v);
  if (n !== null && Number(n[1]) <= 100) {
    return threshold(Number(n[1]), `ENABLE_TOOL_SEARCH is auto:${Number(n[1])}`);
  }
  return {
    ...base,
    state: "unknown",
    rule: "ENABLE_TOOL_SEARCH holds a value Claude Code documents no meaning for (documented: " +
      "true, false, auto, auto:N with N from 0 to 100)",
    readFrom: setting.where,
    notes,
  };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * A client config's deferral posture.
 *
 * - Claude Code: from `ENABLE_TOOL_SEARCH` as the module doc describes.
 * - Cursor: defers by design since its "dynamic context discovery" (cursor.com/blog/
 *   dynamic-context-discovery, January 2026): the agent gets the tools' names and looks a
 *   definition up when needed; no setting changes it.
 * - VS Code: groups tools into "virtual tools" once more than
 *   `github.copilot.chat.virtualTools.threshold` tools (default 128; 0 turns it off) are enabled;
 *   built-in and extension tools count too, so the MCP tools alone give a lower bound.
 * - Claude Desktop: the app's tool access mode (Auto by default, which loads tools as they are
 *   needed; support.claude.com, "Manage Claude's tool access") is chosen in the app and kept
 *   nowhere the audit can read: no record.
 * - Codex (codex-rs/core/src/mcp_tool_exposure.rs, `DIRECT_MCP_TOOL_EXPOSURE_THRESHOLD`): MCP
 *   tools are sent directly while fewer than 100; from 100 on (or always, with the
 *   `tool_search_always_defer_mcp_tools` feature) they are deferred behind `tool_search` when the
 *   model supports tool search, a property of OpenAI's model catalog that no file records.
 * - Copilot CLI: `toolSearch: false` in `~/.copilot/settings.json` sends every tool; otherwise
 *   tool search is "model- and feature-dependent" (docs.github.com, Copilot CLI configuration
 *   directory), which no file records.
 * - Kiro: Kiro CLI's `toolSearch.*` settings (see `kiroPosture`).
 * - opencode: `mcp_tool_search` (see `opencodePosture`).
 * - Windsurf and files of no known client: no deferral is documented.
 *
 * @param inputs What the config's posture is read from.
 * @param figures The measured tool tokens, context window and tool count (threshold rules).
 * @returns The posture.
 *
 * @example Usage
 * ```ts
 * import { resolvePosture } from "./posture.ts";
 * const p = resolvePosture(
 *   { kind: "claude-code", layers: [{ where: "~/.claude/settings.json", env: { ENABLE_TOOL_SEARCH: "auto:5" } }], consulted: [] },
 *   { toolTokens: 12_000, contextWindow: 200_000, toolCount: 40 },
 * );
 * if (p.state !== "deferred" || !p.readFrom.startsWith("~/.claude/settings.json")) throw new Error(p.rule);
 * ```
 */
export function resolvePosture(inputs: DeferralInputs, figures: PostureFigures): DeferralPosture {
  switch (inputs.kind) {
    case "claude-code":
      return claudeCode(inputs, figures);
    case "cursor":
      return {
        state: "deferred",
        rule: "Cursor gives the agent the tools' names and loads a definition when it is needed " +
          "(no setting changes this)",
        readFrom: "Cursor's documented behaviour",
        consulted: [],
        source: "cursor.com/blog/dynamic-context-discovery",
        notes: [],
      };
    case "vscode": {
      const notes: string[] = [];
      let limit = 128;
      let readFrom = "the documented default (128)";
      const raw = inputs.threshold?.value;
      if (raw !== undefined) {
        if (typeof raw === "number" && Number.isInteger(raw) && raw >= 0) {
          limit = raw;
          readFrom = `${inputs.threshold!.where} (github.copilot.chat.virtualTools.threshold)`;
        } else {
          notes.push(
            `${inputs.threshold!.where} sets github.copilot.chat.virtualTools.threshold to ` +
              `${JSON.stringify(raw)}, not a whole number: the default 128 is assumed`,
          );
        }
      }
      const grouped = limit > 0 && figures.toolCount > limit;
      return {
        state: grouped ? "grouped" : "upfront",
        rule: limit === 0
          ? "virtual tools are off (threshold 0): every enabled tool is sent"
          : `VS Code groups tools into virtual tools above ${limit} enabled tools; these MCP ` +
            `servers alone give ${figures.toolCount}${
              grouped ? "" : " (built-in and extension tools count too)"
            }`,
        readFrom,
        consulted: inputs.threshold === undefined ? [] : [inputs.threshold.where],
        source: "code.visualstudio.com/docs, github.copilot.chat.virtualTools.threshold",
        notes,
      };
    }
    case "claude-desktop":
      return {
        state: "unrecorded",
        rule: "Claude Desktop's tool access mode (Auto by default: tools load as needed) is " +
          "chosen in the app per chat and kept in no file: no record of it here; the figures " +
          "assume every tool is sent",
        readFrom: "no record",
        consulted: [],
        source: "support.claude.com, Manage Claude's tool access",
        notes: [],
      };
    case "codex": {
      const source = "codex-rs/core/src/mcp_tool_exposure.rs (openai/codex)";
      const when = inputs.alwaysDefer
        ? "the tool_search_always_defer_mcp_tools feature is on"
        : `${figures.toolCount} MCP tools reach Codex's threshold of ${CODEX_DEFER_THRESHOLD}`;
      if (!inputs.alwaysDefer && figures.toolCount < CODEX_DEFER_THRESHOLD) {
        return {
          state: "upfront",
          rule: `Codex sends MCP tools directly while there are fewer than ` +
            `${CODEX_DEFER_THRESHOLD}; these servers give ${figures.toolCount}`,
          readFrom: "Codex's fixed threshold",
          consulted: [],
          source,
          notes: [],
        };
      }
      return {
        state: "unrecorded",
        rule: `${when}: Codex defers every MCP tool behind tool_search if the model in use ` +
          `supports tool search (OpenAI's model catalog, kept in no file), else sends them all; ` +
          `the figures assume every tool is sent`,
        readFrom: inputs.alwaysDefer ? "[features] in config.toml" : "Codex's fixed threshold",
        consulted: [],
        source,
        notes: [],
      };
    }
    case "copilot-cli": {
      const source = "docs.github.com, Copilot CLI configuration directory, toolSearch";
      const setting = inputs.toolSearch;
      const consulted = setting === undefined ? [] : [setting.where];
      if (setting?.value === false) {
        return {
          state: "upfront",
          rule: "toolSearch is false: Copilot CLI sends every MCP tool with each request",
          readFrom: `${setting.where} (toolSearch)`,
          consulted,
          source,
          notes: [],
        };
      }
      const notes = setting !== undefined && setting.value !== true
        ? [
          `${setting.where} sets toolSearch to ${
            JSON.stringify(setting.value)
          }, not true or false: the default is assumed`,
        ]
        : [];
      return {
        state: "unrecorded",
        rule:
          `${
            setting?.value === true ? "toolSearch is true" : "toolSearch is not set"
          }: whether Copilot CLI defers MCP tools behind tool search depends on the model and ` +
          `its features (documented as "model- and feature-dependent"), which no file records; ` +
          `the figures assume every tool is sent`,
        readFrom: setting?.value === true ? `${setting.where} (toolSearch)` : "no record",
        consulted,
        source,
        notes,
      };
    }
    case "kiro":
      return kiroPosture(inputs, figures);
    case "opencode":
      return opencodePosture(inputs, figures);
    case "none":
      return {
        state: "none-documented",
        rule: `${inputs.client} documents no deferral of MCP tools: no record exists, and the ` +
          `figures assume every tool is sent`,
        readFrom: "no record",
        consulted: [],
        source: "the client's MCP documentation",
        notes: [],
      };
  }
}

const KIRO_DOCS = "kiro.dev/docs/cli/mcp/tool-search";

/**
 * Kiro CLI's tool search (kiro.dev/docs/cli/mcp/tool-search): off unless `toolSearch.enabled`
 * is true in `~/.kiro/settings/cli.json`; on, it defers the MCP tools once they exceed
 * `toolSearch.minPct` percent of the context window (default 5) or `toolSearch.minTokens`
 * tokens (default 50,000), either one sufficing.
 */
function kiroPosture(
  inputs: Extract<DeferralInputs, { kind: "kiro" }>,
  figures: PostureFigures,
): DeferralPosture {
  const where = inputs.settings ?? "~/.kiro/settings/cli.json";
  const notes = [
    "tool search is Kiro CLI's setting; the Kiro IDE's own switch is kept in the app and not read",
  ];
  const base = { consulted: inputs.settings === undefined ? [] : [where], source: KIRO_DOCS };
  const { enabled, minPct, minTokens } = inputs.toolSearch;
  if (enabled !== true) {
    if (enabled !== undefined && enabled !== false) {
      notes.push(`${where} sets toolSearch.enabled to ${JSON.stringify(enabled)}, not a boolean`);
    }
    return {
      ...base,
      state: "upfront",
      rule: `toolSearch.enabled is ${
        enabled === false ? "false" : "not set (off by default)"
      }: Kiro CLI sends every MCP tool with each request`,
      readFrom: enabled === false ? `${where} (toolSearch.enabled)` : "the documented default",
      notes,
    };
  }
  const number = (value: JsonValue | undefined, key: string, fallback: number) => {
    if (value === undefined) return fallback;
    if (typeof value === "number" && value >= 0) return value;
    notes.push(`${where} sets ${key} to ${JSON.stringify(value)}: the default ${fallback} is used`);
    return fallback;
  };
  const pct = number(minPct, "toolSearch.minPct", 5);
  const tokens = number(minTokens, "toolSearch.minTokens", 50_000);
  const share = figures.contextWindow > 0 ? figures.toolTokens / figures.contextWindow : 0;
  const over = share * 100 > pct || figures.toolTokens > tokens;
  notes.push(
    "the tokens are mcpmeter's estimate; Kiro counts its own, so near a threshold the outcome " +
      "may differ",
  );
  return {
    ...base,
    state: over ? "deferred" : "upfront",
    rule: `toolSearch.enabled is true: Kiro CLI defers the MCP tools once they take more than ` +
      `${pct}% of the context window or ${tokens} tokens; they take ${
        (share * 100).toFixed(1)
      }% and ${figures.toolTokens}, so they are ${over ? "deferred" : "sent up front"}`,
    readFrom: `${where} (toolSearch.enabled)`,
    notes,
  };
}

/** opencode defers MCP tools under `mcp_tool_search: "auto"` from this many visible tools. */
export const OPENCODE_AUTO_MIN_TOOLS = 8;

/**
 * opencode's MCP tool search (anomalyco/opencode, packages/opencode/src/mcp/tool-search.ts,
 * `enabledFor`; not in its documentation): `mcp_tool_search` `"off"` (the default) sends every
 * tool, `"always"` defers them, `"auto"` defers them from 8 visible MCP tools on.
 */
function opencodePosture(
  inputs: Extract<DeferralInputs, { kind: "opencode" }>,
  figures: PostureFigures,
): DeferralPosture {
  const source = "anomalyco/opencode packages/opencode/src/mcp/tool-search.ts";
  const notes = (inputs.overridden ?? []).length === 0 ? [] : [
    `${inputs.overridden!.map((s) => `"${s}"`).join(", ")} set their own tool_search, which the ` +
    `audit does not apply per server: the config's setting decides for all`,
  ];
  const raw = inputs.setting;
  const setting = raw === undefined ? "off" : raw;
  const readFrom = raw === undefined ? "the default (off)" : "mcp_tool_search in the config";
  const base = { consulted: [], source, readFrom };
  if (setting !== "off" && setting !== "auto" && setting !== "always") {
    return {
      ...base,
      state: "unknown",
      rule: `mcp_tool_search is ${JSON.stringify(raw)}, which opencode does not know (off, auto, ` +
        `always)`,
      notes,
    };
  }
  const deferred = setting === "always" ||
    (setting === "auto" && figures.toolCount >= OPENCODE_AUTO_MIN_TOOLS);
  return {
    ...base,
    state: deferred ? "deferred" : "upfront",
    rule: setting === "off"
      ? "mcp_tool_search is off: opencode sends every MCP tool with each request"
      : setting === "always"
      ? "mcp_tool_search is always: opencode defers every MCP tool behind its search"
      : `mcp_tool_search is auto: opencode defers MCP tools from ${OPENCODE_AUTO_MIN_TOOLS} ` +
        `visible tools on; these servers give ${figures.toolCount}`,
    notes,
  };
}
