/**
 * Builds a {@linkcode ModelClient} for a registry entry: the provider adapter, retries,
 * timing with the injected clock, secret redaction and the optional wire log.
 *
 * @module
 */

import type { ModelConfig } from "../types.ts";
import { AgentConfigError, expandVars } from "../config.ts";
import type { ProviderAdapter } from "./_adapter.ts";
import { providerEntry } from "./registry.ts";
import { classifySdkError, type RetryPolicy, withRetries } from "./retry.ts";
import { createWireLogFetch, type WireEntry } from "./wire_log.ts";
import { Redactor } from "../../core/secrets.ts";
import { type CallOptions, ModelCallError, type ModelClient, type ModelRequest } from "./types.ts";

/** Collaborators of {@linkcode createModelClient}. */
export interface ModelClientDeps {
  /** Environment (with `.env` merged) for `${VAR}` in `apiKey` and `baseUrl`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Monotonic-enough ms clock for timings. */
  readonly now: () => number;
  /**
   * Wall clock, epoch ms: an HTTP-date `Retry-After` is a time of day, so it is read against
   * this, never against `now` (a monotonic clock made any date a wait of years). Default
   * `Date.now`.
   */
  readonly epochNow?: () => number;
  /** Sleep used between retries. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Retry counts and delays; defaults of {@linkcode withRetries}. */
  readonly retry?: RetryPolicy;
  /**
   * The run's secrets (lib/agent `runRedactor`): the wire log and error messages are written
   * through it; this client's API key is added to it. Default: a redactor of the key alone.
   */
  readonly redactor?: Redactor;
  /** Receives redacted wire-log entries when set. */
  readonly wireLog?: (entry: WireEntry) => void | Promise<void>;
  /** Shared wire-log sequence counter. */
  readonly wireCounter?: { value: number };
  /** `fetch` for the SDK; default the global one. */
  readonly fetch?: typeof fetch;
  /** Registry file name for messages; default `models`. */
  readonly source?: string;
  /**
   * Per-attempt timeout, ms: an attempt with no answer by then is a `timeout`, retried once by
   * the rule of `lib/core/retry.ts`. Default: none of ours (the SDK's own, an `unreachable`).
   */
  readonly attemptTimeoutMs?: number;
}

/**
 * Creates a model client for one registry entry.
 *
 * @param config Registry entry.
 * @param deps Environment, clock, sleep, retry policy, wire log.
 * @returns A client whose `complete` retries, times and redacts.
 * @throws {AgentConfigError} when a variable of `apiKey`, `baseUrl` or `model` is not set, or the
 *   entry is an embedding model (`kind: "embedding"`).
 */
export function createModelClient(config: ModelConfig, deps: ModelClientDeps): ModelClient {
  const source = deps.source ?? "models";
  if (config.kind === "embedding") {
    throw new AgentConfigError(
      "model registry",
      source,
      `${config.id}.kind`,
      "is an embedding model; an agent or judge needs a chat model",
    );
  }
  const apiKey = expandVars(config.apiKey, deps.env, {
    file: source,
    field: `${config.id}.apiKey`,
  });
  const baseUrl = config.baseUrl === undefined
    ? undefined
    : expandVars(config.baseUrl, deps.env, { file: source, field: `${config.id}.baseUrl` });
  const modelName = expandVars(config.model, deps.env, {
    file: source,
    field: `${config.id}.model`,
  });
  const epochNow = deps.epochNow ?? Date.now;
  const redactor = (deps.redactor ?? new Redactor()).add([apiKey]);
  const fetchFn = deps.wireLog
    ? createWireLogFetch({
      model: config.id,
      redactor,
      sink: deps.wireLog,
      now: deps.now,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.wireCounter ? { counter: deps.wireCounter } : {}),
    })
    : deps.fetch;
  const opts = { apiKey, ...(baseUrl ? { baseUrl } : {}), ...(fetchFn ? { fetch: fetchFn } : {}) };
  const adapter: ProviderAdapter = providerEntry(config.provider).createAdapter(modelName, opts);
  return {
    id: config.id,
    async complete(request: ModelRequest, options: CallOptions = {}) {
      const started = deps.now();
      try {
        const limit = deps.attemptTimeoutMs;
        const { value, attempts, retries } = await withRetries(
          async () => {
            if (limit === undefined) {
              return adapter.parse(await adapter.send(request, options.signal));
            }
            const timer = AbortSignal.timeout(limit);
            const signal = options.signal ? AbortSignal.any([options.signal, timer]) : timer;
            try {
              return adapter.parse(await adapter.send(request, signal));
            } catch (e) {
              if (timer.aborted && !options.signal?.aborted) throw new AttemptTimeout(limit);
              throw e;
            }
          },
          (e) =>
            e instanceof AttemptTimeout
              ? { retryable: true, code: "timeout", message: e.message }
              : classifySdkError(e, epochNow(), options.signal),
          { sleep: deps.sleep, now: epochNow },
          deps.retry,
          options.signal,
        );
        return { ...value, ms: deps.now() - started, attempts, retries, cached: false };
      } catch (e) {
        if (e instanceof ModelCallError) {
          throw new ModelCallError(
            e.code,
            `model "${config.id}": ${redactor.text(e.message)}`,
            {
              ...(e.status === undefined ? {} : { status: e.status }),
              attempts: e.attempts,
              retries: e.retries,
            },
          );
        }
        throw e;
      }
    },
  };
}

/** An attempt that got no answer within {@linkcode ModelClientDeps.attemptTimeoutMs}. */
class AttemptTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}
