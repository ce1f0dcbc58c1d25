/**
 * Anthropic Messages API adapter through the official SDK (`@anthropic-ai/sdk`).
 *
 * Wire mapping: the system prompt goes in `system`; assistant tool calls are `tool_use` blocks;
 * tool results go back in a user message of `tool_result` blocks (with `is_error`). Usage:
 * `input_tokens` (uncached input), `output_tokens`, `cache_read_input_tokens`,
 * `cache_creation_input_tokens`; a missing or `null` field stays `null` with a note.
 *
 * @module
 */

import Anthropic from "@anthropic-ai/sdk";
import type { JsonValue } from "../../catalog/types.ts";
import type { Usage } from "../types.ts";
import type { Message, ToolCall } from "./types.ts";
import { ModelCallError } from "./types.ts";
import * as adapter from "./_adapter.ts";

/**
 * The Anthropic `messages` array for a conversation.
 *
 * @param messages Neutral messages.
 * @returns Anthropic message params.
 */
export function toAnthropicMessages(messages: readonly Message[]): Anthropic.MessageParam[] {
  return messages.map((m): Anthropic.MessageParam => {
    if (m.role === "user") return { role: "user", content: m.text };
    if (m.role === "assistant") {
      // A turn with tool-search blocks goes back as received: its references keep the tools
      // they loaded in context.
      if (m.raw?.wire === "anthropic-messages" && Array.isArray(m.raw.content)) {
        return { role: "assistant", content: m.raw.content as Anthropic.ContentBlockParam[] };
      }
      const content: Anthropic.ContentBlockParam[] = [];
      if (m.text !== "") content.push({ type: "text", text: m.text });
      for (const c of m.toolCalls) {
        content.push({ type: "tool_use", id: c.id, name: c.name, input: c.args as object });
      }
      return { role: "assistant", content };
    }
    return {
      role: "user",
      content: m.results.map((r) => ({
        type: "tool_result" as const,
        tool_use_id: r.callId,
        content: r.text,
        ...(r.isError ? { is_error: true } : {}),
      })),
    };
  });
}

/** Puts `control` on the last `tool_result` block of the last message that has one. */
function markLastToolResult(
  messages: Anthropic.MessageParam[],
  control: Anthropic.CacheControlEphemeral,
): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i].content;
    if (!Array.isArray(content)) continue;
    for (let j = content.length - 1; j >= 0; j--) {
      const block = content[j];
      if (block.type === "tool_result") {
        content[j] = { ...block, cache_control: control };
        return;
      }
    }
  }
}

/**
 * Normalizes an Anthropic `Message` body.
 *
 * @param body Parsed response JSON.
 * @returns Text, tool calls, stop reason, usage and notes.
 * @throws {ModelCallError} `bad_response` when `content` is not an array; `bad_usage` when a
 *   usage count is impossible (`adapter.UsageReader`).
 */
export function parseAnthropicMessage(body: unknown): adapter.ParsedTurn {
  const b = body as { content?: unknown; stop_reason?: unknown; usage?: Record<string, unknown> };
  if (!b || !Array.isArray(b.content)) {
    throw new ModelCallError("bad_response", "anthropic: response has no content array", {
      attempts: 1,
    });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const searches = new Map<string, { input: JsonValue; tools: string[]; error?: string }>();
  for (const block of b.content as Record<string, unknown>[]) {
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
    if (block?.type === "tool_use") {
      toolCalls.push({
        id: String(block.id),
        name: String(block.name),
        args: (block.input ?? {}) as JsonValue,
      });
    }
    if (block?.type === "server_tool_use" && String(block.name).startsWith("tool_search_tool_")) {
      searches.set(String(block.id), { input: (block.input ?? {}) as JsonValue, tools: [] });
    }
    if (block?.type === "tool_search_tool_result") {
      const id = String(block.tool_use_id);
      const found = searches.get(id) ?? { input: null, tools: [] };
      const c = block.content as Record<string, unknown> | undefined;
      if (c?.type === "tool_search_tool_search_result" && Array.isArray(c.tool_references)) {
        for (const r of c.tool_references as Record<string, unknown>[]) {
          if (typeof r?.tool_name === "string") found.tools.push(r.tool_name);
        }
      } else {
        found.error = typeof c?.error_code === "string" ? c.error_code : "unknown";
      }
      searches.set(id, found);
    }
  }
  const notes: string[] = [];
  const counts = new adapter.UsageReader("anthropic", b.usage, notes);
  const usage: Usage = {
    inputTokens: counts.count("input_tokens"),
    outputTokens: counts.count("output_tokens"),
    cacheReadTokens: counts.count("cache_read_input_tokens"),
    cacheWriteTokens: counts.count("cache_creation_input_tokens"),
  };
  counts.check();
  const turn = adapter.parsedTurn(texts.join("\n"), toolCalls, b.stop_reason, usage, notes);
  if (searches.size === 0) return turn;
  return {
    ...turn,
    searches: [...searches].map(([id, s]) => ({ id, ...s })),
    raw: { wire: "anthropic-messages", content: b.content as JsonValue },
  };
}

/**
 * An adapter for one Anthropic model.
 *
 * @param model Model name sent in `model`.
 * @param options Key, base URL, fetch.
 * @returns The adapter.
 */
export const createAnthropicAdapter: adapter.ProviderEntry["createAdapter"] = adapter.sdkAdapter(
  (options) => new Anthropic(options),
  (sdk, model, request, options) => {
    const cache = request.cache;
    const control = cache === undefined
      ? undefined
      : cache.ttl === "1h"
      ? { type: "ephemeral" as const, ttl: "1h" as const }
      : { type: "ephemeral" as const };
    const messages = toAnthropicMessages(request.messages);
    if (control !== undefined && cache?.toolResults) markLastToolResult(messages, control);
    return sdk.messages.create(
      {
        model,
        max_tokens: request.maxOutputTokens,
        // A breakpoint on the system block caches the tools (rendered before it) and the prompt.
        system: control === undefined
          ? request.system
          : [{ type: "text", text: request.system, cache_control: control }],
        messages,
        ...(adapter.optionalBody(request, "anthropic-messages") as {
          tools?: Anthropic.ToolUnion[];
          temperature?: number;
        }),
      },
      options,
    );
  },
  parseAnthropicMessage,
);

/** Registry entry of the Anthropic Messages API. */
export const anthropicProvider: adapter.ProviderEntry = {
  name: "anthropic",
  wire: "anthropic-messages",
  defaultBaseUrl: "https://api.anthropic.com",
  schemaDialect: "anthropic",
  apiKeyEnv: "ANTHROPIC_API_KEY",
  summary: "Anthropic Messages API through @anthropic-ai/sdk",
  createAdapter: createAnthropicAdapter,
};
