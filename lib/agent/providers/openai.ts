/**
 * OpenAI Chat Completions adapter through the official SDK (`openai`); works with any
 * OpenAI-compatible base URL (OpenAI, Ollama, vLLM, LM Studio, the llama.cpp server).
 *
 * Wire mapping: the system prompt is the first `system` message; tool calls are
 * `tool_calls[].function` with JSON-text `arguments`; each tool result is a `tool` message
 * (`tool_call_id`); an errored result's text starts with `ERROR: ` (the format has no error
 * flag). Usage: `prompt_tokens` includes cached tokens, so input = `prompt_tokens −
 * prompt_tokens_details.cached_tokens`; cache read = `cached_tokens`; cache write is not part
 * of the format and is always `null` with a note. Output cap is sent as `max_tokens`, which
 * OpenAI-compatible local servers understand.
 *
 * @module
 */

import OpenAI from "openai";
import type { JsonValue } from "../../catalog/types.ts";
import type { Message, ToolCall } from "./types.ts";
import { ModelCallError } from "./types.ts";
import * as adapter from "./_adapter.ts";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * The Chat Completions `messages` array for a system prompt and a conversation.
 *
 * @param system System prompt.
 * @param messages Neutral messages.
 * @returns OpenAI message params.
 */
export function toOpenAiMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: system }];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.text });
    else if (m.role === "assistant") {
      out.push({
        role: "assistant",
        content: m.text === "" ? null : m.text,
        ...(m.toolCalls.length === 0 ? {} : {
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: "function" as const,
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
        }),
      });
    } else {
      for (const r of m.results) {
        out.push({
          role: "tool",
          tool_call_id: r.callId,
          content: r.isError ? `ERROR: ${r.text}` : r.text,
        });
      }
    }
  }
  return out;
}

/**
 * Normalizes a `chat.completion` body.
 *
 * @param body Parsed response JSON.
 * @returns Text, tool calls, stop reason, usage and notes.
 * @throws {ModelCallError} `bad_response` when there is no `choices[0].message`; `bad_usage`
 *   when a usage count is impossible (`adapter.UsageReader`).
 */
export function parseOpenAiCompletion(body: unknown): adapter.ParsedTurn {
  const b = body as {
    choices?: { message?: Record<string, unknown>; finish_reason?: unknown }[];
    usage?: Record<string, unknown> | null;
  };
  const choice = Array.isArray(b?.choices) ? b.choices[0] : undefined;
  if (!choice?.message) {
    throw new ModelCallError("bad_response", "openai: response has no choices[0].message", {
      attempts: 1,
    });
  }
  const msg = choice.message;
  const toolCalls: ToolCall[] = [];
  type WireCall = { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  for (const tc of (Array.isArray(msg.tool_calls) ? msg.tool_calls : []) as WireCall[]) {
    const text = String(tc?.function?.arguments ?? "");
    let args: JsonValue = {};
    let argsError: string | undefined;
    try {
      args = text.trim() === "" ? {} : JSON.parse(text);
    } catch (e) {
      argsError = `arguments are not valid JSON (${(e as Error).message})`;
    }
    toolCalls.push({
      id: String(tc?.id),
      name: String(tc?.function?.name),
      args,
      ...(argsError === undefined ? {} : { argsError }),
    });
  }
  const notes: string[] = [];
  const usage = adapter.inclusiveUsage("openai", b.usage ?? undefined, notes, {
    input: "prompt_tokens",
    output: "completion_tokens",
    cached: "prompt_tokens_details.cached_tokens",
  });
  notes.push("openai: cache-write tokens are not part of the format");
  const text = typeof msg.content === "string" ? msg.content : "";
  return adapter.parsedTurn(text, toolCalls, choice.finish_reason, usage, notes);
}

/**
 * An adapter for one OpenAI-compatible model.
 *
 * @param model Model name sent in `model`.
 * @param options Key, base URL, fetch.
 * @returns The adapter.
 */
export const createOpenAiAdapter: adapter.ProviderEntry["createAdapter"] = adapter.sdkAdapter(
  (options) => new OpenAI(options),
  (sdk, model, request, options) =>
    sdk.chat.completions.create(
      {
        model,
        messages: toOpenAiMessages(request.system, request.messages),
        max_tokens: request.maxOutputTokens,
        ...(adapter.optionalBody(request, "openai-chat-completions") as {
          tools?: OpenAI.Chat.Completions.ChatCompletionTool[];
          temperature?: number;
        }),
      },
      options,
    ),
  parseOpenAiCompletion,
);

/** Registry entry of OpenAI Chat Completions, also any compatible base URL (Ollama, vLLM, ...). */
export const openAiProvider: adapter.ProviderEntry = {
  name: "openai",
  wire: "openai-chat-completions",
  defaultBaseUrl: "https://api.openai.com/v1",
  schemaDialect: "openai",
  apiKeyEnv: "OPENAI_API_KEY",
  summary: "OpenAI Chat Completions through openai, or any compatible base URL (Ollama, vLLM)",
  createAdapter: createOpenAiAdapter,
};
