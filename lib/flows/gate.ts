/**
 * The flow behind `deno task gate`: a candidate agent run against a baseline (per agent and case
 * tag) and/or two bench reports, one verdict per check, with the JUnit XML and Markdown summary
 * written where asked.
 *
 * @module
 */
import { dirname } from "node:path";
import { loadRun } from "../report/io.ts";
import {
  gateBenchReports,
  type GateCheck,
  gateExitCode,
  GateInputError,
  gateJunit,
  gateMarkdown,
  type GateOptions,
  gateRuns,
  RunInputError,
  verdictLine,
} from "../report/mod.ts";
import { UsageError } from "../core/errors.ts";
import { ensureWritable } from "./_write.ts";
import type { FlowOutcome } from "./outcome.ts";

/** Defaults of the gate's thresholds (fractions). */
export const GATE_DEFAULTS = {
  alpha: 0.05,
  maxCostIncrease: 0.15,
  recallTolerance: 0.01,
  savingsTolerance: 0,
  seed: 0,
} as const;

/** What `deno task gate` was asked for: two runs, two bench reports, or both. */
export interface RunGateOptions {
  /** Baseline run folder (with `candidate`). */
  readonly baseline?: string;
  /** Candidate run folder (with `baseline`). */
  readonly candidate?: string;
  /** Baseline bench report.json (with `candidateReport`). */
  readonly baselineReport?: string;
  /** Candidate bench report.json (with `baselineReport`). */
  readonly candidateReport?: string;
  /** Run-check thresholds; absent fields take {@linkcode GATE_DEFAULTS}. */
  readonly run?: GateOptions;
  /** Largest allowed recall@5 drop per row. @default {GATE_DEFAULTS.recallTolerance} */
  readonly recallTolerance?: number;
  /** Largest allowed drop of a mode's savings. @default {GATE_DEFAULTS.savingsTolerance} */
  readonly savingsTolerance?: number;
  /** JUnit XML file to write (one testcase per check). */
  readonly junit?: string;
  /** Markdown summary file to write. */
  readonly markdown?: string;
}

/**
 * The gate's outcome: the checks; for stdout the verdict lines with their details, then the
 * `gate: PASS|FAIL` line (stderr stays empty); exit code 0 when every check holds, 1 otherwise.
 */
export interface GateOutcome extends FlowOutcome {
  /** Every check, runs first. */
  readonly checks: readonly GateCheck[];
}

async function readReport(path: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    throw new UsageError(`cannot read bench report "${path}": ${(e as Error).message}`);
  }
}

/**
 * Runs the gate. Output paths are checked before any comparison, so an unwritable one is bad
 * input, not a failed check.
 *
 * @param options What to compare and where to write (see {@linkcode RunGateOptions}).
 * @returns The checks, stdout lines and exit code.
 * @throws {UsageError} On a half-given pair, nothing to compare, an unwritable output, an
 *   unreadable or malformed run or report, or a baseline run whose every case is an
 *   infrastructure error.
 */
export async function runGate(options: RunGateOptions): Promise<GateOutcome> {
  if (options.junit) await ensureWritable(options.junit, "--junit");
  if (options.markdown) await ensureWritable(options.markdown, "--markdown");
  const runsGiven = options.baseline !== undefined || options.candidate !== undefined;
  const reportsGiven = options.baselineReport !== undefined ||
    options.candidateReport !== undefined;
  if (runsGiven && (options.baseline === undefined || options.candidate === undefined)) {
    throw new UsageError("--baseline and --candidate go together (see --help)");
  }
  if (reportsGiven && (!options.baselineReport || !options.candidateReport)) {
    throw new UsageError("--baseline-report and --candidate-report go together (see --help)");
  }
  if (!runsGiven && !reportsGiven) {
    throw new UsageError(
      "give --baseline RUN --candidate RUN and/or two bench reports (see --help)",
    );
  }
  const opts: GateOptions = {
    alpha: GATE_DEFAULTS.alpha,
    maxCostIncrease: GATE_DEFAULTS.maxCostIncrease,
    failOnCatalogChange: false,
    seed: GATE_DEFAULTS.seed,
    ...options.run,
  };
  const recallTolerance = options.recallTolerance ?? GATE_DEFAULTS.recallTolerance;
  const savingsTolerance = options.savingsTolerance ?? GATE_DEFAULTS.savingsTolerance;
  const checks: GateCheck[] = [];
  let ids: { baseline: string; candidate: string } | undefined;
  try {
    if (runsGiven) {
      const [b, c] = [await loadRun(options.baseline!), await loadRun(options.candidate!)];
      ids = { baseline: b.runId, candidate: c.runId };
      // A baseline with no scored case cannot judge anything: the input is unusable (exit 2),
      // not a failure of the candidate (exit 1).
      if (b.records.length > 0 && b.records.every((r) => r.passed === null)) {
        const kinds = [...new Set(b.records.map((r) => r.error?.kind ?? "unknown"))].sort();
        throw new UsageError(
          `baseline "${b.runId}" cannot serve as a baseline: all ${b.records.length} case records are infrastructure errors (${
            kinds.join(", ")
          }); rerun them with deno task agents --resume ${b.runId} --retry-errors, or give another --baseline`,
        );
      }
      checks.push(...gateRuns(b, c, opts));
    }
    if (reportsGiven) {
      checks.push(
        ...gateBenchReports(
          await readReport(options.baselineReport!),
          await readReport(options.candidateReport!),
          { recallTolerance, savingsTolerance },
        ),
      );
    }
  } catch (e) {
    if (e instanceof RunInputError || e instanceof GateInputError) {
      throw new UsageError(e.message);
    }
    throw e;
  }
  const lines: string[] = [];
  for (const c of checks) lines.push(verdictLine(c), ...c.details.map((d) => `       ${d}`));
  const exitCode = gateExitCode(checks);
  const thresholds: Record<string, string | number | boolean> = {
    alpha: opts.alpha!,
    "max-cost-increase": opts.maxCostIncrease!,
    ...(opts.maxPassDrop !== undefined ? { "max-pass-drop": opts.maxPassDrop } : {}),
    ...(opts.maxLatencyIncrease !== undefined
      ? { "max-latency-increase": opts.maxLatencyIncrease }
      : {}),
    "fail-on-catalog-change": opts.failOnCatalogChange!,
    ...(reportsGiven
      ? { "recall-tolerance": recallTolerance, "savings-tolerance": savingsTolerance }
      : {}),
  };
  if (options.junit) {
    await Deno.mkdir(dirname(options.junit), { recursive: true });
    await Deno.writeTextFile(options.junit, gateJunit(checks));
  }
  if (options.markdown) {
    await Deno.mkdir(dirname(options.markdown), { recursive: true });
    await Deno.writeTextFile(
      options.markdown,
      gateMarkdown(checks, {
        ...(ids ?? {}),
        ...(reportsGiven
          ? { reports: { baseline: options.baselineReport!, candidate: options.candidateReport! } }
          : {}),
        thresholds,
      }),
    );
  }
  const fails = checks.filter((c) => c.verdict === "fail").length;
  lines.push(
    exitCode === 0
      ? `gate: PASS (${checks.length} checks)`
      : `gate: FAIL (${fails} of ${checks.length} checks failed)`,
  );
  return { checks, stdout: lines, stderr: [], exitCode };
}
