/**
 * Compare versions of one agent on one suite: one point per version (the latest record of each,
 * the live configuration last), KPI deltas against a chosen baseline with the gate's statistics
 * (case-level paired permutation p, intervals, "underpowered at this n"), the Pareto set of cost
 * against pass rate, the per-case regression matrix, and per-repetition spreads that say when
 * every repetition gave the same value. Pure.
 *
 * @module
 */
import type { CaseRecord } from "../agent/types.ts";
import { clusterPermutationTest } from "../stats/cluster_permutation.ts";
import { newcombeInterval } from "../stats/newcombe.ts";
import { bootstrapMeanCi } from "../stats/bootstrap.ts";
import type { AgentRunRecord } from "./viz/types.ts";
import { counted } from "../core/text.ts";

/** One compared point: the latest record of one version (or of the live configuration). */
export interface VersionPoint {
  /** `v1`, `v2`, … or `live` (`live = v2` when the live configuration equals version 2). */
  readonly label: string;
  /** Version number, `null` for the live configuration. */
  readonly version: number | null;
  /** The record. */
  readonly record: AgentRunRecord;
  /** Whether this point is the baseline. */
  readonly isBaseline: boolean;
}

/** The five KPIs of the delta header. */
export type KpiKey = "passRate" | "costPerCaseUsd" | "durationMs" | "inputTokens" | "toolCalls";

/** One KPI of one candidate against the baseline. */
export interface KpiDelta {
  /** Which KPI. */
  readonly kpi: KpiKey;
  /** Label, e.g. `Pass rate`. */
  readonly label: string;
  /** Baseline value (pass rate in [0, 1]; USD per case; ms; tokens; calls per case). */
  readonly baseline: number | null;
  /** Candidate value. */
  readonly candidate: number | null;
  /** candidate − baseline. */
  readonly delta: number | null;
  /** candidate ÷ baseline − 1, `null` when the baseline is 0 or missing. */
  readonly deltaPct: number | null;
  /** `better`, `worse` or `neutral` (tool calls are neutral; so is a zero delta). */
  readonly direction: "better" | "worse" | "neutral";
  /** Cases scored in both (the n of the test). */
  readonly n: number;
  /**
   * Two-sided case-level paired permutation p (lib/stats `clusterPermutationTest` over per-case
   * values: exact up to 16 cases), `null` when no case is shared.
   */
  readonly pValue: number | null;
  /**
   * 95% interval of the difference: Newcombe (pooled repetitions) for the pass rate, a seeded
   * percentile bootstrap of the per-case differences for the others.
   */
  readonly interval: readonly [number, number] | null;
  /** The smallest two-sided p any outcome could give at this n, 2^(1 − n), is ≥ alpha. */
  readonly underpowered: boolean;
  /** One line: "p = 0.031 · 95% [−0.20, −0.02]" or "underpowered at this n (n = 4: p ≥ 0.125)". */
  readonly note: string;
}

/** A per-repetition spread of one metric for one point. */
export interface RepetitionStrip {
  /** Point label. */
  readonly label: string;
  /** Metric: `duration`, `input tokens`, `output tokens`, `cost`, `peak context`. */
  readonly metric: string;
  /** Unit label. */
  readonly unit: string;
  /** Per repetition (0-based index), the mean over cases of that repetition's value. */
  readonly values: readonly { readonly repetition: number; readonly value: number }[];
  /** Every case gave the same value in every repetition. */
  readonly identical: boolean;
}

/** One row of the per-case regression matrix. */
export interface CaseMatrixRow {
  /** Case id. */
  readonly caseId: string;
  /** Point label → passed ÷ scored (infrastructure errors left out), `null` when none scored. */
  readonly rates: Readonly<Record<string, number | null>>;
  /** Point label → rate − baseline rate (`null` when either is missing). */
  readonly diffs: Readonly<Record<string, number | null>>;
  /** Some candidate passes it less often than the baseline. */
  readonly regressed: boolean;
}

/** The whole comparison. */
export interface VersionComparison {
  /** Suite id. */
  readonly suiteId: string;
  /** Agent id. */
  readonly agentId: string;
  /** Points in order: versions ascending, then live. */
  readonly points: readonly VersionPoint[];
  /** The baseline's label. */
  readonly baseline: string;
  /** Per candidate label, the five KPI deltas. */
  readonly deltas: Readonly<Record<string, readonly KpiDelta[]>>;
  /** Labels of the points on the efficient frontier (no other point is cheaper and passes more). */
  readonly frontier: readonly string[];
  /** Cases, regressions first (largest drop first), then by id. */
  readonly matrix: readonly CaseMatrixRow[];
  /** Per-repetition strips, point × metric. */
  readonly strips: readonly RepetitionStrip[];
  /** Significance level used for "underpowered". */
  readonly alpha: number;
  /** Seed of the bootstrap intervals and of the permutation test above 16 cases. */
  readonly seed: number;
  /** What a point is: a version, or a run (see {@linkcode CompareVersionsOptions.points}). */
  readonly by: "versions" | "runs";
}

/** Options of {@linkcode compareVersions}. */
export interface CompareVersionsOptions {
  /** Baseline: a version number, `live`, or a label; default the first (oldest) point. */
  readonly baseline?: number | "live" | string;
  /** Significance level. @default {0.05} */
  readonly alpha?: number;
  /** Seed. @default {0} */
  readonly seed?: number;
  /**
   * What a point is: the latest run of each version (`versions`), or every run of the agent
   * (`runs`, labelled by run id: compares one configuration over time). @default {"versions"}
   */
  readonly points?: "versions" | "runs";
}

interface KpiSpec {
  key: KpiKey;
  label: string;
  up: "better" | "worse" | "neutral";
  value: (r: AgentRunRecord) => number | null;
  perCase: (c: CaseRecord) => number | null;
}

/** A KPI read from the run's metrics and, per scored case, from the case record. */
function kpi(
  key: KpiKey,
  label: string,
  up: KpiSpec["up"],
  metric: keyof AgentRunRecord["metrics"],
  perScoredCase: (c: CaseRecord) => number | null,
): KpiSpec {
  return {
    key,
    label,
    up,
    value: (r) => r.metrics[metric] as number | null,
    perCase: (c) => c.passed === null ? null : perScoredCase(c),
  };
}

const KPIS: readonly KpiSpec[] = [
  kpi("passRate", "Pass rate", "better", "passRate", (c) => c.passed ? 1 : 0),
  kpi("costPerCaseUsd", "USD per case", "worse", "overallCostUsd", (c) => c.costUsd),
  kpi("durationMs", "Duration per case", "worse", "avgDurationMs", (c) => c.wallMs),
  kpi("inputTokens", "Input tokens per case", "worse", "avgInputTokens", (c) => c.inputTokens),
  kpi(
    "toolCalls",
    "Tool calls per case",
    "neutral",
    "avgToolCalls",
    (c) => c.toolCalls.filter((t) => t.via === undefined).length,
  ),
];

const cmp = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

function perCaseMeans(
  cases: readonly CaseRecord[],
  f: (c: CaseRecord) => number | null,
): Map<string, { sum: number; n: number }> {
  const m = new Map<string, { sum: number; n: number }>();
  for (const c of cases) {
    const v = f(c);
    if (v === null) continue;
    const s = m.get(c.caseId) ?? { sum: 0, n: 0 };
    s.sum += v;
    s.n += 1;
    m.set(c.caseId, s);
  }
  return m;
}

const fmtP = (p: number) => p < 0.001 ? "p < 0.001" : `p = ${p.toPrecision(2)}`;

function kpiDelta(
  k: (typeof KPIS)[number],
  base: AgentRunRecord,
  cand: AgentRunRecord,
  alpha: number,
  seed: number,
): KpiDelta {
  const b = k.value(base);
  const c = k.value(cand);
  const delta = b === null || c === null ? null : c - b;
  const deltaPct = b === null || c === null || b === 0 ? null : c / b - 1;
  const direction = delta === null || Math.abs(delta) < 1e-12 || k.up === "neutral"
    ? "neutral"
    : (delta > 0) === (k.up === "better")
    ? "better"
    : "worse";
  const bm = perCaseMeans(base.cases, k.perCase);
  const cm = perCaseMeans(cand.cases, k.perCase);
  const ids = [...bm.keys()].filter((id) => cm.has(id)).sort();
  const n = ids.length;
  const head = {
    kpi: k.key,
    label: k.label,
    baseline: b,
    candidate: c,
    delta,
    deltaPct,
    direction,
    n,
  } as const;
  if (n === 0) {
    return {
      ...head,
      pValue: null,
      interval: null,
      underpowered: true,
      note: "no case measured in both",
    };
  }
  const bv = ids.map((id) => bm.get(id)!.sum / bm.get(id)!.n);
  const cv = ids.map((id) => cm.get(id)!.sum / cm.get(id)!.n);
  const test = clusterPermutationTest(bv, cv, { seed, alternative: "two-sided" });
  let interval: readonly [number, number];
  if (k.key === "passRate") {
    const sum = (m: Map<string, { sum: number; n: number }>, f: "sum" | "n") =>
      ids.reduce((s, id) => s + m.get(id)![f], 0);
    const nw = newcombeInterval(sum(cm, "sum"), sum(cm, "n"), sum(bm, "sum"), sum(bm, "n"));
    interval = [nw.lo, nw.hi];
  } else {
    const ci = bootstrapMeanCi(cv.map((x, i) => x - bv[i]), { seed });
    interval = [ci.lo, ci.hi];
  }
  const minP = Math.min(1, 2 ** (1 - n));
  const underpowered = minP >= alpha;
  const note = underpowered
    ? `underpowered at this n (n = ${counted(n, "case")}: p ≥ ${
      minP.toPrecision(2)
    } whatever happens)`
    : `${fmtP(test.pValue)} over ${counted(n, "case")}${
      test.pValue < alpha ? " (significant)" : ""
    }`;
  return {
    ...head,
    pValue: test.pValue,
    interval,
    underpowered,
    note,
  };
}

const STRIP_METRICS: readonly {
  metric: string;
  unit: string;
  f: (c: CaseRecord) => number | null;
}[] = [
  { metric: "duration", unit: "ms", f: (c) => c.wallMs },
  { metric: "input tokens", unit: "tokens", f: (c) => c.inputTokens },
  { metric: "output tokens", unit: "tokens", f: (c) => c.outputTokens },
  { metric: "cost", unit: "USD", f: (c) => c.costUsd },
  { metric: "peak context", unit: "tokens", f: (c) => c.peakContextTokens },
];

function strips(p: VersionPoint): RepetitionStrip[] {
  const scored = p.record.cases.filter((c) => c.passed !== null);
  return STRIP_METRICS.flatMap(({ metric, unit, f }) => {
    const withValue = scored.filter((c) => f(c) !== null);
    if (withValue.length === 0) return [];
    const reps = [...new Set(withValue.map((c) => c.repetition))].sort((a, b) => a - b);
    const values = reps.map((repetition) => {
      const vs = withValue.filter((c) => c.repetition === repetition).map((c) => f(c)!);
      return { repetition, value: vs.reduce((a, b) => a + b, 0) / vs.length };
    });
    const byCase = new Map<string, Set<number>>();
    for (const c of withValue) {
      const s = byCase.get(c.caseId) ?? new Set<number>();
      s.add(f(c)!);
      byCase.set(c.caseId, s);
    }
    const identical = reps.length > 1 && [...byCase.values()].every((s) => s.size === 1);
    return [{ label: p.label, metric, unit, values, identical }];
  });
}

/**
 * Compares the versions of one agent on one suite.
 *
 * Points: records of the agent (`baseAgentId`) on the suite, grouped by version (the live
 * configuration is its own group), the latest record of each. KPIs: pass rate (passed ÷ scored),
 * mean agent cost per case (tokens + tools, USD), mean wall time, mean uncached input tokens and
 * mean tool calls per scored case. Statistics pair the two points by case over the cases scored
 * in both: a two-sided case-level permutation test of the per-case values, the Newcombe interval
 * (pass rate) or a bootstrap interval of the per-case differences (others), and "underpowered"
 * when 2^(1 − n) ≥ alpha, i.e. no outcome at this number of cases could be significant.
 *
 * @param records Per-agent-per-run records (any suites and agents; the others are ignored).
 * @param suiteId Suite.
 * @param agentId The agent's own id (without `@N`).
 * @param options Baseline, alpha, seed.
 * @returns The comparison.
 * @throws {RangeError} when the agent has no record on the suite, or the baseline is not a point.
 *
 * @example Usage
 * ```ts
 * import { compareVersions } from "./compare_versions.ts";
 * let threw = false;
 * try { compareVersions([], "s", "a"); } catch { threw = true; }
 * if (!threw) throw new Error("no records must throw");
 * ```
 */
export function compareVersions(
  records: readonly AgentRunRecord[],
  suiteId: string,
  agentId: string,
  options: CompareVersionsOptions = {},
): VersionComparison {
  const alpha = options.alpha ?? 0.05;
  const seed = options.seed ?? 0;
  const mine = records.filter((r) => r.suiteId === suiteId && r.baseAgentId === agentId);
  if (mine.length === 0) {
    const agents = [
      ...new Set(records.filter((r) => r.suiteId === suiteId).map((r) => r.baseAgentId)),
    ].sort();
    throw new RangeError(
      `Cannot compare versions: agent "${agentId}" has no run on suite "${suiteId}"${
        agents.length ? ` (agents on it: ${agents.join(", ")})` : ""
      }`,
    );
  }
  const latest = new Map<string, AgentRunRecord>();
  const order = (r: AgentRunRecord) => r.startedAt + "\u0000" + r.runId;
  const byRun = options.points === "runs";
  for (const r of mine) {
    const key = byRun ? r.runId : r.version === null ? "live" : `v${r.version}`;
    const prev = latest.get(key);
    if (!prev || order(prev) <= order(r)) latest.set(key, r);
  }
  const keys = byRun
    ? [...latest.keys()].sort((a, b) => cmp(order(latest.get(a)!), order(latest.get(b)!)))
    : [...latest.keys()].sort((a, b) =>
      a === "live" ? 1 : b === "live" ? -1 : Number(a.slice(1)) - Number(b.slice(1))
    );
  const want = options.baseline === undefined
    ? keys[0]
    : byRun
    ? String(options.baseline)
    : typeof options.baseline === "number"
    ? `v${options.baseline}`
    : options.baseline === "live"
    ? "live"
    : /^\d+$/.test(options.baseline)
    ? `v${options.baseline}`
    : options.baseline.replace(/^live.*/, "live");
  if (!latest.has(want)) {
    throw new RangeError(
      `Cannot compare versions: baseline "${options.baseline}" is not among ${keys.join(", ")}`,
    );
  }
  const points: VersionPoint[] = keys.map((k) => {
    const record = latest.get(k)!;
    const label = !byRun && k === "live" && record.equalsVersion !== null
      ? `live = v${record.equalsVersion}`
      : k;
    return { label, version: record.version, record, isBaseline: k === want };
  });
  const base = points.find((p) => p.isBaseline)!;
  const deltas: Record<string, KpiDelta[]> = {};
  for (const p of points) {
    if (p.isBaseline) continue;
    deltas[p.label] = KPIS.map((k) => kpiDelta(k, base.record, p.record, alpha, seed));
  }
  // Efficient frontier: no other point at most as costly with a pass rate at least as high,
  // one of the two strictly.
  const xy = points.map((p) => ({
    label: p.label,
    cost: p.record.metrics.overallCostUsd,
    pass: p.record.metrics.passRate,
  }));
  const frontier = xy.filter((a) =>
    a.cost !== null && a.pass !== null &&
    !xy.some((b) =>
      b !== a && b.cost !== null && b.pass !== null && b.cost <= a.cost! && b.pass >= a.pass! &&
      (b.cost < a.cost! || b.pass > a.pass!)
    )
  ).map((a) => a.label);
  // Per-case matrix.
  const caseIds = [...new Set(points.flatMap((p) => p.record.cases.map((c) => c.caseId)))];
  // Over scored records (an infrastructure error has no verdict); none scored: no pass rate.
  const rateOf = (p: VersionPoint, id: string) => {
    const cs = p.record.cases.filter((c) => c.caseId === id && c.passed !== null);
    return cs.length === 0 ? null : cs.filter((c) => c.passed === true).length / cs.length;
  };
  const matrix = caseIds.map((caseId): CaseMatrixRow => {
    const rates = Object.fromEntries(points.map((p) => [p.label, rateOf(p, caseId)]));
    const b = rates[base.label];
    const diffs = Object.fromEntries(
      points.map((
        p,
      ) => [p.label, b === null || rates[p.label] === null ? null : rates[p.label]! - b]),
    );
    const regressed = points.some((p) => !p.isBaseline && (diffs[p.label] ?? 0) < -1e-12);
    return { caseId, rates, diffs, regressed };
  });
  const worst = (r: CaseMatrixRow) =>
    Math.min(0, ...Object.values(r.diffs).filter((d): d is number => d !== null));
  matrix.sort((a, b) =>
    Number(b.regressed) - Number(a.regressed) || worst(a) - worst(b) || cmp(a.caseId, b.caseId)
  );
  return {
    suiteId,
    agentId,
    points,
    baseline: base.label,
    deltas,
    frontier,
    matrix,
    strips: points.flatMap(strips),
    alpha,
    seed,
    by: byRun ? "runs" : "versions",
  };
}

/**
 * The comparison as CSV rows, one per point: suite, agent, version, baseline flag, run start and
 * id, the nine metrics (per case), error rate, iteration-limit rate and iteration-budget use.
 *
 * @param c The comparison.
 * @returns Rows ready for CSV (flat values, `null` for missing).
 */
export function compareRows(
  c: VersionComparison,
): Record<string, string | number | boolean | null>[] {
  return c.points.map((p) => {
    const m = p.record.metrics;
    return {
      suite_id: c.suiteId,
      agent_id: c.agentId,
      version: p.label,
      is_baseline: p.isBaseline,
      timestamp: p.record.startedAt,
      source_run_id: p.record.runId,
      snapshot_sha256: p.record.snapshotSha256,
      pass_rate: m.passRate,
      duration_ms: m.avgDurationMs,
      input_tokens: m.avgInputTokens,
      output_tokens: m.avgOutputTokens,
      tool_calls: m.avgToolCalls,
      peak_context_tokens: m.avgPeakContextTokens,
      token_cost_usd: m.tokenCostUsd,
      tool_cost_usd: m.toolCostUsd,
      overall_cost_usd: m.overallCostUsd,
      error_rate: m.errorRate,
      iteration_limit_rate: m.iterationLimitRate,
      iteration_budget_use: m.iterationBudgetUse,
    };
  });
}
