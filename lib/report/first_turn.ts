/**
 * A free calibration check on every agent run: the input of each case's first model request as
 * the provider billed it (`firstTurnInputTokens` of the records), set against the static
 * estimate of the same request (the agent's tool-use overhead, tools as sent and system prompt,
 * which the run records per agent, plus the case's question, estimated here with the same
 * calibration). Per run and agent: how many first requests, the measured median, the estimate's
 * median with its interval, the median ratio, and how many fell inside the interval.
 *
 * @module
 */
import { calibrationEntry, DEFAULT_CALIBRATION } from "../billing/estimate.ts";
import { estimateText, type RecordedEstimate } from "../billing/request_estimate.ts";
import { median } from "simple-statistics";
import type { LoadedRun } from "./runs.ts";

/** One run and agent of the check. */
export interface FirstTurnRow {
  /** Run id. */
  readonly runId: string;
  /** Agent id. */
  readonly agentId: string;
  /** Model named in the estimate (or the agent's registry id when none was recorded). */
  readonly model: string;
  /** Whether the run's model is a scripted stand-in (its usage is not a provider's bill). */
  readonly simulated: boolean;
  /** First requests with a reported input (the ratio and the interval count rest on these). */
  readonly cases: number;
  /** Median of the measured first-request inputs, tokens; `null` when none was reported. */
  readonly measured: number | null;
  /** Smallest and largest measured first-request input, tokens. */
  readonly measuredRange: readonly [number, number] | null;
  /** Median of the per-case static estimates, with the medians of their ends. */
  readonly estimate:
    | { readonly tokens: number; readonly low: number; readonly high: number }
    | null;
  /** Median of measured ÷ estimate over the cases. */
  readonly ratio: number | null;
  /** Cases whose measured input lies inside the estimate's interval. */
  readonly inside: number;
  /** What the estimate counts (as the run recorded it), or why there is none. */
  readonly includes: string;
  /** The same in a few words (`346 overhead + 36 tools + system prompt + question`). */
  readonly counts: string;
  /** The calibration of the estimate. */
  readonly calibration: string | null;
}

/**
 * The check for every run and agent that recorded an estimate or a first-request input.
 *
 * @param runs Loaded runs.
 * @returns Rows, run then agent order.
 */
export function firstTurnRows(runs: readonly LoadedRun[]): FirstTurnRow[] {
  const out: FirstTurnRow[] = [];
  for (const run of runs) {
    const agentIds = [...new Set(run.records.map((r) => r.agentId))].sort();
    for (const agentId of agentIds) {
      const recorded = run.catalogs[agentId]?.estimate as RecordedEstimate | undefined;
      const records = run.records.filter((r) =>
        r.agentId === agentId && typeof r.firstTurnInputTokens === "number"
      );
      if (recorded === undefined && records.length === 0) continue;
      const agent = run.agents.find((a) => a.id === agentId);
      const simulated = run.models?.find((m) => m.id === agent?.model)?.simulated === true;
      const base = {
        runId: run.runId,
        agentId,
        simulated,
        cases: records.length,
        measured: records.length === 0
          ? null
          : median(records.map((r) => r.firstTurnInputTokens as number)),
        measuredRange: records.length === 0 ? null : [
          Math.min(...records.map((r) => r.firstTurnInputTokens as number)),
          Math.max(...records.map((r) => r.firstTurnInputTokens as number)),
        ] as const,
      };
      if (recorded === undefined || "skipped" in recorded) {
        out.push({
          ...base,
          model: agent?.model ?? "",
          estimate: null,
          ratio: null,
          inside: 0,
          includes: recorded === undefined
            ? "no estimate recorded (a run made before estimates were recorded)"
            : `not estimated: ${recorded.skipped}`,
          counts: recorded === undefined ? "not recorded" : "not estimated",
          calibration: null,
        });
        continue;
      }
      const entry = calibrationEntry(DEFAULT_CALIBRATION, recorded.provider, recorded.model);
      const perCase = records.map((r) => {
        const question = run.questions?.[r.caseId] ?? "";
        const q = entry === undefined || question === ""
          ? { tokens: 0, low: 0, high: 0 }
          : estimateText(entry, question);
        const e = {
          tokens: recorded.tokens + q.tokens,
          low: recorded.low + q.low,
          high: recorded.high + q.high,
        };
        const m = r.firstTurnInputTokens as number;
        return { e, ratio: e.tokens > 0 ? m / e.tokens : null, inside: m >= e.low && m <= e.high };
      });
      const ratios = perCase.flatMap((c) => c.ratio === null ? [] : [c.ratio]);
      out.push({
        ...base,
        model: recorded.model ?? agent?.model ?? "",
        estimate: perCase.length === 0
          ? { tokens: recorded.tokens, low: recorded.low, high: recorded.high }
          : {
            tokens: median(perCase.map((c) => c.e.tokens)),
            low: median(perCase.map((c) => c.e.low)),
            high: median(perCase.map((c) => c.e.high)),
          },
        ratio: ratios.length === 0 ? null : median(ratios),
        inside: perCase.filter((c) => c.inside).length,
        includes: `${recorded.includes}${
          run.questions === undefined ? " (questions not recorded: not added)" : ""
        }`,
        counts: `${recorded.overhead} overhead + ${recorded.tools.count} tools + system prompt${
          run.questions === undefined ? "" : " + question"
        }`,
        calibration: recorded.calibration,
      });
    }
  }
  return out;
}

/** What the comparison dashboard says under the check's heading. */
export const FIRST_TURN_NOTE = "Each case's first model request, before any tool result: the " +
  "input tokens the provider billed for it (input, cache read and cache write, as the run " +
  "recorded them: measured) against the static estimate of the same request (estimated: the " +
  "agent's tool-use overhead, its tools as sent and its system prompt, recorded by the run from " +
  "the default calibration, plus the case's question). A ratio near 1 with most cases inside " +
  "the interval says the estimates of the bench's billed layer hold for this provider and " +
  "catalog; a run with a scripted model checks nothing (its usage is simulated).";
