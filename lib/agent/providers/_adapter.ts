/**
 * What a provider adapter is (private to lib/agent/providers), shared by the Anthropic
 * (`anthropic.ts`) and OpenAI (`openai.ts`) adapters and used by `client.ts`: the options an
 * adapter builds its SDK client from, the adapter shape, and the parsed turn it returns.
 *
 * @module
 */

import type { SchemaDialect } from "../../catalog/normalize.ts";
import { type SentFormat, sentTools } from "../../catalog/sent.ts";
import { type ToolSearchKind, toolSearchTools } from "../../catalog/sent_search.ts";

/** The request format a tool search kind is part of. */
export function searchFormat(kind: ToolSearchKind): SentFormat {
  return kind === "openai" ? "openai-responses" : "anthropic-messages";
}
import type { JsonObject } from "../../catalog/types.ts";
import { ModelCallError, type ModelRequest, type ModelTurn } from "./types.ts";
import type { Usage } from "../types.ts";
import { COUNT, numberProblem } from "../../core/numbers.ts";

/** What an adapter needs to build an SDK client. */
export interface SdkClientOptions {
  /** API key, already expanded. */
  readonly apiKey: string;
  /** Base URL of the API; default the SDK's own. */
  readonly baseUrl?: string;
  /** `fetch` used by the SDK (wire log, tests). */
  readonly fetch?: typeof fetch;
}

/** The request body an adapter sends and the function that turns a reply into a turn. */
export interface ProviderAdapter {
  /** Sends one request (no retries: the SDK's own retries are off). */
  send(request: ModelRequest, signal?: AbortSignal): Promise<unknown>;
  /** Normalizes a reply body. @throws {ModelCallError} `bad_response` on an unusable body. */
  parse(body: unknown): ParsedTurn;
}

/** A normalized reply without timings: a {@linkcode ModelTurn} before the client times it. */
export type ParsedTurn = Omit<ModelTurn, "ms" | "attempts" | "cached">;

/**
 * Reads the token counts of one reply's `usage` object through the number rule of
 * `lib/core/numbers.ts`: a field that is absent or `null` is not reported (`null`, with a note);
 * one that is present must be a count (a whole number from 0 to 2^53 − 1). Every impossible
 * value is kept for {@linkcode UsageReader.check}, which refuses the reply naming them all.
 */
export class UsageReader {
  readonly #provider: string;
  readonly #usage: Record<string, unknown> | undefined;
  readonly #notes: string[];
  readonly #impossible: string[] = [];

  /**
   * @param provider `anthropic`, `openai` or `openai-responses`, for notes and the message.
   * @param usage The reply's `usage` object (`undefined` when it sent none).
   * @param notes Where "not reported" notes go.
   */
  constructor(provider: string, usage: Record<string, unknown> | undefined, notes: string[]) {
    this.#provider = provider;
    this.#usage = usage;
    this.#notes = notes;
  }

  /**
   * One count by its dotted path under `usage` (`prompt_tokens_details.cached_tokens`).
   *
   * @param path Dotted path.
   * @returns The count, or `null` when not reported or impossible.
   */
  count(path: string): number | null {
    let v: unknown = this.#usage;
    for (const part of path.split(".")) {
      v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
    }
    if (v === undefined || v === null) {
      this.#notes.push(`${this.#provider}: usage.${path} not reported`);
      return null;
    }
    const problem = numberProblem(v, COUNT);
    if (problem === undefined) return v as number;
    this.#impossible.push(
      `usage.${path} = ${typeof v === "number" ? String(v) : JSON.stringify(v)} (${problem})`,
    );
    return null;
  }

  /**
   * Records an impossible combination of counts (e.g. more cached tokens than prompt tokens).
   *
   * @param text What was seen, with the values.
   */
  impossible(text: string): void {
    this.#impossible.push(text);
  }

  /**
   * Refuses the reply when any count was impossible.
   *
   * @throws {ModelCallError} `bad_usage`, naming every impossible value seen.
   */
  check(): void {
    if (this.#impossible.length === 0) return;
    throw new ModelCallError(
      "bad_usage",
      `${this.#provider}: the reply's token usage is impossible: ${this.#impossible.join("; ")}`,
      { attempts: 1 },
    );
  }
}

/**
 * Reads an OpenAI-family `usage` block, whose input count includes the cached tokens: input
 * comes back net of them (as {@linkcode Usage.inputTokens} means), and more cached than input
 * tokens is impossible.
 *
 * @param provider Name used in notes and errors (`openai`).
 * @param usage The reply's `usage`, or `undefined` when it had none (noted, every count `null`).
 * @param notes Receives what the usage left out.
 * @param paths Dotted paths of the input, output, cached and (when the format has one)
 *   cache-write counts; without `written`, `cacheWriteTokens` is `null` and no note is added.
 * @returns Tokens as reported.
 * @throws {ModelCallError} `bad_usage` when a count or their combination is impossible.
 */
export function inclusiveUsage(
  provider: string,
  usage: Record<string, unknown> | undefined,
  notes: string[],
  paths: { input: string; output: string; cached: string; written?: string },
): Usage {
  if (usage === undefined) {
    notes.push(`${provider}: no usage reported`);
    return { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null };
  }
  const counts = new UsageReader(provider, usage, notes);
  const input = counts.count(paths.input);
  const output = counts.count(paths.output);
  const cached = counts.count(paths.cached);
  const written = paths.written === undefined ? null : counts.count(paths.written);
  if (input !== null && cached !== null && cached > input) {
    counts.impossible(
      `usage.${paths.cached} = ${cached} exceeds usage.${paths.input} = ${input}`,
    );
  }
  counts.check();
  return {
    inputTokens: input === null ? null : input - (cached ?? 0),
    outputTokens: output,
    cacheReadTokens: cached,
    cacheWriteTokens: written,
  };
}

/**
 * A parsed turn from its parts; a stop reason the wire did not give as a string becomes
 * `"unknown"`.
 *
 * @param text The reply's text.
 * @param toolCalls The tool calls it asked for.
 * @param stopReason The wire's stop field (`stop_reason`, `finish_reason`).
 * @param usage Tokens as reported.
 * @param notes What the usage left out.
 * @returns The turn.
 */
export function parsedTurn(
  text: string,
  toolCalls: ParsedTurn["toolCalls"],
  stopReason: unknown,
  usage: ParsedTurn["usage"],
  notes: string[],
): ParsedTurn {
  return {
    text,
    toolCalls,
    stopReason: typeof stopReason === "string" ? stopReason : "unknown",
    usage,
    notes,
  };
}

/**
 * The constructor options of either SDK client (`Anthropic`, `OpenAI`): key, base URL and
 * `fetch` when given, and the SDK's own retries off (`withRetries` in `retry.ts` retries, so
 * every attempt is counted and timed).
 *
 * @param options Key, base URL, fetch.
 * @returns `{ apiKey, baseURL?, maxRetries: 0, fetch? }`.
 */
export function sdkClientOptions(options: SdkClientOptions): {
  apiKey: string;
  baseURL?: string;
  maxRetries: number;
  fetch?: typeof fetch;
} {
  return {
    apiKey: options.apiKey,
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
    maxRetries: 0,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
}

/**
 * An adapter factory over an official SDK: per model, one SDK client built with
 * {@linkcode sdkClientOptions}; each request goes out through `send`, with the abort signal as
 * the SDK's request option when there is one, and replies are read by `parse`.
 *
 * @param client Builds the SDK client from its constructor options.
 * @param send Sends one request for `model` with the SDK (returns the SDK's promise of the body).
 * @param parse Normalizes a reply body.
 * @returns The factory a {@linkcode ProviderEntry} names as `createAdapter`.
 */
export function sdkAdapter<Sdk>(
  client: (options: ReturnType<typeof sdkClientOptions>) => Sdk,
  send: (
    sdk: Sdk,
    model: string,
    request: ModelRequest,
    options: { signal: AbortSignal } | undefined,
  ) => Promise<unknown>,
  parse: (body: unknown) => ParsedTurn,
): (model: string, options: SdkClientOptions) => ProviderAdapter {
  return (model, options) => {
    const sdk = client(sdkClientOptions(options));
    return {
      send: (request, signal) => send(sdk, model, request, signal ? { signal } : undefined),
      parse,
    };
  };
}

/**
 * The optional tail of a request body that both wire formats share: `tools`, rendered by the
 * one renderer of provider `tools` values (`sentTools`, lib/catalog/sent.ts; with a tool search,
 * `toolSearchTools` in sent_search.ts; left out when the request offers none), then
 * `temperature` (left out when the provider default applies).
 *
 * @param request The neutral request.
 * @param format The request format the tools are rendered in.
 * @returns `{ tools?, temperature? }`, to spread after the format's own fields.
 */
export function optionalBody(
  request: ModelRequest,
  format: SentFormat,
): { tools?: JsonObject[]; temperature?: number } {
  const search = request.toolSearch;
  if (search !== undefined && searchFormat(search.kind) !== format) {
    throw new RangeError(
      `Cannot send a ${search.kind} tool search in ${format}: it is a ${
        searchFormat(search.kind)
      } feature`,
    );
  }
  const tools = search === undefined
    ? sentTools(request.tools, format)
    : toolSearchTools(request.tools, search);
  return {
    ...(request.tools.length === 0 ? {} : { tools }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
}

/**
 * One registered model provider (`lib/agent/providers/registry.ts`): the `provider` value a
 * model registry entry names, the wire format it speaks and the rules tool names and schemas
 * follow for it. The model registry schema, `createModelClient`, tool exposure and the README
 * read these instead of switching on names. Adding a provider is one module exporting an entry
 * (with its test, against a local server speaking the wire format) and one line in
 * `registry.ts`.
 */
export interface ProviderEntry {
  /** The `provider` value in a model registry, e.g. `anthropic`. */
  readonly name: string;
  /** Wire format spoken, e.g. `anthropic-messages` (`POST /v1/messages`). */
  readonly wire: string;
  /** The vendor's API base URL, used when an entry sets no `baseUrl`. */
  readonly defaultBaseUrl: string;
  /** Tool-schema dialect tools are normalized to (`normalizeForProvider`). */
  readonly schemaDialect: SchemaDialect;
  /** Conventional environment variable of the API key, e.g. `ANTHROPIC_API_KEY`. */
  readonly apiKeyEnv: string;
  /** One line for `--help` and the extension-points table. */
  readonly summary: string;
  /**
   * Builds the adapter for one model.
   *
   * @param model Model name sent in requests.
   * @param options Key, base URL, fetch.
   * @returns The adapter.
   */
  createAdapter(model: string, options: SdkClientOptions): ProviderAdapter;
}
