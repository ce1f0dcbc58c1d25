/**
 * The flow behind `deno task forecast`: one run folder, optionally a price file, and the
 * forecast of N questions per agent as console text or JSON.
 *
 * @module
 */
import { loadRun } from "../report/io.ts";
import {
  forecastDocument,
  forecastLines,
  forecastLoadedRun,
  type NotForecast,
  notForecastable,
} from "../report/mod.ts";
import { stableJson } from "../core/json.ts";
import type { Forecast, PriceOverrides } from "../agent/forecast.ts";
import { DEFAULT_FORECAST_RESAMPLES, parsePriceFile, priceableKeys } from "../agent/forecast.ts";
import type { LoadedRun } from "../report/mod.ts";
import { counted } from "../core/text.ts";
import { UsageError } from "../core/errors.ts";

/** What `deno task forecast` was asked for. */
export interface RunForecastFlowOptions {
  /** Run folder (holding `run.json` and `cases.jsonl`). */
  readonly run: string;
  /** Number of future questions (integer ≥ 1). */
  readonly questions: number;
  /** Only this agent; absent: every agent of the run. */
  readonly agentId?: string;
  /** Price file in the model registry's shape; absent: the run's prices. */
  readonly priceFile?: string;
  /** Bootstrap seed. @default {0} */
  readonly seed?: number;
  /** Bootstrap resamples. @default {DEFAULT_FORECAST_RESAMPLES} (2000) */
  readonly resamples?: number;
  /** Cases in flight for the wall-time total. @default {1} */
  readonly concurrency?: number;
  /** JSON (sorted keys, 8 decimals) instead of console lines. @default {false} */
  readonly json?: boolean;
}

/** What the flow produced. */
export interface ForecastOutcome {
  /** One forecast per agent. */
  readonly forecasts: readonly Forecast[];
  /** The text for stdout (ends in a newline). */
  readonly stdout: string;
  /** Non-fatal notes on the run folder (e.g. a torn last line). */
  readonly warnings: readonly string[];
}

async function readPrices(path: string): Promise<PriceOverrides> {
  let doc: unknown;
  try {
    doc = JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    throw new UsageError(`Cannot use price file "${path}": ${(e as Error).message}`);
  }
  try {
    return parsePriceFile(doc, path);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * Refuses a price file that names none of the models and tools the forecast agents' records
 * used: it would change nothing, and a forecast "under other prices" would be the run's own.
 */
function checkPricesApply(
  run: LoadedRun,
  prices: PriceOverrides,
  options: RunForecastFlowOptions,
): void {
  const only = options.agentId;
  const used = priceableKeys({
    records: only === undefined ? run.records : run.records.filter((r) => r.agentId === only),
    agents: run.agents.filter((a) => only === undefined || a.id === only),
    ...(run.criteria ? { criteria: run.criteria } : {}),
  });
  const fileModels = Object.keys(prices.models ?? {}).sort();
  const fileTools = Object.keys(prices.toolPrices ?? {}).sort();
  if (fileModels.some((m) => used.models.includes(m))) return;
  if (fileTools.some((t) => used.tools.includes(t))) return;
  const list = (items: readonly string[], noun: string) =>
    items.length === 0 ? `no ${noun}s` : `${noun}s ${items.map((i) => `"${i}"`).join(", ")}`;
  throw new UsageError(
    `--price-file ${options.priceFile} re-prices nothing in run "${run.runId}"${
      only === undefined ? "" : ` for agent "${only}"`
    }: it prices ${list(fileModels, "model")} and ${
      counted(fileTools.length, "tool")
    }; the run uses ${list(used.models, "model")} and ${list(used.tools.slice(0, 5), "tool")}${
      used.tools.length > 5 ? ` and ${used.tools.length - 5} more` : ""
    }`,
  );
}

/**
 * What the forecast rests on, checked before it is made: an agent whose every record is an
 * infrastructure error (nothing answered, so nothing measured what answering costs) is left out
 * with a warning, and refused when it is the only one asked for or the run has no other; an
 * unfinished run, a shard, and infrastructure errors among an agent's records are warnings.
 */
function basisProblems(
  run: LoadedRun,
  agentId: string | undefined,
): { warnings: string[]; ids: string[]; left: NotForecast[] } {
  const warnings: string[] = [];
  if (run.status !== "complete") {
    const have = new Set(
      run.records.map((r) => `${r.agentId}\u0000${r.caseId}\u0000${r.repetition}`),
    );
    warnings.push(
      `run "${run.runId}" has status "${run.status}" (${have.size} of ${run.plannedCases} planned case records): the forecast rests on the cases it has${
        run.status === "running" ? `; finish it with deno task agents --resume ${run.runId}` : ""
      }`,
    );
  } else if (run.shard !== null) {
    warnings.push(
      `run "${run.runId}" is shard ${run.shard}: the forecast rests on this shard's cases only (merge the shards with deno task merge)`,
    );
  }
  const asked = [...new Set(run.records.map((r) => r.agentId))].sort()
    .filter((id) => agentId === undefined || id === agentId);
  const left = notForecastable(run).filter((n) => asked.includes(n.agentId));
  const ids = asked.filter((id) => !left.some((n) => n.agentId === id));
  if (ids.length === 0) {
    const why = left.map((n) => `agent "${n.agentId}": ${n.reason}`).join("; ");
    const others = agentId !== undefined && notForecastable(run).length < new Set(
          run.records.map((r) => r.agentId),
        ).size;
    throw new UsageError(
      `Cannot forecast ${
        agentId === undefined ? `any agent of run "${run.runId}"` : `run "${run.runId}"`
      }: ${why}; fix the cause and rerun${others ? ", or pick another agent with --agent" : ""}`,
    );
  }
  for (const n of left) {
    warnings.push(
      `agent "${n.agentId}" is not forecast: ${n.reason}; fix the cause and rerun it`,
    );
  }
  for (const id of ids) {
    const mine = run.records.filter((r) => r.agentId === id);
    const infra = mine.filter((r) => r.passed === null);
    if (infra.length === 0) continue;
    const kinds = [...new Set(infra.map((r) => r.error?.kind ?? "unknown"))].sort().join(", ");
    warnings.push(
      `agent "${id}": ${infra.length} of ${
        counted(mine.length, "record")
      } are infrastructure errors (${kinds}); they count at what they cost, which may understate a question that gets answered`,
    );
  }
  return { warnings, ids, left };
}

/**
 * Reads the run (and price file), forecasts, and renders.
 *
 * @param options Run folder, N, agent, price file, seed, resamples, concurrency, JSON.
 * @returns The forecasts, the text to print and the run's warnings.
 * @throws {UsageError} on an unreadable or malformed price file, one that prices none of the
 *   models and tools the run used, an unknown agent, a run with no records, no agent asked for
 *   with a record that is not an infrastructure error (such agents are otherwise left out, with
 *   a warning and a line of output), or an option out of range.
 * @throws {RunInputError} on a missing or malformed run folder (lib/report).
 */
export async function runForecast(options: RunForecastFlowOptions): Promise<ForecastOutcome> {
  const prices = options.priceFile ? await readPrices(options.priceFile) : undefined;
  const run = await loadRun(options.run);
  if (prices !== undefined) checkPricesApply(run, prices, options);
  const known = run.records.some((r) =>
    options.agentId === undefined || r.agentId === options.agentId
  );
  // An unknown agent or an empty run: forecastLoadedRun below says which agents there are.
  const basis = known
    ? basisProblems(run, options.agentId)
    : { warnings: [], ids: options.agentId === undefined ? [] : [options.agentId], left: [] };
  let forecasts: Forecast[];
  try {
    forecasts = (basis.ids.length === 0 ? [undefined] : basis.ids).flatMap((agentId) =>
      forecastLoadedRun(run, {
        questions: options.questions,
        seed: options.seed ?? 0,
        resamples: options.resamples ?? DEFAULT_FORECAST_RESAMPLES,
        concurrency: options.concurrency ?? 1,
        ...(agentId === undefined ? {} : { agentId }),
        ...(prices ? { prices } : {}),
      })
    );
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  const stdout = options.json
    ? stableJson(forecastDocument(run, forecasts, options.priceFile ?? null, basis.left), {
      decimals: 8,
    })
    : [
      ...forecasts.flatMap((f) => forecastLines(run, f)),
      ...basis.left.map((n) => `${run.suiteId} / ${n.agentId}: not forecast: ${n.reason}`),
    ].join("\n") + "\n";
  return { forecasts, stdout, warnings: [...run.warnings, ...basis.warnings] };
}
