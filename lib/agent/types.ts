/**
 * Data contracts of agent benchmarks: configurations (agents, model registry, tool prices,
 * suites and criteria) and the per-case record a run writes.
 *
 * @module
 */

import type { StructuredContentErrorKind } from "../mcp/structured.ts";
import type { RetryRecord } from "../core/retry.ts";
import type { ToolLists } from "./tool_filter.ts";
import type { ToolOverrides } from "../catalog/overrides.ts";

export type { RetryRecord };
import type { JsonObject, JsonValue } from "../catalog/types.ts";

/**
 * How the model sees the agent's MCP tools: `direct` (every tool, normalized for the provider),
 * `proxy` (the discovery proxy's `retrieve_tools`, `describe_tool`, `call_tool`), `code`
 * (`retrieve_tools` and `run_code`, a sandboxed TypeScript program calling the tools),
 * `anthropic_search` (every tool sent with `defer_loading: true` behind Anthropic's tool search
 * tool, bm25 or regex: `provider: "anthropic"`) and `openai_search` (every tool deferred in a
 * namespace per MCP server behind OpenAI's hosted `tool_search`: `provider: "openai-responses"`).
 */
export type Exposure = "direct" | "proxy" | "code" | "anthropic_search" | "openai_search";

/** Every exposure, in the order help texts and errors list them. */
export const EXPOSURES: readonly Exposure[] = [
  "direct",
  "proxy",
  "code",
  "anthropic_search",
  "openai_search",
];

/** The exposures that defer tools behind a provider's tool search. */
export const SEARCH_EXPOSURES: readonly Exposure[] = ["anthropic_search", "openai_search"];

/** How an agent under a search exposure defers its tools. */
export interface ToolSearchConfig {
  /** `anthropic_search` only: `bm25` (natural-language queries) or `regex`. @default {"bm25"} */
  readonly variant?: "bm25" | "regex";
  /**
   * `server:tool` globs of tools loaded at the start instead of deferred (Anthropic advises
   * keeping the 3-5 most used ones loaded). Absent: every tool is deferred.
   */
  readonly alwaysLoad?: readonly string[];
}

/** How tool calls of one model turn run: one after another, or concurrently. */
export type LoopKind = "sequential" | "parallel";

/** One agent configuration (one entry of `agents.json` or one file under `fixtures/agents/`). */
export interface AgentConfig {
  /** Unique id, e.g. `fs-direct-terse`. */
  readonly id: string;
  /** What this configuration is meant to test. */
  readonly description: string;
  /** Id of an entry in the model registry. */
  readonly model: string;
  /** System prompt text, resolved (a `systemPromptFile` is read by the loader). */
  readonly systemPrompt: string;
  /** Names of servers in the servers config (`mcpServers` shape). */
  readonly mcpServers: readonly string[];
  /** Exposure mode; default `direct`. */
  readonly exposure: Exposure;
  /** Under `anthropic_search` and `openai_search`: the variant and the tools kept loaded. */
  readonly toolSearch?: ToolSearchConfig;
  /** Tool-call scheduling within a turn; default `sequential`. */
  readonly loop: LoopKind;
  /** Model turns allowed per case before an iteration-limit failure; default 10. */
  readonly maxIterations: number;
  /** Sampling temperature sent to the provider; absent means the provider default. */
  readonly temperature?: number;
  /** Output token cap per model turn (tokens); default 1024. */
  readonly maxOutputTokens: number;
  /**
   * Which of the servers' tools the agent is offered: `server:tool` globs to `allow` (absent:
   * all) and to `deny` (applied after). Under `proxy` and `code` exposure the filter applies to
   * the upstream catalog the proxy searches and calls. Absent: every tool.
   */
  readonly tools?: ToolLists;
  /**
   * Longest tool result the model is sent, in characters; a longer result is cut and ends in
   * a marker naming the cut (the call's record keeps `truncated`). Absent: no cap.
   */
  readonly toolResultMaxChars?: number;
  /**
   * Prompt caching. Anthropic: a `cache_control` breakpoint on the system prompt (which caches
   * the tool definitions rendered before it) and, with `toolResults`, on the last tool result of
   * each request; `ttl` `1h` asks for the one-hour cache, whose writes are priced at
   * {@linkcode ONE_HOUR_CACHE_WRITE_MULTIPLIER} × the model's (five-minute) cache-write price
   * unless the model gives `cacheWrite1hUsdPerMTok`. OpenAI-compatible endpoints cache on their
   * own: `cached_tokens` are always recorded and priced as cache reads. Absent: off.
   */
  readonly promptCaching?: PromptCaching;
  /**
   * Retries after a tool error. A *retry* is a call, in a later model turn, of a tool (the
   * exposed name the model used; under `proxy` exposure, the upstream `server:tool` a
   * `call_tool` names; under `code`, every `run_code` program is a call of `run_code`) whose
   * previous call in the case returned an error result; a chain of retries ends at the first
   * call of that tool that succeeds. With N set, an error
   * result tells the model how many retries of that tool are left, and a call beyond the N-th
   * retry of a chain is not run: the model gets an error result saying so (the call's record
   * keeps `notRun: "retry_limit"`). Retries are counted in every case (`toolRetries`), set or
   * not. Absent: no limit and no note (errors go back as they are).
   */
  readonly retryOnToolError?: number;
  /**
   * Tool-description overrides (lib/catalog/overrides.ts) applied to the tools before the
   * model sees them: under `direct` to the exposed definitions, under `proxy`/`code` to the
   * upstream catalog the proxy indexes, describes and returns. `file` is the path as written in
   * the agent (the loader reads it); the run records the overrides' sha256, what was applied
   * and what named nothing, and folds the sha256 into the catalog hash. Absent: none.
   */
  readonly overrides?: ToolOverrides;
  /**
   * Context reduction before each model request: `none`, `truncate-tool-results {maxTokens}`,
   * `drop-old-tool-results {keepLast}` or `summarize {model, afterTokens}` (see context.ts for
   * exactly what each sends). Absent: `none`.
   */
  readonly contextStrategy?: ContextStrategy;
}

/** An agent's prompt-caching lever. */
export interface PromptCaching {
  /** Turn caching on. */
  readonly enabled: boolean;
  /** Cache lifetime: `5m` (default) or `1h`. */
  readonly ttl?: "5m" | "1h";
  /** Also put a breakpoint on the last tool result of each request. @default {false} */
  readonly toolResults?: boolean;
}

/**
 * One-hour cache writes cost 2× the base input price where five-minute writes cost 1.25×
 * (Anthropic's prompt-caching pricing), so a 1h write costs 1.6× the 5m write price.
 */
export const ONE_HOUR_CACHE_WRITE_MULTIPLIER = 2 / 1.25;

/**
 * A registered model provider name (`PROVIDER_NAMES` in `providers/registry.ts`), e.g.
 * `anthropic`; `openai` covers any OpenAI-compatible base URL (Ollama, vLLM, ...).
 */
export type ProviderKind = string;

/** Prices in USD per million tokens. */
export interface ModelPricing {
  /** Uncached input tokens, USD per 1,000,000. */
  readonly inputUsdPerMTok: number;
  /** Output tokens, USD per 1,000,000. */
  readonly outputUsdPerMTok: number;
  /** Input tokens read from the provider's prompt cache, USD per 1,000,000; default 0. */
  readonly cacheReadUsdPerMTok: number;
  /** Input tokens written to the provider's prompt cache, USD per 1,000,000; default 0. */
  readonly cacheWriteUsdPerMTok: number;
  /**
   * Input tokens written to the one-hour cache, USD per 1,000,000; absent: the five-minute
   * price × {@linkcode ONE_HOUR_CACHE_WRITE_MULTIPLIER}.
   */
  readonly cacheWrite1hUsdPerMTok?: number;
}

/** One model registry entry. */
export interface ModelConfig {
  /** Registry id agents refer to, e.g. `claude-local`. */
  readonly id: string;
  /**
   * What the model is for: `chat` (agents and judges; the default when absent) or `embedding`
   * (the `dense` and `hybrid` retrievers, over an OpenAI-compatible `POST /v1/embeddings`;
   * only `pricing.inputUsdPerMTok` applies).
   */
  readonly kind?: "chat" | "embedding";
  /** Wire format. */
  readonly provider: ProviderKind;
  /**
   * `true` for a scripted stand-in (mcpmeter's scripted model): no provider answers, so USD
   * figures are what `pricing` would charge, not a bill; they are labelled simulated.
   */
  readonly simulated?: boolean;
  /** Model name sent in requests, e.g. `claude-sonnet-4-5` or `llama3.2`. */
  readonly model: string;
  /** Endpoint base URL; absent means the SDK default (the vendor's API). */
  readonly baseUrl?: string;
  /**
   * The key as written in the registry: `${ENV_VAR}` (expanded at run time from the environment
   * or `.env`). Never a literal key in a committed file.
   */
  readonly apiKey: string;
  /** Prices, USD per million tokens. */
  readonly pricing: ModelPricing;
}

/** A criterion deciding whether a case passed. */
export type Criterion =
  | { readonly type: "exact"; readonly value: string; readonly caseSensitive?: boolean }
  | {
    readonly type: "contains";
    readonly values: readonly string[];
    /** `any` (default): one of the strings; `all`: every string. */
    readonly mode?: "any" | "all";
    readonly caseSensitive?: boolean;
  }
  | { readonly type: "regex"; readonly pattern: string; readonly flags?: string }
  | {
    readonly type: "tool_called";
    /** `server:tool`. */
    readonly tool: string;
    /** When given, some call's arguments must contain these key/values (deep subset match). */
    readonly args?: JsonObject;
  }
  | {
    readonly type: "llm_judge";
    readonly rubric: string;
    /** Model registry id of the judge (one judge). Give this or `judges`, not both. */
    readonly model?: string;
    /**
     * Model registry ids of several judges (a panel); each judges the answer `votes` times.
     * Give this or `model`, not both.
     */
    readonly judges?: readonly string[];
    /**
     * Verdicts asked of each judge (integer ≥ 1). A judge's verdict is the majority of its
     * votes; the criterion passes when the majority of the judges' verdicts pass. A tie fails
     * (a pass needs strictly more than half), at both levels. @default {1}
     */
    readonly votes?: number;
    /** Sampling temperature of the judge calls (votes differ only when it is > 0). @default {0} */
    readonly temperature?: number;
  }
  | { readonly type: "all"; readonly criteria: readonly Criterion[] }
  | { readonly type: "any"; readonly criteria: readonly Criterion[] };

/** One question of a suite. */
export interface SuiteCase {
  /** Case id, unique within the suite. */
  readonly id: string;
  /** The question sent as the user message. */
  readonly question: string;
  /** How the answer is judged. */
  readonly criterion: Criterion;
  /** Free-form labels for slicing results. */
  readonly tags?: readonly string[];
}

/** A test suite. */
export interface Suite {
  /** Suite id. */
  readonly id: string;
  /** What the suite covers. */
  readonly description: string;
  /** Cases in run order. */
  readonly cases: readonly SuiteCase[];
}

/** Tool prices: `server:tool` → USD per call. */
export type ToolPrices = Readonly<Record<string, number>>;

/**
 * Token usage of one or more model calls. A field is `null` when the provider did not report
 * it (never 0 in that case); a `usageNotes` entry of the record says which.
 */
export interface Usage {
  /** Uncached input tokens (Anthropic `input_tokens`; OpenAI `prompt_tokens − cached_tokens`). */
  readonly inputTokens: number | null;
  /** Output tokens (Anthropic `output_tokens`; OpenAI `completion_tokens`). */
  readonly outputTokens: number | null;
  /** Input tokens read from cache (Anthropic `cache_read_input_tokens`; OpenAI `cached_tokens`). */
  readonly cacheReadTokens: number | null;
  /** Input tokens written to cache (Anthropic `cache_creation_input_tokens`; OpenAI: not reported). */
  readonly cacheWriteTokens: number | null;
}

/**
 * A `run_code` sandbox limit that stopped a program: its name (the unit is the suffix:
 * `wall_ms`, `cpu_ms`, `heap_mb`, `rss_mb`, `tool_calls`, `bridge_bytes`) and its value in that
 * unit. See `RunCodeLimit` in run_code.ts.
 */
export interface SandboxLimit {
  /** Limit name. */
  readonly name: "wall_ms" | "cpu_ms" | "heap_mb" | "rss_mb" | "tool_calls" | "bridge_bytes";
  /** The limit's value, in its unit. */
  readonly value: number;
}

/** One tool call as the record keeps it. */
export interface ToolCallRecord {
  /** Name the model used (the exposed name). */
  readonly name: string;
  /** `server:tool` it was routed to, or `null` when the name matched no tool. */
  readonly tool: string | null;
  /** Arguments the model sent (for a `via` record: the arguments sent upstream). */
  readonly args: JsonValue;
  /** Time of the MCP `tools/call` round trip, ms (measured). */
  readonly ms: number;
  /** `true` when the tool answered `isError`, threw, or was unknown. */
  readonly isError: boolean;
  /**
   * Present on an upstream call made on behalf of a model's call under the `proxy` or `code`
   * exposure: the exposed name of that call (`call_tool`, `run_code`). Such a record follows the
   * model's call, has `name` = `tool` = the upstream `server:tool`, and is priced like a direct
   * call; its `ms` is part of the model call's `ms`, so it is not added to `toolMs` again.
   */
  readonly via?: string;
  /** Present when a `run_code` program was stopped by a sandbox limit: which, at what value. */
  readonly limit?: SandboxLimit;
  /**
   * Present when the result was longer than the agent's `toolResultMaxChars` and was cut before
   * the model saw it: characters kept and characters the tool returned.
   */
  readonly truncated?: { readonly keptChars: number; readonly totalChars: number };
  /**
   * Present when the tool's result broke its `outputSchema` contract, which real MCP clients
   * reject: `missing_structured_content`, `invalid_structured_content` or
   * `invalid_output_schema` (see lib/mcp/structured.ts). `isError` is then true.
   */
  readonly resultError?: StructuredContentErrorKind;
  /**
   * Present on a retry (see {@linkcode AgentConfig.retryOnToolError}): which retry of its chain
   * this call is, 1-based.
   */
  readonly retry?: number;
  /**
   * Present when the loop did not run the call: `retry_limit` (the agent's
   * `retryOnToolError` retries of this tool were used up). `isError` is then true and `ms` 0.
   */
  readonly notRun?: "retry_limit";
}

/** One provider tool search the model made in a case, as the record keeps it. */
export interface ToolSearchRecord {
  /** 1-based model turn the search was made in. */
  readonly turn: number;
  /** The search input as the model wrote it (`{query}` for bm25, `{query}`/`{pattern}` for regex, OpenAI's `arguments`). */
  readonly input: JsonValue;
  /** The tools it returned, `server:tool`, in the provider's order (`[]`: none). */
  readonly tools: readonly string[];
  /** The provider's error code when the search failed (e.g. `invalid_pattern`). */
  readonly error?: string;
  /**
   * Tokens of the returned tools' definitions as sent to the provider (the `tools` entries the
   * search loaded into context), counted with the case's tokenizer; `null` without one.
   */
  readonly expansionTokens: number | null;
}

/** The provider tool searches of one case (search exposures). */
export interface ToolSearchCase {
  /** The searches, in order. */
  readonly searches: readonly ToolSearchRecord[];
  /** Σ `expansionTokens` (tokens); `null` when a search could not be counted. */
  readonly expansionTokens: number | null;
  /** Tokenizer of the counts (`null`: not counted). */
  readonly tokenizer: string | null;
  /** `computed`: counted by mcpmeter from the sent definitions, not reported by the provider. */
  readonly provenance: "computed";
}

/**
 * Retries after tool errors in one case (see {@linkcode AgentConfig.retryOnToolError}); counts
 * of calls.
 */
export interface ToolRetryCounts {
  /** Retries the loop ran. */
  readonly attempted: number;
  /** Retries that returned a result without error (each ends its chain). */
  readonly succeeded: number;
  /** Calls not run because the chain had used its `retryOnToolError` retries. */
  readonly refused: number;
}

/**
 * One verdict of one judge call (one vote of one judge on one `llm_judge` criterion of a case),
 * as the case record keeps it.
 */
export interface JudgeVerdict {
  /**
   * Where the `llm_judge` criterion sits in the case's criterion: `criterion` for the criterion
   * itself, `criterion.criteria[1]` for the second child of an `all`/`any`, and so on.
   */
  readonly criterion: string;
  /** Judge model registry id. */
  readonly model: string;
  /** 0-based vote index of this judge on this criterion. */
  readonly vote: number;
  /** The judge's verdict for this vote. */
  readonly pass: boolean;
  /** The judge's reasoning, as it wrote it (`""` when it gave none). */
  readonly reasoning: string;
  /** Judge input tokens of this call; `null` when not reported. */
  readonly inputTokens: number | null;
  /** Judge output tokens of this call; `null` when not reported. */
  readonly outputTokens: number | null;
  /** USD of this call (judge model's pricing); `null` when its usage was not reported. */
  readonly costUsd: number | null;
}

/**
 * An agent's context-reduction lever: `none`, `truncate-tool-results {maxTokens}` (tokens),
 * `drop-old-tool-results {keepLast}` (tool turns) or `summarize {model, afterTokens}` (a
 * registry id; tokens). What each sends is described in context.ts.
 */
export type ContextStrategy =
  | { readonly type: "none" }
  | { readonly type: "truncate-tool-results"; readonly maxTokens: number }
  | { readonly type: "drop-old-tool-results"; readonly keepLast: number }
  | { readonly type: "summarize"; readonly model: string; readonly afterTokens: number };

/** What a context strategy did over one case (see context.ts `ContextReport`). */
export interface ContextRecord {
  /** Strategy type. */
  readonly strategy: ContextStrategy["type"];
  /** Model requests whose view was smaller than the whole conversation. */
  readonly requestsReduced: number;
  /** Σ over requests of (whole-conversation tokens − tokens sent); may be < 0 (a long summary). */
  readonly tokensSaved: number;
  /** Tokenizer the counts come from. */
  readonly tokenizer: string;
  /** `computed` (counted by mcpmeter, not reported by the provider). */
  readonly provenance: "computed";
}

/** Summarizer usage and cost of one case, kept apart from the agent's totals. */
export interface SummarizerRecord {
  /** Registry id of the summarizer model. */
  readonly model: string;
  /** Summarizer calls made. */
  readonly calls: number;
  /** Input tokens; `null` when a call did not report them. */
  readonly inputTokens: number | null;
  /** Output tokens; `null` when a call did not report them. */
  readonly outputTokens: number | null;
  /** USD at the summarizer model's prices (computed); `null` when usage was not reported. */
  readonly costUsd: number | null;
}

/** Judge usage and cost, kept apart from the agent's totals. */
export interface JudgeRecord {
  /** Judge input tokens; `null` when not reported. */
  readonly inputTokens: number | null;
  /** Judge output tokens; `null` when not reported. */
  readonly outputTokens: number | null;
  /** USD (computed from the judge model's pricing); null when its usage was not reported. */
  readonly costUsd: number | null;
}

/**
 * Kinds of case errors:
 * - `iteration_limit`: the agent used `maxIterations` turns without a final answer (an agent
 *   failure: counts in the pass-rate denominator as a fail);
 * - `model`: the model endpoint failed after retries, or answered something unusable
 *   (infrastructure: left out of the pass rate);
 * - `timeout`: the per-case timeout expired (infrastructure);
 * - `mcp`: an agent's MCP server could not be started or listed (infrastructure);
 * - `judge`: the judge model failed after retries (infrastructure).
 */
export type CaseErrorKind = "iteration_limit" | "model" | "timeout" | "mcp" | "judge";

/** The error of a case, if any. */
export interface CaseError {
  /** What went wrong; see {@linkcode CaseErrorKind}. */
  readonly kind: CaseErrorKind;
  /** One line, secrets redacted. */
  readonly message: string;
  /** For `model`/`judge`: the model call error code (`unreachable`, `exhausted`, `http`, ...). */
  readonly code?: string;
  /** For `model`/`judge`: the last HTTP status of the failed call, when there was one. */
  readonly status?: number;
}

/** Result of evaluating a criterion. */
export interface CriterionResult {
  /** Verdict. */
  readonly passed: boolean;
  /** Criterion type, e.g. `contains`. */
  readonly type: Criterion["type"];
  /** Why it passed or failed, one line. */
  readonly detail: string;
  /** Sub-results of `all`/`any`. */
  readonly children?: readonly CriterionResult[];
}

/** The per-case record, one line of `cases.jsonl`. */
export interface CaseRecord {
  /** Agent id. */
  readonly agentId: string;
  /** Case id. */
  readonly caseId: string;
  /** 0-based repetition index. */
  readonly repetition: number;
  /** `true`/`false` when scored; `null` for infrastructure errors (out of the denominator). */
  readonly passed: boolean | null;
  /** Criterion verdict, `null` when not scored. */
  readonly criterion: CriterionResult | null;
  /** Final assistant text, `null` when there was none. */
  readonly finalAnswer: string | null;
  /** The whole case, model and tools included, ms (measured). */
  readonly wallMs: number;
  /**
   * Sum of model call times, ms (measured; failed attempts included, the waits between retries
   * excluded: those are `retryWaitMs`).
   */
  readonly llmMs: number;
  /**
   * Waits between retried model attempts (backoff or `Retry-After`), summed, ms; absent in
   * records written before it was recorded.
   */
  readonly retryWaitMs?: number;
  /**
   * Each retried model attempt of the case, in order: HTTP status (when there was one), kind
   * and the wait after it, ms. Empty when no call was retried; absent in older records.
   */
  readonly retries?: readonly RetryRecord[];
  /** Sum of tool call times, ms (measured; concurrent calls counted each). */
  readonly toolMs: number;
  /** Model turns taken. */
  readonly iterations: number;
  /** Uncached input tokens summed over turns; `null` when a turn did not report them. */
  readonly inputTokens: number | null;
  /** Output tokens summed over turns; `null` when a turn did not report them. */
  readonly outputTokens: number | null;
  /** Cache-read tokens summed over turns; `null` when a turn did not report them. */
  readonly cacheReadTokens: number | null;
  /** Cache-write tokens summed over turns; `null` when a turn did not report them (always for OpenAI). */
  readonly cacheWriteTokens: number | null;
  /** Largest single-request context: input + cache read + cache write tokens of one turn. */
  readonly peakContextTokens: number | null;
  /**
   * The first request's input as the provider billed it (input + cache read + cache write):
   * system prompt, tools and question, before any tool result; compared with the static estimate
   * of the agent's catalog and prompt (`catalogs[agent].estimate` in `run.json`). `null` when
   * not reported; absent in records written before it was recorded.
   */
  readonly firstTurnInputTokens?: number | null;
  /** Tool calls in call order. */
  readonly toolCalls: readonly ToolCallRecord[];
  /** Retries after tool errors (see {@linkcode AgentConfig.retryOnToolError}); absent in older records. */
  readonly toolRetries?: ToolRetryCounts;
  /**
   * Under `anthropic_search` and `openai_search`: each provider tool search, the tools it
   * returned and the tokens they added. Absent under the other exposures.
   */
  readonly toolSearch?: ToolSearchCase;
  /**
   * What the agent's `contextStrategy` did: requests reduced and context tokens saved (computed
   * with the named tokenizer). Absent without a strategy (or with `none`).
   */
  readonly context?: ContextRecord;
  /**
   * The `summarize` strategy's model calls, tokens and USD, kept apart from the agent's
   * (`costUsd` excludes them). Absent unless the strategy is `summarize`.
   */
  readonly summarizer?: SummarizerRecord;
  /** Model tokens × pricing plus tool prices, USD (computed); judge excluded. */
  readonly costUsd: number | null;
  /** Judge usage, `null` when no `llm_judge` criterion ran. */
  readonly judge: JudgeRecord | null;
  /**
   * Every judge verdict of the case, in call order (judges in criterion order, then votes);
   * absent when no judge gave a verdict (and in records written before it was recorded).
   */
  readonly judgeVerdicts?: readonly JudgeVerdict[];
  /** Why the case ended abnormally, or `null`. */
  readonly error: CaseError | null;
  /** Model calls answered from the response cache (their times are not real latencies). */
  readonly cachedModelCalls: number;
  /** Notes such as "provider reported no cache-write tokens". Sorted, unique. */
  readonly usageNotes: readonly string[];
}

/** `sweep.json` beside `run.json`: the parameters a sweep varied, per generated agent. */
export interface SweepFile {
  /** Id of the base agent. */
  readonly base: string;
  /** Parameter names in the order given on the command line, e.g. `["model", "exposure"]`. */
  readonly parameters: readonly string[];
  /** Agent id → parameter → value (as given, e.g. `p1.md`). */
  readonly agents: Readonly<Record<string, Readonly<Record<string, string>>>>;
}
