/**
 * Cost prediction: the expected USD, tokens and wall time of N future questions like a suite's,
 * from one run's case records, with a seeded two-stage bootstrap interval (cases, then the
 * repetitions within each drawn case), split into agent, judge and tool costs, optionally
 * re-priced under other model or tool prices. Pure: records, configurations and prices come in,
 * a {@linkcode Forecast} comes out; provenance `estimated`.
 *
 * @module
 */

import { numberProblem } from "../core/numbers.ts";
import { quantileSorted } from "simple-statistics";
import { createRng } from "../stats/prng.ts";
import type {
  AgentConfig,
  CaseRecord,
  Criterion,
  ModelConfig,
  ModelPricing,
  ToolPrices,
} from "./types.ts";
import { agentPricing, usageCostUsd } from "./usage.ts";

/** The assumption every forecast rests on, stated next to its numbers. */
export const FORECAST_ASSUMPTION: string =
  "future questions are like the suite's: drawn from the same mix of cases, answered by the " +
  "same agent configuration with the same tools, at the prices shown; the interval covers the " +
  "uncertainty of the per-question mean from the cases and repetitions measured, not the " +
  "spread of a sum over N new questions (which shrinks relative to it as N grows)";

/** Default number of bootstrap resamples of {@linkcode forecastRun}. */
export const DEFAULT_FORECAST_RESAMPLES = 2000;

/** Other prices to re-price a run under: model registry pricing by model id, tool prices. */
export interface PriceOverrides {
  /** Model registry id → pricing (USD per million tokens); ids absent keep the run's prices. */
  readonly models?: Readonly<Record<string, ModelPricing>>;
  /** `server:tool` → USD per call; keys absent keep the run's prices. */
  readonly toolPrices?: ToolPrices;
}

/** Inputs of {@linkcode forecastRun}. */
export interface ForecastOptions {
  /** Case records of the run (any order; every agent's, {@linkcode agentId} selects). */
  readonly records: readonly CaseRecord[];
  /** Agent id to forecast. */
  readonly agentId: string;
  /** The agent's configuration as the run recorded it (its model, its prompt-caching TTL). */
  readonly agent?: Pick<AgentConfig, "model" | "promptCaching">;
  /** The run's model registry entries (for the agent's and the judges' prices). */
  readonly models?: readonly Pick<ModelConfig, "id" | "pricing">[];
  /** The run's tool prices (`server:tool` → USD per call). */
  readonly toolPrices?: ToolPrices;
  /** Case id → criterion, to find each case's judge model when re-pricing judges. */
  readonly criteria?: Readonly<Record<string, Criterion>>;
  /** Prices to use instead of the run's. */
  readonly prices?: PriceOverrides;
  /** Number of future questions, an integer ≥ 1. */
  readonly questions: number;
  /** Seed of the bootstrap (Mulberry32); recorded in the result. */
  readonly seed: number;
  /** Bootstrap resamples. @default {DEFAULT_FORECAST_RESAMPLES} */
  readonly resamples?: number;
  /** Interval coverage in (0, 1). @default {0.95} */
  readonly level?: number;
  /** Cases in flight at once for the wall-time total (the per-question mean ÷ this). @default {1} */
  readonly concurrency?: number;
}

/** One forecast quantity: per question, and for all N questions, with the interval of the total. */
export interface ForecastEstimate {
  /** Plug-in mean per question over the records that report it; `null` when none does. */
  readonly perQuestion: number | null;
  /** N × {@linkcode perQuestion}. */
  readonly total: number | null;
  /** Lower bound of the total's interval (N × the bootstrap quantile of the mean). */
  readonly lo: number | null;
  /** Upper bound of the total's interval. */
  readonly hi: number | null;
  /** Records that reported this quantity (the others are left out of its mean). */
  readonly records: number;
}

/** The USD quantities of a forecast. */
export interface ForecastUsd {
  /** Model tokens of the agent × its prices (judge excluded), USD. */
  readonly agent: ForecastEstimate;
  /** Judge tokens × the judge's prices, USD (0 for a case without `llm_judge`). */
  readonly judge: ForecastEstimate;
  /** Priced tool calls, USD. */
  readonly tool: ForecastEstimate;
  /**
   * The context-reduction summarizer's tokens × its prices, USD (0 for a case that did not
   * summarize; kept apart from the agent's cost as the record keeps it).
   */
  readonly summarizer: ForecastEstimate;
  /** agent + judge + tool + summarizer, USD (a record missing one part is left out). */
  readonly total: ForecastEstimate;
}

/** The token quantities of a forecast (agent's and judge's apart). */
export interface ForecastTokens {
  /** Uncached input tokens of the agent. */
  readonly input: ForecastEstimate;
  /** Output tokens of the agent. */
  readonly output: ForecastEstimate;
  /** Cache-read input tokens of the agent. */
  readonly cacheRead: ForecastEstimate;
  /** Cache-write input tokens of the agent. */
  readonly cacheWrite: ForecastEstimate;
  /** Judge input tokens. */
  readonly judgeInput: ForecastEstimate;
  /** Judge output tokens. */
  readonly judgeOutput: ForecastEstimate;
}

/** Where a forecast's prices came from. */
export interface ForecastPrices {
  /** The agent's model registry id, or `null` when the run did not record the agent. */
  readonly model: string | null;
  /** The agent's prices (after the prompt-caching TTL), or `null` when unknown. */
  readonly pricing: ModelPricing | null;
  /** `run`: the prices the run recorded; `override`: some came from {@linkcode PriceOverrides}. */
  readonly source: "run" | "override";
  /** Notes on how cost was obtained where prices were missing, sorted. */
  readonly notes: readonly string[];
}

/** A forecast for one agent. */
export interface Forecast {
  /** Always `estimated`: a model (resampling the suite) with the stated assumption. */
  readonly provenance: "estimated";
  /** {@linkcode FORECAST_ASSUMPTION}. */
  readonly assumption: string;
  /** Agent id. */
  readonly agentId: string;
  /** N. */
  readonly questions: number;
  /** Bootstrap seed (unsigned 32-bit). */
  readonly seed: number;
  /** Bootstrap resamples. */
  readonly resamples: number;
  /** Interval coverage, e.g. 0.95. */
  readonly level: number;
  /** Records, distinct cases and the most repetitions of one case the forecast rests on. */
  readonly basis: {
    readonly records: number;
    readonly cases: number;
    readonly maxRepetitions: number;
  };
  /** Prices used. */
  readonly prices: ForecastPrices;
  /** USD, by part. */
  readonly usd: ForecastUsd;
  /** Tokens, by part. */
  readonly tokens: ForecastTokens;
  /**
   * Wall time: ms per question, and ms for all N at `concurrency` cases in flight; records with
   * a model call answered from the response cache are left out (their time is not a latency).
   */
  readonly wallMs: ForecastEstimate;
  /** Cases in flight assumed for the wall-time total. */
  readonly concurrency: number;
}

/** The per-question quantities a forecast averages, in {@linkcode ForecastRow} order. */
export const FORECAST_METRICS = [
  "usdAgent",
  "usdJudge",
  "usdTool",
  "usdSummarizer",
  "usdTotal",
  "input",
  "output",
  "cacheRead",
  "cacheWrite",
  "judgeInput",
  "judgeOutput",
  "wallMs",
] as const;
/** One per-question quantity: USD by part, tokens by kind, wall time (ms). */
export type ForecastMetric = typeof FORECAST_METRICS[number];
/** One record's quantities (`null`: the record does not report it). */
export type ForecastRow = Readonly<Record<ForecastMetric, number | null>>;
const METRICS = FORECAST_METRICS;
type Metric = ForecastMetric;
type Row = ForecastRow;

function judgeModels(c: Criterion | undefined, out = new Set<string>()): Set<string> {
  if (c === undefined) return out;
  if (c.type === "llm_judge") {
    if (c.model !== undefined) out.add(c.model);
    c.judges?.forEach((j) => out.add(j));
  }
  if (c.type === "all" || c.type === "any") c.criteria.forEach((x) => judgeModels(x, out));
  return out;
}

/**
 * What a price file can change in a run: the model ids of its agents and of its judges (the
 * judge calls its records made, the models its `llm_judge` criteria name) and the `server:tool`
 * keys its records called. A {@linkcode PriceOverrides} none of whose keys is here re-prices
 * nothing.
 *
 * @param input The run's records, its agents (`id`, `model`) and its criteria by case id.
 * @returns Model ids and tool keys, each sorted (UTF-16 order), without repeats.
 */
export function priceableKeys(input: {
  readonly records: readonly CaseRecord[];
  readonly agents: readonly Pick<AgentConfig, "model">[];
  readonly criteria?: Readonly<Record<string, Criterion>>;
}): { models: string[]; tools: string[] } {
  const models = new Set(input.agents.map((a) => a.model));
  const tools = new Set<string>();
  for (const r of input.records) {
    for (const v of r.judgeVerdicts ?? []) models.add(v.model);
    judgeModels(input.criteria?.[r.caseId], models);
    for (const c of r.toolCalls) if (c.tool !== null) tools.add(c.tool);
  }
  return { models: [...models].sort(), tools: [...tools].sort() };
}

/**
 * Turns each record into the per-question quantities (USD by part, tokens, wall time) under the
 * prices given. Agent USD = usage × the agent's prices (after its prompt-caching TTL), or, when
 * the run recorded no price for the model, the record's `costUsd` minus its tool cost; tool USD
 * = Σ over calls routed to a `server:tool` of its price (as the run priced them: `via` calls
 * included); judge USD = the record's judge cost, re-priced call by call from its
 * `judgeVerdicts` (model and tokens of each judge call) where an override prices that model, or,
 * in records without verdicts, from its judge tokens when the case has one judge model.
 *
 * @param options Records, agent, models, tool prices, criteria and overrides (questions and seed
 *   are not used).
 * @returns One row per record of the agent, and the price notes.
 */
export function forecastRows(
  options: Omit<ForecastOptions, "questions" | "seed">,
): { rows: ForecastRow[]; prices: ForecastPrices } {
  const notes = new Set<string>();
  const runPricing = new Map((options.models ?? []).map((m) => [m.id, m.pricing]));
  const over = options.prices?.models ?? {};
  const priceOf = (id: string): ModelPricing | undefined => over[id] ?? runPricing.get(id);
  const toolPrice = (tool: string) =>
    options.prices?.toolPrices?.[tool] ?? options.toolPrices?.[tool] ?? 0;
  const modelId = options.agent?.model ?? null;
  const base = modelId === null ? undefined : priceOf(modelId);
  const pricing = options.agent && base ? agentPricing(options.agent, base) ?? null : null;
  if (modelId === null) notes.add("the run did not record the agent: agent USD as recorded");
  else if (base === undefined) {
    notes.add(`no price for model "${modelId}": agent USD as recorded`);
  }
  const overridden = (modelId !== null && over[modelId] !== undefined) ||
    Object.keys(options.prices?.toolPrices ?? {}).length > 0;
  const rows = options.records.filter((r) => r.agentId === options.agentId).map((r): Row => {
    const usdTool = r.toolCalls.reduce((s, c) => s + (c.tool === null ? 0 : toolPrice(c.tool)), 0);
    const recordedTool = r.toolCalls.reduce(
      (s, c) => s + (c.tool === null ? 0 : options.toolPrices?.[c.tool] ?? 0),
      0,
    );
    const usage = {
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      cacheReadTokens: r.cacheReadTokens,
      cacheWriteTokens: r.cacheWriteTokens,
    };
    const usdAgent = pricing !== null
      ? usageCostUsd(usage, pricing)
      : r.costUsd === null
      ? null
      : r.costUsd - recordedTool;
    let usdJudge: number | null = 0;
    const verdicts = r.judgeVerdicts ?? [];
    if (r.judge !== null && verdicts.length > 0) {
      // Each judge call's tokens and model are recorded: re-price call by call.
      const costs = verdicts.map((v) =>
        over[v.model] === undefined ? v.costUsd : usageCostUsd({
          inputTokens: v.inputTokens,
          outputTokens: v.outputTokens,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        }, over[v.model])
      );
      usdJudge = costs.includes(null) ? null : (costs as number[]).reduce((a, b) => a + b, 0);
    } else if (r.judge !== null) {
      usdJudge = r.judge.costUsd;
      const judges = judgeModels(options.criteria?.[r.caseId]);
      const only = judges.size === 1 ? [...judges][0] : undefined;
      if (only !== undefined && over[only] !== undefined) {
        usdJudge = usageCostUsd({
          inputTokens: r.judge.inputTokens,
          outputTokens: r.judge.outputTokens,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        }, over[only]);
      } else if (judges.size > 1 && [...judges].some((j) => over[j] !== undefined)) {
        notes.add(`case "${r.caseId}" has several judge models: its judge USD as recorded`);
      }
    }
    const sum = r.summarizer;
    const usdSummarizer = sum === undefined
      ? 0
      : over[sum.model] === undefined
      ? sum.costUsd
      : usageCostUsd({
        inputTokens: sum.inputTokens,
        outputTokens: sum.outputTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      }, over[sum.model]);
    const usdTotal = usdAgent === null || usdJudge === null || usdSummarizer === null
      ? null
      : usdAgent + usdJudge + usdTool + usdSummarizer;
    return {
      usdAgent,
      usdJudge,
      usdTool,
      usdSummarizer,
      usdTotal,
      input: r.inputTokens,
      output: r.outputTokens,
      cacheRead: r.cacheReadTokens,
      cacheWrite: r.cacheWriteTokens,
      judgeInput: r.judge === null ? 0 : r.judge.inputTokens,
      judgeOutput: r.judge === null ? 0 : r.judge.outputTokens,
      // A record answered from the response cache has no real latency (as in the summary's p50).
      wallMs: r.cachedModelCalls > 0 ? null : r.wallMs,
    };
  });
  return {
    rows,
    prices: {
      model: modelId,
      pricing,
      source: overridden ? "override" : "run",
      notes: [...notes].sort(),
    },
  };
}

/**
 * Forecasts N questions like the suite's for one agent of a run.
 *
 * Point estimate: the plug-in mean per question over the agent's records (each record, i.e.
 * case × repetition, weighs the same; errored records count, with what they cost; a record that
 * does not report a quantity is left out of that quantity's mean), times N. Interval: a two-stage percentile bootstrap: each resample
 * draws as many cases as were measured, with replacement, then, within each drawn case, as many
 * of its records as it has, with replacement (no draw for a case with one record); the
 * (1 − level)/2 and (1 + level)/2 quantiles (simple-statistics `quantileSorted`, R type 7) of
 * the resampled means, times N. Draws come from Mulberry32 seeded with `seed`, cases in id order,
 * records in repetition order, so the same inputs give the same numbers everywhere. With one
 * record per case it is exactly {@linkcode bootstrapMeanCi}'s interval (same seed and count).
 *
 * @param options See {@linkcode ForecastOptions}.
 * @returns The forecast.
 * @throws {RangeError} when the agent has no records, `questions` is not an integer ≥ 1,
 *   `resamples` not an integer ≥ 1, `level` outside (0, 1), or `concurrency` not an integer ≥ 1.
 *
 * @example Usage
 * ```ts
 * import { forecastRun } from "./forecast.ts";
 * const rec = (caseId: string, costUsd: number) => ({ agentId: "a", caseId, repetition: 0,
 *   passed: true, criterion: null, finalAnswer: "x", wallMs: 100, llmMs: 90, toolMs: 0,
 *   iterations: 1, inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0,
 *   cacheWriteTokens: 0, peakContextTokens: 1000, toolCalls: [], costUsd, judge: null,
 *   error: null, cachedModelCalls: 0, usageNotes: [] });
 * const f = forecastRun({ records: [rec("c1", 0.01), rec("c2", 0.03)], agentId: "a",
 *   questions: 1000, seed: 7 });
 * if (Math.abs(f.usd.total.total! - 20) > 1e-9) throw new Error(String(f.usd.total.total));
 * if (!(f.usd.total.lo! <= 20 && 20 <= f.usd.total.hi!)) throw new Error("interval");
 * ```
 */
export function forecastRun(options: ForecastOptions): Forecast {
  const resamples = options.resamples ?? DEFAULT_FORECAST_RESAMPLES;
  const level = options.level ?? 0.95;
  const concurrency = options.concurrency ?? 1;
  const n = options.questions;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`Cannot forecast: questions must be an integer >= 1, got ${n}`);
  }
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(`Cannot forecast: resamples must be an integer >= 1, got ${resamples}`);
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(`Cannot forecast: level must be in (0, 1), got ${level}`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `Cannot forecast: concurrency must be an integer >= 1, got ${concurrency}`,
    );
  }
  const mine = options.records.filter((r) => r.agentId === options.agentId);
  if (mine.length === 0) {
    throw new RangeError(
      `Cannot forecast agent "${options.agentId}": the run has no records of it`,
    );
  }
  // Cases in id order, records in repetition order: the draw order is part of the contract.
  const sorted = [...mine].sort((a, b) =>
    a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : a.repetition - b.repetition
  );
  const { rows, prices } = forecastRows({ ...options, records: sorted });
  const groups: Row[][] = [];
  let last: string | null = null;
  sorted.forEach((r, i) => {
    if (r.caseId !== last) groups.push([]);
    groups[groups.length - 1].push(rows[i]);
    last = r.caseId;
  });

  const sums = () => Object.fromEntries(METRICS.map((m) => [m, { sum: 0, count: 0 }]));
  const add = (acc: Record<string, { sum: number; count: number }>, row: Row) => {
    for (const m of METRICS) {
      const v = row[m];
      if (v !== null) {
        acc[m].sum += v;
        acc[m].count += 1;
      }
    }
  };
  const plug = sums();
  rows.forEach((row) => add(plug, row));
  const draws: Record<string, number[]> = Object.fromEntries(METRICS.map((m) => [m, []]));
  const rng = createRng(options.seed);
  for (let b = 0; b < resamples; b++) {
    const acc = sums();
    for (let k = 0; k < groups.length; k++) {
      const g = groups[rng.int(groups.length)];
      if (g.length === 1) add(acc, g[0]);
      else for (let j = 0; j < g.length; j++) add(acc, g[rng.int(g.length)]);
    }
    for (const m of METRICS) if (acc[m].count > 0) draws[m].push(acc[m].sum / acc[m].count);
  }
  const estimate = (m: Metric, scale = n): ForecastEstimate => {
    const { sum, count } = plug[m];
    if (count === 0) return { perQuestion: null, total: null, lo: null, hi: null, records: 0 };
    const d = draws[m].sort((x, y) => x - y);
    return {
      perQuestion: sum / count,
      total: (sum / count) * scale,
      lo: quantileSorted(d, (1 - level) / 2) * scale,
      hi: quantileSorted(d, (1 + level) / 2) * scale,
      records: count,
    };
  };
  return {
    provenance: "estimated",
    assumption: FORECAST_ASSUMPTION,
    agentId: options.agentId,
    questions: n,
    seed: rng.seed,
    resamples,
    level,
    basis: {
      records: rows.length,
      cases: groups.length,
      maxRepetitions: Math.max(...groups.map((g) => g.length)),
    },
    prices,
    usd: {
      agent: estimate("usdAgent"),
      judge: estimate("usdJudge"),
      tool: estimate("usdTool"),
      summarizer: estimate("usdSummarizer"),
      total: estimate("usdTotal"),
    },
    tokens: {
      input: estimate("input"),
      output: estimate("output"),
      cacheRead: estimate("cacheRead"),
      cacheWrite: estimate("cacheWrite"),
      judgeInput: estimate("judgeInput"),
      judgeOutput: estimate("judgeOutput"),
    },
    wallMs: estimate("wallMs", n / concurrency),
    concurrency,
  };
}

/**
 * Reads a price file: the model registry's shape (`{models: [{id, pricing, ...}]}`, other fields
 * of an entry ignored, so a whole `models.json` works) and optionally `toolPrices`
 * (`{"server:tool": usdPerCall}`). Prices are USD per million tokens, ≥ 0; `inputUsdPerMTok` is
 * required, the others default as in the registry (output and cache prices 0).
 *
 * @param input Parsed JSON.
 * @param source File name for messages.
 * @returns The overrides.
 * @throws {TypeError} naming the file and field on any other shape.
 *
 * @example Usage
 * ```ts
 * import { parsePriceFile } from "./forecast.ts";
 * const p = parsePriceFile({ models: [{ id: "m", pricing: { inputUsdPerMTok: 1 } }] }, "p.json");
 * if (p.models?.m.outputUsdPerMTok !== 0) throw new Error("unexpected");
 * ```
 */
export function parsePriceFile(input: unknown, source: string): PriceOverrides {
  const fail = (field: string, problem: string): never => {
    throw new TypeError(`Cannot use price file "${source}": field "${field}" ${problem}`);
  };
  const shown = (v: unknown) => typeof v === "number" ? String(v) : JSON.stringify(v);
  const isObj = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObj(input)) fail("", "must be a JSON object");
  const doc = input as Record<string, unknown>;
  for (const k of Object.keys(doc)) {
    if (!["$schema", "models", "toolPrices"].includes(k)) fail(k, "is not a known field");
  }
  if (doc.models === undefined && doc.toolPrices === undefined) {
    fail("models", "is required (or toolPrices)");
  }
  const models: Record<string, ModelPricing> = {};
  if (doc.models !== undefined) {
    if (!Array.isArray(doc.models)) fail("models", "must be an array");
    (doc.models as unknown[]).forEach((m, i) => {
      if (!isObj(m)) fail(`models[${i}]`, "must be an object");
      const e = m as Record<string, unknown>;
      if (typeof e.id !== "string" || e.id === "") fail(`models[${i}].id`, "must be a string");
      if (!isObj(e.pricing)) fail(`models[${i}].pricing`, "must be an object");
      const p = e.pricing as Record<string, unknown>;
      const keys = [
        "inputUsdPerMTok",
        "outputUsdPerMTok",
        "cacheReadUsdPerMTok",
        "cacheWriteUsdPerMTok",
        "cacheWrite1hUsdPerMTok",
      ];
      for (const k of Object.keys(p)) {
        if (!keys.includes(k)) fail(`models[${i}].pricing.${k}`, "is not a known field");
        const v = p[k];
        if (numberProblem(v, { min: 0 }) !== undefined) {
          fail(`models[${i}].pricing.${k}`, `must be a number >= 0, got ${shown(v)}`);
        }
      }
      if (p.inputUsdPerMTok === undefined) {
        fail(`models[${i}].pricing.inputUsdPerMTok`, "is required");
      }
      if (models[e.id as string] !== undefined) fail(`models[${i}].id`, `duplicate id "${e.id}"`);
      models[e.id as string] = {
        inputUsdPerMTok: p.inputUsdPerMTok as number,
        outputUsdPerMTok: (p.outputUsdPerMTok as number | undefined) ?? 0,
        cacheReadUsdPerMTok: (p.cacheReadUsdPerMTok as number | undefined) ?? 0,
        cacheWriteUsdPerMTok: (p.cacheWriteUsdPerMTok as number | undefined) ?? 0,
        ...(p.cacheWrite1hUsdPerMTok === undefined
          ? {}
          : { cacheWrite1hUsdPerMTok: p.cacheWrite1hUsdPerMTok as number }),
      };
    });
  }
  const toolPrices: Record<string, number> = {};
  if (doc.toolPrices !== undefined) {
    if (!isObj(doc.toolPrices)) fail("toolPrices", "must be an object");
    for (const [k, v] of Object.entries(doc.toolPrices as Record<string, unknown>)) {
      if (!/^[^:]+:.+$/.test(k)) fail(`toolPrices.${k}`, "must be named server:tool");
      if (numberProblem(v, { min: 0 }) !== undefined) {
        fail(`toolPrices.${k}`, `must be a number >= 0, got ${shown(v)}`);
      }
      toolPrices[k] = v as number;
    }
  }
  return { models, toolPrices };
}
