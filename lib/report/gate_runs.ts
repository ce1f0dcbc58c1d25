/**
 * The run gate: compares a candidate agent run with a baseline run, check by check (run status,
 * pass rate with a case-level permutation test, cost, latency, tool catalog). Pure: runs come in
 * loaded, checks come out.
 *
 * @module
 */
import type { CaseRecord } from "../agent/types.ts";
import { clusterPermutationTest } from "../stats/cluster_permutation.ts";
import { newcombeInterval } from "../stats/newcombe.ts";
import { percentileNearestRank } from "../stats/percentile.ts";
import type { LoadedRun } from "./runs.ts";
import { type GateCheck, GateInputError, type Verdict } from "./gate.ts";
import { check, cmp, f3, pctText, signed, usd } from "./_gate_check.ts";
import { counted } from "../core/text.ts";

/** Thresholds of {@linkcode gateRuns}. */
export interface GateOptions {
  /**
   * Significance level of the one-sided case-level permutation test of a pass-rate drop.
   * @default {0.05}
   */
  readonly alpha?: number;
  /**
   * Largest allowed drop of the case-averaged pass rate (absolute), failing whatever the p-value:
   * the floor that catches a collapse on a suite too small for the test (3 cases going from 100%
   * to 0% can never reach p < 0.05). `1` turns it off.
   * @default {DEFAULT_MAX_PASS_DROP}
   */
  readonly maxPassDrop?: number;
  /**
   * Largest allowed relative increase of the mean cost per case (0.15 = +15%).
   * @default {0.15}
   */
  readonly maxCostIncrease?: number;
  /** Largest allowed relative increase of p95 wall time (0.5 = +50%); absent: reported only. */
  readonly maxLatencyIncrease?: number;
  /** Fail (instead of warn) when an agent's tool-catalog hash changed. @default {false} */
  readonly failOnCatalogChange?: boolean;
  /** Seed of the permutation test above 16 cases. @default {0} */
  readonly seed?: number;
  /** Random sign vectors above 16 cases. @default {10000} */
  readonly resamples?: number;
}

/** Default floor of {@linkcode GateOptions.maxPassDrop}: a drop of more than 0.2 always fails. */
export const DEFAULT_MAX_PASS_DROP = 0.2;

/**
 * Power of the one-sided case-level sign-flip test at `n` cases: the fewest cases that must
 * fall (every repetition passing in the baseline, failing in the candidate, the other cases
 * unchanged) for p < `alpha` to be reachable. With k such cases the exact p-value is 2^−k, so
 * k = ⌊log2(1/α)⌋ + 1 (5 at α = 0.05); a suite of fewer cases can never show a significant drop.
 *
 * @param n Cases compared (≥ 0).
 * @param alpha Significance level, in (0, 1).
 * @returns `casesNeeded` (k), `smallestDetectableDrop` (k / n, the case-averaged pass-rate drop
 *   of that pattern; `null` when k > n) and `underpowered` (k > n).
 *
 * @example Usage
 * ```ts
 * import { detectableDrop } from "./gate_runs.ts";
 * const d = detectableDrop(20, 0.05);
 * if (d.casesNeeded !== 5 || d.smallestDetectableDrop !== 0.25 || d.underpowered) throw new Error();
 * if (!detectableDrop(3, 0.05).underpowered) throw new Error();
 * ```
 */
export function detectableDrop(
  n: number,
  alpha: number,
): { casesNeeded: number; smallestDetectableDrop: number | null; underpowered: boolean } {
  const casesNeeded = Math.floor(Math.log2(1 / alpha) + 1e-12) + 1;
  return {
    casesNeeded,
    smallestDetectableDrop: casesNeeded > n ? null : casesNeeded / n,
    underpowered: casesNeeded > n,
  };
}

/** Unique records by (agent, case, repetition), last one winning. */
function unique(records: readonly CaseRecord[]): CaseRecord[] {
  const m = new Map<string, CaseRecord>();
  for (const r of records) m.set(`${r.agentId}\u0000${r.caseId}\u0000${r.repetition}`, r);
  return [...m.values()];
}

/**
 * Whether the candidate run may be judged at all: a run that crashed or is still running
 * (`status` not `complete`), a single shard, fewer records than planned, or one where every case
 * is an infrastructure error fails here, with the reason. The baseline's problems only warn.
 *
 * @param run The run.
 * @param role `candidate` or `baseline`.
 * @returns One check.
 */
export function runStatusCheck(run: LoadedRun, role: "candidate" | "baseline"): GateCheck {
  const bad = role === "candidate" ? "fail" : "warn";
  const name = `${role} run`;
  const recs = unique(run.records);
  const label = `${role} "${run.runId}"`;
  if (run.status !== "complete") {
    const why = run.status === "running"
      ? "it crashed or is still running (resume it with deno task agents --resume)"
      : run.status === "incomplete"
      ? "a merge left cases missing"
      : 'the status is not "complete"';
    return check("run", name, bad, `${label} has status "${run.status}": ${why}`);
  }
  if (run.shard !== null) {
    return check("run", name, bad, `${label} is shard ${run.shard}: merge the shards first`);
  }
  if (recs.length < run.plannedCases) {
    return check(
      "run",
      name,
      bad,
      `${label} has ${recs.length} of ${run.plannedCases} planned case records`,
    );
  }
  if (recs.length > 0 && recs.every((r) => r.passed === null)) {
    const kinds = [...new Set(recs.map((r) => r.error?.kind ?? "unknown"))].sort().join(", ");
    return check(
      "run",
      name,
      bad,
      `${label} failed: all ${recs.length} cases are infrastructure errors (${kinds})`,
    );
  }
  return check("run", name, "pass", `${label}: complete, ${recs.length} case records`);
}

interface CaseRate {
  readonly scored: number;
  readonly passed: number;
}

function caseRates(records: readonly CaseRecord[]): Map<string, CaseRate> {
  const m = new Map<string, { scored: number; passed: number }>();
  for (const r of records) {
    if (r.passed === null) continue;
    const s = m.get(r.caseId) ?? { scored: 0, passed: 0 };
    s.scored += 1;
    if (r.passed) s.passed += 1;
    m.set(r.caseId, s);
  }
  return m;
}

/**
 * The pass-rate check over one case set.
 *
 * Only cases scored at least once in both runs are compared. Each case's pass rate is its
 * passes ÷ scored repetitions in that run; the set's pass rate is the mean over cases (every case
 * weighs the same, whatever its repetitions). It fails when the candidate is lower and (a) the
 * one-sided case-level paired permutation test (lib/stats `clusterPermutationTest`, exact up to
 * 16 cases) gives p < alpha, or (b) the drop exceeds `maxPassDrop` (default
 * {@linkcode DEFAULT_MAX_PASS_DROP}), whatever the p-value. The detail says when the set is too
 * small for the test ({@linkcode detectableDrop}). The Newcombe interval of the
 * pooled difference is shown for reading only (it treats repetitions as independent).
 *
 * @param group Group label.
 * @param base Baseline records of the set.
 * @param cand Candidate records of the set.
 * @param options Thresholds.
 * @returns One check.
 */
export function passRateCheck(
  group: string,
  base: readonly CaseRecord[],
  cand: readonly CaseRecord[],
  options: GateOptions = {},
): GateCheck {
  const alpha = options.alpha ?? 0.05;
  const b = caseRates(base);
  const c = caseRates(cand);
  const ids = [...b.keys()].filter((id) => c.has(id)).sort();
  if (ids.length === 0) {
    const reason = c.size === 0
      ? "the candidate has no scored case (all infrastructure errors or none run)"
      : "no case is scored in both runs";
    return check(group, "pass rate", "fail", `cannot compare: ${reason}`);
  }
  const bRates = ids.map((id) => b.get(id)!.passed / b.get(id)!.scored);
  const cRates = ids.map((id) => c.get(id)!.passed / c.get(id)!.scored);
  const bMean = bRates.reduce((x, y) => x + y, 0) / ids.length;
  const cMean = cRates.reduce((x, y) => x + y, 0) / ids.length;
  const drop = bMean - cMean;
  const test = clusterPermutationTest(bRates, cRates, {
    seed: options.seed ?? 0,
    alternative: "less",
    ...(options.resamples ? { resamples: options.resamples } : {}),
  });
  const sum = (m: Map<string, CaseRate>, k: keyof CaseRate) =>
    ids.reduce((s, id) => s + m.get(id)![k], 0);
  const nw = newcombeInterval(
    sum(c, "passed"),
    sum(c, "scored"),
    sum(b, "passed"),
    sum(b, "scored"),
  );
  const maxDrop = options.maxPassDrop ?? DEFAULT_MAX_PASS_DROP;
  const significant = drop > 1e-12 && test.pValue < alpha;
  const tooLarge = drop > maxDrop + 1e-12;
  const verdict: Verdict = significant || tooLarge ? "fail" : "pass";
  const why = significant && tooLarge
    ? `significant (p < α ${alpha}) and larger than --max-pass-drop ${maxDrop}`
    : significant
    ? `significant drop (p < α ${alpha})`
    : tooLarge
    ? `drop larger than --max-pass-drop ${maxDrop}, whatever p`
    : drop > 1e-12
    ? `within noise (p ≥ α ${alpha}) and ≤ --max-pass-drop ${maxDrop}`
    : "no drop";
  const power = detectableDrop(ids.length, alpha);
  const powerText = power.underpowered
    ? `; underpowered: ${ids.length} case(s) cannot reach p < α ${alpha} (that needs ${power.casesNeeded} cases falling from pass to fail), so only --max-pass-drop ${maxDrop} can fail it`
    : `; smallest detectable drop at this n: ${
      f3(power.smallestDetectableDrop!)
    } (${power.casesNeeded} of ${ids.length} cases falling from pass to fail)`;
  return check(
    group,
    "pass rate",
    verdict,
    `${f3(bMean)} → ${f3(cMean)} (${signed(-drop)}) over ${
      counted(ids.length, "case")
    }; one-sided ${test.method} case-level permutation p = ${
      test.pValue.toPrecision(3)
    }; pooled difference 95% [${signed(nw.lo)}, ${signed(nw.hi)}] (Newcombe); ${why}${powerText}`,
  );
}

function meanCost(records: readonly CaseRecord[]): number | null {
  const costs = records.map((r) => r.costUsd).filter((x): x is number => x !== null);
  return costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0) / costs.length;
}

/**
 * The cost-per-case check: mean agent cost per case record (judge excluded; records without a
 * cost left out) over the cases both runs share. Per case, not total, so running more
 * repetitions changes nothing. Fails when candidate ÷ baseline − 1 > `maxCostIncrease`
 * (a zero baseline fails on any positive candidate cost).
 *
 * @param group Group label.
 * @param base Baseline records.
 * @param cand Candidate records.
 * @param options Thresholds.
 * @returns One check (`skip` when either run reports no cost).
 */
export function costCheck(
  group: string,
  base: readonly CaseRecord[],
  cand: readonly CaseRecord[],
  options: GateOptions = {},
): GateCheck {
  const max = options.maxCostIncrease ?? 0.15;
  const b = meanCost(base);
  const c = meanCost(cand);
  if (b === null || c === null) {
    return check(
      group,
      "cost per case",
      "skip",
      `no cost recorded in the ${b === null ? "baseline" : "candidate"}`,
    );
  }
  const inc = b === 0 ? (c === 0 ? 0 : Infinity) : c / b - 1;
  const incText = Number.isFinite(inc) ? pctText(inc) : "from zero";
  return check(
    group,
    "cost per case",
    inc > max + 1e-12 ? "fail" : "pass",
    `${usd(b)} → ${usd(c)} per case (${incText}); limit +${(max * 100).toFixed(1)}%`,
  );
}

/**
 * The latency check: nearest-rank p95 of `wallMs` over records with no cached model call, over
 * the shared cases. Fails when candidate ÷ baseline − 1 > `maxLatencyIncrease`; without that
 * option the figures are reported (`skip`).
 *
 * @param group Group label.
 * @param base Baseline records.
 * @param cand Candidate records.
 * @param options Thresholds.
 * @returns One check.
 */
export function latencyCheck(
  group: string,
  base: readonly CaseRecord[],
  cand: readonly CaseRecord[],
  options: GateOptions = {},
): GateCheck {
  const walls = (rs: readonly CaseRecord[]) =>
    rs.filter((r) => (r.cachedModelCalls ?? 0) === 0).map((r) => r.wallMs);
  const bw = walls(base);
  const cw = walls(cand);
  if (bw.length === 0 || cw.length === 0) {
    return check(group, "latency p95", "skip", "no uncached wall times to compare");
  }
  const b = percentileNearestRank(bw, 95);
  const c = percentileNearestRank(cw, 95);
  const inc = b === 0 ? (c === 0 ? 0 : Infinity) : c / b - 1;
  const text = `${Math.round(b)} ms → ${Math.round(c)} ms (${
    Number.isFinite(inc) ? pctText(inc) : "from zero"
  })`;
  const max = options.maxLatencyIncrease;
  if (max === undefined) {
    return check(group, "latency p95", "skip", `${text}; not gated (set --max-latency-increase)`);
  }
  return check(
    group,
    "latency p95",
    inc > max + 1e-12 ? "fail" : "pass",
    `${text}; limit +${(max * 100).toFixed(1)}%`,
  );
}

/**
 * The catalog check: compares an agent's tool-catalog hash between runs and, when it changed,
 * lists the tools added, removed or changed (by per-tool hash when both runs recorded one, else
 * by route `server:tool`).
 *
 * @param group Group label.
 * @param base Baseline run.
 * @param cand Candidate run.
 * @param agentId Agent id.
 * @param options `failOnCatalogChange` makes a change fail instead of warn.
 * @returns One check (`skip` when a run has no catalog for the agent).
 */
export function catalogCheck(
  group: string,
  base: LoadedRun,
  cand: LoadedRun,
  agentId: string,
  options: GateOptions = {},
): GateCheck {
  const b = base.catalogs[agentId];
  const c = cand.catalogs[agentId];
  if (!b?.hash || !c?.hash) {
    return check(
      group,
      "catalog",
      "skip",
      `no catalog hash in the ${!b?.hash ? "baseline" : "candidate"}`,
    );
  }
  if (b.hash === c.hash) {
    return check(
      group,
      "catalog",
      "pass",
      `unchanged (${c.hash.slice(0, 12)}, ${c.tools ?? "?"} tools)`,
    );
  }
  const bm = b.mapping ?? {};
  const cm = c.mapping ?? {};
  const added = Object.keys(cm).filter((t) => !(t in bm)).sort(cmp);
  const removed = Object.keys(bm).filter((t) => !(t in cm)).sort(cmp);
  const both = Object.keys(cm).filter((t) => t in bm).sort(cmp);
  const hashes = b.toolHashes !== undefined && c.toolHashes !== undefined;
  const changed = both.filter((t) =>
    hashes ? b.toolHashes![t] !== c.toolHashes![t] : bm[t] !== cm[t]
  );
  const details = [
    `added (${added.length}): ${added.join(", ") || "none"}`,
    `removed (${removed.length}): ${removed.join(", ") || "none"}`,
    `changed (${changed.length}): ${changed.join(", ") || "none"}${
      hashes
        ? ""
        : " (routes only: a run recorded no per-tool hashes, so schema or description edits are not listed)"
    }`,
  ];
  return check(
    group,
    "catalog",
    options.failOnCatalogChange ? "fail" : "warn",
    `hash ${b.hash.slice(0, 12)} → ${
      c.hash.slice(0, 12)
    }: ${added.length} added, ${removed.length} removed, ${changed.length} changed${
      options.failOnCatalogChange ? "" : " (set --fail-on-catalog-change to fail)"
    }`,
    details,
  );
}

/**
 * All run checks: the candidate's status, then per agent (and per tag of the suite's cases)
 * pass rate, and per agent cost per case, latency p95 and catalog. Agents in the baseline but
 * not in the candidate fail; agents only in the candidate are skipped (no baseline).
 *
 * @param baseline Baseline run.
 * @param candidate Candidate run.
 * @param options Thresholds.
 * @returns Checks in order: run, then agents sorted by id.
 * @throws {GateInputError} when the runs ran different suites, or share no agent.
 * @throws {RangeError} on a threshold out of range (alpha outside (0, 1), negative limits).
 */
export function gateRuns(
  baseline: LoadedRun,
  candidate: LoadedRun,
  options: GateOptions = {},
): GateCheck[] {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`--alpha must be in (0, 1), got ${alpha}`);
  for (const [k, v] of Object.entries(options)) {
    if (k.startsWith("max") && !(typeof v === "number" && v >= 0)) {
      throw new RangeError(`${k} must be a number >= 0, got ${v}`);
    }
  }
  if (baseline.suiteId !== candidate.suiteId) {
    throw new GateInputError(
      `baseline ran suite "${baseline.suiteId}" and candidate "${candidate.suiteId}": compare runs of one suite`,
    );
  }
  const bAgents = new Set(baseline.records.map((r) => r.agentId));
  const cAgents = new Set(candidate.records.map((r) => r.agentId));
  if (![...bAgents].some((a) => cAgents.has(a)) && cAgents.size > 0) {
    throw new GateInputError(
      `baseline agents (${[...bAgents].sort().join(", ")}) and candidate agents (${
        [...cAgents].sort().join(", ")
      }) share none`,
    );
  }
  const out: GateCheck[] = [runStatusCheck(candidate, "candidate")];
  const baseStatus = runStatusCheck(baseline, "baseline");
  if (baseStatus.verdict !== "pass") out.push(baseStatus);
  const bRecs = unique(baseline.records);
  const cRecs = unique(candidate.records);
  const tags = baseline.caseTags ?? {};
  for (const agentId of [...new Set([...bAgents, ...cAgents])].sort(cmp)) {
    const group = `${candidate.suiteId}/${agentId}`;
    if (!cAgents.has(agentId)) {
      out.push(
        check(
          group,
          "agent",
          "fail",
          `agent "${agentId}" is in the baseline but not in the candidate`,
        ),
      );
      continue;
    }
    if (!bAgents.has(agentId)) {
      out.push(
        check(group, "agent", "skip", `agent "${agentId}" is new: no baseline to compare with`),
      );
      continue;
    }
    const b = bRecs.filter((r) => r.agentId === agentId);
    const c = cRecs.filter((r) => r.agentId === agentId);
    const shared = new Set(b.map((r) => r.caseId).filter((id) => c.some((r) => r.caseId === id)));
    const bs = b.filter((r) => shared.has(r.caseId));
    const cs = c.filter((r) => shared.has(r.caseId));
    out.push(passRateCheck(group, bs, cs, options));
    const tagSet = [...new Set([...shared].flatMap((id) => tags[id] ?? []))].sort(cmp);
    for (const tag of tagSet) {
      const inTag = (r: CaseRecord) => (tags[r.caseId] ?? []).includes(tag);
      out.push(passRateCheck(`${group}/tag:${tag}`, bs.filter(inTag), cs.filter(inTag), options));
    }
    out.push(costCheck(group, bs, cs, options));
    out.push(latencyCheck(group, bs, cs, options));
    out.push(catalogCheck(group, baseline, candidate, agentId, options));
  }
  return out;
}
