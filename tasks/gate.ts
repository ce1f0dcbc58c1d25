// deno task gate: compares a candidate agent run (and optionally a bench report) with a
// baseline, prints one verdict line per check, writes JUnit XML and a Markdown summary.
// Exit 0: every check holds; 1: a check failed; 2: unusable input.
import { dirname } from "node:path";
import { ensureWritable, parseFlags, runMain, UsageError } from "./_cli.ts";
import { loadRun } from "../lib/report/io.ts";
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
} from "../lib/report/mod.ts";

const HELP = `Usage: deno task gate --baseline RUN --candidate RUN [options]
       deno task gate --baseline-report FILE --candidate-report FILE [options]

Compares a candidate run with a baseline run per agent (and per case tag), and optionally two
bench reports. Prints one verdict line per check.

Run checks:
  --alpha A                    one-sided case-level permutation test level (default 0.05)
  --max-pass-drop D            fail when the case-averaged pass rate drops by more than D,
                               whatever p (absolute; default 0.2, a floor that catches a
                               collapse on suites too small for the test; 1 turns it off)
  --max-cost-increase F        fail when mean cost per case rises by more than F (default 0.15)
  --max-latency-increase F     fail when p95 wall time rises by more than F (default: report only)
  --fail-on-catalog-change     fail (not warn) when an agent's tool-catalog hash changed
  --seed N                     seed of the permutation test above 16 cases (default 0)
Bench report checks:
  --baseline-report FILE --candidate-report FILE
  --recall-tolerance T         largest allowed recall@5 drop per row (default 0.01)
  --savings-tolerance T        largest allowed drop of a mode's savings (default 0)
Outputs:
  --junit FILE                 JUnit XML (one testcase per check)
  --markdown FILE              Markdown summary (append to $GITHUB_STEP_SUMMARY or a PR comment)
  --help

Exit codes: 0 every check holds, 1 a check failed, 2 unusable input.`;

function num(name: string, v: string | undefined, min: number, max = Infinity): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a number in [${min}, ${max}]: current value is "${v}"`);
  }
  return n;
}

async function readReport(path: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    throw new UsageError(`cannot read bench report "${path}": ${(e as Error).message}`);
  }
}

async function main(): Promise<number> {
  const parsed = parseFlags(Deno.args, {
    baseline: { type: "string" },
    candidate: { type: "string" },
    alpha: { type: "string" },
    "max-pass-drop": { type: "string" },
    "max-cost-increase": { type: "string" },
    "max-latency-increase": { type: "string" },
    "fail-on-catalog-change": { type: "boolean", default: false },
    seed: { type: "string" },
    "baseline-report": { type: "string" },
    "candidate-report": { type: "string" },
    "recall-tolerance": { type: "string" },
    "savings-tolerance": { type: "string" },
    junit: { type: "string" },
    markdown: { type: "string" },
    help: { type: "boolean", default: false },
  });
  const v = parsed.values;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  // Output paths are checked before any comparison: an unwritable one is bad input (exit 2),
  // not a failed check (exit 1).
  if (v.junit) await ensureWritable(v.junit, "--junit");
  if (v.markdown) await ensureWritable(v.markdown, "--markdown");
  const runsGiven = v.baseline !== undefined || v.candidate !== undefined;
  const reportsGiven = v["baseline-report"] !== undefined || v["candidate-report"] !== undefined;
  if (runsGiven && (v.baseline === undefined || v.candidate === undefined)) {
    throw new UsageError("--baseline and --candidate go together (see --help)");
  }
  if (reportsGiven && (!v["baseline-report"] || !v["candidate-report"])) {
    throw new UsageError("--baseline-report and --candidate-report go together (see --help)");
  }
  if (!runsGiven && !reportsGiven) {
    throw new UsageError(
      "give --baseline RUN --candidate RUN and/or two bench reports (see --help)",
    );
  }
  const options: GateOptions = {
    alpha: num("alpha", v.alpha, 1e-9, 0.999999) ?? 0.05,
    maxCostIncrease: num("max-cost-increase", v["max-cost-increase"], 0) ?? 0.15,
    failOnCatalogChange: v["fail-on-catalog-change"],
    seed: num("seed", v.seed, 0) ?? 0,
  };
  const maxPassDrop = num("max-pass-drop", v["max-pass-drop"], 0, 1);
  const maxLatency = num("max-latency-increase", v["max-latency-increase"], 0);
  const opts: GateOptions = {
    ...options,
    ...(maxPassDrop !== undefined ? { maxPassDrop } : {}),
    ...(maxLatency !== undefined ? { maxLatencyIncrease: maxLatency } : {}),
  };
  const recallTolerance = num("recall-tolerance", v["recall-tolerance"], 0, 1) ?? 0.01;
  const savingsTolerance = num("savings-tolerance", v["savings-tolerance"], 0, 1) ?? 0;

  const checks: GateCheck[] = [];
  let baselineId: string | undefined;
  let candidateId: string | undefined;
  try {
    if (runsGiven) {
      const [b, c] = [await loadRun(v.baseline!), await loadRun(v.candidate!)];
      baselineId = b.runId;
      candidateId = c.runId;
      checks.push(...gateRuns(b, c, opts));
    }
    if (reportsGiven) {
      checks.push(
        ...gateBenchReports(
          await readReport(v["baseline-report"]!),
          await readReport(v["candidate-report"]!),
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
  for (const c of checks) {
    console.log(verdictLine(c));
    for (const d of c.details) console.log(`       ${d}`);
  }
  const code = gateExitCode(checks);
  const thresholds: Record<string, string | number | boolean> = {
    alpha: opts.alpha!,
    "max-cost-increase": opts.maxCostIncrease!,
    ...(maxPassDrop !== undefined ? { "max-pass-drop": maxPassDrop } : {}),
    ...(maxLatency !== undefined ? { "max-latency-increase": maxLatency } : {}),
    "fail-on-catalog-change": opts.failOnCatalogChange!,
    ...(reportsGiven
      ? { "recall-tolerance": recallTolerance, "savings-tolerance": savingsTolerance }
      : {}),
  };
  if (v.junit) {
    await Deno.mkdir(dirname(v.junit), { recursive: true });
    await Deno.writeTextFile(v.junit, gateJunit(checks));
  }
  if (v.markdown) {
    await Deno.mkdir(dirname(v.markdown), { recursive: true });
    await Deno.writeTextFile(
      v.markdown,
      gateMarkdown(checks, {
        ...(baselineId ? { baseline: baselineId, candidate: candidateId } : {}),
        ...(reportsGiven
          ? { reports: { baseline: v["baseline-report"]!, candidate: v["candidate-report"]! } }
          : {}),
        thresholds,
      }),
    );
  }
  const fails = checks.filter((c) => c.verdict === "fail").length;
  console.log(
    code === 0
      ? `gate: PASS (${checks.length} checks)`
      : `gate: FAIL (${fails} of ${checks.length} checks failed)`,
  );
  return code;
}

if (import.meta.main) runMain("gate", main);
