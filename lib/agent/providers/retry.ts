/**
 * Retries of model calls: 429 and 5xx (and malformed 2xx bodies) are retried with exponential
 * backoff that honours `Retry-After`; everything else fails at once.
 *
 * Sleep and clock are passed in, so tests run without waiting.
 *
 * @module
 */

import {
  type AttemptFailure,
  finalError,
  parseRetryAfter,
  type RetryEnv,
  type RetryPolicy,
  type RetryResult,
  retryWithBackoff,
} from "../../core/retry.ts";
import { ModelCallError } from "./types.ts";
import { oneLine } from "../../core/text.ts";

export type { AttemptFailure, RetryEnv, RetryPolicy, RetryResult } from "../../core/retry.ts";
export { parseRetryAfter, realSleep } from "../../core/retry.ts";

/**
 * Classifies an error thrown by an Anthropic or OpenAI SDK call (both expose `status` and
 * `headers` on `APIError`; connection errors have no status).
 *
 * @param error What the SDK threw.
 * @param now Current epoch ms.
 * @param signal The caller's signal (an abort is never retried).
 * @returns The classification.
 */
export function classifySdkError(
  error: unknown,
  now: number,
  signal?: AbortSignal,
): AttemptFailure {
  const e = error as {
    name?: string;
    status?: unknown;
    headers?: { get(name: string): string | null };
    message?: string;
  };
  const message = oneLine(e?.message ?? String(error));
  if (signal?.aborted || classNames(error).has("APIUserAbortError") || e?.name === "AbortError") {
    return { retryable: false, code: "aborted", message: "aborted (per-case timeout)" };
  }
  if (typeof e?.status === "number") {
    const status = e.status;
    const retryAfterMs = parseRetryAfter(e.headers, now);
    const retryable = status === 429 || status >= 500 || status === 408;
    return {
      retryable,
      code: "http",
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      message: `HTTP ${status}: ${message}`,
    };
  }
  if (error instanceof SyntaxError) {
    return {
      retryable: true,
      code: "bad_response",
      message: `malformed response body: ${message}`,
    };
  }
  if (classNames(error).has("APIConnectionError")) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return {
      retryable: false,
      code: "unreachable",
      message: `cannot connect: ${cause ? oneLine(cause) : message}`,
    };
  }
  return { retryable: false, code: "bad_response", message };
}

/** Constructor names along the prototype chain (SDK error classes do not all set `name`). */
function classNames(error: unknown): Set<string> {
  const names = new Set<string>();
  let proto = error !== null && typeof error === "object" ? Object.getPrototypeOf(error) : null;
  while (proto !== null && proto !== Object.prototype) {
    names.add(proto.constructor?.name ?? "");
    proto = Object.getPrototypeOf(proto);
  }
  return names;
}

/**
 * Runs `attempt` until it succeeds, a non-retryable failure happens, or the retries run out
 * (the loop of `lib/core/retry.ts`: `Retry-After` when sent, else `baseDelayMs × 2^(r−1)`, capped at
 * `maxDelayMs`, no jitter). A `ModelCallError` thrown by an attempt is final, except a
 * `bad_response` (a 2xx body that is JSON but no usable completion), which is retried like a
 * malformed body.
 *
 * @typeParam T Result type.
 * @param attempt One try.
 * @param classify Turns a thrown error into an `AttemptFailure`.
 * @param env Sleep and clock.
 * @param policy Retry counts and delays.
 * @param signal Aborts waits and further attempts.
 * @returns The value, the attempt count and the retried attempts (status, kind, wait).
 * @throws {ModelCallError} `exhausted` after the retries, or the failure's own code, with the
 *   retried attempts in `retries`.
 */
export function withRetries<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => AttemptFailure,
  env: RetryEnv,
  policy: RetryPolicy = {},
  signal?: AbortSignal,
): Promise<RetryResult<T>> {
  return retryWithBackoff(
    async () => {
      try {
        return await attempt();
      } catch (error) {
        if (error instanceof ModelCallError && error.code !== "bad_response") {
          throw finalError(error);
        }
        throw error;
      }
    },
    (error) =>
      error instanceof ModelCallError
        ? {
          retryable: true,
          code: "bad_response",
          ...(error.status === undefined ? {} : { status: error.status }),
          message: error.message,
        }
        : classify(error),
    env,
    policy,
    signal,
    (code, message, details) => new ModelCallError(code, message, details),
  );
}
