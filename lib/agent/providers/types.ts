/**
 * The provider-neutral conversation and turn shapes every model adapter speaks.
 *
 * @module
 */

import type { JsonValue } from "../../catalog/types.ts";
import type { SentTool } from "../../catalog/sent.ts";
import type { ToolSearchSetup } from "../../catalog/sent_search.ts";
import type { RetryRecord, Usage } from "../types.ts";

export type { RetryRecord };

/**
 * A tool as offered to the model (already named and shaped for the provider): the
 * `SentTool` the request renderer (`sentTools`, lib/catalog/sent.ts) takes.
 */
export type ToolSpec = SentTool;

/** A tool call the model asked for. */
export interface ToolCall {
  /** Provider call id (`tool_use.id` / `tool_calls[].id`). */
  readonly id: string;
  /** Tool name the model used. */
  readonly name: string;
  /** Parsed arguments; `{}` when the provider sent unparseable argument text. */
  readonly args: JsonValue;
  /** Why the argument text could not be parsed, when it could not. */
  readonly argsError?: string;
}

/** The result of one tool call, sent back to the model. */
export interface ToolResult {
  /** Id of the call this answers. */
  readonly callId: string;
  /** Tool name of that call. */
  readonly name: string;
  /** Text content of the result (MCP text parts joined by newlines). */
  readonly text: string;
  /** `true` when the tool failed (sent back as an error result). */
  readonly isError: boolean;
}

/**
 * A turn's content exactly as the provider returned it, to send back verbatim: the blocks of a
 * provider tool search (Anthropic `server_tool_use` and `tool_search_tool_result`, OpenAI
 * `tool_search_call` and `tool_search_output` items) must be replayed for the tools they loaded
 * to stay loaded.
 */
export interface RawTurn {
  /** Wire format it came from (`anthropic-messages`, `openai-responses`). */
  readonly wire: string;
  /** Anthropic: the `content` array; OpenAI Responses: the `output` items. */
  readonly content: JsonValue;
}

/** One provider tool search the model made in a turn, as the response reported it. */
export interface ToolSearchCall {
  /** Provider id of the search (`server_tool_use.id`; OpenAI `call_id` or item id). */
  readonly id: string;
  /** The search's input as the model wrote it (`{query}`, `{pattern}`, OpenAI `arguments`). */
  readonly input: JsonValue;
  /** Names of the tools it returned, in order (`[]` when it found none or failed). */
  readonly tools: readonly string[];
  /** The provider's error code when the search failed (e.g. `invalid_pattern`). */
  readonly error?: string;
}

/** One conversation message. The system prompt travels apart, in {@linkcode ModelRequest}. */
export type Message =
  | { readonly role: "user"; readonly text: string }
  | {
    readonly role: "assistant";
    readonly text: string;
    readonly toolCalls: readonly ToolCall[];
    /** The turn as received, replayed as is by the adapter of the same wire format. */
    readonly raw?: RawTurn;
  }
  | { readonly role: "tool"; readonly results: readonly ToolResult[] };

/** A request for one model turn. */
export interface ModelRequest {
  /** System prompt. */
  readonly system: string;
  /** Conversation so far, oldest first. */
  readonly messages: readonly Message[];
  /** Tools offered to the model. */
  readonly tools: readonly ToolSpec[];
  /** Output cap (tokens). */
  readonly maxOutputTokens: number;
  /** Sampling temperature; absent means the provider default. */
  readonly temperature?: number;
  /**
   * Prompt-cache breakpoints to request (providers with explicit caching, i.e. Anthropic):
   * on the system prompt, and with `toolResults` on the last tool result. Absent: none.
   */
  readonly cache?: { readonly ttl: "5m" | "1h"; readonly toolResults: boolean };
  /**
   * The provider tool search the tools are deferred behind (the `anthropic_search` and
   * `openai_search` exposures); absent: every tool is loaded.
   */
  readonly toolSearch?: ToolSearchSetup;
}

/** One model turn, normalized. */
export interface ModelTurn {
  /** Assistant text (text blocks joined), `""` when none. */
  readonly text: string;
  /** Tool calls in the order the model made them. */
  readonly toolCalls: readonly ToolCall[];
  /** Provider stop reason as sent (`end_turn`, `tool_use`, `stop`, `tool_calls`, ...). */
  readonly stopReason: string;
  /** Usage reported for this turn (fields `null` when not reported). */
  readonly usage: Usage;
  /** Notes about missing usage fields, e.g. `openai: no cache-write tokens reported`. */
  readonly notes: readonly string[];
  /** Time of the call including retries and backoff, ms (measured with the injected clock). */
  readonly ms: number;
  /** HTTP attempts made (1 without retries). */
  readonly attempts: number;
  /**
   * The failed attempts before the successful one, in order (empty without retries); their
   * waits are part of `ms`. Absent on turns built by hand (treated as none).
   */
  readonly retries?: readonly RetryRecord[];
  /** `true` when answered from the response cache (then `ms` is not a model latency). */
  readonly cached: boolean;
  /** The provider tool searches of this turn, in order; absent when there were none. */
  readonly searches?: readonly ToolSearchCall[];
  /** The turn as received, when it must be replayed verbatim (it holds search blocks). */
  readonly raw?: RawTurn;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call (the per-case timeout). */
  readonly signal?: AbortSignal;
}

/** A model endpoint behind one registry entry. */
export interface ModelClient {
  /** Registry id. */
  readonly id: string;
  /**
   * Runs one model turn, retrying 429 and 5xx.
   *
   * @throws {ModelCallError} after the retries, on other HTTP errors, on unusable responses,
   *   on an unreachable endpoint, or when aborted.
   */
  complete(request: ModelRequest, options?: CallOptions): Promise<ModelTurn>;
}

/**
 * Why a model call failed:
 * - `unreachable`: no connection (nothing listening, DNS failure);
 * - `http`: an HTTP error status that is not retried (400, 401, 403, 404, ...);
 * - `exhausted`: 429 or 5xx (or malformed bodies) until the retries ran out;
 * - `bad_response`: a 2xx answer that is not a usable message;
 * - `bad_usage`: a 2xx answer whose token usage cannot be (a count that is negative, fractional,
 *   not finite or past 2^53 − 1: the rule of `lib/core/numbers.ts`); not retried, the message
 *   gives every value seen;
 * - `aborted`: the caller's signal fired (per-case timeout);
 * - `timeout`: an attempt got no answer within the client's per-attempt limit (`attemptTimeoutMs`,
 *   set by the chat retrievers), and its one retry neither (the rule of `lib/core/retry.ts`); the
 *   SDKs' own connection timeouts are `unreachable`.
 */
export type ModelCallErrorCode =
  | "unreachable"
  | "http"
  | "exhausted"
  | "bad_response"
  | "bad_usage"
  | "aborted"
  | "timeout";

/** A model call that failed; an infrastructure error, not an agent failure. */
export class ModelCallError extends Error {
  /** See {@linkcode ModelCallErrorCode}. */
  readonly code: ModelCallErrorCode;
  /** Last HTTP status, when there was one. */
  readonly status?: number;
  /** HTTP attempts made. */
  readonly attempts: number;
  /** The attempts that were retried before the call gave up (their waits included). */
  readonly retries: readonly RetryRecord[];
  /**
   * Builds the error.
   *
   * @param code Failure kind.
   * @param message One line, secrets already redacted.
   * @param details Last `status`, `attempts` made and the `retries` before the last one.
   */
  constructor(
    code: ModelCallErrorCode,
    message: string,
    details: { status?: number; attempts: number; retries?: readonly RetryRecord[] },
  ) {
    super(message);
    this.name = "ModelCallError";
    this.code = code;
    if (details.status !== undefined) this.status = details.status;
    this.attempts = details.attempts;
    this.retries = details.retries ?? [];
  }
}
