/**
 * Retries of model calls: 429 and 5xx (and malformed 2xx bodies) are retried with exponential
 * backoff that honours `Retry-After`; everything else fails at once.
 *
 * Sleep and clock are passed in, so tests run without waiting.
 *
 * @module
 */

import { ModelCallError, type RetryRecord } from "./types.ts";
import { oneLine } from "../../_text.ts";

/** Retry policy. */
export interface RetryPolicy {
  /** Retries after the first attempt; default 4. */
  readonly maxRetries?: number;
  /** First backoff, ms; doubled per retry; default 500. */
  readonly baseDelayMs?: number;
  /** Cap of one wait (backoff or `Retry-After`), ms; default 60,000. */
  readonly maxDelayMs?: number;
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
  /** `ModelCallError` code when it is final. */
  readonly code: "unreachable" | "http" | "bad_response" | "aborted";
  /** HTTP status, when there was one. */
  readonly status?: number;
  /** Wait the server asked for, ms. */
  readonly retryAfterMs?: number;
  /** One-line message. */
  readonly message: string;
}

/**
 * Parses `retry-after-ms` (ms) or `Retry-After` (delta seconds, or an HTTP date).
 *
 * @param headers Response headers (a `Headers` or anything with `get`).
 * @param now Current epoch ms, for HTTP dates.
 * @returns Wait in ms (≥ 0), or `undefined` when absent or unreadable.
 *
 * @example Usage
 * ```ts
 * import { parseRetryAfter } from "./retry.ts";
 * if (parseRetryAfter(new Headers({ "retry-after": "2" }), 0) !== 2000) throw new Error("unexpected");
 * ```
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms.trim());
  const ra = headers.get("retry-after");
  if (ra === null) return undefined;
  const t = ra.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const date = Date.parse(t);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

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

/** What {@linkcode withRetries} returns. */
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
 * `baseDelayMs × 2^(r−1)`; either is capped at `maxDelayMs`. No jitter (determinism).
 *
 * @typeParam T Result type.
 * @param attempt One try.
 * @param classify Turns a thrown error into an {@linkcode AttemptFailure}.
 * @param env Sleep and clock.
 * @param policy Retry counts and delays.
 * @param signal Aborts waits and further attempts.
 * @returns The value and the attempt count.
 * @throws {ModelCallError} `exhausted` after the retries, or the failure's own code.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => AttemptFailure,
  env: RetryEnv,
  policy: RetryPolicy = {},
  signal?: AbortSignal,
): Promise<RetryResult<T>> {
  const maxRetries = policy.maxRetries ?? 4;
  const base = policy.baseDelayMs ?? 500;
  const cap = policy.maxDelayMs ?? 60_000;
  const retries: RetryRecord[] = [];
  for (let attempts = 1;; attempts++) {
    try {
      return { value: await attempt(), attempts, retries };
    } catch (error) {
      // An adapter's bad_response (a 2xx body that is JSON but no usable completion) is retried
      // like a malformed body; every other ModelCallError is final.
      if (error instanceof ModelCallError && error.code !== "bad_response") throw error;
      const f: AttemptFailure = error instanceof ModelCallError
        ? {
          retryable: true,
          code: "bad_response",
          ...(error.status === undefined ? {} : { status: error.status }),
          message: error.message,
        }
        : classify(error);
      const details = {
        ...(f.status === undefined ? {} : { status: f.status }),
        attempts,
        retries,
      };
      if (!f.retryable) throw new ModelCallError(f.code, f.message, details);
      if (attempts > maxRetries) {
        throw new ModelCallError(
          "exhausted",
          `gave up after ${attempts} attempts; last: ${f.message}`,
          details,
        );
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
        throw new ModelCallError(
          "aborted",
          "aborted (per-case timeout) while waiting to retry",
          details,
        );
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
