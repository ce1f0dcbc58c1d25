/**
 * The agent loop, one code path for benchmarks and chat: ask the model, run the tool calls it
 * makes over the {@linkcode ToolHost}, send the results back in call order, and stop at a
 * final answer or at `maxIterations`.
 *
 * Model, tools and clock are passed in; nothing here touches the network or files itself.
 *
 * @module
 */

import type { JsonValue } from "../catalog/types.ts";
import type {
  AgentConfig,
  CaseError,
  ToolCallRecord,
  ToolRetryCounts,
  ToolSearchCase,
  ToolSearchRecord,
  Usage,
} from "./types.ts";
import { sentTools } from "../catalog/sent.ts";
import { searchFormat } from "./providers/_adapter.ts";
import type { Message, ModelClient, RetryRecord, ToolCall, ToolResult } from "./providers/types.ts";
import { ModelCallError } from "./providers/types.ts";
import { type ExposedTool, PROXY_SERVER_NAME, type ToolHost } from "./tools.ts";
import { addUsage, contextTokens, ZERO_USAGE } from "./usage.ts";
import {
  type ContextReport,
  createContextReducer,
  SummarizerError,
  type SummarizerUsage,
  type TokenCounter,
} from "./context.ts";

/** Inputs of {@linkcode runAgentLoop}. */
export interface LoopOptions {
  /** Prompt, loop kind, iteration cap, sampling parameters. */
  readonly agent: Pick<
    AgentConfig,
    | "systemPrompt"
    | "loop"
    | "maxIterations"
    | "temperature"
    | "maxOutputTokens"
    | "toolResultMaxChars"
    | "promptCaching"
    | "retryOnToolError"
    | "contextStrategy"
  >;
  /** The new user message. */
  readonly question: string;
  /** Earlier messages (chat); empty or absent for a fresh benchmark case. */
  readonly history?: readonly Message[];
  /** Model client (real SDK adapter, possibly cached). */
  readonly model: ModelClient;
  /** Tools of the agent's servers under its exposure mode. */
  readonly tools: ToolHost;
  /** ms clock (e.g. `performance.now`). */
  readonly now: () => number;
  /** Aborts model and tool calls (the per-case timeout). */
  readonly signal?: AbortSignal;
  /**
   * Counts context tokens for the agent's `contextStrategy` (required unless it is `none`) and
   * each tool search's expansion (without it, `expansionTokens` are `null`).
   */
  readonly tokenizer?: TokenCounter;
  /** Client of the `summarize` strategy's model; required for `summarize`. */
  readonly summarizer?: ModelClient;
}

/** What the loop did. */
export interface LoopResult {
  /** Final assistant text; `null` when the loop ended without one. */
  readonly finalAnswer: string | null;
  /** Model turns made. */
  readonly iterations: number;
  /** Summed usage (a field is `null` when any turn did not report it). */
  readonly usage: Usage;
  /** Largest single-turn context (input + cache read + cache write), tokens. */
  readonly peakContextTokens: number | null;
  /**
   * Input of the first model request as the provider billed it (input + cache read + cache
   * write), tokens; `null` when it did not report it or no request was answered.
   */
  readonly firstTurnInputTokens: number | null;
  /** Whole loop, ms. */
  readonly wallMs: number;
  /** Sum of model call times, ms, without the waits between retries (see `retryWaitMs`). */
  readonly llmMs: number;
  /** Waits between retried model attempts, summed, ms (backoff or `Retry-After`). */
  readonly retryWaitMs: number;
  /** Every retried model attempt of the case, in order: status, kind and wait. */
  readonly retries: readonly RetryRecord[];
  /** Sum of tool call times, ms. */
  readonly toolMs: number;
  /** Tool calls in the order the model made them. */
  readonly toolCalls: readonly ToolCallRecord[];
  /** Retries after tool errors: run, succeeded, refused (see `AgentConfig.retryOnToolError`). */
  readonly toolRetries: ToolRetryCounts;
  /** The provider tool searches, when the host defers its tools behind one; `null` otherwise. */
  readonly toolSearch: ToolSearchCase | null;
  /** What the agent's `contextStrategy` saved; `null` without one (or with `none`). */
  readonly context: ContextReport | null;
  /** Summarizer calls and usage (apart from `usage`); `null` unless the strategy is `summarize`. */
  readonly summarizer: SummarizerUsage | null;
  /** Model calls answered from the response cache. */
  readonly cachedModelCalls: number;
  /** Usage notes from the provider, sorted and unique. */
  readonly usageNotes: readonly string[];
  /** `iteration_limit`, `model` or `timeout`; `null` on a final answer. */
  readonly error: CaseError | null;
  /** The conversation after this exchange (history + question + turns), for chat. */
  readonly messages: readonly Message[];
}

/**
 * The marker that ends a cut tool result, e.g. `[mcpmeter: tool result cut to 4000 of 91234
 * characters (toolResultMaxChars)]`.
 *
 * @param kept Characters kept.
 * @param total Characters the tool returned.
 * @returns The marker line.
 */
export function truncationMarker(kept: number, total: number): string {
  return `[mcpmeter: tool result cut to ${kept} of ${total} characters (toolResultMaxChars)]`;
}

/**
 * The line appended to an error result when the agent sets `retryOnToolError`: how many retries
 * of the tool are left, or that none are and a further call will not be run.
 *
 * @param name Tool name as the model called it.
 * @param left Retries left in this chain (≥ 0).
 * @param limit The agent's `retryOnToolError`.
 * @returns The note line.
 */
export function retryNote(name: string, left: number, limit: number): string {
  return left > 0
    ? `[mcpmeter: the call failed; you may retry "${name}" ${left} more time(s) (retryOnToolError: ${limit})]`
    : `[mcpmeter: the call failed and no retries of "${name}" are left (retryOnToolError: ${limit}); a further call of it will not be run]`;
}

/**
 * The error result a call gets when its chain has used its retries: the call is not run.
 *
 * @param name Tool name as the model called it.
 * @param limit The agent's `retryOnToolError`.
 * @returns The result text.
 */
export function retryRefusal(name: string, limit: number): string {
  return `[mcpmeter: not run: "${name}" failed ${
    limit + 1
  } time(s) in a row and retryOnToolError is ${limit}]`;
}

/**
 * What a call is a call *of*, for retries: the exposed name, except for the proxy's `call_tool`,
 * where it is the upstream `server:tool` it names (a failed `call_tool` of one tool followed by
 * one of another is no retry). Returns the chain key and the name the notes use.
 */
function retryTarget(
  call: ToolCall,
  byName: ReadonlyMap<string, ExposedTool>,
): { key: string; label: string } {
  const exposed = byName.get(call.name);
  const args = call.args as { name?: unknown } | null;
  if (
    exposed?.server === PROXY_SERVER_NAME && exposed.tool === "call_tool" &&
    typeof args?.name === "string"
  ) {
    return { key: `${call.name}\u0000${args.name}`, label: args.name };
  }
  return { key: call.name, label: call.name };
}

/** How the loop treats one call of a turn, decided before any call of the turn runs. */
type CallPlan = { kind: "first" } | { kind: "retry"; n: number } | { kind: "refused" };

/**
 * Plans a turn's calls against the open error chains (retry key → retries used), in call
 * order. A call of a tool whose chain was open when the turn began is a retry; beyond `limit`
 * retries it is refused. Updates `chains` for the retries it plans.
 */
function planCalls(
  keys: readonly string[],
  chains: Map<string, number>,
  limit: number | undefined,
): CallPlan[] {
  const open = new Set(chains.keys());
  return keys.map((key): CallPlan => {
    if (!open.has(key)) return { kind: "first" };
    const used = chains.get(key) ?? 0;
    if (limit !== undefined && used >= limit) return { kind: "refused" };
    chains.set(key, used + 1);
    return { kind: "retry", n: used + 1 };
  });
}

async function runCall(
  call: ToolCall,
  byName: ReadonlyMap<string, ExposedTool>,
  host: ToolHost,
  now: () => number,
  signal: AbortSignal | undefined,
  cap: number | undefined,
): Promise<{ result: ToolResult; record: ToolCallRecord; routed: readonly ToolCallRecord[] }> {
  const exposed = byName.get(call.name);
  const started = now();
  let text: string;
  let isError: boolean;
  let routed: readonly ToolCallRecord[] = [];
  let limit: ToolCallRecord["limit"];
  let resultError: ToolCallRecord["resultError"];
  if (exposed === undefined) {
    text = `unknown tool "${call.name}"`;
    isError = true;
  } else if (call.argsError !== undefined) {
    text = `invalid arguments: ${call.argsError}`;
    isError = true;
  } else {
    const out = await host.call(exposed, call.args, signal);
    text = out.text;
    isError = out.isError;
    limit = out.limit;
    resultError = out.resultError;
    routed = (out.calls ?? []).map((c) => ({
      name: c.tool,
      tool: c.tool,
      args: c.args,
      ms: c.ms,
      isError: c.isError,
      via: call.name,
    }));
  }
  const ms = now() - started;
  let truncated: ToolCallRecord["truncated"];
  if (cap !== undefined && text.length > cap) {
    truncated = { keptChars: cap, totalChars: text.length };
    text = `${text.slice(0, cap)}\n${truncationMarker(cap, text.length)}`;
  }
  return {
    result: { callId: call.id, name: call.name, text, isError },
    record: {
      name: call.name,
      tool: exposed ? `${exposed.server}:${exposed.tool}` : null,
      args: call.args as JsonValue,
      ms,
      isError,
      ...(limit === undefined ? {} : { limit }),
      ...(resultError === undefined ? {} : { resultError }),
      ...(truncated === undefined ? {} : { truncated }),
    },
    routed,
  };
}

function refusedCall(
  call: ToolCall,
  label: string,
  byName: ReadonlyMap<string, ExposedTool>,
  limit: number,
): { result: ToolResult; record: ToolCallRecord; routed: readonly ToolCallRecord[] } {
  const exposed = byName.get(call.name);
  return {
    result: {
      callId: call.id,
      name: call.name,
      text: retryRefusal(label, limit),
      isError: true,
    },
    record: {
      name: call.name,
      tool: exposed ? `${exposed.server}:${exposed.tool}` : null,
      args: call.args as JsonValue,
      ms: 0,
      isError: true,
      notRun: "retry_limit",
    },
    routed: [],
  };
}

/**
 * Runs one question through the loop.
 *
 * Each iteration is one model turn. A turn without tool calls ends the loop with its text as
 * the final answer. Otherwise its calls run (one at a time for `sequential`, all at once for
 * `parallel`), and their results go back in call order. Upstream calls a proxy or code host
 * made on behalf of a call are recorded right after it with `via` set (see
 * {@linkcode ToolCallRecord}). An unknown tool, unparseable
 * arguments, an `isError` result or a failed call goes back to the model as an error result
 * and is counted (`isError` in the record). A later call of a tool whose last call errored is a
 * retry, counted in `toolRetries` and, with the agent's `retryOnToolError`, limited (see
 * {@linkcode AgentConfig.retryOnToolError}). After `maxIterations` turns with tool calls the
 * loop stops with an `iteration_limit` error.
 *
 * Before each model request the agent's `contextStrategy` reduces what is sent (see
 * context.ts); `messages` in the result stay whole.
 *
 * A model failure (the summarizer's included) ends the loop with a `model` error (or `timeout` when the signal fired);
 * usage and times up to that point are kept.
 *
 * @param options Agent settings, question, model, tools, clock, signal.
 * @returns The outcome; never throws for model or tool failures.
 *
 * @example Usage
 * ```ts
 * import { runAgentLoop } from "./loop.ts";
 * const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
 * const r = await runAgentLoop({
 *   agent: { systemPrompt: "s", loop: "sequential", maxIterations: 3, maxOutputTokens: 64 },
 *   question: "2+2?",
 *   model: { id: "m", complete: () => Promise.resolve({ text: "4", toolCalls: [],
 *     stopReason: "end_turn", usage, notes: [], ms: 5, attempts: 1, cached: false }) },
 *   tools: { tools: [], call: () => Promise.reject(new Error("no tools")) },
 *   now: () => 0,
 * });
 * if (r.finalAnswer !== "4" || r.iterations !== 1 || r.llmMs !== 5) throw new Error();
 * ```
 */
export async function runAgentLoop(options: LoopOptions): Promise<LoopResult> {
  const { agent, model, tools: host, now, signal } = options;
  const started = now();
  const messages: Message[] = [...(options.history ?? []), {
    role: "user",
    text: options.question,
  }];
  const specs = host.tools.map((t) => t.spec);
  const cap = agent.toolResultMaxChars;
  const byName = new Map(host.tools.map((t) => [t.spec.name, t]));
  const retryLimit = agent.retryOnToolError;
  // Open error chains: retry key (retryTarget) → retries used since its last error.
  const chains = new Map<string, number>();
  const retryCounts = { attempted: 0, succeeded: 0, refused: 0 };
  const reducer = createContextReducer({
    strategy: agent.contextStrategy ?? { type: "none" },
    ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
    ...(options.summarizer ? { summarizer: options.summarizer } : {}),
    questionIndex: messages.length - 1,
  });
  let usage: Usage = ZERO_USAGE;
  let peak: number | null = 0;
  let firstInput: number | null | undefined;
  let llmMs = 0;
  let retryWaitMs = 0;
  const retries: RetryRecord[] = [];
  const addRetries = (list: readonly RetryRecord[] | undefined) => {
    for (const r of list ?? []) {
      retries.push(r);
      retryWaitMs += r.waitMs;
    }
  };
  let toolMs = 0;
  let cached = 0;
  let iterations = 0;
  const notes = new Set<string>();
  const toolCalls: ToolCallRecord[] = [];
  const search = host.toolSearch;
  const searches: ToolSearchRecord[] = [];
  // What a search adds to the context: the sent definitions of the tools it returned.
  const expansion = (names: readonly string[]): number | null => {
    const specs = names.flatMap((n) => byName.get(n)?.spec ?? []);
    if (specs.length === 0) return 0;
    if (options.tokenizer === undefined || search === undefined) return null;
    return options.tokenizer.count(JSON.stringify(sentTools(specs, searchFormat(search.kind))));
  };
  const searchCase = (): ToolSearchCase | null => {
    if (search === undefined) return null;
    const counts = searches.map((s) => s.expansionTokens);
    return {
      searches: [...searches],
      expansionTokens: counts.includes(null)
        ? null
        : (counts as number[]).reduce((a, b) => a + b, 0),
      tokenizer: options.tokenizer?.name ?? null,
      provenance: "computed",
    };
  };
  const finish = (finalAnswer: string | null, error: CaseError | null): LoopResult => ({
    finalAnswer,
    iterations,
    usage,
    peakContextTokens: peak,
    firstTurnInputTokens: firstInput ?? null,
    wallMs: now() - started,
    llmMs,
    retryWaitMs,
    retries,
    toolMs,
    toolCalls,
    toolRetries: { ...retryCounts },
    toolSearch: searchCase(),
    context: reducer.report(),
    summarizer: reducer.summarizerUsage(),
    cachedModelCalls: cached,
    usageNotes: [...notes].sort(),
    error,
    messages,
  });
  while (iterations < agent.maxIterations) {
    iterations += 1;
    let turn;
    try {
      const sent = await reducer.view(messages, signal);
      turn = await model.complete({
        system: agent.systemPrompt,
        messages: sent,
        tools: specs,
        maxOutputTokens: agent.maxOutputTokens,
        ...(agent.temperature === undefined ? {} : { temperature: agent.temperature }),
        ...(search === undefined ? {} : { toolSearch: search }),
        ...(agent.promptCaching?.enabled
          ? {
            cache: {
              ttl: agent.promptCaching.ttl ?? "5m",
              toolResults: agent.promptCaching.toolResults ?? false,
            },
          }
          : {}),
      }, signal ? { signal } : {});
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // A failed summarizer call ends the case like a failed agent call (its retries are not
      // the agent model's, so they stay out of `retries`).
      const cause = e instanceof SummarizerError ? e.cause : e;
      if (e instanceof ModelCallError) addRetries(e.retries);
      const aborted = signal?.aborted ||
        (cause instanceof ModelCallError && cause.code === "aborted");
      return finish(null, {
        kind: aborted ? "timeout" : "model",
        message,
        ...(cause instanceof ModelCallError ? { code: cause.code } : {}),
        ...(cause instanceof ModelCallError && cause.status !== undefined
          ? { status: cause.status }
          : {}),
      });
    }
    const waited = (turn.retries ?? []).reduce((sum, r) => sum + r.waitMs, 0);
    addRetries(turn.retries);
    llmMs += turn.ms - waited;
    if (turn.cached) cached += 1;
    usage = addUsage(usage, turn.usage);
    const ctx = contextTokens(turn.usage);
    peak = peak === null || ctx === null ? null : Math.max(peak, ctx);
    if (firstInput === undefined) firstInput = ctx;
    for (const n of turn.notes) notes.add(n);
    messages.push({
      role: "assistant",
      text: turn.text,
      toolCalls: turn.toolCalls,
      ...(turn.raw === undefined ? {} : { raw: turn.raw }),
    });
    for (const s of turn.searches ?? []) {
      searches.push({
        turn: iterations,
        input: s.input,
        tools: s.tools.map((n) => {
          const e = byName.get(n);
          return e === undefined ? n : `${e.server}:${e.tool}`;
        }),
        ...(s.error === undefined ? {} : { error: s.error }),
        expansionTokens: expansion(s.tools),
      });
    }
    // A server tool paused mid-turn (Anthropic `pause_turn`): send the turn back to go on.
    if (turn.toolCalls.length === 0 && turn.stopReason === "pause_turn") continue;
    if (turn.toolCalls.length === 0) return finish(turn.text, null);
    const targets = turn.toolCalls.map((c) => retryTarget(c, byName));
    const plans = planCalls(targets.map((t) => t.key), chains, retryLimit);
    const exec = (c: ToolCall, i: number) =>
      plans[i].kind === "refused"
        ? Promise.resolve(refusedCall(c, targets[i].label, byName, retryLimit!))
        : runCall(c, byName, host, now, signal, cap);
    const outcomes = agent.loop === "parallel" ? await Promise.all(turn.toolCalls.map(exec)) : [];
    if (agent.loop === "sequential") {
      for (const [i, c] of turn.toolCalls.entries()) outcomes.push(await exec(c, i));
    }
    const results: ToolResult[] = [];
    for (const [i, o] of outcomes.entries()) {
      const plan = plans[i];
      const { key, label } = targets[i];
      let { result, record } = o;
      if (plan.kind === "refused") {
        retryCounts.refused += 1;
      } else {
        if (plan.kind === "retry") {
          retryCounts.attempted += 1;
          record = { ...record, retry: plan.n };
          if (!result.isError) retryCounts.succeeded += 1;
        }
        if (!result.isError) chains.delete(key);
        else if (!chains.has(key)) chains.set(key, 0);
        if (result.isError && retryLimit !== undefined) {
          const left = Math.max(0, retryLimit - (chains.get(key) ?? 0));
          result = { ...result, text: `${result.text}\n${retryNote(label, left, retryLimit)}` };
        }
      }
      toolCalls.push(record, ...o.routed);
      toolMs += record.ms;
      results.push(result);
    }
    messages.push({ role: "tool", results });
    if (signal?.aborted) return finish(null, { kind: "timeout", message: "per-case timeout" });
  }
  return finish(null, {
    kind: "iteration_limit",
    message: `no final answer after ${agent.maxIterations} model turns`,
  });
}
