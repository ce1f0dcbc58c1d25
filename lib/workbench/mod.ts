/**
 * The workbench: a local web app and HTTP API over the agent-benchmark loop (plan, run, watch,
 * compare, configure), served by `deno task serve`. Runs go through the same `lib/agent` runner
 * as `deno task agents`, into the same run folders.
 *
 * - {@linkcode startWorkbench} serves it: a Hono app built from features (routes and navigation
 *   in one file each, see `features/`; a new page is a new feature file listed there);
 * - {@linkcode ConfigStore}: the working config, validated writes only;
 * - {@linkcode RunStore}, {@linkcode RunQueue}: run folders and the queue;
 * - {@linkcode summarizeRun}: the run page's comparison;
 * - {@linkcode isLoopback}, {@linkcode sameSecret}: the Host, Origin and token rules behind
 *   its guard (Hono middleware, internal to this folder).
 *
 * @example Usage
 * ```ts
 * import { isLoopback, redactValue } from "./mod.ts";
 * if (!isLoopback("127.0.0.1") || isLoopback("0.0.0.0")) throw new Error();
 * if (redactValue("${ANTHROPIC_API_KEY}") !== "${ANTHROPIC_API_KEY}") throw new Error();
 * if (redactValue("sk-live-123") !== "[REDACTED]") throw new Error();
 * ```
 *
 * @module
 */

export {
  type AgentVersions,
  type AuditJob,
  type AuditRequest,
  type AuditService,
  type BenchJob,
  type BenchRequest,
  type BenchService,
  type CatalogEntry,
  type ChatService,
  type NavEntry,
  type WorkbenchContext,
} from "./app.ts";
export { checkId, WorkbenchError } from "./_paths.ts";
export { ID_PATTERN } from "../core/ids.ts";
export { pageTitles } from "./features/mod.ts";
export {
  type AgentEntry,
  CONFIG_FILES,
  type ConfigKind,
  ConfigStore,
  openConfigStore,
  type OpenConfigStoreOptions,
  REDACTED_VALUE,
  redactValue,
  SCRIPTED_MODEL_IDS,
  SCRIPTED_MODELS,
  type SuiteEntry,
} from "./config_store.ts";
export {
  progressOf,
  type RunDetail,
  type RunListItem,
  type RunProgress,
  type RunRequest,
  type RunSidecar,
  type RunSource,
  type RunState,
  runState,
  RunStore,
} from "./run_store.ts";
export { type RunJob, type Runner, RunQueue, type RunQueueOptions } from "./queue.ts";
export {
  type AgentRunnerOptions,
  createAgentRunner,
  type PreparedServers,
  type PrepareServers,
} from "./runner.ts";
export {
  type AgentComparison,
  type CostSplit,
  type CriterionRow,
  type RunSummary,
  summarizeRun,
  type ToolUsageRow,
} from "./comparison.ts";
export { type GuardOptions, isLoopback, sameSecret, TOKEN_COOKIE } from "./guard.ts";
export { DEFAULT_MAX_BODY_BYTES } from "./http.ts";
export {
  type Html,
  html,
  navBar,
  page,
  type PageOptions,
  raw,
  stateBadge,
  withNav,
} from "./html.ts";
export { newRunId, resumeRun, startRun } from "./start_run.ts";
export { type BenchServiceOptions, type CatalogSource, createBenchService } from "./bench_jobs.ts";
export type { Redactor } from "../core/secrets.ts";
export { type AuditServiceOptions, createAuditService } from "./audit_jobs.ts";
export { type ChatServiceOptions, createChatService } from "./chat.ts";
export {
  NO_VERSIONS,
  startWorkbench,
  type StartWorkbenchOptions,
  type Workbench,
} from "./server.ts";
export {
  checkServeOptions,
  SERVE_DEFAULTS,
  type ServedWorkbench,
  serveWorkbench,
  type ServeWorkbenchOptions,
} from "./serve.ts";
