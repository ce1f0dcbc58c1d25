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
import { sharedCounts } from "../tokens/shared_counts.ts";
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
  /**
   * True when `instructions` holds every server's (a server not in it sent none, as a capture
   * file made since they are kept says); otherwise a server not in it may have sent some.
   */
  readonly instructionsRecorded?: boolean;
  /** Tools one search loads. @default {DEFAULT_RESULTS_PER_SEARCH} */
  readonly resultsPerSearch?: number;
  /** Searches per session estimated. @default {DEFAULT_SESSION_SEARCHES} */
  readonly searches?: readonly number[];
  /**
   * The modes rendered from these same `anthropic`, `openai`, `instructions` and
   * `resultsPerSearch` ({@linkcode renderDeferredModes}), shared by the tokenizers that price
   * them; rendered here when not given.
   */
  readonly rendered?: RenderedModes;
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

/**
 * A tool's definition as a mode sends it, in parts for counting: the frame around its known
 * strings (its description and schema text, shared with the other modes' definitions, whose
 * middles each tokenizer's shared counts, lib/tokens `sharedCounts`, count once for every text
 * that holds them), and its edges, the text before its first hard cut and after its last
 * (lib/tokens `joins.ts`; none when it has no middle). The whole text is never kept: a large
 * catalog's definitions in three modes would hold every schema three more times.
 */
interface Def {
  /** The definition's text, cut before and after each known string. */
  readonly parts: readonly string[];
  /** Per part, whether it is a known string. */
  readonly known: readonly boolean[];
  /** Text before its first hard cut and after its last (copies), when it has a middle. */
  readonly edges?: readonly [string, string];
}

/** A copy of `s`: a slice may be a view that keeps its whole parent text alive. */
const copy = (s: string) => s.length > 12 ? (" " + s).slice(1) : s;

/**
 * A definition from `head`, its text up to its schema, cut around the first `description` in
 * it (a known string), and the parts after it (`after`, known where `afterKnown`).
 */
function cutDef(
  head: string,
  description: string,
  after: readonly string[],
  afterKnown: readonly boolean[],
): Def {
  const at = description === "" ? -1 : head.indexOf(description);
  const parts = at < 0 ? [copy(head)] : [
    copy(head.slice(0, at)),
    description,
    copy(head.slice(at + description.length)),
  ];
  const known = at < 0 ? [false] : [false, true, false];
  parts.push(...after);
  known.push(...afterKnown);
  const whole = parts.join("");
  const first = firstHardCut(whole, 0, whole.length);
  const last = first < 0 ? first : lastHardCut(whole, first, whole.length);
  return {
    parts,
    known,
    ...(last <= first ? {} : { edges: [copy(whole.slice(0, first)), copy(whole.slice(last))] }),
  };
}

/** A search's text: text, and indices of the definitions it loads, in order. */
type Items = readonly (string | number)[];

/** How one mode renders its session start and its searches (the mode's wire shapes). */
interface ModeShape {
  readonly mode: DeferredMode;
  readonly variant: string;
  readonly format: SentFormat;
  /** Shapes with the same key differ in their search tool only (the rest is priced once). */
  readonly key: string;
  readonly tools: readonly DeferredTool[];
  /**
   * Each tool as `direct` sends it in this mode's client (JSON); `direct` sends the array of
   * them, `[` and the entries joined by `,` and `]`.
   */
  readonly defs: readonly Def[];
  /** The search tool's entry (text), `""` when not counted. */
  readonly searchTool: string;
  /** What stays visible of these tools at the start (text, `""` for nothing). */
  readonly visible: (tools: readonly DeferredTool[]) => string;
  /** Whether server instructions are loaded at the start. */
  readonly instructions: boolean;
  /** What each search adds: the result block with the definitions it loads. */
  readonly searches: readonly Items[];
  readonly notCounted: readonly string[];
}

/**
 * The deferred modes rendered over one corpus (see {@linkcode renderDeferredModes}): what does
 * not depend on the tokenizer, done once for every tokenizer that prices them.
 */
export interface RenderedModes {
  /** The tools and instructions rendered (the options' objects themselves). */
  readonly anthropic: readonly DeferredTool[];
  readonly openai: readonly DeferredTool[];
  readonly instructions: ReadonlyMap<string, string> | undefined;
  /** Tools one search loads. */
  readonly resultsPerSearch: number;
  /** The modes' shapes, in row order. */
  readonly shapes: readonly ModeShape[];
}

/**
 * Stands in for a schema when a definition is rendered. Its JSON occurs nowhere else in the
 * definition: `{"` opens an object, never the inside of a string, and no other key is `\u0000`.
 */
const HOLE = { "\u0000": 0 };
const HOLE_TEXT = JSON.stringify(HOLE);

/**
 * Renders the deferred modes over one corpus for {@linkcode measureDeferredModes}: every
 * definition, search and visible list, so that each tokenizer only counts them.
 *
 * @param options The shaped corpus, instructions and results per search (as for
 *   {@linkcode measureDeferredModes}).
 * @returns The rendered modes.
 * @throws {RangeError} When `resultsPerSearch` is not a positive integer.
 */
export function renderDeferredModes(
  options: Pick<
    DeferredModesOptions,
    "anthropic" | "openai" | "instructions" | "instructionsRecorded" | "resultsPerSearch"
  >,
): RenderedModes {
  const k = options.resultsPerSearch ?? DEFAULT_RESULTS_PER_SEARCH;
  if (!Number.isInteger(k) || k < 1) {
    throw new RangeError(`Cannot render deferred modes: resultsPerSearch must be >= 1, got ${k}`);
  }
  // A definition rendered by `sentTools` around a hole where its schema goes, the schema's
  // JSON written once per format's dialect and shared with the other modes' definitions.
  const define = (tool: SentTool, format: SentFormat, schema: string, description: string): Def => {
    const frame = JSON.stringify(sentTools([{ ...tool, inputSchema: HOLE }], format)[0]);
    const hole = frame.indexOf(HOLE_TEXT);
    if (hole < 0) return cutDef(JSON.stringify(sentTools([tool], format)[0]), description, [], []);
    const rest = copy(frame.slice(hole + HOLE_TEXT.length));
    return cutDef(frame.slice(0, hole), description, [schema, rest], [true, false]);
  };
  // A description as a JSON string holds it (the string itself when nothing is escaped).
  const described = (t: SentTool) => {
    const json = JSON.stringify(t.description);
    return json.length === t.description.length + 2 ? t.description : json.slice(1, -1);
  };
  const schematized = (t: SentTool) => JSON.stringify(t.inputSchema);
  const renamed = options.anthropic.map((t) => ({
    server: t.server,
    tool: { ...t.tool, name: claudeCodeToolName(t.server, t.tool.name) },
  }));
  // Tool i's description and schema, shared by its definitions in the three modes where equal.
  const known = options.anthropic.map((t) => ({
    description: described(t.tool),
    schema: schematized(t.tool),
  }));
  const anthropicDefs = options.anthropic.map((t, i) =>
    define(t.tool, "anthropic-messages", known[i].schema, known[i].description)
  );
  const claudeDefs = renamed.map((t, i) =>
    define(t.tool, "anthropic-messages", known[i].schema, known[i].description)
  );
  const openaiDefs = options.openai.map(({ tool }, i) => {
    const a = options.anthropic[i]?.tool;
    if (a === undefined) {
      return define(tool, "openai-responses", schematized(tool), described(tool));
    }
    const schema = sameJson(tool.inputSchema, a.inputSchema) ? known[i].schema : schematized(tool);
    return define(
      tool,
      "openai-responses",
      schema,
      tool.description === a.description ? known[i].description : described(tool),
    );
  });
  const shapes = modeShapes(options, k, renamed, anthropicDefs, claudeDefs, openaiDefs);
  return {
    anthropic: options.anthropic,
    openai: options.openai,
    instructions: options.instructions,
    resultsPerSearch: k,
    shapes,
  };
}

/** `[`, the definitions joined by `,`, `]`: how a search result or `direct` holds them. */
function arrayOf(indices: readonly number[]): (string | number)[] {
  const items: (string | number)[] = ["["];
  for (const [j, i] of indices.entries()) items.push(...(j === 0 ? [] : [","]), i);
  items.push("]");
  return items;
}

function modeShapes(
  options: Pick<
    DeferredModesOptions,
    "anthropic" | "openai" | "instructions" | "instructionsRecorded"
  >,
  k: number,
  renamed: readonly DeferredTool[],
  anthropicDefs: readonly Def[],
  claudeDefs: readonly Def[],
  openaiDefs: readonly Def[],
): ModeShape[] {
  const references = (names: readonly string[]) =>
    names.map((n) => ({ type: "tool_reference", tool_name: n }));
  const groups = (n: number) => searchGroups(Array.from({ length: n }, (_, i) => i), k);
  const anthropicSearches = groups(options.anthropic.length).map((found) => [
    JSON.stringify({
      type: "tool_search_tool_result",
      tool_use_id: "srvtoolu_0000000000000000000000",
      content: {
        type: "tool_search_tool_search_result",
        tool_references: references(found.map((i) => options.anthropic[i].tool.name)),
      },
    }),
    ...arrayOf(found),
  ]);
  const anthropic = (kind: Exclude<ToolSearchKind, "openai">): ModeShape => ({
    mode: "anthropic_search",
    variant: kind === "anthropic_bm25" ? "bm25" : "regex",
    format: "anthropic-messages",
    key: "anthropic",
    tools: options.anthropic,
    defs: anthropicDefs,
    searchTool: JSON.stringify([ANTHROPIC_SEARCH_TOOLS[kind]]),
    visible: () => "",
    instructions: false,
    searches: anthropicSearches,
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
  // The output with each namespace's functions in a hole, filled with their definitions.
  const openaiSearch = (found: readonly number[]): Items => {
    const tools = found.map((i) => options.openai[i]);
    const stubs = namespaceStubs(tools);
    const frame = JSON.stringify({
      type: "tool_search_output",
      execution: "server",
      status: "completed",
      tools: stubs.map((ns): JsonObject => ({ ...ns, tools: HOLE })),
    }).split(HOLE_TEXT);
    const items: (string | number)[] = [frame[0]];
    for (const [j, ns] of stubs.entries()) {
      items.push(...arrayOf(found.filter((i) => options.openai[i].server === ns.name)));
      items.push(frame[j + 1]);
    }
    return items;
  };
  const openai: ModeShape = {
    mode: "openai_search",
    variant: "namespaced",
    format: "openai-responses",
    key: "openai",
    tools: options.openai,
    defs: openaiDefs,
    searchTool: JSON.stringify([OPENAI_SEARCH_TOOL]),
    visible: (tools) => JSON.stringify(namespaceStubs(tools)),
    instructions: false,
    searches: groups(options.openai.length).map(openaiSearch),
    notCounted: [
      "the definition and instructions of tool_search itself (not published)",
      "the model's search arguments (output tokens)",
    ],
  };
  const servers = new Set(options.anthropic.map((t) => t.server));
  const withInstructions =
    [...servers].filter((s) => (options.instructions?.get(s)?.trim() ?? "") !== "").length;
  const claudeCode: ModeShape = {
    mode: "client_deferred",
    variant: "claude_code",
    format: "anthropic-messages",
    key: "claude_code",
    tools: renamed,
    defs: claudeDefs,
    searchTool: "",
    visible: (tools) => tools.map((t) => t.tool.name).join("\n"),
    instructions: true,
    searches: groups(renamed.length).map((found) => [
      JSON.stringify({
        type: "tool_result",
        tool_use_id: "toolu_0000000000000000000000",
        content: references(found.map((i) => renamed[i].tool.name)),
      }),
      ...arrayOf(found),
    ]),
    notCounted: [
      "Claude Code's ToolSearch tool definition and the text around the list of deferred names (not published)",
      "the model's search query (output tokens)",
      // A server without instructions in a file that records them sent none: nothing left out.
      ...(withInstructions < servers.size && options.instructionsRecorded !== true
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
 * Prices a mode's tools. The middle of each definition is counted once, then added wherever
 * the definition occurs (the whole `direct` array, the definition alone, the searches that
 * load it), through the tokenizer's shared counts: its description's and schema's middles are
 * counted once for every mode and part of the run that holds them. Exact: each cut is a hard
 * cut (lib/tokens `joins.ts`), judged on the two characters around it, both inside the text it
 * was found in, so the tokens of a text are the sum of its stretches' cut there.
 */
function priceTools(
  shape: ModeShape,
  tokenizer: Tokenizer,
  instructionText: (tools: readonly DeferredTool[]) => string,
): PricedTools {
  const count = (text: string) => text === "" ? 0 : tokenizer.count(text);
  const piecewise = piecewiseEncoding(tokenizer) !== undefined;
  const glue = piecewise ? shortCounts(tokenizer) : count;
  const shared = sharedCounts(tokenizer);
  const { defs } = shape;
  // Tokens of each definition's middle (-1: none, the definition is counted as text): the
  // definition's less its edges (its known strings reach into them).
  const middles = defs.map((d) =>
    !piecewise || d.edges === undefined
      ? -1
      : shared.countJoin(d.parts, d.known) - glue(d.edges[0]) - glue(d.edges[1])
  );
  // Tokens of the texts and definitions in order, the definitions' middles counted once.
  const joined = (items: Items): number => {
    let total = 0;
    let text = "";
    for (const item of items) {
      if (typeof item === "string") text += item;
      else if (middles[item] < 0) text += defs[item].parts.join("");
      else {
        const [head, tail] = defs[item].edges!;
        total += glue(text + head) + middles[item];
        text = tail;
      }
    }
    return total + glue(text);
  };
  const perTool = new Map<DeferredTool, { def: number; visible: number }>();
  for (const [i, t] of shape.tools.entries()) {
    perTool.set(t, {
      def: joined(["[", i, "]"]),
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
    directTokens: joined(arrayOf(shape.tools.map((_, i) => i))),
    visible: count(shape.visible(shape.tools)),
    instructions: shape.instructions ? count(instructionText(shape.tools)) : 0,
    searchTokens: mean(shape.searches.map(joined)),
    perTool,
    perServer,
  };
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
    // A size whose every draw took the whole corpus would be the full row mislabelled.
    if (draws.every((d) => d.length === options.anthropic.length)) continue;
    sampled.push({ size, draws });
  }
  const rendered = options.rendered ?? renderDeferredModes(options);
  if (
    rendered.anthropic !== options.anthropic || rendered.openai !== options.openai ||
    rendered.instructions !== options.instructions || rendered.resultsPerSearch !== k
  ) {
    throw new RangeError(
      "Cannot price deferred modes: `rendered` was rendered from other tools, instructions or results per search",
    );
  }
  const priced = new Map<string, PricedTools>();
  for (const shape of rendered.shapes) {
    const proxyTools = shape.format === "openai-responses"
      ? options.proxy.openai
      : options.proxy.anthropic;
    let tools = priced.get(shape.key);
    if (tools === undefined) {
      priced.set(shape.key, tools = priceTools(shape, tokenizer, instructionText));
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

/**
 * Whether two JSON values are written alike by `JSON.stringify`: the same keys in the same
 * order and equal leaves (false may only cost a second rendering).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], y[i])) return false;
    return true;
  }
  if (
    Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype
  ) {
    return false;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  const other = Object.keys(y);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== other[i] || !sameJson(x[keys[i]], y[keys[i]])) return false;
  }
  return true;
}

function cmpTool(a: DeferredTool, b: DeferredTool): number {
  const x = `${a.server}\u0000${a.tool.name}`;
  const y = `${b.server}\u0000${b.tool.name}`;
  return x < y ? -1 : x > y ? 1 : 0;
}
