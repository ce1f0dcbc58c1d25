/**
 * Sends count requests (`count_api.ts`) with the key from the environment, retries 429 (with
 * `Retry-After`), 408, 5xx, timeouts and malformed answers by the rules of `lib/core/retry.ts`,
 * and caches every answer on disk by (provider, model, sha256 of the body), so a second run
 * sends no request. A provider whose endpoint timed out (twice: the retry rule) is down for the
 * rest of the client's life: its later requests fail at once, naming that first failure.
 *
 * @module
 */
import type { JsonObject } from "../catalog/types.ts";
import {
  type AttemptFailure,
  parseRetryAfter,
  realSleep,
  type RetryPolicy,
  retryWithBackoff,
} from "../core/retry.ts";
import { oneLine } from "../core/text.ts";
import { redactText } from "../core/secrets.ts";
import { writeAtomic } from "../core/files.ts";
import { COUNT_ENV, countRequest, readCount } from "./count_api.ts";
import type { BillingProvider } from "./estimate.ts";

/** Why a count could not be had: the layer is then `not measured` with this reason. */
export class CountError extends Error {
  /**
   * `no-key`, `refused` (a 4xx that is not retried), `unreachable`, `exhausted` (429, 5xx or
   * malformed answers until the retries ran out), `timeout` (no answer in time, twice), `down`
   * (not sent: the provider's endpoint timed out earlier in this run).
   */
  readonly code: string;
  /**
   * Builds the error.
   *
   * @param code Failure kind.
   * @param message One line, secrets redacted.
   */
  constructor(code: string, message: string) {
    super(message);
    this.name = "CountError";
    this.code = code;
  }
}

/** What the client needs. */
export interface CountClientOptions {
  /** Environment (keys and base URLs). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Cache folder (created on first write). */
  readonly cacheDir: string;
  /** `fetch` (tests). @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Sleep between retries. @default realSleep */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Epoch ms (HTTP-date `Retry-After`). @default Date.now */
  readonly now?: () => number;
  /** Retry counts and delays. @default lib/core/retry.ts defaults */
  readonly retry?: RetryPolicy;
  /** Per-attempt timeout, ms. @default 60000 */
  readonly timeoutMs?: number;
}

/** A count client. */
export interface CountClient {
  /**
   * The input tokens of one request (from the cache when it has the answer).
   *
   * @param provider Provider.
   * @param model Model name.
   * @param tools The rendered `tools` value, or `undefined` for none.
   * @returns Tokens and whether the cache answered.
   * @throws {CountError} When the count cannot be had.
   */
  count(
    provider: BillingProvider,
    model: string,
    tools: readonly JsonObject[] | undefined,
  ): Promise<{ tokens: number; cached: boolean }>;
  /** HTTP requests sent so far (retries included). */
  readonly sent: () => number;
  /** Answers read from the cache so far. */
  readonly hits: () => number;
}

async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

class HttpFailure extends Error {
  constructor(readonly status: number, readonly headers: Headers, message: string) {
    super(message);
  }
}

/**
 * A count client over real HTTP.
 *
 * @param options Environment, cache folder, fetch, sleep, clock, retry policy.
 * @returns The client.
 */
export function createCountClient(options: CountClientOptions): CountClient {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 60_000;
  let sent = 0;
  let hits = 0;
  // Provider → the message of the timeout that took its endpoint down.
  const down = new Map<BillingProvider, string>();
  const keyOf = (provider: BillingProvider) => options.env[COUNT_ENV[provider].key];
  return {
    sent: () => sent,
    hits: () => hits,
    async count(provider, model, tools) {
      const base = options.env[COUNT_ENV[provider].baseUrl];
      const request = countRequest(provider, model, tools, base || undefined);
      const safeModel = model.replace(/[^A-Za-z0-9._-]/g, "_");
      const path = `${options.cacheDir}/${provider}/${safeModel}/${await sha256Hex(
        request.body,
      )}.json`;
      try {
        const cached = JSON.parse(await Deno.readTextFile(path)) as { inputTokens?: unknown };
        if (typeof cached.inputTokens === "number") {
          hits++;
          return { tokens: cached.inputTokens, cached: true };
        }
      } catch {
        // Not cached (or unreadable): ask.
      }
      const key = keyOf(provider);
      if (key === undefined || key === "") {
        throw new CountError("no-key", `${COUNT_ENV[provider].key} is not set`);
      }
      const cause = down.get(provider);
      if (cause !== undefined) {
        throw new CountError(
          "down",
          `${provider} ${model}: not sent: the ${provider} count endpoint is down for this run ` +
            `(${cause})`,
        );
      }
      const secrets = [key];
      const classify = (error: unknown): AttemptFailure => {
        if (error instanceof HttpFailure) {
          const s = error.status;
          const retryAfterMs = parseRetryAfter(error.headers, now());
          return {
            retryable: s === 429 || s === 408 || s >= 500,
            code: "http",
            status: s,
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
            message: error.message,
          };
        }
        if (
          error instanceof SyntaxError ||
          error instanceof TypeError && /count answer/.test(error.message)
        ) {
          return {
            retryable: true,
            code: "bad_response",
            message: `malformed answer: ${oneLine(error)}`,
          };
        }
        if ((error as Error)?.name === "TimeoutError") {
          return { retryable: true, code: "timeout", message: `no answer within ${timeoutMs} ms` };
        }
        return {
          retryable: false,
          code: "unreachable",
          message: `cannot connect: ${oneLine(error)}`,
        };
      };
      try {
        const { value } = await retryWithBackoff(
          async () => {
            sent++;
            const res = await doFetch(request.url, {
              method: "POST",
              headers: {
                ...request.headers,
                [request.keyHeader.name]: request.keyHeader.prefix + key,
              },
              body: request.body,
              signal: AbortSignal.timeout(timeoutMs),
            });
            const text = await res.text();
            if (!res.ok) {
              throw new HttpFailure(
                res.status,
                res.headers,
                `HTTP ${res.status}: ${oneLine(text, 200)}`,
              );
            }
            return readCount(provider, JSON.parse(text));
          },
          classify,
          { sleep: options.sleep ?? realSleep, now },
          options.retry,
          undefined,
          (code, message) =>
            new CountError(
              code === "http" ? "refused" : code,
              redactText(`${provider} ${model}: ${message}`, secrets),
            ),
        );
        await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        await writeAtomic(path, `${JSON.stringify({ provider, model, inputTokens: value })}\n`);
        return { tokens: value, cached: false };
      } catch (error) {
        if (error instanceof CountError && error.code === "timeout") {
          down.set(provider, error.message);
        }
        if (error instanceof CountError) throw error;
        throw new CountError(
          "unreachable",
          redactText(`${provider} ${model}: ${oneLine(error)}`, secrets),
        );
      }
    },
  };
}
