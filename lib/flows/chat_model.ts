/**
 * The chat model of the `rerank` and `expand` retrievers, resolved from the model registry the
 * agents use (a chat entry, any provider of the provider registry) and turned into the narrow
 * chat function lib/retrieval defines: one system + user prompt in, text and usage out, with
 * the providers' retries (429/5xx, `Retry-After`) and USD at the entry's prices. An attempt with
 * no answer in 120 s (room for a local model on a CPU) is retried once; after a second timeout
 * the model is down for the run: every later prompt fails at once naming that timeout (a rerank
 * over many queries does not wait each out).
 *
 * @module
 */

import { expandVars } from "../agent/config.ts";
import { loadEnv, loadModels } from "../agent/load_config.ts";
import { createModelClient, type ModelClientDeps } from "../agent/providers/client.ts";
import { realSleep } from "../agent/providers/retry.ts";
import { ModelCallError } from "../agent/providers/types.ts";
import { contextTokens, usageCostUsd } from "../agent/usage.ts";
import type { ModelConfig } from "../agent/types.ts";
import type { ChatFn, ChatModel } from "../retrieval/chat.ts";
import { UsageError } from "../core/errors.ts";

/** Options of {@linkcode resolveChatModel}. */
export interface ResolveChatModelOptions {
  /** Registry id, e.g. `claude-haiku`. */
  readonly id: string;
  /** The flag that named it, for messages, e.g. `--rerank-model`. */
  readonly flag: string;
  /** Model registry file (`{models: [...]}`). */
  readonly modelsPath: string;
  /** Variables for `${VAR}` in the entry (the environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A `.env` file whose variables fill in those `env` lacks (absent file: none). */
  readonly dotEnv?: string;
  /** HTTP client of the provider SDKs. @default {globalThis.fetch} */
  readonly fetch?: typeof fetch;
  /** Clock (ms) and sleep of the retries. @default {Date.now and a real sleep} */
  readonly now?: () => number;
  /** Sleep between retries. @default {realSleep} */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Retry policy. @default {the providers' defaults: 4 retries, 500 ms doubling} */
  readonly retry?: ModelClientDeps["retry"];
  /** Per-attempt timeout, ms. @default {120000} */
  readonly timeoutMs?: number;
}

/** A resolved chat model: what the retriever gets, and what the report may record. */
export interface ResolvedChatModel {
  /** The model and its chat function, for `RetrieverContext.chat`. */
  readonly model: ChatModel;
  /** The registry entry without its key (id, provider, model, prices). */
  readonly entry: Omit<ModelConfig, "apiKey">;
}

/**
 * Builds a {@linkcode ChatFn} over a model client: one user message, no tools, temperature 0;
 * input tokens are uncached + cache read + cache write, USD from the entry's prices
 * (`usageCostUsd`).
 *
 * @param config The chat entry.
 * @param deps Environment, clock, sleep, retries, fetch (as `createModelClient`).
 * @returns The chat function.
 * @throws {import("../agent/config.ts").AgentConfigError} when a `${VAR}` of the entry is unset.
 */
export function chatFnFromModel(config: ModelConfig, deps: ModelClientDeps): ChatFn {
  const client = createModelClient(config, deps);
  // The message of the timeout that took the model down, once one did.
  let down: string | undefined;
  return async (request) => {
    if (down !== undefined) {
      throw new ModelCallError(
        "timeout",
        `model "${config.id}": not sent: it is down for this run (${down})`,
        { attempts: 0 },
      );
    }
    let turn;
    try {
      turn = await client.complete({
        system: request.system,
        messages: [{ role: "user", text: request.user }],
        tools: [],
        maxOutputTokens: request.maxOutputTokens,
        temperature: 0,
      });
    } catch (error) {
      if (error instanceof ModelCallError && error.code === "timeout") down ??= error.message;
      throw error;
    }
    const u = turn.usage;
    const inputTokens = contextTokens(u);
    return {
      text: turn.text,
      inputTokens,
      outputTokens: u.outputTokens,
      usd: usageCostUsd(u, config.pricing),
      attempts: turn.attempts,
    };
  };
}

/**
 * Resolves a chat model of the registry for a chat retriever.
 *
 * @param options Id, flag, registry file, variables, HTTP client, clock.
 * @returns The chat model for the retriever and the keyless entry.
 * @throws {UsageError} when the registry cannot be read, has no such id, the entry is an
 *   embedding model, or a `${VAR}` of it is unset.
 */
export async function resolveChatModel(
  options: ResolveChatModelOptions,
): Promise<ResolvedChatModel> {
  const models = await loadModels(options.modelsPath).catch((error) => {
    throw new UsageError(`--models ${options.modelsPath}: ${(error as Error).message}`);
  });
  const entry = models.find((m) => m.id === options.id);
  const chatIds = models.filter((m) => m.kind !== "embedding").map((m) => m.id);
  if (entry === undefined || entry.kind === "embedding") {
    throw new UsageError(
      `${options.flag}: ${
        entry === undefined ? `no model "${options.id}"` : `"${options.id}" is an embedding model`
      } in ${options.modelsPath} (chat models: ${chatIds.join(", ") || "none"})`,
    );
  }
  const env = options.dotEnv === undefined
    ? options.env
    : { ...(await loadEnv(options.dotEnv)), ...options.env };
  let chat: ChatFn;
  let model: string;
  try {
    model = expandVars(entry.model, env, { file: options.modelsPath, field: `${entry.id}.model` });
    chat = chatFnFromModel(entry, {
      env,
      now: options.now ?? (() => Date.now()),
      sleep: options.sleep ?? realSleep,
      source: options.modelsPath,
      attemptTimeoutMs: options.timeoutMs ?? 120_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
  } catch (error) {
    throw new UsageError(`${options.flag} ${options.id}: ${(error as Error).message}`);
  }
  const { apiKey: _key, ...keyless } = entry;
  return { model: { id: entry.id, model, chat }, entry: keyless };
}
