/**
 * Flows: the jobs behind the tasks, as library functions. Each composes the concept folders
 * (catalog, tokens, modes, encodings, retrieval, mcp, proxy, live, agent, report) and takes its
 * I/O as a {@linkcode FlowIo} (clock, repository root, environment, git, progress), so tasks,
 * notebooks and the workbench run the same code.
 *
 * @example Usage
 * ```ts
 * import { checkBenchOptions } from "./mod.ts";
 * let rejected = false;
 * try {
 *   checkBenchOptions({ resamples: 0 });
 * } catch {
 *   rejected = true;
 * }
 * if (!rejected) throw new Error("resamples 0 should be rejected");
 * ```
 *
 * @module
 */
export { RESPONSE_COMPONENTS } from "../live/attribution.ts";
export { METRIC_KEYS } from "../retrieval/metrics.ts";
export { UsageError } from "../core/errors.ts";
export { denoFlowIo, type FlowIo, type GitState, pinnedVersions, REPO_ROOT } from "./io.ts";
export type { FlowOutcome } from "./outcome.ts";
export { captureCatalog, type FailedServer } from "./capture_catalog.ts";
export {
  AUDIT_INSTALL_DIR,
  AUDIT_TOKENIZER,
  type AuditCommandOptions,
  runAudit,
  runAuditCommand,
  type RunAuditOptions,
} from "./audit.ts";
export type { ClientId, Platform, SentFormat } from "../audit/mod.ts";
export {
  type CaptureRun,
  REFERENCE_SERVERS_CONFIG,
  runCapture,
  type RunCaptureOptions,
  writeCapture,
} from "./capture.ts";
export { DEFAULT_SERVER_TIMEOUT_MS, DEFAULT_SETTLE_MS } from "../mcp/mod.ts";
export { DEFAULT_CAPTURE_CONCURRENCY } from "../mcp/io.ts";
// The bench flow's own surface (what deno task bench imports alone): runBench, its defaults,
// help and results writer.
export * from "./bench/mod.ts";
export {
  DEFAULT_EMBEDDING_BASE_URL,
  type EmbeddingRetrieverContext,
  resolveEmbeddingModel,
  type ResolveEmbeddingOptions,
} from "./embedding.ts";
export {
  chatFnFromModel,
  resolveChatModel,
  type ResolveChatModelOptions,
  type ResolvedChatModel,
} from "./chat_model.ts";
export {
  checkRetrieverModels,
  endpointContext,
  resolveRetrieverModels,
  type ResolveRetrieverModelsOptions,
  type RetrieverModelOptions,
  type RetrieverModelPlan,
  type RetrieverModels,
} from "./retriever_models.ts";
export type { HostedSearchSpec } from "./hosted_search_spec.ts";
export {
  type CaptureResultsOptions,
  type CaptureResultsSummary,
  captureToolResults,
} from "./capture_results.ts";
export {
  AGENTS_DEFAULTS,
  agentVersionsCommand,
  caseProgressLine,
  caseProgressPrinter,
  checkResumeArgs,
  defaultRunId,
  runAgents,
  type RunAgentsOptions,
  type RunAgentsResult,
  runSummary,
  savedRunArgs,
} from "./agents.ts";
export {
  DEMO_AGENTS,
  DEMO_SUITES,
  DEMO_SWEEP,
  type DemoNext,
  demoRuns,
  type DemoRunsOptions,
  demoSummary,
  demoSummaryLines,
} from "./demo.ts";
export {
  LIVE_DEFAULTS,
  liveFailure,
  type LiveRecordOptions,
  parsePairs,
  runLive,
  type RunLiveOptions,
  SMALL_LIVE_SET,
  typedPairs,
  writeLiveRecord,
} from "./live.ts";
export { ensureWritable } from "./_write.ts";
export {
  REPORT_DEFAULTS,
  reportDashboards,
  type ReportOutcome,
  reportRegistry,
  runReport,
  type RunReportOptions,
} from "./report.ts";
export { checkProxyOptions, PROXY_DEFAULTS, runProxy, type RunProxyOptions } from "./proxy.ts";
export { GATE_DEFAULTS, type GateOutcome, runGate, type RunGateOptions } from "./gate.ts";
export { type MergeOutcome, runMerge, type RunMergeOptions } from "./merge.ts";
export { type ForecastOutcome, runForecast, type RunForecastFlowOptions } from "./forecast.ts";
export {
  type ImportMaverikOptions,
  type ImportMaverikOutcome,
  runImportMaverik,
} from "./import_maverik.ts";
export {
  REFERENCE_TOOLS,
  runScale,
  type RunScaleOptions,
  SCALE_BEGIN,
  SCALE_END,
  type ScaleMachine,
  scaleMachine,
  type ScaleRow,
  scaleSection,
  scaleTable,
  withScaleSection,
} from "./scale.ts";
export {
  checkFixtures,
  diffFixtures,
  FIXTURE_MANIFEST,
  FIXTURE_SOURCES,
  type FixtureEntry,
  scanFixtures,
} from "./fixtures.ts";
export {
  INSTALL_HINT,
  runNotebooks,
  type RunNotebooksOptions,
  SILENT_RETRIES,
  silentCells,
} from "./notebooks.ts";
export { CHAT_DEFAULTS, type ChatSession, openChat, type OpenChatOptions } from "./chat.ts";
export {
  CALIBRATION_SCHEMA_VERSION,
  calibrationCsv,
  type CalibrationOutcome,
  runCalibration,
  type RunCalibrationOptions,
} from "./calibrate.ts";
export { type CalibrateTokensOptions, runCalibrateTokens } from "./calibrate_tokens.ts";
export {
  benchCostLayers,
  type BenchCostLayersOptions,
  costLayerLines,
  costLayerToolsCsv,
  COUNT_CACHE_DEFAULT,
  parseCountTargets,
} from "./bench_cost_layers.ts";
export {
  type PreparedSweep,
  prepareSweep,
  type PrepareSweepOptions,
  removeUnstartedSweep,
} from "./sweep.ts";
