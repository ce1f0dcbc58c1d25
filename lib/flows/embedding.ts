/**
 * The embedding model of the `dense` and `hybrid` retrievers, resolved from the model registry
 * the agents use (an entry with `kind: "embedding"`): its settings for the retriever (never the
 * key), an HTTP client that adds the key, and the on-disk vector cache.
 *
 * @module
 */

import { expandVars } from "../agent/config.ts";
import { loadEnv, loadModels } from "../agent/load_config.ts";
import { createFileEmbeddingStore } from "../retrieval/embedding_cache.ts";
import type { EmbeddingModel, EmbeddingStore } from "../retrieval/embeddings.ts";
import { UsageError } from "../core/errors.ts";

/** Default OpenAI-compatible base URL when the registry entry names none. */
export const DEFAULT_EMBEDDING_BASE_URL = "https://api.openai.com/v1";

/** What a retriever that embeds needs from its caller. */
export interface EmbeddingRetrieverContext {
  /** The model as the retriever sees it (no key). */
  readonly model: EmbeddingModel;
  /** `settings` for `evaluateRetrieval*` and the registry entries: `{embeddingModel}`. */
  readonly settings: { readonly embeddingModel: { readonly [key: string]: string | number } };
  /** `fetch` that adds `Authorization: Bearer <key>` to every request. */
  readonly fetch: typeof fetch;
  /** The vector cache under `cacheDir`. */
  readonly embeddingStore: EmbeddingStore;
}

/** Options of {@linkcode resolveEmbeddingModel}. */
export interface ResolveEmbeddingOptions {
  /** Registry id, e.g. `openai-embed`. */
  readonly id: string;
  /** Model registry file (`{models: [...]}`). */
  readonly modelsPath: string;
  /** Vector cache folder. */
  readonly cacheDir: string;
  /** Variables for `${VAR}` in the entry (the environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A `.env` file whose variables fill in those `env` lacks (absent file: none). */
  readonly dotEnv?: string;
  /** The HTTP client to wrap. @default {globalThis.fetch} */
  readonly fetch?: typeof fetch;
  /** Per-request wait, ms, recorded in the settings the embedder reads. @default {60000} */
  readonly timeoutMs?: number;
}

/**
 * Resolves an embedding model of the registry for the embedding retrievers.
 *
 * @param options Id, registry file, cache folder, variables.
 * @returns Settings, authenticated `fetch` and vector cache.
 * @throws {UsageError} when the registry cannot be read, has no such id, or the entry is not an
 *   embedding model; `AgentConfigError` (from `expandVars`) when a `${VAR}` is unset.
 */
export async function resolveEmbeddingModel(
  options: ResolveEmbeddingOptions,
): Promise<EmbeddingRetrieverContext> {
  const models = await loadModels(options.modelsPath).catch((error) => {
    throw new UsageError(`--models ${options.modelsPath}: ${(error as Error).message}`);
  });
  const entry = models.find((m) => m.id === options.id);
  const embeddingIds = models.filter((m) => m.kind === "embedding").map((m) => m.id);
  if (entry === undefined || entry.kind !== "embedding") {
    throw new UsageError(
      `--embedding-model: ${
        entry === undefined ? `no model "${options.id}"` : `"${options.id}" is a chat model`
      } in ${options.modelsPath} (embedding models: ${embeddingIds.join(", ") || "none"})`,
    );
  }
  const env = options.dotEnv === undefined
    ? options.env
    : { ...(await loadEnv(options.dotEnv)), ...options.env };
  const where = (field: string) => ({ file: options.modelsPath, field: `${entry.id}.${field}` });
  const apiKey = expandVars(entry.apiKey, env, where("apiKey"));
  const baseUrl = entry.baseUrl === undefined
    ? DEFAULT_EMBEDDING_BASE_URL
    : expandVars(entry.baseUrl, env, where("baseUrl"));
  const model: EmbeddingModel = {
    id: entry.id,
    model: expandVars(entry.model, env, where("model")),
    baseUrl,
    inputUsdPerMTok: entry.pricing.inputUsdPerMTok,
  };
  const inner = options.fetch ?? globalThis.fetch;
  const authFetch: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${apiKey}`);
    return inner(input, { ...init, headers });
  };
  return {
    model,
    settings: {
      embeddingModel: {
        ...model,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
    },
    fetch: authFetch,
    embeddingStore: createFileEmbeddingStore(options.cacheDir),
  };
}
