/**
 * `deno task calibrate-tokens`: fits the billed estimate of one provider and model on its own
 * count endpoint (lib/billing/calibration.ts) and writes a calibration file that `deno task
 * bench --calibration FILE` uses. One request without tools and one per sampled tool (alone);
 * answers are cached like the bench's, so a second run sends none.
 *
 * @module
 */
import { loadCatalog } from "../catalog/load.ts";
import {
  addFeatures,
  BILLING_FORMAT,
  type BillingProvider,
  type Calibration,
  type CalibrationSample,
  DEFAULT_CALIBRATION,
  fitEntry,
  providerFeatures,
  shapeTools,
  toolsShare,
} from "../billing/mod.ts";
import { sentTools } from "../catalog/sent.ts";
import { type CountClientOptions, CountError, createCountClient } from "../billing/io.ts";
import { createRng, sampleSubset } from "../stats/mod.ts";
import { UsageError } from "../core/errors.ts";
import { writeAtomic } from "../core/files.ts";
import type { FlowOutcome } from "./outcome.ts";
import type { FlowIo } from "./io.ts";
import { parseCountTargets } from "./bench_cost_layers.ts";

/** Options of {@linkcode runCalibrateTokens}. */
export interface CalibrateTokensOptions {
  /** Provider. */
  readonly provider: string;
  /** Model. */
  readonly model: string;
  /** Catalog whose tools are sampled. */
  readonly corpus: string;
  /** Tools sampled. @default 40 */
  readonly sample?: number;
  /** Seed of the sample. */
  readonly seed: number;
  /** Output file. */
  readonly out: string;
  /** Count cache folder. */
  readonly cacheDir: string;
  /** Per-attempt timeout and sleep of the count client (tests). */
  readonly countClient?: Pick<CountClientOptions, "timeoutMs" | "sleep">;
}

/**
 * Fits and writes a calibration.
 *
 * @param options Provider, model, corpus, sample size, seed, output, cache.
 * @param io Environment, progress, paths.
 * @returns The outcome (exit 1 when too few counts were had to fit).
 * @throws {UsageError} On a bad provider, model or corpus.
 */
export async function runCalibrateTokens(
  options: CalibrateTokensOptions,
  io: Pick<FlowIo, "env" | "progress" | "displayPath">,
): Promise<FlowOutcome> {
  const [target] = parseCountTargets([`${options.provider}:${options.model}`]);
  const provider: BillingProvider = target.provider;
  const corpus = await loadCatalog(options.corpus).catch((error) => {
    throw new UsageError(`--corpus ${options.corpus}: ${(error as Error).message}`);
  });
  const n = Math.min(options.sample ?? 40, corpus.tools.length);
  const picked = sampleSubset(corpus.tools, n, createRng(options.seed));
  const format = BILLING_FORMAT[provider];
  const client = createCountClient({
    ...options.countClient,
    env: io.env(),
    cacheDir: options.cacheDir,
  });
  io.progress("calibrate-tokens", `${n + 1} count requests to ${provider}:${target.model}`);
  const stderr: string[] = [];
  let none: number;
  try {
    none = (await client.count(provider, target.model, undefined)).tokens;
  } catch (error) {
    return {
      stdout: [],
      stderr: [`not measured: ${(error as CountError).message}`],
      exitCode: 1,
    };
  }
  const samples: CalibrationSample[] = [];
  for (const [i, tool] of picked.entries()) {
    const [shaped] = shapeTools([tool], format);
    try {
      const r = await client.count(provider, target.model, sentTools([shaped], format));
      const share = toolsShare(r.tokens, none);
      if (!("tokens" in share)) {
        stderr.push(`${tool.id}: not measured: ${share.reason}`);
        continue;
      }
      const f = providerFeatures(provider, [shaped]);
      samples.push({
        tool: tool.id,
        tokens: share.tokens,
        features: addFeatures(f.perTool[0], f.wrapper),
      });
    } catch (error) {
      stderr.push(`${tool.id}: not measured: ${(error as Error).message}`);
      // An endpoint that hung is down for the run: the tools left are not asked.
      if (error instanceof CountError && error.code === "timeout" && i + 1 < n) {
        stderr.push(`${n - i - 1} tool(s) left not measured: the count endpoint is down`);
        break;
      }
    }
  }
  let fit;
  try {
    fit = fitEntry(provider, target.model, samples);
  } catch (error) {
    return { stdout: [], stderr: [...stderr, (error as Error).message], exitCode: 1 };
  }
  const calibration: Calibration = {
    ...DEFAULT_CALIBRATION,
    name: `fitted: ${provider} ${target.model} on ${samples.length} tools of ${corpus.id}`,
    method: `Least squares of the ${provider} count_tokens of ${samples.length} tools (each ` +
      `alone, less the request without tools) on the estimator's features; the interval is the ` +
      `5th-95th percentile of measured/fitted. Other providers and models keep the default ` +
      `entries. Default method: ${DEFAULT_CALIBRATION.method}`,
    sources: [
      {
        id: "fit",
        title: `${provider} count endpoint, ${target.model}, ${samples.length} tools of ` +
          `${corpus.id} (seed ${options.seed})`,
        url: io.displayPath(options.corpus),
        usedFor: "the fitted entry's intercept, coefficients and interval",
      },
      ...DEFAULT_CALIBRATION.sources,
    ],
    entries: [fit.entry, ...DEFAULT_CALIBRATION.entries],
  };
  await writeAtomic(options.out, `${JSON.stringify(calibration, null, 2)}\n`);
  const e = fit.entry;
  return {
    stdout: [
      `${provider} ${target.model}: overhead ${e.intercept.mid.toFixed(0)} tokens; ${
        Object.entries(e.coefficients).map(([k, c]) =>
          `${k} ${c.mid.toFixed(3)} [${c.low.toFixed(3)}-${c.high.toFixed(3)}]`
        ).join(", ")
      }`,
      `median |error| on the sample ${(fit.medianAbsError * 100).toFixed(1)}%; ${client.sent()} ` +
      `request(s) sent, ${client.hits()} from the cache`,
      `wrote ${io.displayPath(options.out)} (use: deno task bench --calibration ${
        io.displayPath(options.out)
      })`,
    ],
    stderr,
    exitCode: 0,
  };
}
