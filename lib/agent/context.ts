/**
 * Context reduction: what an agent's `contextStrategy` does to the conversation before each
 * model request. The loop keeps the whole conversation; the model is sent the reduced view.
 *
 * - `none`: the conversation as it is;
 * - `truncate-tool-results {maxTokens}`: every tool result longer than `maxTokens` tokens plus
 *   the marker line is cut to its longest prefix of at most `maxTokens` tokens, followed by the
 *   marker line ({@linkcode tokenTruncationMarker}); a shorter result stays whole (cutting it
 *   would not shorten the context);
 * - `drop-old-tool-results {keepLast}`: the tool results of the last `keepLast` tool turns stay
 *   whole; every earlier result's text is replaced by {@linkcode DROPPED_TOOL_RESULT} (the call
 *   and its result id stay, so the provider's call/result pairing holds);
 * - `summarize {model, afterTokens}`: when the view is longer than `afterTokens` tokens, the
 *   turns before the last assistant turn and its tool results are condensed by the `model`
 *   (from the model registry, called like any agent model) and the summary is appended to the
 *   question, under {@linkcode SUMMARY_HEADER}; later requests fold newer turns into it again.
 *
 * Token counts come from the injected counter over the conversation's text: user text,
 * assistant text, each tool call's name and JSON arguments, and tool-result text. The system
 * prompt and the tool definitions are not counted (no strategy changes them). Earlier history
 * (chat) is never summarized. Pure apart from the summarizer call it is given.
 *
 * @module
 */

import type { Message, ModelClient, ToolResult } from "./providers/types.ts";
import type { ContextStrategy, Usage } from "./types.ts";

export type { ContextStrategy };

/**
 * The tokenizer the tasks count context tokens with (created by the caller through lib/tokens
 * `createTokenizer`; its name is recorded with every count).
 */
export const DEFAULT_CONTEXT_TOKENIZER = "o200k_base";

/**
 * Whether any of the agents counts tokens in the loop: a context strategy other than `none`, or
 * a search exposure (`anthropic_search`, `openai_search`: each search's expansion is counted).
 *
 * @param agents Agents.
 * @returns `true` when a tokenizer must be passed to the loop.
 */
export function needsContextTokenizer(
  agents: readonly { readonly contextStrategy?: ContextStrategy; readonly exposure?: string }[],
): boolean {
  return agents.some((a) =>
    (a.contextStrategy !== undefined && a.contextStrategy.type !== "none") ||
    a.exposure === "anthropic_search" || a.exposure === "openai_search"
  );
}

/** The placeholder that replaces an old tool result under `drop-old-tool-results`. */
export const DROPPED_TOOL_RESULT =
  "[mcpmeter: tool result dropped from the context (contextStrategy drop-old-tool-results)]";

/** The line that introduces the summary appended to the question under `summarize`. */
export const SUMMARY_HEADER =
  "[mcpmeter: summary of the earlier turns of this conversation (contextStrategy summarize)]";

/** System prompt of the summarizer model. */
export const SUMMARIZER_SYSTEM: string =
  "You condense the earlier turns of an AI agent's tool-using conversation. Keep every fact, " +
  "value, identifier, file name and error the agent may still need, and which tools it called " +
  "with which arguments. Drop repetition. Answer with the summary only.";

/** Output cap of one summarizer call, tokens. */
export const SUMMARY_MAX_OUTPUT_TOKENS = 1024;

/**
 * The marker that ends a tool result cut by `truncate-tool-results`, e.g. `[mcpmeter: tool
 * result cut to 500 of 9120 tokens (contextStrategy truncate-tool-results)]`.
 *
 * @param kept Tokens kept.
 * @param total Tokens of the whole result.
 * @returns The marker line.
 */
export function tokenTruncationMarker(kept: number, total: number): string {
  return `[mcpmeter: tool result cut to ${kept} of ${total} tokens (contextStrategy truncate-tool-results)]`;
}

/** Summarizer usage of one case, kept apart from the agent's. */
export interface SummarizerUsage {
  /** Summarizer calls made. */
  readonly calls: number;
  /** Their usage summed (a field `null` when a call did not report it). */
  readonly usage: Usage;
}

/** What a strategy did over one case. */
export interface ContextReport {
  /** The strategy type. */
  readonly strategy: ContextStrategy["type"];
  /** Model requests whose view was smaller than the whole conversation. */
  readonly requestsReduced: number;
  /**
   * Σ over model requests of (tokens of the whole conversation − tokens of the view sent),
   * counted with `tokenizer` as the module doc says (provenance `computed`).
   */
  readonly tokensSaved: number;
  /** Name of the tokenizer the counts come from, e.g. `o200k_base`. */
  readonly tokenizer: string;
  /** How `tokensSaved` was obtained. */
  readonly provenance: "computed";
}

/** A token counter with a name (lib/tokens `Tokenizer` satisfies it). */
export interface TokenCounter {
  /** Encoding name, recorded with the counts. */
  readonly name: string;
  /** Tokens in `text`. */
  count(text: string): number;
}

/** The summarizer call failed; the case ends as a `model` error. */
export class SummarizerError extends Error {
  /** The underlying error (a `ModelCallError` from the summarizer's client). */
  override readonly cause: unknown;
  /**
   * Builds the error from the summarizer's id and what its client threw.
   *
   * @param modelId Registry id of the summarizer.
   * @param cause What the client threw.
   */
  constructor(modelId: string, cause: unknown) {
    super(
      `summarizer model "${modelId}" failed: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
    );
    this.name = "SummarizerError";
    this.cause = cause;
  }
}

/** The text of a message that counts toward its tokens (see the module doc). */
export function messageText(m: Message): string {
  if (m.role === "user") return m.text;
  if (m.role === "tool") return m.results.map((r) => r.text).join("\n");
  return [m.text, ...m.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.args)}`)].join("\n");
}

/** Longest prefix of `text` with at most `max` tokens (binary search over characters). */
function tokenPrefix(text: string, max: number, count: (t: string) => number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(text.slice(0, mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}

function renderTurns(messages: readonly Message[]): string {
  return messages.map((m) => {
    if (m.role === "user") return `user: ${m.text}`;
    if (m.role === "tool") {
      return m.results.map((r) => `tool result (${r.name}${r.isError ? ", error" : ""}): ${r.text}`)
        .join("\n");
    }
    const calls = m.toolCalls.map((c) => `called ${c.name}(${JSON.stringify(c.args)})`);
    return [`assistant: ${m.text}`, ...calls].join("\n");
  }).join("\n");
}

/** Inputs of {@linkcode createContextReducer}. */
export interface ContextReducerOptions {
  /** The agent's strategy. */
  readonly strategy: ContextStrategy;
  /** Counts tokens; required unless the strategy is `none`. */
  readonly tokenizer?: TokenCounter;
  /** Client of the `summarize` strategy's model; required for `summarize`. */
  readonly summarizer?: ModelClient;
  /** Index of the current question in the conversation (messages before it are history). */
  readonly questionIndex: number;
}

/** Applies a strategy request after request, keeping its state (the running summary). */
export interface ContextReducer {
  /**
   * The view of `messages` to send now; may call the summarizer.
   *
   * @throws {SummarizerError} when the summarizer call fails.
   */
  view(messages: readonly Message[], signal?: AbortSignal): Promise<readonly Message[]>;
  /** What the strategy did so far; `null` for `none`. */
  report(): ContextReport | null;
  /** Summarizer calls and usage so far; `null` unless the strategy is `summarize`. */
  summarizerUsage(): SummarizerUsage | null;
}

const add = (a: number | null, b: number | null) => a === null || b === null ? null : a + b;

/**
 * Builds the reducer of one case.
 *
 * @param options Strategy, tokenizer, summarizer, where the question is.
 * @returns The reducer.
 * @throws {RangeError} when the strategy needs a tokenizer or summarizer that was not given.
 *
 * @example Usage
 * ```ts
 * import { createContextReducer, DROPPED_TOOL_RESULT } from "./context.ts";
 * const words = { name: "words", count: (t: string) => t.split(/\s+/).filter(Boolean).length };
 * const r = createContextReducer({
 *   strategy: { type: "drop-old-tool-results", keepLast: 1 }, tokenizer: words, questionIndex: 0,
 * });
 * const call = (id: string) => ({ role: "assistant" as const, text: "", toolCalls: [{ id, name: "t", args: {} }] });
 * const result = (id: string) => ({ role: "tool" as const,
 *   results: [{ callId: id, name: "t", text: "one two three", isError: false }] });
 * const view = await r.view([{ role: "user", text: "q" }, call("a"), result("a"), call("b"), result("b")]);
 * if (view[2].role !== "tool" || view[2].results[0].text !== DROPPED_TOOL_RESULT) throw new Error();
 * ```
 */
export function createContextReducer(options: ContextReducerOptions): ContextReducer {
  const { strategy } = options;
  if (strategy.type !== "none" && options.tokenizer === undefined) {
    throw new RangeError(`Cannot apply contextStrategy ${strategy.type}: no tokenizer given`);
  }
  if (strategy.type === "summarize" && options.summarizer === undefined) {
    throw new RangeError(
      `Cannot apply contextStrategy summarize: no model client for "${strategy.model}"`,
    );
  }
  const memo = new Map<string, number>();
  const count = (text: string) => {
    let n = memo.get(text);
    if (n === undefined) {
      n = options.tokenizer!.count(text);
      memo.set(text, n);
    }
    return n;
  };
  const tokensOf = (ms: readonly Message[]) => ms.reduce((s, m) => s + count(messageText(m)), 0);
  const cut = new Map<string, string>();
  let saved = 0;
  let reduced = 0;
  let summary: string | null = null;
  let covered = options.questionIndex + 1;
  let sCalls = 0;
  let sUsage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  const truncate = (r: ToolResult, max: number): ToolResult => {
    let text = cut.get(r.text);
    if (text === undefined) {
      // Counted whole, then as prefixes: no memo for the prefixes (each is seen once).
      const total = count(r.text);
      const marker = tokenTruncationMarker(max, total);
      // Cut only when that shortens the context: a result within max + the marker stays whole.
      text = total <= max + options.tokenizer!.count(`\n${marker}`)
        ? r.text
        : `${tokenPrefix(r.text, max, (t) => options.tokenizer!.count(t))}\n${marker}`;
      cut.set(r.text, text);
    }
    return text === r.text ? r : { ...r, text };
  };

  const withSummary = (messages: readonly Message[]): Message[] => {
    if (summary === null) return [...messages];
    const q = messages[options.questionIndex] as { role: "user"; text: string };
    return [
      ...messages.slice(0, options.questionIndex),
      { role: "user", text: `${q.text}\n\n${SUMMARY_HEADER}\n${summary}` },
      ...messages.slice(covered),
    ];
  };

  const summarize = async (messages: readonly Message[], signal?: AbortSignal) => {
    if (strategy.type !== "summarize") return;
    // Keep the last assistant turn and its tool results; fold everything between.
    const end = messages.length - 2;
    if (end <= covered) return;
    if (tokensOf(withSummary(messages)) <= strategy.afterTokens) return;
    const question = (messages[options.questionIndex] as { text: string }).text;
    const user = [
      `The agent's task: ${question}`,
      ...(summary === null ? [] : [`Summary so far:\n${summary}`]),
      `Turns to fold in:\n${renderTurns(messages.slice(covered, end))}`,
    ].join("\n\n");
    let turn;
    try {
      turn = await options.summarizer!.complete({
        system: SUMMARIZER_SYSTEM,
        messages: [{ role: "user", text: user }],
        tools: [],
        maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
        temperature: 0,
      }, signal ? { signal } : {});
    } catch (e) {
      throw new SummarizerError(strategy.model, e);
    }
    sCalls += 1;
    sUsage = {
      inputTokens: add(sUsage.inputTokens, turn.usage.inputTokens),
      outputTokens: add(sUsage.outputTokens, turn.usage.outputTokens),
      cacheReadTokens: add(sUsage.cacheReadTokens, turn.usage.cacheReadTokens),
      cacheWriteTokens: add(sUsage.cacheWriteTokens, turn.usage.cacheWriteTokens),
    };
    summary = turn.text;
    covered = end;
  };

  return {
    async view(messages, signal) {
      let out: readonly Message[];
      switch (strategy.type) {
        case "none":
          return messages;
        case "truncate-tool-results":
          out = messages.map((m) => {
            if (m.role !== "tool") return m;
            const results = m.results.map((r) => truncate(r, strategy.maxTokens));
            return results.every((r, i) => r === m.results[i]) ? m : { role: "tool", results };
          });
          break;
        case "drop-old-tool-results": {
          const toolTurns = messages.flatMap((m, i) => m.role === "tool" ? [i] : []);
          const keepFrom = toolTurns.length > strategy.keepLast
            ? toolTurns[toolTurns.length - strategy.keepLast]
            : -1;
          out = messages.map((m, i) =>
            m.role === "tool" && i < keepFrom
              ? {
                role: "tool",
                results: m.results.map((r) => ({ ...r, text: DROPPED_TOOL_RESULT })),
              }
              : m
          );
          break;
        }
        case "summarize":
          await summarize(messages, signal);
          out = withSummary(messages);
          break;
      }
      const diff = tokensOf(messages) - tokensOf(out);
      const changed = out.length !== messages.length || out.some((m, i) => m !== messages[i]);
      if (changed) reduced += 1;
      saved += diff;
      return out;
    },
    report() {
      if (strategy.type === "none") return null;
      return {
        strategy: strategy.type,
        requestsReduced: reduced,
        tokensSaved: saved,
        tokenizer: options.tokenizer!.name,
        provenance: "computed",
      };
    },
    summarizerUsage() {
      return strategy.type === "summarize" ? { calls: sCalls, usage: sUsage } : null;
    },
  };
}
