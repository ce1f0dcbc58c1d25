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
export { UsageError } from "./errors.ts";
export { denoFlowIo, type FlowIo, type GitState, pinnedVersions, REPO_ROOT } from "./io.ts";
export { captureCatalog, type FailedServer } from "./capture_catalog.ts";
export {
  BENCH_DEFAULTS,
  benchFailure,
  benchSummaryLines,
  checkBenchOptions,
  MAX_RESAMPLES,
  runBench,
  type RunBenchOptions,
  writeBenchResults,
} from "./bench.ts";
export {
  LIVE_DEFAULTS,
  liveFailure,
  type LiveRecordOptions,
  runLive,
  type RunLiveOptions,
  SMALL_LIVE_SET,
  writeLiveRecord,
} from "./live.ts";
