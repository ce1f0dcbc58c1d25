/**
 * Per-agent summary of a run's case records: pass rate with its 95% Wilson interval, pass@k
 * and pass^k over repetitions, latency percentiles, tokens, cost, tool calls, error and
 * iteration-limit rates. Pure; the order of records does not matter.
 *
 * @module
 */

import { byKeys } from "../core/order.ts";
import { columnsCsv, type CsvColumn } from "../core/csv.ts";
import { wilsonInterval } from "../stats/wilson.ts";
import { passAtK, passHatK } from "../stats/pass_at_k.ts";
import { percentileNearestRank } from "../stats/percentile.ts";
import type { CaseRecord } from "./types.ts";
import { judgeAgreement } from "./judge_agreement.ts";

/** One summary row (one agent). Rates are fractions in [0, 1]; `null` means "no data". */
export interface AgentSummary {
  /** Agent id. */
  readonly agentId: string;
  /** Records of this agent (all outcomes). */
  readonly records: number;
  /** Records with a verdict (infrastructure errors excluded): the pass-rate denominator. */
  readonly scored: number;
  /** Scored records that passed. */
  readonly passed: number;
  /** passed / scored. */
  readonly passRate: number | null;
  /** 95% Wilson interval of the pass rate (Wilson 1927). */
  readonly passRateLo: number | null;
  /** Upper bound of the 95% Wilson interval. */
  readonly passRateHi: number | null;
  /** k of pass@k and pass^k: the smallest number of scored repetitions over cases. */
  readonly k: number | null;
  /** Mean over cases of unbiased pass@k (Chen et al. 2021). */
  readonly passAtK: number | null;
  /** Mean over cases of pass^k (Yao et al. 2024). */
  readonly passHatK: number | null;
  /** Nearest-rank p50 of `wallMs` over records that made no cached model call, ms. */
  readonly wallP50Ms: number | null;
  /** Nearest-rank p95 of `wallMs`, same records, ms. */
  readonly wallP95Ms: number | null;
  /** Mean uncached input tokens over records that report them. */
  readonly meanInputTokens: number | null;
  /** Mean output tokens over records that report them. */
  readonly meanOutputTokens: number | null;
  /** Mean agent cost per record that reports one, USD (judge excluded). */
  readonly meanCostUsd: number | null;
  /** Total agent cost, USD (judge excluded). */
  readonly totalCostUsd: number;
  /** Total judge cost, USD (kept apart). */
  readonly judgeCostUsd: number;
  /** Judge input tokens summed over records (kept apart from the agent's). */
  readonly judgeInputTokens: number;
  /** Judge output tokens summed over records. */
  readonly judgeOutputTokens: number;
  /** Records that ended in a judge error (judge endpoint failed or gave no usable verdict). */
  readonly judgeErrors: number;
  /**
   * `llm_judge` criteria scored by two or more judges (a judge panel), over the agent's
   * records; 0 without a panel.
   */
  readonly judgePanelItems: number;
  /**
   * Mean share of judge pairs agreeing per panel item (two judges: the share of items they
   * agree on); `null` without panel items.
   */
  readonly judgeAgreement: number | null;
  /** Cohen's kappa of the two judges when the panel has exactly two; else `null`. */
  readonly judgeKappa: number | null;
  /** Panel items on which judges disagree (listed in `disagreements.csv`). */
  readonly judgeDisagreements: number;
  /** Tool calls the model made, per record (upstream calls made `via` a proxy or code host excluded). */
  readonly toolCallsPerCase: number | null;
  /** Share of the model's tool calls that errored. */
  readonly toolErrorRate: number | null;
  /** Infrastructure errors / records. */
  readonly errorRate: number | null;
  /** Iteration-limit failures / scored records. */
  readonly iterationLimitRate: number | null;
  /** Retries after tool errors the loop ran, summed over records (see `retryOnToolError`). */
  readonly toolRetries: number;
  /** Share of those retries that returned a result without error; `null` with no retry. */
  readonly toolRetrySuccessRate: number | null;
  /** Calls not run because `retryOnToolError` retries were used up, summed over records. */
  readonly toolRetriesRefused: number;
  /**
   * Mean over records with a context strategy of the context tokens it saved (computed; see
   * `CaseRecord.context`); `null` when no record has one.
   */
  readonly meanContextTokensSaved: number | null;
  /** Summarizer input tokens summed over records (kept apart from the agent's). */
  readonly summarizerInputTokens: number;
  /** Summarizer output tokens summed over records. */
  readonly summarizerOutputTokens: number;
  /** Summarizer cost summed over records, USD (kept apart from `totalCostUsd`). */
  readonly summarizerCostUsd: number;
}

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
const nonNull = <T>(xs: readonly (T | null)[]) => xs.filter((x): x is T => x !== null);

/**
 * Summarizes case records per agent.
 *
 * Definitions: a record is *scored* when `passed` is not `null`; infrastructure errors
 * (`model`, `timeout`, `mcp`, `judge`) are unscored and counted in `errorRate`. For pass@k and
 * pass^k, each case's scored repetitions n and passes c give an estimate with k = the smallest
 * n over the agent's cases; cases are averaged with equal weight.
 *
 * @param records Case records of one run (any order).
 * @returns One row per agent, sorted by `agentId`.
 *
 * @example Usage
 * ```ts
 * import { summarizeRecords } from "./summary.ts";
 * const base = { caseId: "c", criterion: null, finalAnswer: "x", wallMs: 10, llmMs: 8, toolMs: 1,
 *   iterations: 1, inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0,
 *   peakContextTokens: 100, toolCalls: [], costUsd: 0.001, judge: null, error: null,
 *   cachedModelCalls: 0, usageNotes: [] };
 * const [row] = summarizeRecords([
 *   { ...base, agentId: "a", repetition: 0, passed: true },
 *   { ...base, agentId: "a", repetition: 1, passed: false },
 * ]);
 * if (row.passRate !== 0.5 || row.k !== 2 || row.passAtK !== 1 || row.passHatK !== 0) throw new Error();
 * ```
 */
export function summarizeRecords(records: readonly CaseRecord[]): AgentSummary[] {
  const byAgent = new Map<string, CaseRecord[]>();
  for (const r of records) {
    const list = byAgent.get(r.agentId) ?? [];
    list.push(r);
    byAgent.set(r.agentId, list);
  }
  const ids = [...byAgent.keys()].sort();
  return ids.map((agentId): AgentSummary => {
    const rs = byAgent.get(agentId)!;
    const scored = rs.filter((r) => r.passed !== null);
    const passed = scored.filter((r) => r.passed === true).length;
    const w = scored.length > 0 ? wilsonInterval(passed, scored.length) : null;
    const perCase = new Map<string, { n: number; c: number }>();
    for (const r of scored) {
      const s = perCase.get(r.caseId) ?? { n: 0, c: 0 };
      s.n += 1;
      if (r.passed) s.c += 1;
      perCase.set(r.caseId, s);
    }
    const cases = [...perCase.values()];
    const k = cases.length > 0 ? Math.min(...cases.map((s) => s.n)) : null;
    const walls = rs.filter((r) => r.cachedModelCalls === 0).map((r) => r.wallMs);
    // Calls the model made; upstream calls made on its behalf (`via`) are not counted again.
    const toolCalls = rs.flatMap((r) => r.toolCalls.filter((c) => c.via === undefined));
    const retries = rs.reduce(
      (sum, r) => ({
        attempted: sum.attempted + (r.toolRetries?.attempted ?? 0),
        succeeded: sum.succeeded + (r.toolRetries?.succeeded ?? 0),
        refused: sum.refused + (r.toolRetries?.refused ?? 0),
      }),
      { attempted: 0, succeeded: 0, refused: 0 },
    );
    return {
      agentId,
      records: rs.length,
      scored: scored.length,
      passed,
      passRate: w ? w.p : null,
      passRateLo: w ? w.lo : null,
      passRateHi: w ? w.hi : null,
      k,
      passAtK: k === null ? null : mean(cases.map((s) => passAtK(s.n, s.c, k))),
      passHatK: k === null ? null : mean(cases.map((s) => passHatK(s.n, s.c, k))),
      wallP50Ms: walls.length > 0 ? percentileNearestRank(walls, 50) : null,
      wallP95Ms: walls.length > 0 ? percentileNearestRank(walls, 95) : null,
      meanInputTokens: mean(nonNull(rs.map((r) => r.inputTokens))),
      meanOutputTokens: mean(nonNull(rs.map((r) => r.outputTokens))),
      meanCostUsd: mean(nonNull(rs.map((r) => r.costUsd))),
      totalCostUsd: nonNull(rs.map((r) => r.costUsd)).reduce((a, b) => a + b, 0),
      judgeCostUsd: nonNull(rs.map((r) => r.judge?.costUsd ?? null)).reduce((a, b) => a + b, 0),
      judgeInputTokens: nonNull(rs.map((r) => r.judge?.inputTokens ?? null))
        .reduce((a, b) => a + b, 0),
      judgeOutputTokens: nonNull(rs.map((r) => r.judge?.outputTokens ?? null))
        .reduce((a, b) => a + b, 0),
      judgeErrors: rs.filter((r) => r.error?.kind === "judge").length,
      ...panel(rs),
      toolCallsPerCase: rs.length > 0 ? toolCalls.length / rs.length : null,
      toolErrorRate: toolCalls.length > 0
        ? toolCalls.filter((c) => c.isError).length / toolCalls.length
        : null,
      errorRate: rs.length > 0 ? (rs.length - scored.length) / rs.length : null,
      iterationLimitRate: scored.length > 0
        ? scored.filter((r) => r.error?.kind === "iteration_limit").length / scored.length
        : null,
      toolRetries: retries.attempted,
      toolRetrySuccessRate: retries.attempted > 0 ? retries.succeeded / retries.attempted : null,
      toolRetriesRefused: retries.refused,
      meanContextTokensSaved: mean(nonNull(rs.map((r) => r.context?.tokensSaved ?? null))),
      summarizerInputTokens: nonNull(rs.map((r) => r.summarizer?.inputTokens ?? null))
        .reduce((a, b) => a + b, 0),
      summarizerOutputTokens: nonNull(rs.map((r) => r.summarizer?.outputTokens ?? null))
        .reduce((a, b) => a + b, 0),
      summarizerCostUsd: nonNull(rs.map((r) => r.summarizer?.costUsd ?? null))
        .reduce((a, b) => a + b, 0),
    };
  });
}

function panel(rs: readonly CaseRecord[]) {
  const g = judgeAgreement(rs);
  return {
    judgePanelItems: g.items,
    judgeAgreement: g.agreementRate,
    judgeKappa: g.kappa,
    judgeDisagreements: g.disagreements.length,
  };
}

/** CSV column names, in order, with the {@linkcode AgentSummary} field each holds. */
export const SUMMARY_COLUMNS: readonly (readonly [string, keyof AgentSummary])[] = [
  ["agent_id", "agentId"],
  ["records", "records"],
  ["scored", "scored"],
  ["passed", "passed"],
  ["pass_rate", "passRate"],
  ["pass_rate_lo95", "passRateLo"],
  ["pass_rate_hi95", "passRateHi"],
  ["k", "k"],
  ["pass_at_k", "passAtK"],
  ["pass_hat_k", "passHatK"],
  ["wall_p50_ms", "wallP50Ms"],
  ["wall_p95_ms", "wallP95Ms"],
  ["mean_input_tokens", "meanInputTokens"],
  ["mean_output_tokens", "meanOutputTokens"],
  ["mean_cost_usd", "meanCostUsd"],
  ["total_cost_usd", "totalCostUsd"],
  ["judge_cost_usd", "judgeCostUsd"],
  ["judge_input_tokens", "judgeInputTokens"],
  ["judge_output_tokens", "judgeOutputTokens"],
  ["judge_errors", "judgeErrors"],
  ["judge_panel_items", "judgePanelItems"],
  ["judge_agreement", "judgeAgreement"],
  ["judge_kappa", "judgeKappa"],
  ["judge_disagreements", "judgeDisagreements"],
  ["tool_calls_per_case", "toolCallsPerCase"],
  ["tool_error_rate", "toolErrorRate"],
  ["error_rate", "errorRate"],
  ["iteration_limit_rate", "iterationLimitRate"],
  ["tool_retries", "toolRetries"],
  ["tool_retry_success_rate", "toolRetrySuccessRate"],
  ["tool_retries_refused", "toolRetriesRefused"],
  ["mean_context_tokens_saved", "meanContextTokensSaved"],
  ["summarizer_input_tokens", "summarizerInputTokens"],
  ["summarizer_output_tokens", "summarizerOutputTokens"],
  ["summarizer_cost_usd", "summarizerCostUsd"],
];

/** A number rounded to 6 decimals for the CSV files; anything else as it is. */
const round6 = (v: unknown) => typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v;

/**
 * Renders summary rows as CSV (via arquero's `toCSV`): numbers rounded to 6 decimals, `null`
 * as an empty cell, a header row of {@linkcode SUMMARY_COLUMNS}.
 *
 * @param rows Rows from {@linkcode summarizeRecords}.
 * @returns CSV text ending in a newline.
 */
export function summaryToCsv(rows: readonly AgentSummary[]): string {
  const columns = SUMMARY_COLUMNS.map((
    [col, key],
  ): CsvColumn<AgentSummary> => [col, (r) => r[key]]);
  return columnsCsv(columns, rows, round6);
}

/** `cases.csv` column names, in order, with how each is read from a {@linkcode CaseRecord}. */
export const CASE_COLUMNS: readonly CsvColumn<CaseRecord>[] = [
  ["agent_id", (r) => r.agentId],
  ["case_id", (r) => r.caseId],
  ["repetition", (r) => r.repetition],
  ["passed", (r) => r.passed],
  ["criterion", (r) => r.criterion?.type ?? null],
  ["error_kind", (r) => r.error?.kind ?? null],
  ["error_code", (r) => r.error?.code ?? null],
  ["error_message", (r) => r.error?.message ?? null],
  ["wall_ms", (r) => r.wallMs],
  ["llm_ms", (r) => r.llmMs],
  ["retry_wait_ms", (r) => r.retryWaitMs ?? null],
  ["tool_ms", (r) => r.toolMs],
  ["iterations", (r) => r.iterations],
  ["input_tokens", (r) => r.inputTokens],
  ["output_tokens", (r) => r.outputTokens],
  ["cache_read_tokens", (r) => r.cacheReadTokens],
  ["cache_write_tokens", (r) => r.cacheWriteTokens],
  ["peak_context_tokens", (r) => r.peakContextTokens],
  ["tool_calls", (r) => r.toolCalls.filter((c) => c.via === undefined).length],
  ["tool_errors", (r) => r.toolCalls.filter((c) => c.via === undefined && c.isError).length],
  ["tool_retries", (r) => r.toolRetries?.attempted ?? null],
  ["tool_retries_succeeded", (r) => r.toolRetries?.succeeded ?? null],
  ["tool_retries_refused", (r) => r.toolRetries?.refused ?? null],
  ["cost_usd", (r) => r.costUsd],
  ["judge_input_tokens", (r) => r.judge?.inputTokens ?? null],
  ["judge_output_tokens", (r) => r.judge?.outputTokens ?? null],
  ["judge_cost_usd", (r) => r.judge?.costUsd ?? null],
  ["judge_votes", (r) => r.judgeVerdicts?.length ?? null],
  ["judge_passing_votes", (r) => r.judgeVerdicts?.filter((v) => v.pass).length ?? null],
  ["context_strategy", (r) => r.context?.strategy ?? null],
  ["context_tokens_saved", (r) => r.context?.tokensSaved ?? null],
  ["summarizer_input_tokens", (r) => r.summarizer?.inputTokens ?? null],
  ["summarizer_output_tokens", (r) => r.summarizer?.outputTokens ?? null],
  ["summarizer_cost_usd", (r) => r.summarizer?.costUsd ?? null],
];

/**
 * Renders case records as `cases.csv` (one row per record, the per-case file MAVERIK users
 * read beside the summary): {@linkcode CASE_COLUMNS}, numbers rounded to 6 decimals, `null` as
 * an empty cell, rows sorted by agent, case and repetition.
 *
 * @param records The run's records.
 * @returns CSV text ending in a newline.
 *
 * @example Usage
 * ```ts
 * import { casesToCsv } from "./summary.ts";
 * if (!casesToCsv([]).startsWith("agent_id,case_id,repetition,passed,")) throw new Error();
 * ```
 */
export function casesToCsv(records: readonly CaseRecord[]): string {
  const sorted = [...records].sort(
    byKeys((r: CaseRecord) => r.agentId, (r) => r.caseId, (r) => r.repetition),
  );
  return columnsCsv(CASE_COLUMNS, sorted, round6);
}
