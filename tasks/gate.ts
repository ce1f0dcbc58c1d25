// deno task gate: compares a candidate agent run (and optionally a bench report) with a
// baseline, prints one verdict line per check, writes JUnit XML and a Markdown summary.
// Exit 0: every check holds; 1: a check failed; 2: unusable input; 3: the gate itself failed.
import { helpText, intFlag, numberFlag as num, parseFlags, printOutcome, runMain } from "./_cli.ts";
import { runGate } from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: [
    "gate --baseline RUN --candidate RUN [options]",
    "gate --baseline-report FILE --candidate-report FILE [options]",
  ],
  purpose: "CI gate: a candidate run (or bench report) against a baseline, one verdict per check.",
  about:
    `Compares a candidate run with a baseline run per agent (and per case tag), and optionally two
bench reports. Prints one verdict line per check.`,
  options: ` Run checks:
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
  --markdown FILE              Markdown summary (append to $GITHUB_STEP_SUMMARY or a PR comment)`,
  exitCodes: `0 every check holds, 1 a check failed, 2 unusable input (a missing or malformed
run or report, a baseline whose every case is an infrastructure error), 3 the gate itself
failed (a bug: MCPMETER_DEBUG=1 prints its stack).`,
});

async function main(): Promise<number> {
  const { values: v } = parseFlags(Deno.args, {
    baseline: { type: "string", path: true },
    candidate: { type: "string", path: true },
    alpha: { type: "string" },
    "max-pass-drop": { type: "string" },
    "max-cost-increase": { type: "string" },
    "max-latency-increase": { type: "string" },
    "fail-on-catalog-change": { type: "boolean", default: false },
    seed: { type: "string" },
    "baseline-report": { type: "string", path: true },
    "candidate-report": { type: "string", path: true },
    "recall-tolerance": { type: "string" },
    "savings-tolerance": { type: "string" },
    junit: { type: "string", path: true },
    markdown: { type: "string", path: true },
    help: { type: "boolean", short: "h", default: false },
  });
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const given = <T>(key: string, value: T | undefined) =>
    value === undefined ? {} : { [key]: value };
  const outcome = await runGate({
    ...given("baseline", v.baseline),
    ...given("candidate", v.candidate),
    ...given("baselineReport", v["baseline-report"]),
    ...given("candidateReport", v["candidate-report"]),
    run: {
      ...given("alpha", num("alpha", v.alpha, 1e-9, 0.999999)),
      ...given("maxCostIncrease", num("max-cost-increase", v["max-cost-increase"], 0)),
      ...given("maxPassDrop", num("max-pass-drop", v["max-pass-drop"], 0, 1)),
      ...given("maxLatencyIncrease", num("max-latency-increase", v["max-latency-increase"], 0)),
      ...given("seed", intFlag("seed", v.seed, undefined)),
      failOnCatalogChange: v["fail-on-catalog-change"],
    },
    ...given("recallTolerance", num("recall-tolerance", v["recall-tolerance"], 0, 1)),
    ...given("savingsTolerance", num("savings-tolerance", v["savings-tolerance"], 0, 1)),
    ...given("junit", v.junit),
    ...given("markdown", v.markdown),
  });
  return printOutcome(outcome);
}

// An unexpected error exits 3, not 1: a CI job must not read a crash as "a check failed".
if (import.meta.main) runMain("gate", main, { crashCode: 3 });
