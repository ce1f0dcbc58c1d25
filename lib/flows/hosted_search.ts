/**
 * The client of `anthropic_hosted` (`--hosted-search anthropic:ID`): a chat model of the model
 * registry (provider `anthropic`, a model with tool search) asked once per golden query, with
 * every tool of the corpus shaped as the agent runner shapes it (lib/billing `shapeTools`) and
 * sent deferred behind Anthropic's tool search tool (the agent runner's adapter, its retries and
 * redaction), answers cached on disk by request (`.scratch/hosted_search`), USD at the entry's
 * prices.
 *
 * @module
 */

import { expandVars } from "../agent/config.ts";
import { loadEnv, loadModels } from "../agent/load_config.ts";
import { createModelClient } from "../agent/providers/client.ts";
import { createFileResponseStore, withResponseCache } from "../agent/providers/cache.ts";
import { realSleep } from "../agent/providers/retry.ts";
import { contextTokens, usageCostUsd } from "../agent/usage.ts";
import { toolSearchProblem } from "../agent/tool_search.ts";
import type { ModelConfig } from "../agent/types.ts";
import { shapeTools } from "../billing/sent_layer.ts";
import type { JsonObject, Tool } from "../catalog/types.ts";
import { ANTHROPIC_SEARCH_TOOLS } from "../catalog/sent_search.ts";
import { UsageError } from "../core/errors.ts";
import {
  ANTHROPIC_MAX_REFERENCES,
  ANTHROPIC_TOOL_SEARCH_DOCS,
} from "../retrieval/hosted_emulation.ts";
import type { HostedSearchClient, RetrievalDoc } from "../retrieval/types.ts";
import type { HostedSearchSpec } from "./hosted_search_spec.ts";

export { type HostedSearchSpec, parseHostedSearch } from "./hosted_search_spec.ts";

/** The system prompt each hosted search request carries. */
export const HOSTED_SEARCH_SYSTEM =
  "You find tools for requests. Use the tool search tool to find the tools that can do the " +
  "user's request. Do not call the tools you find: once you have searched, name the ones " +
  "that fit, best first.";

/** Output cap of a hosted search request (tokens): room for a search or two and the names. */
export const HOSTED_SEARCH_MAX_OUTPUT_TOKENS = 1024;

/** Options of {@linkcode resolveHostedSearch}. */
export interface ResolveHostedSearchOptions {
  /** Model registry file. */
  readonly modelsPath: string;
  /** Variables for `${VAR}` (the environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A `.env` file filling in what `env` lacks. */
  readonly dotEnv?: string;
  /** Answer cache folder. */
  readonly cacheDir: string;
  /** HTTP client of the provider SDK. @default {globalThis.fetch} */
  readonly fetch?: typeof fetch;
  /** Clock (ms) of the retries. @default {Date.now} */
  readonly now?: () => number;
  /** Sleep between retries. @default {realSleep} */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A registry document of a corpus tool (the retriever's document back as a tool). */
function toolOf(d: RetrievalDoc): Tool {
  let schema: unknown;
  try {
    schema = d.params === "" ? undefined : JSON.parse(d.params);
  } catch {
    schema = undefined;
  }
  return {
    id: d.id,
    server: d.server,
    name: d.name,
    description: d.description,
    ...(schema !== null && typeof schema === "object" && !Array.isArray(schema)
      ? { inputSchema: schema as JsonObject }
      : {}),
  };
}

/**
 * Resolves the registry entry `--hosted-search` names and builds the hosted search client.
 *
 * @param spec From {@linkcode parseHostedSearch}.
 * @param options Registry, variables, cache folder, HTTP client.
 * @returns The client `anthropic_hosted` is built with.
 * @throws {UsageError} When the registry has no such chat entry, the entry is not `anthropic`,
 *   its model has no tool search, or a variable of it is unset.
 */
export async function resolveHostedSearch(
  spec: HostedSearchSpec,
  options: ResolveHostedSearchOptions,
): Promise<HostedSearchClient> {
  const models = await loadModels(options.modelsPath).catch((error) => {
    throw new UsageError(`--models ${options.modelsPath}: ${(error as Error).message}`);
  });
  const env = options.dotEnv === undefined
    ? options.env
    : { ...(await loadEnv(options.dotEnv)), ...options.env };
  const sent = (m: ModelConfig) => {
    try {
      return expandVars(m.model, env, { file: options.modelsPath, field: `${m.id}.model` });
    } catch {
      return m.model;
    }
  };
  const anthropic = models.filter((m) => m.provider === "anthropic" && m.kind !== "embedding");
  const entry = anthropic.find((m) => m.id === spec.model) ??
    anthropic.find((m) => sent(m) === spec.model);
  if (entry === undefined) {
    throw new UsageError(
      `--hosted-search: no anthropic chat model "${spec.model}" in ${options.modelsPath} ` +
        `(anthropic models: ${anthropic.map((m) => m.id).join(", ") || "none"})`,
    );
  }
  let model: string;
  try {
    model = expandVars(entry.model, env, { file: options.modelsPath, field: `${entry.id}.model` });
  } catch (e) {
    throw new UsageError(`--hosted-search: ${(e as Error).message}`);
  }
  const problem = toolSearchProblem("anthropic_search", entry.provider, model);
  if (problem !== null) throw new UsageError(`--hosted-search: ${problem}`);
  let base;
  try {
    base = createModelClient(entry, {
      env,
      now: options.now ?? (() => Date.now()),
      sleep: options.sleep ?? realSleep,
      source: options.modelsPath,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  } catch (e) {
    throw new UsageError(`--hosted-search: ${(e as Error).message}`);
  }
  const client = withResponseCache(base, entry, {
    mode: "read",
    store: createFileResponseStore(options.cacheDir),
    now: options.now ?? (() => performance.now()),
  });
  const kind = spec.variant === "regex" ? "anthropic_regex" : "anthropic_bm25";
  // The tools of a corpus, shaped once per document array.
  const shaped = new WeakMap<
    readonly RetrievalDoc[],
    { specs: ReturnType<typeof shapeTools>; ids: Map<string, string> }
  >();
  const shape = (docs: readonly RetrievalDoc[]) => {
    let s = shaped.get(docs);
    if (s === undefined) {
      const specs = shapeTools(docs.map(toolOf), "anthropic-messages");
      s = { specs, ids: new Map(specs.map((t, i) => [t.name, docs[i].id])) };
      shaped.set(docs, s);
    }
    return s;
  };
  return {
    info: {
      provider: "anthropic",
      tool: ANTHROPIC_SEARCH_TOOLS[kind].type,
      kind: "hosted",
      maxResults: ANTHROPIC_MAX_REFERENCES,
      source: ANTHROPIC_TOOL_SEARCH_DOCS,
      differences: [
        `asked ${model} (registry id ${entry.id}) once per golden query, every corpus tool deferred behind ${
          ANTHROPIC_SEARCH_TOOLS[kind].type
        }, temperature 0, with a system prompt asking it to search and not call the tools`,
        "the ranking is the order of the tool_reference blocks over the searches the model made, each tool once; a query the model did not search scores 0",
      ],
    },
    config: { model, registryId: entry.id, variant: spec.variant, system: HOSTED_SEARCH_SYSTEM },
    async search(docs, query) {
      const { specs, ids } = shape(docs);
      const turn = await client.complete({
        system: HOSTED_SEARCH_SYSTEM,
        messages: [{ role: "user", text: query }],
        tools: specs,
        toolSearch: { kind, deferred: specs.map((t) => t.name) },
        maxOutputTokens: HOSTED_SEARCH_MAX_OUTPUT_TOKENS,
        temperature: 0,
      });
      const u = turn.usage;
      const inputTokens = contextTokens(u);
      return {
        searches: (turn.searches ?? []).map((s) => ({
          input: s.input,
          ids: s.tools.flatMap((n) => ids.get(n) ?? []),
          ...(s.error === undefined ? {} : { error: s.error }),
        })),
        cost: turn.cached
          ? { requests: 0, inputTokens: 0, outputTokens: 0, usd: 0, cached: true }
          : {
            requests: turn.attempts,
            inputTokens,
            outputTokens: u.outputTokens,
            usd: usageCostUsd(u, entry.pricing),
            cached: false,
          },
      };
    },
  };
}
