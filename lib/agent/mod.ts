/**
 * Agent benchmarks: agent configurations × suites × repetitions, with correctness, time,
 * tokens and dollar cost.
 *
 * - configuration as data, validated against `lib/agent/schemas/*.schema.json`
 *   ({@linkcode parseAgents}, {@linkcode parseModels}, {@linkcode parseSuite}, ...);
 * - pass criteria ({@linkcode evaluateCriterion});
 * - the provider registry ({@linkcode PROVIDER_ENTRIES}: wire format, schema dialect, adapter)
 *   and a response cache ({@linkcode withResponseCache});
 * - one loop for benchmarks and chat ({@linkcode runAgentLoop});
 * - shards and per-agent summaries ({@linkcode planWork}, {@linkcode summarizeRecords}).
 *
 * The I/O edge is `io.ts`: configuration loaders, model clients over the official SDKs
 * (`createModelClient`), MCP tool hosts, the `run_code` sandbox and suite runs (`runSuite`).
 *
 * @example Usage
 * ```ts
 * import { evaluateCriterion, usageCostUsd } from "./mod.ts";
 * const { result } = await evaluateCriterion(
 *   { type: "regex", pattern: "^\\s*5\\s*$" },
 *   { question: "How many lines?", finalAnswer: " 5\n", toolCalls: [] },
 * );
 * const cost = usageCostUsd(
 *   { inputTokens: 2000, outputTokens: 100, cacheReadTokens: null, cacheWriteTokens: null },
 *   { inputUsdPerMTok: 3, outputUsdPerMTok: 15, cacheReadUsdPerMTok: 0.3, cacheWriteUsdPerMTok: 3.75 },
 * );
 * if (!result.passed || cost !== 0.0075) throw new Error("unexpected");
 * ```
 *
 * @module
 */

export type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
export type { NormalizationChange, NormalizationChangeKind } from "../catalog/normalize.ts";
export type { Hit } from "../retrieval/types.ts";
export type { Redactor } from "../core/secrets.ts";
export type { SentNamespace, ToolSearchKind, ToolSearchSetup } from "../catalog/sent_search.ts";
export type {
  AgentConfig,
  CaseError,
  CaseErrorKind,
  CaseRecord,
  ContextRecord,
  ContextStrategy,
  Criterion,
  CriterionResult,
  Exposure,
  JudgeRecord,
  JudgeVerdict,
  LoopKind,
  ModelConfig,
  ModelPricing,
  PromptCaching,
  ProviderKind,
  RetryRecord,
  SandboxLimit,
  Suite,
  SuiteCase,
  SummarizerRecord,
  ToolCallRecord,
  ToolPrices,
  ToolRetryCounts,
  ToolSearchCase,
  ToolSearchConfig,
  ToolSearchRecord,
  Usage,
} from "./types.ts";
export { SEARCH_EXPOSURES } from "./types.ts";
export { SEARCH_PROVIDER, toolSearchProblem, toolSearchProblems } from "./tool_search.ts";
export {
  AgentConfigError,
  type AgentDraft,
  expandVars,
  parseAgents,
  parseDotEnv,
  parseModels,
  parseSuite,
  parseToolPrices,
  requiredModelIds,
} from "./config.ts";
export { InputFileError } from "../core/errors.ts";
export {
  argsMatch,
  type CaseOutcome,
  evaluateCriterion,
  type EvaluateOptions,
  type Evaluation,
  JUDGE_SYSTEM_PROMPT,
  type JudgeCall,
  type JudgeCaller,
  type JudgeCallOptions,
  judgeModels,
  judgePrompt,
  type JudgeReply,
  JudgeReplyError,
  parseJudgeAnswer,
} from "./criteria.ts";
export {
  calibrateJudge,
  type CalibrateOptions,
  type CalibrationItem,
  calibrationLines,
  type CalibrationReport,
  type Label,
  type LabelSet,
  type LabelTarget,
  parseLabels,
  resolveLabels,
} from "./calibration.ts";
export { clientJudgeCaller, JUDGE_MAX_OUTPUT_TOKENS } from "./judge_caller.ts";
export {
  DISAGREEMENT_COLUMNS,
  disagreementsToCsv,
  type JudgeAgreement,
  judgeAgreement,
  type PanelItem,
  panelItems,
  type PanelVerdict,
} from "./judge_agreement.ts";
export { addUsage, agentPricing, contextTokens, usageCostUsd, ZERO_USAGE } from "./usage.ts";
export {
  type CallOptions,
  type Message,
  ModelCallError,
  type ModelCallErrorCode,
  type ModelClient,
  type ModelRequest,
  type ModelTurn,
  type RawTurn,
  type ToolCall,
  type ToolResult,
  type ToolSearchCall,
  type ToolSpec,
} from "./providers/types.ts";
export type {
  ParsedTurn,
  ProviderAdapter,
  ProviderEntry,
  SdkClientOptions,
} from "./providers/_adapter.ts";
export { PROVIDER_ENTRIES, PROVIDER_NAMES, providerEntry } from "./providers/registry.ts";
export { anthropicProvider } from "./providers/anthropic.ts";
export { openAiProvider } from "./providers/openai.ts";
export {
  type InputItem,
  openAiResponsesProvider,
  parseResponsesBody,
  toResponsesInput,
} from "./providers/openai_responses.ts";
export {
  type AttemptFailure,
  classifySdkError,
  parseRetryAfter,
  type RetryEnv,
  type RetryPolicy,
  type RetryResult,
  withRetries,
} from "./providers/retry.ts";
export {
  createWireLogFetch,
  REDACTED,
  redactHeaders,
  redactText,
  type WireEntry,
  type WireLogOptions,
} from "./providers/wire_log.ts";
export {
  type CachedTurn,
  type CacheMode,
  responseCacheKey,
  type ResponseCacheOptions,
  type ResponseStore,
  withResponseCache,
} from "./providers/cache.ts";
export {
  catalogHash,
  type ExposedTool,
  exposeTools,
  type ExposureChange,
  type HostOverrides,
  type ListedTool,
  MAX_PROVIDER_TOOL_NAME,
  type RoutedCall,
  type ServerHello,
  toolHashes,
  type ToolHost,
  type ToolOutput,
} from "./tools.ts";
export {
  checkCodeArguments,
  CODE_RETRIEVE_USAGE,
  CODE_TOOL_DEFINITIONS,
  codeRetrieveText,
  resolveToolName,
} from "./code_tools.ts";
export {
  BRIDGE_MARK,
  DEFAULT_MAX_BRIDGE_BYTES,
  DEFAULT_MAX_CPU_MS,
  DEFAULT_MAX_HEAP_MB,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_MAX_RSS_MB,
  DEFAULT_MAX_TOOL_CALLS,
  LOCAL_IMPORT_REFUSED,
  programText,
  type RunCodeLimit,
  WATCH_INTERVAL_MS,
} from "./run_code.ts";
export {
  type ContextReducer,
  type ContextReducerOptions,
  type ContextReport,
  createContextReducer,
  DEFAULT_CONTEXT_TOKENIZER,
  DROPPED_TOOL_RESULT,
  messageText,
  needsContextTokenizer,
  SUMMARIZER_SYSTEM,
  SummarizerError,
  type SummarizerUsage,
  SUMMARY_HEADER,
  SUMMARY_MAX_OUTPUT_TOKENS,
  type TokenCounter,
  tokenTruncationMarker,
} from "./context.ts";
export {
  type LoopOptions,
  type LoopResult,
  retryNote,
  retryRefusal,
  runAgentLoop,
} from "./loop.ts";
export {
  type AgentSummary,
  CASE_COLUMNS,
  casesToCsv,
  summarizeRecords,
  SUMMARY_COLUMNS,
  summaryToCsv,
} from "./summary.ts";
export type { CsvColumn } from "../core/csv.ts";
export { nothingScored, type RunHealth, runHealth } from "./health.ts";
export { type MergedRun, mergeShardRuns, type ShardRun } from "./shard_merge.ts";
export {
  importMaverik,
  MAVERIK_FILES,
  MAVERIK_IMPORT_REPORT_VERSION,
  type MaverikFolder,
  type MaverikImport,
  type MaverikIssue,
  type MaverikIssueLevel,
  maverikReport,
} from "./maverik.ts";
export {
  DEFAULT_FORECAST_RESAMPLES,
  type Forecast,
  FORECAST_ASSUMPTION,
  FORECAST_METRICS,
  type ForecastEstimate,
  type ForecastMetric,
  type ForecastOptions,
  type ForecastPrices,
  type ForecastRow,
  forecastRows,
  forecastRun,
  type ForecastTokens,
  type ForecastUsd,
  parsePriceFile,
  type PriceOverrides,
} from "./forecast.ts";
export {
  DEFAULT_AUTH_FAILURE_STOP,
  DEFAULT_CASE_TIMEOUT_MS,
  isAuthFailure,
  parseShard,
  planWork,
  RUN_SCHEMA_VERSION,
  type Shard,
  type WorkItem,
  workKey,
} from "./run.ts";
// Agent versions: everything versions.ts exports is public.
export * from "./versions.ts";
export { toolFilter, type ToolLists } from "./tool_filter.ts";
