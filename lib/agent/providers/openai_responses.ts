/**
 * OpenAI Responses API adapter through the official SDK (`openai`, `POST /v1/responses`): the
 * format of OpenAI's hosted tool search (`tool_search`, namespaces, deferred functions).
 *
 * Wire mapping: the system prompt is `instructions`; the conversation is `input` items: a user
 * message, the assistant's text as an assistant message and each tool call as a
 * `function_call` item, each tool result as a `function_call_output` (an errored result's text
 * starts with `ERROR: `, the format has no error flag). A turn the model made goes back as its
 * `output` items verbatim (the `tool_search_call` and `tool_search_output` items keep the loaded
 * tools available, a call keeps its `namespace`). Output cap is `max_output_tokens`. Usage: `input_tokens`
 * includes cached tokens, so input = `input_tokens − input_tokens_details.cached_tokens`; cache
 * read = `cached_tokens`; cache write = `input_tokens_details.cache_write_tokens` when reported.
 *
 * @module
 */

import OpenAI from "openai";
import type { JsonValue } from "../../catalog/types.ts";
import type { Message, ToolCall, ToolSearchCall } from "./types.ts";
import { ModelCallError } from "./types.ts";
import * as adapter from "./_adapter.ts";

/** One item of a Responses request's `input` (the OpenAI SDK's type). */
export type InputItem = OpenAI.Responses.ResponseInputItem;

/**
 * The Responses `input` items for a conversation.
 *
 * @param messages Neutral messages.
 * @returns Input items.
 */
export function toResponsesInput(messages: readonly Message[]): InputItem[] {
  const out: InputItem[] = [];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.text });
    else if (m.role === "assistant") {
      if (m.raw?.wire === "openai-responses" && Array.isArray(m.raw.content)) {
        out.push(...m.raw.content as unknown as InputItem[]);
        continue;
      }
      if (m.text !== "") out.push({ role: "assistant", content: m.text });
      for (const c of m.toolCalls) {
        out.push({
          type: "function_call",
          call_id: c.id,
          name: c.name,
          arguments: JSON.stringify(c.args),
        });
      }
    } else {
      for (const r of m.results) {
        out.push({
          type: "function_call_output",
          call_id: r.callId,
          output: r.isError ? `ERROR: ${r.text}` : r.text,
        });
      }
    }
  }
  return out;
}

/** The tool names a `tool_search_output` loaded (functions, and the functions of namespaces). */
function loadedNames(tools: unknown): string[] {
  const out: string[] = [];
  for (const t of (Array.isArray(tools) ? tools : []) as Record<string, unknown>[]) {
    if (t?.type === "namespace") out.push(...loadedNames(t.tools));
    else if (typeof t?.name === "string") out.push(t.name);
  }
  return out;
}

/**
 * Normalizes a `response` body.
 *
 * @param body Parsed response JSON.
 * @returns Text, tool calls, tool searches, stop reason, usage and notes.
 * @throws {ModelCallError} `bad_response` when there is no `output` array.
 */
export function parseResponsesBody(body: unknown): adapter.ParsedTurn {
  const b = body as {
    output?: unknown;
    status?: unknown;
    usage?: Record<string, unknown> | null;
  };
  if (!b || !Array.isArray(b.output)) {
    throw new ModelCallError("bad_response", "openai-responses: response has no output array", {
      attempts: 1,
    });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const searches: { id: string; input: JsonValue; tools: string[]; callId: unknown }[] = [];
  for (const item of b.output as Record<string, unknown>[]) {
    if (item?.type === "message" && Array.isArray(item.content)) {
      for (const part of item.content as Record<string, unknown>[]) {
        if (part?.type === "output_text" && typeof part.text === "string") texts.push(part.text);
      }
    }
    if (item?.type === "function_call") {
      const text = String(item.arguments ?? "");
      let args: JsonValue = {};
      let argsError: string | undefined;
      try {
        args = text.trim() === "" ? {} : JSON.parse(text);
      } catch (e) {
        argsError = `arguments are not valid JSON (${(e as Error).message})`;
      }
      toolCalls.push({
        id: String(item.call_id),
        name: String(item.name),
        args,
        ...(argsError === undefined ? {} : { argsError }),
      });
    }
    if (item?.type === "tool_search_call") {
      searches.push({
        id: String(item.call_id ?? item.id),
        input: (item.arguments ?? null) as JsonValue,
        tools: [],
        callId: item.call_id ?? null,
      });
    }
    if (item?.type === "tool_search_output") {
      // Paired by call_id; a hosted search may leave it null: then the latest search without
      // an output (items come in order).
      const id = item.call_id ?? null;
      const search = id !== null
        ? searches.find((s) => s.callId === id)
        : [...searches].reverse().find((s) => s.tools.length === 0);
      search?.tools.push(...loadedNames(item.tools));
    }
  }
  const notes: string[] = [];
  const usage = adapter.inclusiveUsage("openai-responses", b.usage ?? undefined, notes, {
    input: "input_tokens",
    output: "output_tokens",
    cached: "input_tokens_details.cached_tokens",
    written: "input_tokens_details.cache_write_tokens",
  });
  const stop = toolCalls.length > 0 ? "tool_calls" : b.status;
  const turn = adapter.parsedTurn(texts.join("\n"), toolCalls, stop, usage, notes);
  // Always replayed as received: a call of a namespaced function carries its `namespace`, and
  // reasoning items belong with the calls they led to.
  const raw = { wire: "openai-responses", content: b.output as JsonValue };
  if (searches.length === 0) return { ...turn, raw };
  return {
    ...turn,
    searches: searches.map(({ id, input, tools }): ToolSearchCall => ({ id, input, tools })),
    raw,
  };
}

/**
 * An adapter for one model behind the Responses API.
 *
 * @param model Model name sent in `model`.
 * @param options Key, base URL, fetch.
 * @returns The adapter.
 */
export const createOpenAiResponsesAdapter: adapter.ProviderEntry["createAdapter"] = adapter
  .sdkAdapter(
    (options) => new OpenAI(options),
    (sdk, model, request, options) =>
      sdk.responses.create(
        {
          model,
          instructions: request.system,
          input: toResponsesInput(request.messages),
          max_output_tokens: request.maxOutputTokens,
          ...(adapter.optionalBody(request, "openai-responses") as {
            tools?: OpenAI.Responses.Tool[];
            temperature?: number;
          }),
        },
        options,
      ),
    parseResponsesBody,
  );

/** Registry entry of the OpenAI Responses API (the format of its hosted tool search). */
export const openAiResponsesProvider: adapter.ProviderEntry = {
  name: "openai-responses",
  wire: "openai-responses",
  defaultBaseUrl: "https://api.openai.com/v1",
  schemaDialect: "openai",
  apiKeyEnv: "OPENAI_API_KEY",
  summary: "OpenAI Responses API through openai (needed by exposure openai_search)",
  createAdapter: createOpenAiResponsesAdapter,
};
