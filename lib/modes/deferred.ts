/**
 * The deferred exposure modes: tools kept out of the context until a search loads them, priced
 * in the sent layer (the `tools` a request carries, rendered by `sentTools` and
 * `toolSearchTools`, lib/catalog) of the provider each mode belongs to.
 *
 * - `anthropic_search` (variants `bm25`, `regex`): every tool sent with `defer_loading: true`
 *   behind Anthropic's tool search tool. At session start the context holds the search tool
 *   only (deferred tools "are not included in the system-prompt prefix"); a search adds a
 *   `tool_search_tool_result` with its `tool_reference` blocks, which the API expands into the
 *   full definitions of the tools found (3 to 5; priced at 5).
 * - `openai_search` (`namespaced`): one namespace per MCP server behind OpenAI's hosted
 *   `tool_search`; at the start the model sees each namespace's name and description only; a
 *   search adds a `tool_search_output` holding the loaded functions (how many per search is not
 *   documented; priced at 5).
 * - `client_deferred` (`claude_code`): a client that defers MCP tools itself (Claude Code, tool
 *   search on by default): at session start "only tool names and server instructions are
 *   loaded" (names as `mcp__server__tool`, one per line); a search returns `tool_reference`
 *   blocks in a `tool_result` and the API expands them into definitions (up to 5).
 *
 * Each mode is set against `direct` in the same format (every definition loaded) and against
 * the reference discovery proxy (its catalog in that format, plus a `retrieve_tools` response
 * with as many results per search): session-start tokens, tokens one search adds, the number
 * of searches per session at which the mode stops being cheaper (break-even), sessions of
 * 1, 3, 5, 10 searches, and how all of it scales with catalog size. The context-size model is
 * the one the live break-even uses (lib/live): what a session holds, each part counted once.
 *
 * @module
 */
import { type SentFormat, type SentTool, sentTools } from "../catalog/sent.ts";
import {
  ANTHROPIC_SEARCH_TOOLS,
  OPENAI_SEARCH_TOOL,
  type ToolSearchKind,
} from "../catalog/sent_search.ts";
import type { JsonObject } from "../catalog/types.ts";
import type { Provenance } from "../core/provenance.ts";
import { firstHardCut, lastHardCut, piecewiseEncoding, shortCounts } from "../tokens/joins.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { DEFAULT_SUBSET_DRAWS, DEFAULT_SUBSET_SIZES, drawServers } from "./scaling.ts";

/** A mode that defers tool definitions until a search loads them. */
export type DeferredMode = "anthropic_search" | "openai_search" | "client_deferred";

/** Tools one search loads, by default: the most Anthropic's search returns ("3-5"). */
export const DEFAULT_RESULTS_PER_SEARCH = 5;

/** Searches per session the session estimates are made for. */
export const DEFAULT_SESSION_SEARCHES: readonly number[] = [1, 3, 5, 10];

/** The pages the modes' behaviour is taken from. */
export const DEFERRED_MODE_SOURCES: Readonly<Record<DeferredMode, string>> = {
  anthropic_search:
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool",
  openai_search: "https://developers.openai.com/api/docs/guides/tools-tool-search",
  client_deferred: "https://code.claude.com/docs/en/mcp#scale-with-mcp-tool-search",
};

/** One corpus tool shaped for a format (a name the provider accepts, a normalized schema). */
export interface DeferredTool {
  /** MCP server of the tool. */
  readonly server: string;
  /** The tool as the format sends it. */
  readonly tool: SentTool;
}

/** Where two session costs cross as searches grow. */
export interface Crossing {
  /**
   * Searches per session at which the two cost the same (not rounded); `null` when they never
   * cross after the start (one stays cheaper, or they stay equal).
   */
  readonly searches: number | null;
  /** Which is cheaper with no search at all: the mode, the other, or neither. */
  readonly cheaperAtStart: "mode" | "other" | "equal";
}

/** One deferred mode over one corpus, under one tokenizer. */
export interface DeferredModeRow {
  /** Corpus id. */
  readonly corpusId: string;
  /** Tokenizer name. */
  readonly tokenizer: string;
  /** The mode. */
  readonly mode: DeferredMode;
  /** Its variant (`bm25`, `regex`, `namespaced`, `claude_code`). */
  readonly variant: string;
  /** The request format it is priced in (`anthropic-messages`, `openai-responses`). */
  readonly format: SentFormat;
  /** Tools deferred (the whole corpus). */
  readonly toolCount: number;
  /** Tools one search loads: the assumed results per search, at most the catalog. */
  readonly resultsPerSearch: number;
  /** `direct` in this format: every definition loaded (tokens of the sent `tools`). */
  readonly directTokens: number;
  /** In context at session start (tokens): the parts below, summed. */
  readonly startTokens: number;
  /**
   * The session-start parts (tokens): the search tool's entry; what stays visible (OpenAI
   * namespace names and descriptions, Claude Code's tool names); server instructions.
   */
  readonly start: {
    readonly searchTool: number;
    readonly visible: number;
    readonly instructions: number;
  };
  /**
   * Mean tokens one search adds with `resultsPerSearch` results: the result block and the
   * definitions it loads, over the corpus's tools taken that many at a time in corpus order.
   */
  readonly searchTokens: number;
  /** The reference proxy's catalog in this format (tokens). */
  readonly proxyStartTokens: number;
  /** Mean tokens of a `retrieve_tools` response of the proxy with as many results. */
  readonly proxySearchTokens: number;
  /** Against `direct`: the mode is cheaper below this many searches per session. */
  readonly breakEvenVsDirect: Crossing;
  /** Against the reference proxy. */
  readonly breakEvenVsProxy: Crossing;
  /** Context of a session with n searches under the mode, `direct` and the proxy (tokens). */
  readonly sessions: readonly {
    readonly searches: number;
    readonly tokens: number;
    readonly directTokens: number;
    readonly proxyTokens: number;
  }[];
  /**
   * Catalog size (tools) from which a session of n searches is cheaper under the mode than
   * with every tool loaded: the smallest sampled size (`measuredSize`, from the scaling rows)
   * and the estimate for tools of the corpus's mean weight (`estimatedSize`).
   */
  readonly crossovers: readonly {
    readonly searches: number;
    readonly measuredSize: number | null;
    readonly estimatedSize: number | null;
  }[];
  /** What the provider or client adds that no document publishes, so it is not counted. */
  readonly notCounted: readonly string[];
  /** The page the mode's behaviour is taken from. */
  readonly source: string;
  /** How each figure was obtained. */
  readonly provenance: {
    readonly tokens: Provenance;
    readonly searchTokens: Provenance;
    readonly breakEven: Provenance;
    readonly sessions: Provenance;
    readonly crossovers: Provenance;
  };
}

/** One sampled catalog size of a deferred mode. */
export interface DeferredScalingRow {
  /** Corpus id. */
  readonly corpusId: string;
  /** Tokenizer name. */
  readonly tokenizer: string;
  /** The mode. */
  readonly mode: DeferredMode;
  /** Its variant. */
  readonly variant: string;
  /** Requested size (tools); the full corpus row uses the corpus size. */
  readonly targetSize: number;
  /** True for the row of the whole corpus. */
  readonly full: boolean;
  /** Draws averaged (1 for the full corpus). */
  readonly draws: number;
  /** Mean tools drawn (whole servers). */
  readonly meanToolCount: number;
  /** Mean `direct` cost in the mode's format: the per-tool definitions summed (tokens). */
  readonly directTokens: number;
  /** Mean session-start cost (tokens). */
  readonly startTokens: number;
  /** Searches at which the mode costs as much as `direct` at this size; `null`: never. */
  readonly breakEvenVsDirect: number | null;
  /** Sums and means of counted parts: `computed`. */
  readonly provenance: Provenance;
}

/** Inputs of {@linkcode measureDeferredModes}. */
export interface DeferredModesOptions {
  /** Corpus id. */
  readonly corpusId: string;
  /** Counts tokens. */
  readonly tokenizer: Tokenizer;
  /** The corpus shaped for Anthropic Messages (corpus order). */
  readonly anthropic: readonly DeferredTool[];
  /** The corpus shaped for OpenAI Responses (corpus order). */
  readonly openai: readonly DeferredTool[];
  /** The reference proxy's catalog shaped for each format. */
  readonly proxy: { readonly anthropic: readonly SentTool[]; readonly openai: readonly SentTool[] };
  /** Mean tokens of a proxy `retrieve_tools` response with `resultsPerSearch` results. */
  readonly proxySearchTokens: number;
  /** Server → its `instructions` from initialize, where known (Claude Code loads them). */
  readonly instructions?: ReadonlyMap<string, string>;
  /** Tools one search loads. @default {DEFAULT_RESULTS_PER_SEARCH} */
  readonly resultsPerSearch?: number;
  /** Searches per session estimated. @default {DEFAULT_SESSION_SEARCHES} */
  readonly searches?: readonly number[];
  /** Uniform [0, 1) generator of the size draws, seeded by the caller. */
  readonly random: () => number;
  /** Target sizes sampled. @default {DEFAULT_SUBSET_SIZES} */
  readonly sizes?: readonly number[];
  /** Draws per size. @default {DEFAULT_SUBSET_DRAWS} */
  readonly draws?: number;
}

/**
 * Where `modeStart + s·modePer` meets `otherStart + s·otherPer` for s > 0.
 *
 * @param modeStart Mode tokens with no search.
 * @param modePer Tokens each search adds under the mode.
 * @param otherStart The other's tokens with no search.
 * @param otherPer Tokens each search adds under the other (0 for `direct`).
 * @returns The crossing.
 *
 * @example Usage
 * ```ts
 * import { crossing } from "./deferred.ts";
 * const c = crossing(100, 50, 1100, 0);
 * if (c.searches !== 20 || c.cheaperAtStart !== "mode") throw new Error(JSON.stringify(c));
 * ```
 */
export function crossing(
  modeStart: number,
  modePer: number,
  otherStart: number,
  otherPer: number,
): Crossing {
  const cheaperAtStart = modeStart < otherStart
    ? "mode"
    : modeStart > otherStart
    ? "other"
    : "equal";
  const slope = modePer - otherPer;
  if (slope === 0) return { searches: null, cheaperAtStart };
  const s = (otherStart - modeStart) / slope;
  return { searches: s > 0 ? s : null, cheaperAtStart };
}

/** Claude Code's name of an MCP tool: `mcp__server__tool` (documented prefix). */
export function claudeCodeToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/**
 * What successive searches load: the items taken `k` at a time in order, every group holding
 * `min(k, items.length)` of them (the last wraps around to the start), so a search on a small
 * catalog is priced with as many results as it can return, not a short remainder.
 *
 * @example
 * ```ts
 * import { searchGroups } from "./deferred.ts";
 * const six = JSON.stringify(searchGroups([1, 2, 3, 4, 5, 6], 5));
 * if (six !== "[[1,2,3,4,5],[6,1,2,3,4]]") throw new Error(six);
 * if (JSON.stringify(searchGroups([1, 2], 5)) !== "[[1,2]]") throw new Error("two tools");
 * ```
 */
export function searchGroups<T>(items: readonly T[], k: number): T[][] {
  const size = Math.min(k, items.length);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += k) {
    out.push(Array.from({ length: size }, (_, j) => items[(i + j) % items.length]));
  }
  return out;
}

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;

/** How one mode renders its session start and its searches (the mode's wire shapes). */
interface ModeShape {
  readonly mode: DeferredMode;
  readonly variant: string;
  readonly format: SentFormat;
  /** Shapes with the same key differ in their search tool only (the rest is priced once). */
  readonly key: string;
  readonly tools: readonly DeferredTool[];
  /**
   * One tool as `direct` sends it in this mode's client (JSON); `direct` sends the array of
   * them, `[` and the entries joined by `,` and `]`.
   */
  readonly def: (tool: DeferredTool) => string;
  /** The search tool's entry (text), `""` when not counted. */
  readonly searchTool: string;
  /** What stays visible of these tools at the start (text, `""` for nothing). */
  readonly visible: (tools: readonly DeferredTool[]) => string;
  /** Whether server instructions are loaded at the start. */
  readonly instructions: boolean;
  /** What one search adds: the result block with the definitions it loads (text). */
  readonly search: (found: readonly DeferredTool[]) => string;
  readonly notCounted: readonly string[];
}

function shapes(options: DeferredModesOptions): ModeShape[] {
  // Each tool's entry is rendered once: the direct array and the searches hold the same text.
  const rendered = new Map<DeferredTool, string>();
  const anthropicDef = (t: DeferredTool) => {
    let def = rendered.get(t);
    if (def === undefined) {
      rendered.set(t, def = JSON.stringify(sentTools([t.tool], "anthropic-messages")[0]));
    }
    return def;
  };
  const anthropicDefs = (tools: readonly DeferredTool[]) =>
    `[${tools.map(anthropicDef).join(",")}]`;
  const references = (names: readonly string[]) =>
    names.map((n) => ({ type: "tool_reference", tool_name: n }));
  const anthropic = (kind: Exclude<ToolSearchKind, "openai">): ModeShape => ({
    mode: "anthropic_search",
    variant: kind === "anthropic_bm25" ? "bm25" : "regex",
    format: "anthropic-messages",
    key: "anthropic",
    tools: options.anthropic,
    def: anthropicDef,
    searchTool: JSON.stringify([ANTHROPIC_SEARCH_TOOLS[kind]]),
    visible: () => "",
    instructions: false,
    search: (found) =>
      JSON.stringify({
        type: "tool_search_tool_result",
        tool_use_id: "srvtoolu_0000000000000000000000",
        content: {
          type: "tool_search_tool_search_result",
          tool_references: references(found.map((t) => t.tool.name)),
        },
      }) + anthropicDefs(found),
    notCounted: [
      "the system prompt the API adds for the tool search tool (not published)",
      "the model's search query (output tokens)",
    ],
  });
  const namespaceStubs = (tools: readonly DeferredTool[]) =>
    [...new Set(tools.map((t) => t.server))].map((server) => ({
      type: "namespace",
      name: server,
      description: namespaceDescription(server, options.instructions),
    }));
  const openai: ModeShape = {
    mode: "openai_search",
    variant: "namespaced",
    format: "openai-responses",
    key: "openai",
    tools: options.openai,
    def: (t) => JSON.stringify(sentTools([t.tool], "openai-responses")[0]),
    searchTool: JSON.stringify([OPENAI_SEARCH_TOOL]),
    visible: (tools) => JSON.stringify(namespaceStubs(tools)),
    instructions: false,
    search: (found) => {
      const entries = sentTools(found.map((t) => t.tool), "openai-responses");
      const loaded = namespaceStubs(found).map((ns): JsonObject => ({
        ...ns,
        tools: entries.filter((_, i) => found[i].server === ns.name),
      }));
      return JSON.stringify({
        type: "tool_search_output",
        execution: "server",
        status: "completed",
        tools: loaded,
      });
    },
    notCounted: [
      "the definition and instructions of tool_search itself (not published)",
      "the model's search arguments (output tokens)",
    ],
  };
  const servers = new Set(options.anthropic.map((t) => t.server));
  const withInstructions =
    [...servers].filter((s) => (options.instructions?.get(s)?.trim() ?? "") !== "").length;
  const renamed = options.anthropic.map((t) => ({
    server: t.server,
    tool: { ...t.tool, name: claudeCodeToolName(t.server, t.tool.name) },
  }));
  const claudeCode: ModeShape = {
    mode: "client_deferred",
    variant: "claude_code",
    format: "anthropic-messages",
    key: "claude_code",
    tools: renamed,
    def: anthropicDef,
    searchTool: "",
    visible: (tools) => tools.map((t) => t.tool.name).join("\n"),
    instructions: true,
    search: (found) =>
      JSON.stringify({
        type: "tool_result",
        tool_use_id: "toolu_0000000000000000000000",
        content: references(found.map((t) => t.tool.name)),
      }) + anthropicDefs(found),
    notCounted: [
      "Claude Code's ToolSearch tool definition and the text around the list of deferred names (not published)",
      "the model's search query (output tokens)",
      ...(withInstructions < servers.size
        ? [
          `the instructions of ${
            servers.size - withInstructions
          } of ${servers.size} servers (not in the corpus file; a capture keeps them)`,
        ]
        : []),
    ],
  };
  return [anthropic("anthropic_bm25"), anthropic("anthropic_regex"), openai, claudeCode];
}

/** A namespace's description: the server's instructions, else a sentence naming it. */
export function namespaceDescription(
  server: string,
  instructions?: ReadonlyMap<string, string>,
): string {
  const text = instructions?.get(server)?.trim() ?? "";
  return text === "" ? `Tools of the MCP server ${JSON.stringify(server)}.` : text;
}

/** What a mode's tools cost under one tokenizer, whatever its search tool. */
interface PricedTools {
  /** Every definition loaded (`direct`). */
  readonly directTokens: number;
  /** What stays visible of the tools at the start, and the servers' instructions. */
  readonly visible: number;
  readonly instructions: number;
  /** Mean tokens one search adds. */
  readonly searchTokens: number;
  /** Per tool: its definition as `direct` sends it alone, and what stays visible of it. */
  readonly perTool: ReadonlyMap<DeferredTool, { readonly def: number; readonly visible: number }>;
  /** Per server: what stays visible of it (namespace) and its instructions. */
  readonly perServer: ReadonlyMap<string, number>;
}

/**
 * Prices a mode's tools. Each definition is rendered once, and the middle of it (from its first
 * to its last hard cut, lib/tokens `joins.ts`) counted once, then added wherever the
 * definition occurs (the whole `direct` array, the definition alone, the searches that load
 * it): exact, since a hard cut is judged on the two characters around it, both inside the
 * definition, so the tokens of a text are the sum of the tokens of its stretches cut there.
 */
function priceTools(
  shape: ModeShape,
  tokenizer: Tokenizer,
  k: number,
  instructionText: (tools: readonly DeferredTool[]) => string,
): PricedTools {
  const count = (text: string) => text === "" ? 0 : tokenizer.count(text);
  const glue = piecewiseEncoding(tokenizer) === undefined ? count : shortCounts(tokenizer);
  const defs = new Map<DeferredTool, Part>();
  for (const t of shape.tools) defs.set(t, part(shape.def(t), glue === count ? undefined : count));
  // Tokens of the parts and strings in order, the parts' middles counted once.
  const joined = (items: readonly (string | Part)[]): number => {
    let total = 0;
    let text = "";
    for (const item of items) {
      if (typeof item === "string") text += item;
      else if (item.tokens === undefined) text += item.text;
      else {
        total += glue(text + item.text.slice(0, item.first)) + item.tokens;
        text = item.text.slice(item.last);
      }
    }
    return total + glue(text);
  };
  // Tokens of a text holding some of the parts, wherever they occur (non-overlapping).
  const holding = (text: string, parts: readonly Part[]): number => {
    const found = parts.flatMap((p) => {
      const at = p.tokens === undefined ? -1 : text.indexOf(p.text);
      return at < 0 ? [] : [{ at, p }];
    }).sort((a, b) => a.at - b.at);
    const items: (string | Part)[] = [];
    let from = 0;
    for (const { at, p } of found) {
      if (at < from) continue;
      items.push(text.slice(from, at), p);
      from = at + p.text.length;
    }
    items.push(text.slice(from));
    return joined(items);
  };
  const array = (tools: readonly DeferredTool[]): (string | Part)[] => {
    const items: (string | Part)[] = ["["];
    for (const [i, t] of tools.entries()) items.push(...(i === 0 ? [] : [","]), defs.get(t)!);
    items.push("]");
    return items;
  };
  const perTool = new Map<DeferredTool, { def: number; visible: number }>();
  for (const t of shape.tools) {
    perTool.set(t, {
      def: joined(["[", defs.get(t)!, "]"]),
      visible: shape.mode === "client_deferred" ? count(`${t.tool.name}\n`) : 0,
    });
  }
  const firstOfServer = new Map<string, DeferredTool>();
  for (const t of shape.tools) if (!firstOfServer.has(t.server)) firstOfServer.set(t.server, t);
  const perServer = new Map<string, number>();
  for (const [server, t] of firstOfServer) {
    perServer.set(
      server,
      (shape.mode === "openai_search" ? count(shape.visible([t])) : 0) +
        (shape.instructions ? count(instructionText([t])) : 0),
    );
  }
  return {
    directTokens: joined(array(shape.tools)),
    visible: count(shape.visible(shape.tools)),
    instructions: shape.instructions ? count(instructionText(shape.tools)) : 0,
    searchTokens: mean(
      searchGroups(shape.tools, k).map((c) => holding(shape.search(c), c.map((t) => defs.get(t)!))),
    ),
    perTool,
    perServer,
  };
}

/** A text whose middle, `[first, last)` between its first and last hard cut, is counted. */
interface Part {
  readonly text: string;
  readonly first: number;
  readonly last: number;
  /** Tokens of the middle; undefined when it has none or the tokenizer is not piecewise. */
  readonly tokens?: number;
}

/** `text` as a {@linkcode Part}, its middle counted with `count` (none without `count`). */
function part(text: string, count: ((text: string) => number) | undefined): Part {
  const first = count === undefined ? -1 : firstHardCut(text, 0, text.length);
  const last = first < 0 ? first : lastHardCut(text, first, text.length);
  return last <= first
    ? { text, first, last }
    : { text, first, last, tokens: count!(text.slice(first, last)) };
}

/**
 * Prices the deferred modes over one corpus under one tokenizer.
 *
 * @param options Shaped corpus per format, the proxy, results per search, draws.
 * @returns One row per mode and variant (anthropic_search bm25 and regex, openai_search
 *   namespaced, client_deferred claude_code) and their scaling rows.
 * @throws {RangeError} When `resultsPerSearch` is not a positive integer or a search count is
 *   negative.
 */
export function measureDeferredModes(options: DeferredModesOptions): {
  readonly rows: DeferredModeRow[];
  readonly scaling: DeferredScalingRow[];
} {
  const k = options.resultsPerSearch ?? DEFAULT_RESULTS_PER_SEARCH;
  if (!Number.isInteger(k) || k < 1) {
    throw new RangeError(`Cannot price deferred modes: resultsPerSearch must be >= 1, got ${k}`);
  }
  const searchCounts = options.searches ?? DEFAULT_SESSION_SEARCHES;
  if (searchCounts.some((s) => !(s >= 0))) {
    throw new RangeError(`Cannot price deferred modes: searches must be >= 0, got ${searchCounts}`);
  }
  const { tokenizer } = options;
  const count = (text: string) => text === "" ? 0 : tokenizer.count(text);
  const instructionText = (tools: readonly DeferredTool[]) =>
    [...new Set(tools.map((t) => t.server))]
      .map((s) => options.instructions?.get(s)?.trim() ?? "")
      .filter((t) => t !== "").join("\n");
  const rows: DeferredModeRow[] = [];
  const scaling: DeferredScalingRow[] = [];
  // The sampled catalogs, drawn once as positions in corpus order, so every mode is priced on
  // the same servers.
  const byServer = new Map<string, number[]>();
  const order = options.anthropic.map((_, i) => i).sort((a, b) =>
    cmpTool(options.anthropic[a], options.anthropic[b])
  );
  for (const i of order) {
    const server = options.anthropic[i].server;
    const list = byServer.get(server);
    if (list === undefined) byServer.set(server, [i]);
    else list.push(i);
  }
  const drawsPerSize = options.draws ?? DEFAULT_SUBSET_DRAWS;
  const sampled: { size: number; draws: number[][] }[] = [];
  for (const size of [...(options.sizes ?? DEFAULT_SUBSET_SIZES)].sort((a, b) => a - b)) {
    if (size >= options.anthropic.length) continue;
    const draws: number[][] = [];
    for (let i = 0; i < drawsPerSize; i++) {
      draws.push([...drawServers(byServer, size, options.random).tools]);
    }
    sampled.push({ size, draws });
  }
  const priced = new Map<string, PricedTools>();
  for (const shape of shapes(options)) {
    const proxyTools = shape.format === "openai-responses"
      ? options.proxy.openai
      : options.proxy.anthropic;
    let tools = priced.get(shape.key);
    if (tools === undefined) {
      priced.set(shape.key, tools = priceTools(shape, tokenizer, k, instructionText));
    }
    const { directTokens, searchTokens, perTool, perServer } = tools;
    const start = {
      searchTool: count(shape.searchTool),
      visible: tools.visible,
      instructions: tools.instructions,
    };
    const startTokens = start.searchTool + start.visible + start.instructions;
    const proxyStartTokens = count(JSON.stringify(sentTools(proxyTools, shape.format)));
    const proxySearchTokens = options.proxySearchTokens;
    const sized = (tools: readonly DeferredTool[]) => {
      const servers = new Set(tools.map((t) => t.server));
      let direct = 0;
      let visible = start.searchTool;
      for (const t of tools) {
        direct += perTool.get(t)!.def;
        visible += perTool.get(t)!.visible;
      }
      for (const s of servers) visible += perServer.get(s)!;
      return { direct, start: visible };
    };
    const sizeRows: DeferredScalingRow[] = [];
    const sizeRow = (target: number, full: boolean, draws: readonly DeferredTool[][]) => {
      const parts = draws.map(sized);
      const d = mean(parts.map((p) => p.direct));
      const s = mean(parts.map((p) => p.start));
      return {
        corpusId: options.corpusId,
        tokenizer: tokenizer.name,
        mode: shape.mode,
        variant: shape.variant,
        targetSize: target,
        full,
        draws: draws.length,
        meanToolCount: mean(draws.map((x) => x.length)),
        directTokens: d,
        startTokens: s,
        breakEvenVsDirect: crossing(s, searchTokens, d, 0).searches,
        provenance: "computed" as const,
      };
    };
    for (const { size, draws } of sampled) {
      sizeRows.push(sizeRow(size, false, draws.map((d) => d.map((i) => shape.tools[i]))));
    }
    sizeRows.push(sizeRow(shape.tools.length, true, [[...shape.tools]]));
    scaling.push(...sizeRows);
    const meanDef = shape.tools.length === 0
      ? 0
      : [...perTool.values()].reduce((a, p) => a + p.def, 0) / shape.tools.length;
    const startPerTool = shape.tools.length === 0
      ? 0
      : (startTokens - start.searchTool) / shape.tools.length;
    rows.push({
      corpusId: options.corpusId,
      tokenizer: tokenizer.name,
      mode: shape.mode,
      variant: shape.variant,
      format: shape.format,
      toolCount: shape.tools.length,
      resultsPerSearch: Math.min(k, shape.tools.length),
      directTokens,
      startTokens,
      start,
      searchTokens,
      proxyStartTokens,
      proxySearchTokens,
      breakEvenVsDirect: crossing(startTokens, searchTokens, directTokens, 0),
      breakEvenVsProxy: crossing(startTokens, searchTokens, proxyStartTokens, proxySearchTokens),
      sessions: searchCounts.map((n) => ({
        searches: n,
        tokens: startTokens + n * searchTokens,
        directTokens,
        proxyTokens: proxyStartTokens + n * proxySearchTokens,
      })),
      crossovers: searchCounts.map((n) => {
        const session = start.searchTool + n * searchTokens;
        const margin = meanDef - startPerTool;
        return {
          searches: n,
          measuredSize: sizeRows.find((r) =>
            r.directTokens > r.startTokens + n * searchTokens
          )?.targetSize ?? null,
          estimatedSize: margin <= 0 ? null : Math.ceil(session / margin),
        };
      }),
      notCounted: shape.notCounted,
      source: DEFERRED_MODE_SOURCES[shape.mode],
      provenance: {
        tokens: "measured",
        searchTokens: "computed",
        breakEven: "computed",
        sessions: "estimated",
        crossovers: "estimated",
      },
    });
  }
  return { rows, scaling };
}

function cmpTool(a: DeferredTool, b: DeferredTool): number {
  const x = `${a.server}\u0000${a.tool.name}`;
  const y = `${b.server}\u0000${b.tool.name}`;
  return x < y ? -1 : x > y ? 1 : 0;
}
