/**
 * Text embeddings from any OpenAI-compatible `POST {baseUrl}/embeddings` endpoint (OpenAI, Ollama,
 * vLLM, LM Studio, text-embeddings-inference): batched requests, bounded concurrency, the agent
 * providers' retry rules (429, 408 and 5xx retried with backoff honouring `Retry-After`; a request
 * with no answer in time retried once, then the endpoint down for the embedder's life), an
 * optional vector cache keyed by model + SHA-256 of the text, and the tokens and USD it cost.
 *
 * The HTTP client, the cache store, the sleep and the clock are passed in: this module does no I/O
 * of its own (the file cache is `embedding_cache.ts`).
 *
 * @module
 */

import { COUNT, numberProblem } from "../core/numbers.ts";
import { mapBounded } from "../core/pool.ts";
import {
  type AttemptFailure,
  finalError,
  parseRetryAfter,
  realSleep,
  retryWithBackoff,
} from "../core/retry.ts";
import { sha256Hex } from "../catalog/load.ts";
import { oneLine } from "../core/text.ts";

/** An embedding model as the retrievers need it (a model-registry entry with `kind: "embedding"`). */
export interface EmbeddingModel {
  /** Registry id, e.g. `openai-small`; reported, never sent. */
  readonly id: string;
  /** Model name sent in requests, e.g. `text-embedding-3-small` or `nomic-embed-text`. */
  readonly model: string;
  /** Base URL up to the version segment, e.g. `https://api.openai.com/v1`; `/embeddings` is appended. */
  readonly baseUrl: string;
  /** USD per million input tokens (0 for a local model). */
  readonly inputUsdPerMTok: number;
}

/** A cache of vectors by key (model + text hash); see {@linkcode embeddingCacheKey}. */
export interface EmbeddingStore {
  /** The stored vector for `key`, or `undefined`. */
  get(key: string): Promise<readonly number[] | undefined>;
  /** Stores `vector` under `key`. */
  set(key: string, vector: readonly number[]): Promise<void>;
}

/** Options of {@linkcode createEmbedder}. */
export interface EmbedderOptions {
  /** HTTP client; it adds the `Authorization` header (the key never passes through here). */
  readonly fetch: typeof fetch;
  /** Vector cache; absent: every text is sent. */
  readonly store?: EmbeddingStore;
  /**
   * Texts per request.
   * @default {64}
   */
  readonly batchSize?: number;
  /**
   * Requests in flight at once.
   * @default {4}
   */
  readonly concurrency?: number;
  /**
   * Retry counts and delays, ms (the agent providers' defaults: 4 retries, 500 ms doubling,
   * one wait capped at 60,000 ms).
   */
  readonly retry?: {
    readonly maxRetries?: number;
    readonly baseDelayMs?: number;
    readonly maxDelayMs?: number;
  };
  /**
   * Per-attempt timeout, ms: a request with no answer by then is retried once; a second timeout
   * fails it and every later request of this embedder fails at once, naming it.
   * @default {60000}
   */
  readonly timeoutMs?: number;
  /** Sleep and clock (epoch ms) for the retries. @default {real sleep, Date.now} */
  readonly env?: {
    readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
    readonly now: () => number;
  };
}

/** What embedding has cost so far. */
export interface EmbeddingUsage {
  /** HTTP requests sent (retries included). */
  readonly requests: number;
  /** Input tokens the endpoint reported (`usage.prompt_tokens`), summed (tokens). */
  readonly inputTokens: number;
  /** Texts answered from the cache (no request). */
  readonly cachedTexts: number;
  /** Texts sent to the endpoint. */
  readonly embeddedTexts: number;
  /** `inputTokens` priced at the model's input price (USD). */
  readonly usd: number;
}

/** Embeds texts with one model. */
export interface Embedder {
  /** The model. */
  readonly model: EmbeddingModel;
  /**
   * Embeds texts, answering from the cache where it can.
   *
   * @param texts Texts (any number; batched).
   * @returns One vector per text, in order, all of one dimension.
   * @throws {EmbeddingError} on a failed request (after the retries) or a malformed response.
   */
  embed(texts: readonly string[]): Promise<number[][]>;
  /** The usage since creation. */
  usage(): EmbeddingUsage;
}

/** An embedding request or response that could not be used. */
export class EmbeddingError extends Error {
  /**
   * Builds the error.
   *
   * @param message One line naming the model and what went wrong.
   * @param details HTTP status of the last attempt, attempts made.
   */
  constructor(
    message: string,
    readonly details: { readonly status?: number; readonly attempts?: number } = {},
  ) {
    super(message);
    this.name = "EmbeddingError";
  }
}

/**
 * Cache key of one text's vector: the model name and the SHA-256 of the text, so the same text
 * under the same model is never embedded twice.
 *
 * @param model Model name as sent (`EmbeddingModel.model`).
 * @param text The text.
 * @returns `<model>/<sha256 hex>`.
 */
export async function embeddingCacheKey(model: string, text: string): Promise<string> {
  return `${model}/${await sha256Hex(new TextEncoder().encode(text))}`;
}

class HttpFailure extends Error {
  constructor(readonly status: number, readonly retryAfterMs: number | undefined, message: string) {
    super(message);
  }
}

/**
 * Creates an embedder for one model.
 *
 * Requests: `POST {baseUrl}/embeddings` with `{model, input: [texts], encoding_format: "float"}`;
 * the answer must carry `data[i].embedding` for every input (ordered by `data[i].index` when
 * given) and may carry `usage.prompt_tokens`. A 429, 408 or 5xx is retried (`Retry-After` and
 * `retry-after-ms` honoured, else 500 ms doubling); a request with no answer within `timeoutMs`
 * is retried once, and a second timeout puts the endpoint down for this embedder (later batches fail
 * at once); a connection failure or another status fails at once. Every vector must have the
 * dimension of the first one seen.
 *
 * @param model The model.
 * @param options HTTP client, cache, batch size, concurrency, retries.
 * @returns An {@linkcode Embedder}.
 * @throws {RangeError} when batchSize or concurrency is not a positive integer.
 */
export function createEmbedder(model: EmbeddingModel, options: EmbedderOptions): Embedder {
  const batchSize = options.batchSize ?? 64;
  const concurrency = options.concurrency ?? 4;
  for (const [name, v] of [["batchSize", batchSize], ["concurrency", concurrency]] as const) {
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(`Cannot create an embedder: ${name} must be >= 1, got ${v}`);
    }
  }
  const env = options.env ?? { sleep: realSleep, now: () => Date.now() };
  const url = `${model.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  // The message of the timeout that took the endpoint down, once one did.
  let down: string | undefined;
  let requests = 0;
  let inputTokens = 0;
  let cachedTexts = 0;
  let embeddedTexts = 0;
  let dimension: number | undefined;

  const checkVector = (v: unknown, index: number): number[] => {
    if (
      !Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && isFinite(x))
    ) {
      throw new EmbeddingError(
        `Embedding model "${model.id}" returned no usable vector for input ${index} (data[].embedding must be an array of finite numbers)`,
      );
    }
    dimension ??= v.length;
    if (v.length !== dimension) {
      throw new EmbeddingError(
        `Embedding model "${model.id}" returned a ${v.length}-dimensional vector for input ${index}, expected ${dimension} like the others`,
      );
    }
    return v as number[];
  };

  const classify = (error: unknown): AttemptFailure => {
    if (error instanceof HttpFailure) {
      const s = error.status;
      return {
        retryable: s === 429 || s === 408 || s >= 500,
        code: "http",
        status: s,
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
        message: error.message,
      };
    }
    if (error instanceof SyntaxError) {
      return {
        retryable: true,
        code: "bad_response",
        message: `malformed response body: ${oneLine(error.message)}`,
      };
    }
    if ((error as Error)?.name === "TimeoutError") {
      return { retryable: true, code: "timeout", message: `no answer within ${timeoutMs} ms` };
    }
    return {
      retryable: false,
      code: "unreachable",
      message: `cannot connect to ${url}: ${oneLine((error as Error)?.message ?? String(error))}`,
    };
  };

  const send = async (batch: readonly string[]): Promise<number[][]> => {
    if (down !== undefined) {
      throw new EmbeddingError(
        `Embedding model "${model.id}" at ${url}: not sent: the endpoint is down for this run ` +
          `(${down})`,
      );
    }
    const attempt = async () => {
      requests++;
      const res = await options.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: model.model, input: batch, encoding_format: "float" }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (!res.ok) {
        throw new HttpFailure(
          res.status,
          parseRetryAfter(res.headers, env.now()),
          `HTTP ${res.status}: ${oneLine(text).slice(0, 200)}`,
        );
      }
      // A body that is not JSON throws a SyntaxError, retried like the agent providers do.
      const body: { data?: unknown; usage?: { prompt_tokens?: unknown } } = JSON.parse(text);
      if (!Array.isArray(body.data) || body.data.length !== batch.length) {
        throw finalError(
          new EmbeddingError(
            `Embedding model "${model.id}" returned ${
              Array.isArray(body.data) ? body.data.length : "no"
            } vectors for ${batch.length} inputs`,
          ),
        );
      }
      const items = (body.data as { index?: unknown; embedding?: unknown }[]).slice();
      if (items.every((d) => typeof d?.index === "number")) {
        items.sort((a, b) => (a.index as number) - (b.index as number));
      }
      let vectors: number[][];
      try {
        vectors = items.map((d, i) => checkVector(d?.embedding, i));
      } catch (error) {
        throw finalError(error as EmbeddingError);
      }
      // Absent is not reported; present, it must be a count (1e308 or -4 would poison the sum).
      const tokens = body.usage?.prompt_tokens;
      const problem = tokens === undefined || tokens === null
        ? undefined
        : numberProblem(tokens, COUNT);
      if (problem !== undefined) {
        throw finalError(
          new EmbeddingError(
            `Embedding model "${model.id}" reported impossible usage: usage.prompt_tokens = ${
              typeof tokens === "number" ? String(tokens) : JSON.stringify(tokens)
            } (${problem})`,
          ),
        );
      }
      if (typeof tokens === "number") inputTokens += tokens;
      return vectors;
    };
    const fail = (
      code: string,
      message: string,
      details: { status?: number; attempts: number },
    ) => {
      if (code === "timeout") down ??= message;
      return new EmbeddingError(`Embedding model "${model.id}" at ${url}: ${message}`, details);
    };
    return (await retryWithBackoff(attempt, classify, env, options.retry ?? {}, undefined, fail))
      .value;
  };

  return {
    model,
    async embed(texts) {
      const out = new Array<number[]>(texts.length);
      const keys = options.store
        ? await Promise.all(texts.map((t) => embeddingCacheKey(model.model, t)))
        : [];
      const missing: number[] = [];
      for (let i = 0; i < texts.length; i++) {
        const hit = options.store ? await options.store.get(keys[i]) : undefined;
        if (hit !== undefined) {
          out[i] = checkVector(hit, i);
          cachedTexts++;
        } else missing.push(i);
      }
      // Identical texts among the missing are sent once.
      const unique = [...new Set(missing.map((i) => texts[i]))];
      const batches: string[][] = [];
      for (let i = 0; i < unique.length; i += batchSize) {
        batches.push(unique.slice(i, i + batchSize));
      }
      const results = await mapBounded(batches, concurrency, (batch) => send(batch));
      const byText = new Map<string, number[]>();
      batches.forEach((batch, b) => batch.forEach((t, j) => byText.set(t, results[b][j])));
      embeddedTexts += unique.length;
      for (const i of missing) {
        out[i] = byText.get(texts[i])!;
        if (options.store) await options.store.set(keys[i], out[i]);
      }
      return out;
    },
    usage: () => ({
      requests,
      inputTokens,
      cachedTexts,
      embeddedTexts,
      usd: inputTokens * model.inputUsdPerMTok / 1e6,
    }),
  };
}

/**
 * Cosine similarity of two vectors of one dimension.
 *
 * @param a First vector.
 * @param b Second vector.
 * @returns a·b / (|a|·|b|), 0 when either is all zeros.
 * @throws {RangeError} when the dimensions differ.
 *
 * @example Usage
 * ```ts
 * import { cosine } from "./embeddings.ts";
 * if (cosine([1, 0], [1, 1]).toFixed(4) !== "0.7071") throw new Error("unexpected");
 * ```
 */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) {
    throw new RangeError(`Cannot compare vectors of dimension ${a.length} and ${b.length}`);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
