/**
 * The `tools` value of a request that defers its tools behind a provider's tool search, built
 * on the one renderer of provider `tools` values (`sentTools`, sent.ts): the agent runner sends
 * it, and the exposure modes count it.
 *
 * - Anthropic Messages: the tool search tool first (`{type: "tool_search_tool_bm25_20251119",
 *   name: "tool_search_tool_bm25"}` or the regex variant), then every tool as `sentTools`
 *   writes it, the deferred ones with `defer_loading: true` (Anthropic's tool-search page).
 * - OpenAI Responses: the function tools grouped in namespaces (`{type: "namespace", name,
 *   description, tools: [...]}`, `defer_loading` on the functions inside, not on the namespace),
 *   tools without a namespace left at the top level, then `{type: "tool_search"}` (OpenAI's
 *   tool-search guide).
 *
 * @module
 */
import { type SentTool, sentTools } from "./sent.ts";
import type { JsonObject } from "./types.ts";

/** Which provider tool search a request uses. */
export type ToolSearchKind = "anthropic_bm25" | "anthropic_regex" | "openai";

/** Every {@linkcode ToolSearchKind}. */
export const TOOL_SEARCH_KINDS: readonly ToolSearchKind[] = [
  "anthropic_bm25",
  "anthropic_regex",
  "openai",
];

/** The Anthropic tool search tool entries, by variant (type and the name the model calls). */
export const ANTHROPIC_SEARCH_TOOLS = {
  anthropic_bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  anthropic_regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
} as const;

/** OpenAI's hosted tool search entry. */
export const OPENAI_SEARCH_TOOL = { type: "tool_search" } as const;

/** A namespace (OpenAI) grouping some of the request's tools. */
export interface SentNamespace {
  /** Namespace name the model sees (an MCP server's name, shaped for the provider). */
  readonly name: string;
  /** Description the model sees before any search. */
  readonly description: string;
  /** Names of its tools, in offer order. */
  readonly tools: readonly string[];
}

/** How a request defers its tools. */
export interface ToolSearchSetup {
  /** The provider tool search. */
  readonly kind: ToolSearchKind;
  /** Names of the deferred tools (the others are loaded at the start). */
  readonly deferred: readonly string[];
  /** OpenAI: the namespaces tools belong to (a tool in none stays at the top level). */
  readonly namespaces?: readonly SentNamespace[];
}

/**
 * The exact `tools` value of a request whose tools are deferred behind a tool search.
 *
 * @param tools Tools shaped for the provider, in offer order.
 * @param setup The search kind, the deferred names, the namespaces (OpenAI).
 * @returns The `tools` array: Anthropic Messages for the `anthropic_*` kinds, OpenAI Responses
 *   for `openai`.
 * @throws {RangeError} When a deferred name or a namespace member is not a tool, a tool is in
 *   two namespaces, or namespaces are given to an Anthropic kind.
 *
 * @example Usage
 * ```ts
 * import { toolSearchTools } from "./sent_search.ts";
 * const tools = [{ name: "read", description: "Read", inputSchema: { type: "object" } }];
 * const body = toolSearchTools(tools, { kind: "anthropic_bm25", deferred: ["read"] });
 * if (JSON.stringify(body) !== '[{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"},{"name":"read","description":"Read","input_schema":{"type":"object"},"defer_loading":true}]') {
 *   throw new Error(JSON.stringify(body));
 * }
 * ```
 */
export function toolSearchTools(
  tools: readonly SentTool[],
  setup: ToolSearchSetup,
): JsonObject[] {
  if (setup.kind !== "openai") {
    if (setup.namespaces !== undefined && setup.namespaces.length > 0) {
      throw new RangeError(
        `Cannot group tools in namespaces for ${setup.kind}: namespaces are an OpenAI Responses feature`,
      );
    }
    return [
      { ...ANTHROPIC_SEARCH_TOOLS[setup.kind] },
      ...sentTools(tools, "anthropic-messages", { deferLoading: setup.deferred }),
    ];
  }
  const entries = sentTools(tools, "openai-responses", { deferLoading: setup.deferred });
  const byName = new Map(tools.map((t, i) => [t.name, entries[i]]));
  const home = new Map<string, SentNamespace>();
  for (const ns of setup.namespaces ?? []) {
    for (const name of ns.tools) {
      if (!byName.has(name)) {
        throw new RangeError(`Cannot put "${name}" in namespace "${ns.name}": no such tool`);
      }
      const other = home.get(name);
      if (other !== undefined) {
        throw new RangeError(
          `Cannot put "${name}" in namespace "${ns.name}": it is already in "${other.name}"`,
        );
      }
      home.set(name, ns);
    }
  }
  const out: JsonObject[] = [];
  const placed = new Set<SentNamespace>();
  for (const t of tools) {
    const ns = home.get(t.name);
    if (ns === undefined) {
      out.push(byName.get(t.name)!);
      continue;
    }
    if (placed.has(ns)) continue;
    placed.add(ns);
    out.push({
      type: "namespace",
      name: ns.name,
      description: ns.description,
      tools: ns.tools.map((n) => byName.get(n)!),
    });
  }
  out.push({ ...OPENAI_SEARCH_TOOL });
  return out;
}
