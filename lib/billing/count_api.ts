/**
 * The providers' token-counting endpoints, as data: the request each one takes and how its
 * answer is read. Pure; `count_client.ts` sends them.
 *
 * - Anthropic `POST {ANTHROPIC_BASE_URL or https://api.anthropic.com}/v1/messages/count_tokens`,
 *   headers `x-api-key`, `anthropic-version: 2023-06-01`; body `{model, messages, tools?}`;
 *   answer `{input_tokens}`.
 * - OpenAI `POST {OPENAI_BASE_URL or https://api.openai.com/v1}/responses/input_tokens`, header
 *   `Authorization: Bearer`; body `{model, input, tools?}`; answer `{object:
 *   "response.input_tokens", input_tokens}`.
 * - Gemini `POST {GEMINI_BASE_URL or https://generativelanguage.googleapis.com}/v1beta/models/
 *   {model}:countTokens`, header `x-goog-api-key`; body `{generateContentRequest: {model:
 *   "models/{model}", contents, tools?}}`; answer `{totalTokens}`.
 *
 * The tools' share of a request is its count with the tools less its count without them (the
 * same one-word user message): it includes the fixed tool-use overhead.
 *
 * @module
 */
import { COUNT, numberProblem } from "../core/numbers.ts";
import type { JsonObject } from "../catalog/types.ts";
import type { BillingProvider } from "./estimate.ts";

/** Key and base-URL environment variables per provider (as the official SDKs read them). */
export const COUNT_ENV: Readonly<
  Record<
    BillingProvider,
    { readonly key: string; readonly baseUrl: string; readonly defaultBaseUrl: string }
  >
> = {
  anthropic: {
    key: "ANTHROPIC_API_KEY",
    baseUrl: "ANTHROPIC_BASE_URL",
    defaultBaseUrl: "https://api.anthropic.com",
  },
  openai: {
    key: "OPENAI_API_KEY",
    baseUrl: "OPENAI_BASE_URL",
    defaultBaseUrl: "https://api.openai.com/v1",
  },
  gemini: {
    key: "GEMINI_API_KEY",
    baseUrl: "GEMINI_BASE_URL",
    defaultBaseUrl: "https://generativelanguage.googleapis.com",
  },
};

/** The user message every count request carries (the same with and without tools). */
export const COUNT_PROMPT = "Hi";

/** One count request, ready to send (the key is added by the sender). */
export interface CountRequest {
  /** Full URL. */
  readonly url: string;
  /** Headers other than the key's. */
  readonly headers: Readonly<Record<string, string>>;
  /** Header that carries the key, and its prefix. */
  readonly keyHeader: { readonly name: string; readonly prefix: string };
  /** The JSON body, exactly as sent (its sha256 is the cache key). */
  readonly body: string;
}

const trim = (url: string) => url.replace(/\/+$/, "");

/**
 * The count request of a provider for a model and a `tools` value (or none).
 *
 * @param provider Provider.
 * @param model Model name.
 * @param tools The rendered `tools` value (`sentTools`), or `undefined` for the request
 *   without tools.
 * @param baseUrl Base URL (default the vendor's, see {@linkcode COUNT_ENV}).
 * @returns The request.
 *
 * @example Usage
 * ```ts
 * import { countRequest } from "./count_api.ts";
 * const r = countRequest("openai", "gpt-5", undefined, "http://127.0.0.1:9/v1");
 * if (r.url !== "http://127.0.0.1:9/v1/responses/input_tokens") throw new Error(r.url);
 * if (r.body !== '{"model":"gpt-5","input":"Hi"}') throw new Error(r.body);
 * ```
 */
export function countRequest(
  provider: BillingProvider,
  model: string,
  tools: readonly JsonObject[] | undefined,
  baseUrl: string = COUNT_ENV[provider].defaultBaseUrl,
): CountRequest {
  const withTools = tools === undefined || tools.length === 0 ? {} : { tools };
  const json = { "content-type": "application/json" };
  switch (provider) {
    case "anthropic":
      return {
        url: `${trim(baseUrl)}/v1/messages/count_tokens`,
        headers: { ...json, "anthropic-version": "2023-06-01" },
        keyHeader: { name: "x-api-key", prefix: "" },
        body: JSON.stringify({
          model,
          messages: [{ role: "user", content: COUNT_PROMPT }],
          ...withTools,
        }),
      };
    case "openai":
      return {
        url: `${trim(baseUrl)}/responses/input_tokens`,
        headers: json,
        keyHeader: { name: "authorization", prefix: "Bearer " },
        body: JSON.stringify({ model, input: COUNT_PROMPT, ...withTools }),
      };
    case "gemini":
      return {
        url: `${trim(baseUrl)}/v1beta/models/${encodeURIComponent(model)}:countTokens`,
        headers: json,
        keyHeader: { name: "x-goog-api-key", prefix: "" },
        body: JSON.stringify({
          generateContentRequest: {
            model: `models/${model}`,
            contents: [{ role: "user", parts: [{ text: COUNT_PROMPT }] }],
            ...withTools,
          },
        }),
      };
  }
}

/**
 * Reads a count answer.
 *
 * @param provider Provider.
 * @param body The parsed 2xx body.
 * @returns Input tokens.
 * @throws {TypeError} When the body has no count (a whole number from 0 to 2^53 − 1, as
 *   lib/core/numbers.ts rules); the sender retries it as a malformed answer.
 */
export function readCount(provider: BillingProvider, body: unknown): number {
  const b = body as Record<string, unknown> | null;
  const v = provider === "gemini" ? b?.totalTokens : b?.input_tokens;
  const problem = typeof v === "number" ? numberProblem(v, COUNT) : "is not a number";
  if (problem !== undefined) {
    throw new TypeError(
      `${provider} count answer has no usable ${
        provider === "gemini" ? "totalTokens" : "input_tokens"
      } (got ${typeof v === "number" ? String(v) : JSON.stringify(v)}: ${problem})`,
    );
  }
  return v as number;
}

/**
 * The tools' share of a request from its two counts, or why there is none: tools always add
 * tokens (their definitions and the tool-use prompt), so a count with them at or below the count
 * without them is an answer that cannot be, not a share of 0 or less.
 *
 * @param withTools The count of the request with the tools.
 * @param without The count of the same request without them.
 * @returns `{tokens}`, or `{reason}` naming both counts.
 *
 * @example Usage
 * ```ts
 * import { toolsShare } from "./count_api.ts";
 * const share = toolsShare(420, 9);
 * if (!("tokens" in share) || share.tokens !== 411) throw new Error("411 expected");
 * if ("tokens" in toolsShare(9, 9)) throw new Error("no share expected");
 * ```
 */
export function toolsShare(
  withTools: number,
  without: number,
): { readonly tokens: number } | { readonly reason: string } {
  if (withTools > without) return { tokens: withTools - without };
  return {
    reason: `impossible counts: ${withTools} tokens with the tools, ${without} without them ` +
      "(tools cannot add nothing or less)",
  };
}
