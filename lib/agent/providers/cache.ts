/**
 * LLM response cache: a {@linkcode ModelClient} wrapper keyed on provider, model, base URL and
 * the whole request (system prompt, messages, tools, parameters). Cached turns carry
 * `cached: true`, so their times never mix with real latencies.
 *
 * @module
 */

import { Redactor } from "../../core/secrets.ts";
import { dirname, join } from "node:path";
import type { ModelConfig } from "../types.ts";
import type { ModelClient, ModelRequest, ModelTurn } from "./types.ts";
import { stableJson } from "../../core/json.ts";
import { sha256Hex } from "../../catalog/load.ts";

/**
 * `read`: answer from the cache when the key is present, else call the model and store the
 * reply; `write`: always call the model and store (refresh); `off`: no cache.
 */
export type CacheMode = "read" | "write" | "off";

/** The stored part of a turn (no timings). */
export type CachedTurn = Pick<
  ModelTurn,
  "text" | "toolCalls" | "stopReason" | "usage" | "notes" | "searches" | "raw"
>;

/** Where cached turns live. */
export interface ResponseStore {
  /** The stored turn for `key`, or `undefined`. */
  get(key: string): Promise<CachedTurn | undefined>;
  /** Stores `turn` under `key`. */
  set(key: string, turn: CachedTurn): Promise<void>;
}

/**
 * Cache key: SHA-256 of sorted-key JSON of provider, model, base URL and request.
 *
 * @param config Registry entry (its `apiKey` is not part of the key).
 * @param request The request.
 * @returns Lower-case hex.
 */
export function responseCacheKey(config: ModelConfig, request: ModelRequest): Promise<string> {
  return sha256Hex(stableJson({
    provider: config.provider,
    model: config.model,
    baseUrl: config.baseUrl ?? null,
    request,
  }, { indent: 0 }));
}

/** Options of {@linkcode withResponseCache}. */
export interface ResponseCacheOptions {
  /** Cache mode. */
  readonly mode: CacheMode;
  /** Where turns are kept. */
  readonly store: ResponseStore;
  /** ms clock for the time of a cache hit. */
  readonly now: () => number;
}

/**
 * Wraps a client with the response cache.
 *
 * @param client The real client.
 * @param config Its registry entry.
 * @param options Mode, store, clock.
 * @returns A client; hits return `cached: true`, `attempts: 0`.
 */
export function withResponseCache(
  client: ModelClient,
  config: ModelConfig,
  options: ResponseCacheOptions,
): ModelClient {
  if (options.mode === "off") return client;
  return {
    id: client.id,
    async complete(request, callOptions) {
      const started = options.now();
      const key = await responseCacheKey(config, request);
      if (options.mode === "read") {
        const hit = await options.store.get(key);
        if (hit) return { ...hit, ms: options.now() - started, attempts: 0, cached: true };
      }
      const turn = await client.complete(request, callOptions);
      const { text, toolCalls, stopReason, usage, notes, searches, raw } = turn;
      await options.store.set(key, {
        text,
        toolCalls,
        stopReason,
        usage,
        notes,
        // A tool search's turn is replayed with its search blocks, so they are kept too.
        ...(searches === undefined ? {} : { searches }),
        ...(raw === undefined ? {} : { raw }),
      });
      return turn;
    },
  };
}

/**
 * A store of one JSON file per key under `dir` (`dir/ab/abcdef….json`). Turns are written
 * through `redactor` (the run's secrets): a replayed turn that repeated a key says
 * `[REDACTED]`.
 *
 * @param dir Cache folder (created on first write).
 * @param redactor The run's secrets. @default {a redactor of nothing}
 * @returns The store.
 */
export function createFileResponseStore(
  dir: string,
  redactor: Redactor = new Redactor(),
): ResponseStore {
  const path = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      try {
        return JSON.parse(await Deno.readTextFile(path(key)));
      } catch {
        return undefined;
      }
    },
    async set(key, turn) {
      const p = path(key);
      await Deno.mkdir(dirname(p), { recursive: true });
      await Deno.writeTextFile(p, JSON.stringify(redactor.json(turn)) + "\n");
    },
  };
}
