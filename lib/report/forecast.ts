/**
 * Forecasts over a loaded run folder (`deno task forecast`, the comparison dashboard): one
 * {@linkcode Forecast} per agent of the run, its JSON document and its console lines. Pure:
 * the run comes in loaded (`loadRun` in `io.ts`).
 *
 * @module
 */
import {
  DEFAULT_FORECAST_RESAMPLES,
  type Forecast,
  type ForecastEstimate,
  forecastRun,
  type PriceOverrides,
} from "../agent/forecast.ts";
import type { LoadedRun } from "./runs.ts";
import { duration } from "../core/text.ts";

/** Version of the `deno task forecast --json` document. */
export const FORECAST_SCHEMA_VERSION = 1;

/** Options of {@linkcode forecastLoadedRun}. */
export interface RunForecastOptions {
  /** Number of future questions (integer ≥ 1). */
  readonly questions: number;
  /** Bootstrap seed. @default {0} */
  readonly seed?: number;
  /** Only this agent; absent: every agent of the run, by id. */
  readonly agentId?: string;
  /** Prices instead of the run's. */
  readonly prices?: PriceOverrides;
  /** Bootstrap resamples. @default {DEFAULT_FORECAST_RESAMPLES} */
  readonly resamples?: number;
  /** Cases in flight for the wall-time total. @default {1} */
  readonly concurrency?: number;
}

/** An agent of a run that cannot be forecast, and why. */
export interface NotForecast {
  /** The agent. */
  readonly agentId: string;
  /** Why, in a phrase that follows the agent's name. */
  readonly reason: string;
}

/**
 * The agents of a run that cannot be forecast: those whose every record is an infrastructure
 * error (nothing answered, so nothing measured what answering costs). One rule for
 * `deno task forecast` and the comparison dashboard.
 *
 * @param run A loaded run folder.
 * @returns One entry per such agent, sorted by agent id.
 */
export function notForecastable(run: LoadedRun): NotForecast[] {
  const ids = [...new Set(run.records.map((r) => r.agentId))].sort();
  return ids.flatMap((agentId) => {
    const mine = run.records.filter((r) => r.agentId === agentId);
    if (mine.some((r) => r.passed !== null)) return [];
    const kinds = [...new Set(mine.map((r) => r.error?.kind ?? "unknown"))].sort().join(", ");
    return [{
      agentId,
      reason: `${
        mine.length === 1
          ? "its one record is an infrastructure error"
          : `all ${mine.length} records are infrastructure errors`
      } (${kinds}), so nothing measured what answering costs`,
    }];
  });
}

/**
 * Forecasts N questions for each agent of a run (or one).
 *
 * @param run A loaded run folder.
 * @param options N, seed, agent, prices, resamples, concurrency.
 * @returns One forecast per agent, sorted by agent id.
 * @throws {RangeError} when the run has no records, `agentId` is not in it (the message lists
 *   the agents it has), or an option is out of range (see `forecastRun`).
 */
export function forecastLoadedRun(run: LoadedRun, options: RunForecastOptions): Forecast[] {
  const ids = [...new Set(run.records.map((r) => r.agentId))].sort();
  if (ids.length === 0) {
    throw new RangeError(`Cannot forecast run "${run.runId}": it has no case records`);
  }
  if (options.agentId !== undefined && !ids.includes(options.agentId)) {
    throw new RangeError(
      `Cannot forecast agent "${options.agentId}": run "${run.runId}" has ${ids.join(", ")}`,
    );
  }
  return (options.agentId === undefined ? ids : [options.agentId]).map((agentId) => {
    const agent = run.agents.find((a) => a.id === agentId);
    return forecastRun({
      records: run.records,
      agentId,
      ...(agent ? { agent } : {}),
      ...(run.models ? { models: run.models } : {}),
      ...(run.toolPrices ? { toolPrices: run.toolPrices } : {}),
      ...(run.criteria ? { criteria: run.criteria } : {}),
      ...(options.prices ? { prices: options.prices } : {}),
      questions: options.questions,
      seed: options.seed ?? 0,
      resamples: options.resamples ?? DEFAULT_FORECAST_RESAMPLES,
      concurrency: options.concurrency ?? 1,
    });
  });
}

/**
 * The `--json` document: schema version, task, the run it rests on, and the forecasts.
 * Deterministic for the same run, options and seed (no clock).
 *
 * @param run The run.
 * @param forecasts From {@linkcode forecastLoadedRun}.
 * @param priceFile Path of the price file used, or `null`.
 * @param notForecast The run's agents left out, and why ({@linkcode notForecastable}).
 * @returns A JSON-ready object.
 */
export function forecastDocument(
  run: LoadedRun,
  forecasts: readonly Forecast[],
  priceFile: string | null,
  notForecast: readonly NotForecast[] = [],
): Record<string, unknown> {
  return {
    schemaVersion: FORECAST_SCHEMA_VERSION,
    task: "tasks/forecast.ts",
    provenance: "estimated",
    run: { runId: run.runId, suiteId: run.suiteId, status: run.status, dir: run.dir },
    priceFile,
    forecasts,
    notForecast,
  };
}

const usd = (v: number | null) =>
  v === null
    ? "n/a"
    : v >= 100
    ? `$${v.toFixed(0)}`
    : v >= 1
    ? `$${v.toFixed(2)}`
    : `$${v.toPrecision(3)}`;
const count = (v: number | null) =>
  v === null
    ? "n/a"
    : v >= 1e9
    ? `${(v / 1e9).toFixed(2)}G`
    : v >= 1e6
    ? `${(v / 1e6).toFixed(2)}M`
    : v >= 1e3
    ? `${(v / 1e3).toFixed(1)}k`
    : v.toFixed(0);
const wall = (ms: number | null) => ms === null ? "n/a" : duration(ms);
const withCi = (e: ForecastEstimate, f: (v: number | null) => string) =>
  e.total === null ? "n/a" : `${f(e.total)} [${f(e.lo)}, ${f(e.hi)}]`;

/**
 * Console lines of a forecast: what it rests on, USD by part, tokens, wall time and the
 * assumption, each total with its interval in brackets.
 *
 * @param run The run (for the suite id).
 * @param f One forecast.
 * @returns Lines without newlines.
 */
export function forecastLines(run: LoadedRun, f: Forecast): string[] {
  const pct = `${Math.round(f.level * 100)}%`;
  const b = f.basis;
  const simulated = run.models?.find((m) => m.id === f.prices.model)?.simulated === true;
  return [
    `${run.suiteId} / ${f.agentId}: ${
      f.questions.toLocaleString("en-US")
    } questions like the suite's` +
    ` (from ${b.records} records: ${b.cases} cases, up to ${b.maxRepetitions} repetitions)`,
    `  USD     total ${withCi(f.usd.total, usd)}  agent ${withCi(f.usd.agent, usd)}  judge ${
      withCi(f.usd.judge, usd)
    }  tool ${withCi(f.usd.tool, usd)}${
      f.usd.summarizer.total ? `  summarizer ${withCi(f.usd.summarizer, usd)}` : ""
    }${simulated ? "  (simulated: a scripted model answered the run; no provider bills it)" : ""}`,
    `  tokens  input ${withCi(f.tokens.input, count)}  output ${withCi(f.tokens.output, count)}` +
    `  cache read ${count(f.tokens.cacheRead.total)}  cache write ${
      count(f.tokens.cacheWrite.total)
    }` +
    `  judge ${count(f.tokens.judgeInput.total)} in / ${count(f.tokens.judgeOutput.total)} out`,
    `  wall    ${withCi(f.wallMs, wall)} at ${f.concurrency} case${
      f.concurrency === 1 ? "" : "s"
    } in flight`,
    `  prices  ${f.prices.source === "run" ? "as the run recorded them" : "from the price file"}${
      f.prices.model === null ? "" : ` (agent model "${f.prices.model}")`
    }${f.prices.notes.length > 0 ? `; ${f.prices.notes.join("; ")}` : ""}`,
    `  estimated: [${pct} interval, seeded bootstrap over cases and repetitions, seed ${f.seed}, ${f.resamples} resamples]; assumes ${f.assumption}`,
  ];
}
