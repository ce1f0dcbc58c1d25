/**
 * Retries with exponential backoff that honours `Retry-After`, for clients of hosted endpoints
 * below `lib/agent` in the layers (the embedding retrievers). The rules are those of
 * `lib/agent/providers/retry.ts`: 429, 408 and 5xx (and malformed 2xx bodies) are retried, the
 * wait is `Retry-After` (or `retry-after-ms`) when sent, else 500 ms doubling, capped; everything
 * else fails at once. An attempt that got no answer in time (`timeout`) is retried once at most: an
 * endpoint that accepts and never answers is noticed after two waits, not after the whole budget.
 *
 * Sleep and clock are passed in, so tests run without waiting.
 *
 * @module
 */

import { delaySecondsMs, httpDateMs } from "./numbers.ts";

/** One failed attempt that was retried: what it got and how long the client waited after it. */
export interface RetryRecord {
  /** HTTP status of the failed attempt; absent when there was none (a malformed body). */
  readonly status?: number;
  /** How it was classified (`http`, `bad_response`, ...). */
  readonly code: string;
  /** Wait before the next attempt, ms (backoff or `Retry-After`, capped). */
  readonly waitMs: number;
}

/** Builds the caller's final error from a failure code, a message and the attempt details. */
export type RetryFailureFactory = (
  code: AttemptFailure["code"] | "exhausted",
  message: string,
  details: { status?: number; attempts: number; retries: readonly RetryRecord[] },
) => Error;

const FINAL = Symbol("retry.final");

/**
 * Marks an error as final: thrown from an attempt, it is rethrown at once, never classified.
 *
 * @param error The error.
 * @returns The same error.
 */
export function finalError<E extends Error>(error: E): E {
  (error as unknown as Record<symbol, boolean>)[FINAL] = true;
  return error;
}

function isFinal(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    (error as Record<symbol, unknown>)[FINAL] === true;
}

/** Retry policy. */
export interface RetryPolicy {
  /** Retries after the first attempt; default 4. */
  readonly maxRetries?: number;
  /** First backoff, ms; doubled per retry; default 500. */
  readonly baseDelayMs?: number;
  /** Cap of one wait (backoff or `Retry-After`), ms; default 60,000. */
  readonly maxDelayMs?: number;
  /** Retries of timed-out attempts (within `maxRetries`); default 1. */
  readonly maxTimeoutRetries?: number;
}

/** Clock and sleep for retries. */
export interface RetryEnv {
  /** Waits `ms`; rejects when `signal` aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Epoch ms; used to read an HTTP-date `Retry-After`. */
  readonly now: () => number;
}

/** How a failed attempt is classified. */
export interface AttemptFailure {
  /** Retry it? */
  readonly retryable: boolean;
  /**
   * Failure code of the final error (e.g. a `ModelCallError` code); `timeout` is an attempt that
   * got no answer within its time limit.
   */
  readonly code: "unreachable" | "http" | "bad_response" | "aborted" | "timeout";
  /** HTTP status, when there was one. */
  readonly status?: number;
  /** Wait the server asked for, ms. */
  readonly retryAfterMs?: number;
  /** One-line message. */
  readonly message: string;
}

/**
 * Parses `retry-after-ms` (ms, digits with an optional fraction) or `Retry-After` (delay-seconds,
 * or an IMF-fixdate HTTP-date): the number rule of `lib/core/numbers.ts`. A value that is not a
 * valid delay (`-5`, `1e999`, `soon`, a date `Date.parse` would guess at) is ignored, as if the
 * header were absent, so the caller's own backoff applies.
 *
 * @param headers Response headers (a `Headers` or anything with `get`).
 * @param now Current epoch ms (wall clock), for HTTP dates.
 * @returns Wait in ms (≥ 0), or `undefined` when absent or not a valid delay.
 *
 * @example Usage
 * ```ts
 * import { parseRetryAfter } from "./retry.ts";
 * if (parseRetryAfter(new Headers({ "retry-after": "2" }), 0) !== 2000) throw new Error("unexpected");
 * if (parseRetryAfter(new Headers({ "retry-after": "-5" }), 0) !== undefined) throw new Error();
 * ```
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  // The same digits, read as ms: delaySecondsMs gives 1,000 times the number.
  const scaled = ms === null ? undefined : delaySecondsMs(ms);
  if (scaled !== undefined) return scaled / 1000;
  const ra = headers.get("retry-after");
  if (ra === null) return undefined;
  const seconds = delaySecondsMs(ra);
  if (seconds !== undefined) return seconds;
  const date = httpDateMs(ra);
  return date === undefined ? undefined : Math.max(0, date - now);
}

/** What {@linkcode retryWithBackoff} returns. */
export interface RetryResult<T> {
  /** What the successful attempt returned. */
  readonly value: T;
  /** Attempts made (≥ 1). */
  readonly attempts: number;
  /** The failed attempts before the successful one, with the wait after each, in order. */
  readonly retries: readonly RetryRecord[];
}

/**
 * Runs `attempt` until it succeeds, a non-retryable failure happens, or the retries run out.
 * The wait before retry r (1-based) is `Retry-After` when the server sent one, else
 * `baseDelayMs × 2^(r−1)`; either is capped at `maxDelayMs`. No jitter (determinism). A retryable
 * `timeout` past `maxTimeoutRetries` retries of timed-out attempts ends the loop, and any end on a
 * timeout has the code `timeout`.
 *
 * @typeParam T Result type.
 * @param attempt One try.
 * @param classify Turns a thrown error into an {@linkcode AttemptFailure}.
 * @param env Sleep and clock.
 * @param policy Retry counts and delays.
 * @param signal Aborts waits and further attempts.
 * @param fail Builds the final error (the caller's error class) from a code, message and details.
 * @returns The value, the attempt count and the retried attempts.
 * @throws What `fail` builds: `exhausted` after the retries, `timeout` after too many timeouts,
 *   or the failure's own code.
 */
export async function retryWithBackoff<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => AttemptFailure,
  env: RetryEnv,
  policy: RetryPolicy = {},
  signal: AbortSignal | undefined,
  fail: RetryFailureFactory,
): Promise<RetryResult<T>> {
  const maxRetries = policy.maxRetries ?? 4;
  const base = policy.baseDelayMs ?? 500;
  const cap = policy.maxDelayMs ?? 60_000;
  const maxTimeouts = (policy.maxTimeoutRetries ?? 1) + 1;
  const retries: RetryRecord[] = [];
  let timeouts = 0;
  for (let attempts = 1;; attempts++) {
    try {
      return { value: await attempt(), attempts, retries };
    } catch (error) {
      if (isFinal(error)) throw error;
      const f = classify(error);
      const details = {
        ...(f.status === undefined ? {} : { status: f.status }),
        attempts,
        retries,
      };
      if (!f.retryable) throw fail(f.code, f.message, details);
      const timedOut = f.code === "timeout" ? ++timeouts : 0;
      if (timedOut >= maxTimeouts || attempts > maxRetries) {
        const given = `gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
        throw timedOut > 0
          ? fail("timeout", `${given}, ${timedOut} timed out; last: ${f.message}`, details)
          : fail("exhausted", `${given}; last: ${f.message}`, details);
      }
      const wait = Math.min(cap, f.retryAfterMs ?? base * 2 ** (attempts - 1));
      retries.push({
        ...(f.status === undefined ? {} : { status: f.status }),
        code: f.code,
        waitMs: wait,
      });
      try {
        await env.sleep(wait, signal);
      } catch {
        throw fail("aborted", "aborted (per-case timeout) while waiting to retry", details);
      }
    }
  }
}

/**
 * A real sleep that rejects when `signal` aborts.
 *
 * @param ms Wait, ms.
 * @param signal Optional abort signal.
 * @returns Resolves after `ms`.
 */
export function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
