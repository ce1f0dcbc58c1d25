/**
 * The regression gate (`deno task gate`): compares a candidate agent run with a baseline run,
 * and optionally two bench reports, check by check. Each check gives a verdict and a one-line
 * reason; any `fail` fails the gate. Pure: runs and reports come in loaded, verdicts and their
 * JUnit XML and Markdown renderings come out.
 *
 * @module
 */
import { InputFileError } from "../input_error.ts";
import type { CaseRecord } from "../agent/types.ts";
import { clusterPermutationTest } from "../stats/cluster_permutation.ts";
import { newcombeInterval } from "../stats/newcombe.ts";
import { percentileNearestRank } from "../stats/percentile.ts";
import type { LoadedRun } from "./runs.ts";

/** Outcome of one check: `warn` and `skip` do not fail the gate. */
export type Verdict = "pass" | "fail" | "warn" | "skip";

/** One check of the gate. */
export interface GateCheck {
  /** What it compared: `run`, `<suite>/<agent>`, `<suite>/<agent>/tag:<tag>`, or `bench`. */
  readonly group: string;
  /** Check name, e.g. `pass rate`, `cost per case`, `latency p95`, `catalog`, `recall@5 …`. */
  readonly name: string;
  /** The verdict. */
  readonly verdict: Verdict;
  /** One line: the figures and why. */
  readonly message: string;
  /** Extra lines, e.g. the tools added, removed or changed. */
  readonly details: readonly string[];
}

/** A baseline or candidate that cannot be compared (maps to exit code 2). */
export class GateInputError extends InputFileError {
  /**
   * Builds the error.
   *
   * @param message What is unusable, quoting the value.
   * @param path The baseline or candidate at fault, when one file is (default `""`: the pair).
   */
  constructor(message: string, path = "") {
    super(path, message);
    this.name = "GateInputError";
  }
}

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
 * import { detectableDrop } from "./gate.ts";
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

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number, digits = 3) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
const pctText = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}%`;
const usd = (x: number) => `$${x.toPrecision(4)}`;
const cmp = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

function check(
  group: string,
  name: string,
  verdict: Verdict,
  message: string,
  details: readonly string[] = [],
): GateCheck {
  return { group, name, verdict, message, details };
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
    `${f3(bMean)} → ${f3(cMean)} (${
      signed(-drop)
    }) over ${ids.length} cases; one-sided ${test.method} case-level permutation p = ${
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

/** Thresholds of {@linkcode gateBenchReports}. */
export interface BenchGateOptions {
  /** Largest allowed drop of recall@5 per retrieval row (absolute). @default {0.01} */
  readonly recallTolerance?: number;
  /** Largest allowed drop of a mode's savings (fraction, absolute). @default {0} */
  readonly savingsTolerance?: number;
}

interface RetrievalLike {
  corpusId: string;
  goldenSetId: string;
  retriever: string;
  arm: string;
  metrics: Record<string, number>;
}
interface ModeLike {
  corpusId: string;
  tokenizer: string;
  mode: string;
  savingsNameDescription: number;
  savingsWithSchemas: number;
  withSchemasAuthoritative: boolean;
}

/**
 * Bench report checks: per retrieval row (corpus, golden set, retriever, arm) recall@5 must not
 * drop by more than `recallTolerance`; per exposure mode (corpus, tokenizer, mode other than
 * `direct`) the authoritative savings (with schemas when the report says so, else name +
 * description) must not drop by more than `savingsTolerance`. A row of the baseline missing from
 * the candidate fails.
 *
 * @param baseline Baseline bench report (`results/report.json` shape).
 * @param candidate Candidate bench report.
 * @param options Tolerances.
 * @returns Checks, retrieval rows then modes, each sorted by key.
 * @throws {GateInputError} when a report has no `modes` array.
 */
export function gateBenchReports(
  baseline: unknown,
  candidate: unknown,
  options: BenchGateOptions = {},
): GateCheck[] {
  const recallTol = options.recallTolerance ?? 0.01;
  const savingsTol = options.savingsTolerance ?? 0;
  const get = (r: unknown, role: string) => {
    const o = r as { modes?: unknown; retrieval?: unknown };
    if (!o || typeof o !== "object" || !Array.isArray(o.modes)) {
      throw new GateInputError(`the ${role} bench report has no "modes" array`);
    }
    return {
      modes: o.modes as ModeLike[],
      retrieval: (Array.isArray(o.retrieval) ? o.retrieval : []) as RetrievalLike[],
    };
  };
  const b = get(baseline, "baseline");
  const c = get(candidate, "candidate");
  const out: GateCheck[] = [];
  const rKey = (r: RetrievalLike) =>
    `${r.corpusId}/${r.goldenSetId}/${r.retriever}${r.arm ? `/${r.arm}` : ""}`;
  const cRet = new Map(c.retrieval.map((r) => [rKey(r), r]));
  const bRet = [...b.retrieval].sort((x, y) => cmp(rKey(x), rKey(y)));
  if (bRet.length === 0) {
    out.push(check("bench", "recall@5", "skip", "the baseline report has no retrieval rows"));
  }
  for (const r of bRet) {
    const key = rKey(r);
    const other = cRet.get(key);
    const bv = r.metrics["recall@5"];
    if (!other || typeof other.metrics["recall@5"] !== "number") {
      out.push(check("bench", `recall@5 ${key}`, "fail", `missing from the candidate report`));
      continue;
    }
    const cv = other.metrics["recall@5"];
    out.push(check(
      "bench",
      `recall@5 ${key}`,
      bv - cv > recallTol + 1e-12 ? "fail" : "pass",
      `${f3(bv)} → ${f3(cv)} (${signed(cv - bv)}); tolerance ${recallTol}`,
    ));
  }
  const mKey = (m: ModeLike) => `${m.corpusId}/${m.tokenizer}/${m.mode}`;
  const saving = (m: ModeLike) =>
    m.withSchemasAuthoritative ? m.savingsWithSchemas : m.savingsNameDescription;
  const cModes = new Map(c.modes.map((m) => [mKey(m), m]));
  for (
    const m of [...b.modes].filter((m) => m.mode !== "direct").sort((x, y) => cmp(mKey(x), mKey(y)))
  ) {
    const key = mKey(m);
    const other = cModes.get(key);
    if (!other) {
      out.push(check("bench", `savings ${key}`, "fail", "missing from the candidate report"));
      continue;
    }
    const bv = saving(m);
    const cv = saving(other);
    out.push(check(
      "bench",
      `savings ${key}`,
      bv - cv > savingsTol + 1e-12 ? "fail" : "pass",
      `${(bv * 100).toFixed(2)}% → ${(cv * 100).toFixed(2)}% of direct tokens saved; must not drop${
        savingsTol > 0 ? ` by more than ${savingsTol}` : ""
      }`,
    ));
  }
  return out;
}

/**
 * The gate's exit code for a list of checks: 1 when any check fails, else 0 (2, unusable input,
 * is decided by the caller when loading fails).
 *
 * @param checks Checks.
 * @returns 0 or 1.
 */
export function gateExitCode(checks: readonly GateCheck[]): 0 | 1 {
  return checks.some((c) => c.verdict === "fail") ? 1 : 0;
}

/**
 * One line per check: `FAIL <group> · <name>: <message>`.
 *
 * @param c A check.
 * @returns The line (no newline).
 */
export function verdictLine(c: GateCheck): string {
  return `${c.verdict.toUpperCase().padEnd(4)} ${c.group} · ${c.name}: ${c.message}`;
}

function xml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!,
    // XML 1.0 forbids C0 controls other than tab, newline and carriage return.
    // deno-lint-ignore no-control-regex
  ).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

/**
 * JUnit XML in the common Ant/Jenkins shape: `<testsuites>` holding one `<testsuite>` per group,
 * one `<testcase>` per check; `fail` → `<failure>`, `skip` → `<skipped>`, `warn` → a passing
 * test case with `<system-out>`. No timestamps, so equal checks give equal bytes. Validates
 * against `lib/report/junit.xsd`.
 *
 * @param checks Checks.
 * @param name Name of the whole run. @default {"mcpmeter gate"}
 * @returns XML text with an XML declaration and a trailing newline.
 */
export function gateJunit(checks: readonly GateCheck[], name = "mcpmeter gate"): string {
  const groups = [...new Set(checks.map((c) => c.group))];
  const count = (cs: readonly GateCheck[], v: Verdict) => cs.filter((c) => c.verdict === v).length;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xml(name)}" tests="${checks.length}" failures="${
      count(checks, "fail")
    }" errors="0" skipped="${count(checks, "skip")}" time="0">`,
  ];
  for (const g of groups) {
    const cs = checks.filter((c) => c.group === g);
    lines.push(
      `  <testsuite name="${xml(g)}" tests="${cs.length}" failures="${
        count(cs, "fail")
      }" errors="0" skipped="${count(cs, "skip")}" time="0">`,
    );
    for (const c of cs) {
      const classname = `mcpmeter.gate.${g.replace(/[^A-Za-z0-9_.-]+/g, "_")}`;
      const open = `    <testcase classname="${xml(classname)}" name="${xml(c.name)}" time="0"`;
      const body = [c.message, ...c.details].join("\n");
      if (c.verdict === "pass") {
        lines.push(`${open}>`, `      <system-out>${xml(body)}</system-out>`, `    </testcase>`);
      } else if (c.verdict === "warn") {
        lines.push(
          `${open}>`,
          `      <system-out>${xml(`WARNING: ${body}`)}</system-out>`,
          `    </testcase>`,
        );
      } else if (c.verdict === "skip") {
        lines.push(`${open}>`, `      <skipped message="${xml(c.message)}"/>`, `    </testcase>`);
      } else {
        lines.push(
          `${open}>`,
          `      <failure message="${xml(c.message)}" type="regression">${xml(body)}</failure>`,
          `    </testcase>`,
        );
      }
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return lines.join("\n") + "\n";
}

/** What the Markdown summary says about the inputs. */
export interface GateContext {
  /** Baseline run id (or path). */
  readonly baseline?: string;
  /** Candidate run id (or path). */
  readonly candidate?: string;
  /** Bench reports compared, if any. */
  readonly reports?: { readonly baseline: string; readonly candidate: string };
  /** Thresholds, echoed as `name=value`. */
  readonly thresholds?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * A Markdown summary for a CI step summary or a pull-request comment: the overall verdict,
 * counts, the inputs and thresholds, a table of every check (failures first) and the details of
 * checks that have any.
 *
 * @param checks Checks.
 * @param context Inputs and thresholds to echo.
 * @returns Markdown text ending in a newline.
 */
export function gateMarkdown(checks: readonly GateCheck[], context: GateContext = {}): string {
  const fails = checks.filter((c) => c.verdict === "fail").length;
  const icon: Record<Verdict, string> = {
    fail: "❌ fail",
    warn: "⚠️ warn",
    pass: "✅ pass",
    skip: "➖ skip",
  };
  const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const order: Record<Verdict, number> = { fail: 0, warn: 1, pass: 2, skip: 3 };
  const sorted = checks.map((c, i) => ({ c, i })).sort((a, b) =>
    order[a.c.verdict] - order[b.c.verdict] || a.i - b.i
  ).map((x) => x.c);
  const out = [
    `## mcpmeter gate: ${fails > 0 ? "FAIL" : "PASS"}`,
    "",
    `${checks.length} checks: ${fails} failed, ${
      checks.filter((c) => c.verdict === "warn").length
    } warned, ${checks.filter((c) => c.verdict === "pass").length} passed, ${
      checks.filter((c) => c.verdict === "skip").length
    } skipped.`,
    "",
  ];
  if (context.baseline || context.candidate) {
    out.push(
      `Baseline \`${context.baseline ?? "?"}\` → candidate \`${context.candidate ?? "?"}\`.`,
      "",
    );
  }
  if (context.reports) {
    out.push(
      `Bench reports: \`${context.reports.baseline}\` → \`${context.reports.candidate}\`.`,
      "",
    );
  }
  if (context.thresholds && Object.keys(context.thresholds).length > 0) {
    out.push(
      `Thresholds: ${
        Object.entries(context.thresholds).map(([k, v]) => `\`${k}=${v}\``).join(", ")
      }.`,
      "",
    );
  }
  out.push("| verdict | group | check | detail |", "|---|---|---|---|");
  for (const c of sorted) {
    out.push(`| ${icon[c.verdict]} | ${cell(c.group)} | ${cell(c.name)} | ${cell(c.message)} |`);
  }
  const detailed = sorted.filter((c) => c.details.length > 0);
  if (detailed.length > 0) {
    out.push("");
    for (const c of detailed) {
      out.push(`**${cell(c.group)} · ${cell(c.name)}**`, "", ...c.details.map((d) => `- ${d}`), "");
    }
  }
  return out.join("\n").trimEnd() + "\n";
}
