/**
 * The bench flow alone (`deno task bench`): the same functions as `lib/flows/mod.ts` exports for
 * it, without the other flows. A task importing `lib/flows/mod.ts` loads every flow at start
 * (agents, capture, proxy, report, ...: the MCP SDK, both model SDKs, puppeteer-core); the bench
 * needs none of them unless `--live` or `--proxy-servers` asks, and then imports them itself.
 *
 * @example Usage
 * ```ts
 * import { BENCH_DEFAULTS, checkBenchOptions } from "./mod.ts";
 * checkBenchOptions({ resamples: BENCH_DEFAULTS.resamples });
 * ```
 *
 * @module
 */
export { benchFailure, benchSummaryLines } from "../bench_summary.ts";
export {
  BENCH_DEFAULTS,
  checkBenchOptions,
  checkOutFolder,
  MAX_RESAMPLES,
  parseHeaderFlags,
  type RunBenchOptions,
} from "../bench_options.ts";
export { runBench, writeBenchResults } from "../bench.ts";
export { benchHelp } from "../bench_help.ts";
// --rerank-k's default, for the task, without it loading lib/retrieval/mod.ts.
export { DEFAULT_RERANK_K } from "../../retrieval/rerank.ts";
