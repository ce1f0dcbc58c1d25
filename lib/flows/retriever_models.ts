/**
 * The models behind the endpoint retrievers, as the bench and the proxy choose them: the
 * embedding model of `dense` and `hybrid` (`--embedding-model`), the chat model of each chat
 * retriever (`--rerank-model`, `--expand-model`: the flag is `--<name>-model`), the base and
 * depth of `rerank`, and the caches. One check of the flags, one resolution, and the context
 * each retriever is built with, so both tasks follow the registry instead of names.
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";
import { createFileChatStore } from "../retrieval/embedding_cache.ts";
import {
  type ChatModel,
  type ChatStore,
  DEFAULT_RERANK_BASE,
  DEFAULT_RERANK_K,
  RETRIEVER_NAMES,
  type RetrieverContext,
  retrieverEntry,
} from "../retrieval/mod.ts";
import type { EmbeddingRetrieverContext } from "./embedding.ts";
import type { HostedSearchClient } from "../retrieval/types.ts";
import { type HostedSearchSpec, parseHostedSearch } from "./hosted_search_spec.ts";
import { dirname, join } from "node:path";

/** The model choices of the endpoint retrievers (registry ids), as flags give them. */
export interface RetrieverModelOptions {
  /** Embedding model of `dense`, `hybrid` (and `rerank` over one of them). */
  readonly embeddingModel?: string;
  /** Chat model of `rerank`. */
  readonly rerankModel?: string;
  /** Base retriever of `rerank`. Default `bm25`. */
  readonly rerankBase?: string;
  /** Candidates `rerank` takes from its base (≥ 2). Default 20. */
  readonly rerankK?: number;
  /** Chat model of `expand`. */
  readonly expandModel?: string;
  /** `--hosted-search anthropic:ID`: the model `anthropic_hosted` asks. */
  readonly hostedSearch?: string;
  /** `--hosted-search-variant`: `bm25` (default) or `regex`. */
  readonly hostedSearchVariant?: string;
}

/** The checked choices: what `rerank` reranks, and which flags name a model. */
export interface RetrieverModelPlan {
  /** Base and depth of `rerank` (defaults when it is not selected). */
  readonly rerank: { readonly base: string; readonly k: number };
  /** Retriever name → registry id of its chat model. */
  readonly chatModels: ReadonlyMap<string, string>;
  /** The embedding model's registry id, when one is needed. */
  readonly embeddingModel: string | undefined;
  /** What `anthropic_hosted` asks, when it is selected. */
  readonly hostedSearch?: HostedSearchSpec;
}

/** The chat model flags by retriever name. */
const CHAT_FLAGS = [
  ["rerank", "rerankModel"],
  ["expand", "expandModel"],
] as const;

/**
 * Checks the model flags against the selected retrievers: a chat retriever needs its
 * `--<name>-model`, an embedding one (or `rerank` over one) `--embedding-model`, and no flag is
 * given for a retriever that is not selected.
 *
 * @param names Selected retriever names (registered).
 * @param options The model flags.
 * @param flag The flag that selected them, for messages (`--retrievers` or `--retriever`).
 * @returns The checked plan.
 * @throws {UsageError} naming the flag at fault.
 */
export function checkRetrieverModels(
  names: readonly string[],
  options: RetrieverModelOptions,
  flag: string,
): RetrieverModelPlan {
  const rerank = {
    base: options.rerankBase ?? DEFAULT_RERANK_BASE,
    k: options.rerankK ?? DEFAULT_RERANK_K,
  };
  const reranks = names.includes("rerank");
  if (!reranks && (options.rerankBase !== undefined || options.rerankK !== undefined)) {
    throw new UsageError(`--rerank-base and --rerank-k are used by ${flag} rerank only`);
  }
  if (reranks) {
    if (!RETRIEVER_NAMES.includes(rerank.base)) {
      throw new UsageError(
        `--rerank-base: unknown retriever "${rerank.base}" (known: ${RETRIEVER_NAMES.join(", ")})`,
      );
    }
    const base = retrieverEntry(rerank.base);
    if (base.needsGolden || base.endpoint === "chat") {
      throw new UsageError(
        `--rerank-base ${rerank.base}: the base must be a retriever without golden labels or a chat model`,
      );
    }
    if (!Number.isInteger(rerank.k) || rerank.k < 2) {
      throw new UsageError(`--rerank-k must be an integer >= 2, got ${rerank.k}`);
    }
  }
  const chatModels = new Map<string, string>();
  for (const [name, key] of CHAT_FLAGS) {
    const id = options[key];
    const chosen = names.includes(name);
    if (chosen && id === undefined) {
      throw new UsageError(
        `${flag} ${name} needs --${name}-model ID (a chat model of the model registry)`,
      );
    }
    if (!chosen && id !== undefined) {
      throw new UsageError(`--${name}-model is used by ${flag} ${name} only`);
    }
    if (id !== undefined) chatModels.set(name, id);
  }
  const embedders = names.filter((n) =>
    retrieverEntry(n).endpoint === "embedding" ||
    (n === "rerank" && retrieverEntry(rerank.base).endpoint === "embedding")
  );
  if (embedders.length > 0 && options.embeddingModel === undefined) {
    throw new UsageError(
      `${flag} ${
        embedders.join(",")
      } needs --embedding-model ID (a model-registry entry with kind "embedding")`,
    );
  }
  if (embedders.length === 0 && options.embeddingModel !== undefined) {
    throw new UsageError(
      `--embedding-model is used by ${flag} dense or hybrid (or rerank over them) only`,
    );
  }
  const hosted = names.includes("anthropic_hosted");
  if (hosted && options.hostedSearch === undefined) {
    throw new UsageError(
      `${flag} anthropic_hosted needs --hosted-search anthropic:ID (a chat model of the registry)`,
    );
  }
  if (
    !hosted && (options.hostedSearch !== undefined || options.hostedSearchVariant !== undefined)
  ) {
    throw new UsageError(`--hosted-search is used by ${flag} anthropic_hosted only`);
  }
  return {
    rerank,
    chatModels,
    embeddingModel: options.embeddingModel,
    ...(hosted
      ? { hostedSearch: parseHostedSearch(options.hostedSearch!, options.hostedSearchVariant) }
      : {}),
  };
}

/** The resolved models of a run: embeddings, chat models by retriever, caches. */
export interface RetrieverModels {
  /** The checked plan. */
  readonly plan: RetrieverModelPlan;
  /** The embedding model with its authenticated fetch and vector cache, when needed. */
  readonly embedding: EmbeddingRetrieverContext | undefined;
  /** Retriever name → its chat model. */
  readonly chat: ReadonlyMap<string, ChatModel>;
  /** Answer cache of the chat models, when one is used. */
  readonly chatStore: ChatStore | undefined;
  /** The hosted search of `anthropic_hosted`, when it is selected. */
  readonly hosted?: HostedSearchClient;
}

/** Where the models and caches are, and the variables of the registry entries. */
export interface ResolveRetrieverModelsOptions {
  /** Model registry file. */
  readonly modelsPath: string;
  /** Vector cache folder. */
  readonly embeddingCache: string;
  /** Chat answer cache folder. */
  readonly chatCache: string;
  /** Answer cache folder of `anthropic_hosted`. @default {the chat cache's sibling hosted_search} */
  readonly hostedSearchCache?: string;
  /** Environment for `${VAR}`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A `.env` file filling in variables the environment lacks. */
  readonly dotEnv?: string;
  /** Epoch-ms clock of the chat retries (`Retry-After` dates). */
  readonly now?: () => number;
  /** HTTP client of the chat providers and the embeddings endpoint. @default {globalThis.fetch} */
  readonly fetch?: typeof fetch;
  /**
   * Wait, ms, for one answer of a model before it is a timeout.
   * @default {60 s for the embedding model, 120 s for chat models}
   */
  readonly timeoutMs?: number;
}

/**
 * Resolves the models a checked plan names (nothing is read when it names none).
 *
 * @param plan From {@linkcode checkRetrieverModels}.
 * @param options Registry file, cache folders, variables, clock.
 * @returns The models and caches.
 * @throws {UsageError} when an id is missing from the registry, of the wrong kind, or a
 *   variable of its entry is unset.
 */
export async function resolveRetrieverModels(
  plan: RetrieverModelPlan,
  options: ResolveRetrieverModelsOptions,
): Promise<RetrieverModels> {
  const common = {
    modelsPath: options.modelsPath,
    env: options.env,
    ...(options.dotEnv === undefined ? {} : { dotEnv: options.dotEnv }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  // The model modules (the agent's config and providers, their SDKs) are loaded only when a
  // model is named: a bench without endpoint retrievers never needs them.
  const embedding = plan.embeddingModel === undefined
    ? undefined
    : await (await import("./embedding.ts")).resolveEmbeddingModel({
      ...common,
      id: plan.embeddingModel,
      cacheDir: options.embeddingCache,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  const chat = new Map<string, ChatModel>();
  for (const [name, id] of plan.chatModels) {
    const { resolveChatModel } = await import("./chat_model.ts");
    const resolved = await resolveChatModel({
      ...common,
      id,
      flag: `--${name}-model`,
      ...(options.now ? { now: options.now } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    chat.set(name, resolved.model);
  }
  const hosted = plan.hostedSearch === undefined
    ? undefined
    : await (await import("./hosted_search.ts")).resolveHostedSearch(plan.hostedSearch, {
      modelsPath: options.modelsPath,
      env: options.env,
      ...(options.dotEnv === undefined ? {} : { dotEnv: options.dotEnv }),
      cacheDir: options.hostedSearchCache ?? join(dirname(options.chatCache), "hosted_search"),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  return {
    plan,
    embedding,
    chat,
    ...(hosted === undefined ? {} : { hosted }),
    chatStore: chat.size === 0 ? undefined : createFileChatStore(options.chatCache),
  };
}

/**
 * The endpoint part of one retriever's context: the embedding settings and client, the
 * `rerank` settings, its own chat model and the answer cache.
 *
 * @param retriever Registered name.
 * @param models The resolved models.
 * @returns Fields of a `RetrieverContext` (no seed, no golden set).
 */
export function endpointContext(
  retriever: string,
  models: RetrieverModels,
): Omit<RetrieverContext, "seed" | "golden"> {
  const chat = models.chat.get(retriever);
  const settings = {
    ...(models.embedding?.settings ?? {}),
    ...(retriever === "rerank" ? { rerank: { ...models.plan.rerank } } : {}),
  };
  return {
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    ...(models.embedding
      ? { fetch: models.embedding.fetch, embeddingStore: models.embedding.embeddingStore }
      : {}),
    ...(chat ? { chat } : {}),
    ...(chat && models.chatStore ? { chatStore: models.chatStore } : {}),
    ...(retriever === "anthropic_hosted" && models.hosted ? { hostedSearch: models.hosted } : {}),
  };
}
