/**
 * The narrow chat seam of the LLM retrievers (`rerank`, `expand`): a function that sends one
 * system + user prompt to a chat model and returns its text and usage. The agent providers sit
 * above retrieval in the layers, so the caller (the bench or proxy flow) builds this function
 * from the provider registry and injects it; nothing here knows a wire format.
 *
 * {@linkcode createChatCaller} adds what both retrievers need around it: an answer cache keyed
 * by model + SHA-256 of the prompt (so a rerun sends nothing), and the tokens, USD and requests
 * spent so far. Pure: the store is passed in (the file store is `chat_cache.ts`).
 *
 * @module
 */

import { sha256Hex } from "../catalog/load.ts";

/** One prompt for a chat model: a system prompt, one user message, an output cap. */
export interface ChatRequest {
  /** System prompt. */
  readonly system: string;
  /** The single user message. */
  readonly user: string;
  /** Output cap (tokens). */
  readonly maxOutputTokens: number;
}

/** A chat model's answer to one {@linkcode ChatRequest}. */
export interface ChatReply {
  /** Assistant text (`""` when none). */
  readonly text: string;
  /** Input tokens billed (uncached plus cached), `null` when the provider reported none. */
  readonly inputTokens: number | null;
  /** Output tokens billed, `null` when not reported. */
  readonly outputTokens: number | null;
  /** Price of the call in USD at the model's prices, `null` when usage was not reported. */
  readonly usd: number | null;
  /** HTTP attempts the call took (1 without retries). @default {1} */
  readonly attempts?: number;
}

/**
 * Sends one prompt to a chat model (retries of 429/5xx are the caller's, inside this function).
 *
 * @throws whatever the provider throws after its retries (e.g. a `ModelCallError`); the
 *   retrievers record the message and go on.
 */
export type ChatFn = (request: ChatRequest) => Promise<ChatReply>;

/** A chat model as the retrievers see it: its registry id, model name and the chat function. */
export interface ChatModel {
  /** Registry id, e.g. `claude-haiku`; reported. */
  readonly id: string;
  /** Model name as sent (part of the cache key), e.g. `claude-haiku-4-5`. */
  readonly model: string;
  /** Sends one prompt. */
  readonly chat: ChatFn;
}

/** A cached answer: the reply as first received (what it cost then, not what a hit costs). */
export interface CachedChat {
  /** Assistant text. */
  readonly text: string;
  /** Input tokens of the original call, `null` when not reported. */
  readonly inputTokens: number | null;
  /** Output tokens of the original call, `null` when not reported. */
  readonly outputTokens: number | null;
  /** USD of the original call, `null` when not known. */
  readonly usd: number | null;
}

/** A cache of chat answers by key ({@linkcode chatCacheKey}). */
export interface ChatStore {
  /** The stored answer for `key`, or `undefined`. */
  get(key: string): Promise<CachedChat | undefined>;
  /** Stores `value` under `key`. */
  set(key: string, value: CachedChat): Promise<void>;
}

/**
 * Cache key of one prompt: the model name and the SHA-256 of the prompt's canonical JSON
 * (`[system, user, maxOutputTokens]`), so the same prompt to the same model is sent once.
 *
 * @param model Model name as sent.
 * @param request The prompt.
 * @returns `<model>/<sha256 hex>`.
 *
 * @example Usage
 * ```ts
 * import { chatCacheKey } from "./chat.ts";
 * const key = await chatCacheKey("m", { system: "s", user: "u", maxOutputTokens: 8 });
 * if (!/^m\/[0-9a-f]{64}$/.test(key)) throw new Error(key);
 * ```
 */
export async function chatCacheKey(model: string, request: ChatRequest): Promise<string> {
  const text = JSON.stringify([request.system, request.user, request.maxOutputTokens]);
  return `${model}/${await sha256Hex(new TextEncoder().encode(text))}`;
}

/** One answered prompt, with what it cost in this process (zero when cached). */
export interface ChatCall {
  /** Assistant text. */
  readonly text: string;
  /** True when answered from the cache (no request sent). */
  readonly cached: boolean;
  /** HTTP requests sent for it (0 when cached; retries included). */
  readonly requests: number;
  /** Input tokens billed for it now (0 when cached), `null` when not reported. */
  readonly inputTokens: number | null;
  /** Output tokens billed for it now (0 when cached), `null` when not reported. */
  readonly outputTokens: number | null;
  /** USD spent on it now (0 when cached), `null` when not known. */
  readonly usd: number | null;
}

/** What a {@linkcode ChatCaller} has spent since it was created. */
export interface ChatUsage {
  /** HTTP requests sent (retries included). */
  readonly requests: number;
  /** Input tokens billed, summed over calls that reported them (tokens). */
  readonly inputTokens: number;
  /** Output tokens billed, summed (tokens). */
  readonly outputTokens: number;
  /** USD, summed; `null` when some answered call reported no usage (so the sum is unknown). */
  readonly usd: number | null;
  /** Prompts answered from the cache. */
  readonly cachedCalls: number;
  /** Prompts sent to the model and answered. */
  readonly sentCalls: number;
  /** Prompts whose call failed (after the provider's retries). */
  readonly failedCalls: number;
}

/** A chat function with a cache and a running total. */
export interface ChatCaller {
  /** The model. */
  readonly model: ChatModel;
  /**
   * Answers a prompt from the cache, else sends it (and caches the answer).
   *
   * @param request The prompt.
   * @returns The text and what it cost now.
   * @throws what the chat function throws (counted in `failedCalls`; nothing is cached).
   */
  call(request: ChatRequest): Promise<ChatCall>;
  /** Usage since creation. */
  usage(): ChatUsage;
}

/**
 * Wraps a chat model with an answer cache and usage totals.
 *
 * @param model The model and its chat function.
 * @param store Answer cache; absent: every prompt is sent.
 * @returns The caller.
 *
 * @example Usage
 * ```ts
 * import { createChatCaller } from "./chat.ts";
 * const caller = createChatCaller({
 *   id: "m", model: "m",
 *   chat: () => Promise.resolve({ text: "ok", inputTokens: 10, outputTokens: 2, usd: 0.001 }),
 * });
 * const r = await caller.call({ system: "", user: "hi", maxOutputTokens: 4 });
 * if (r.text !== "ok" || caller.usage().inputTokens !== 10) throw new Error("unexpected");
 * ```
 */
export function createChatCaller(model: ChatModel, store?: ChatStore): ChatCaller {
  let requests = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let usd: number | null = 0;
  let cachedCalls = 0;
  let sentCalls = 0;
  let failedCalls = 0;
  return {
    model,
    async call(request) {
      const key = store ? await chatCacheKey(model.model, request) : "";
      const hit = store ? await store.get(key) : undefined;
      if (hit !== undefined && typeof hit.text === "string") {
        cachedCalls++;
        return {
          text: hit.text,
          cached: true,
          requests: 0,
          inputTokens: 0,
          outputTokens: 0,
          usd: 0,
        };
      }
      let reply: ChatReply;
      try {
        reply = await model.chat(request);
      } catch (error) {
        failedCalls++;
        // Provider errors carry the attempts they made (`ModelCallError.attempts`).
        const attempts = (error as { attempts?: unknown })?.attempts;
        requests += typeof attempts === "number" && attempts >= 0 ? attempts : 1;
        throw error;
      }
      const attempts = reply.attempts ?? 1;
      requests += attempts;
      sentCalls++;
      inputTokens += reply.inputTokens ?? 0;
      outputTokens += reply.outputTokens ?? 0;
      usd = usd === null || reply.usd === null ? null : usd + reply.usd;
      const value: CachedChat = {
        text: reply.text,
        inputTokens: reply.inputTokens,
        outputTokens: reply.outputTokens,
        usd: reply.usd,
      };
      if (store) await store.set(key, value);
      return {
        text: reply.text,
        cached: false,
        requests: attempts,
        inputTokens: reply.inputTokens,
        outputTokens: reply.outputTokens,
        usd: reply.usd,
      };
    },
    usage: () => ({
      requests,
      inputTokens,
      outputTokens,
      usd,
      cachedCalls,
      sentCalls,
      failedCalls,
    }),
  };
}
