// deno task calibrate: runs one judge model over a labelled set of a suite's answers and reports
// how well it agrees with the labels (lib/flows/calibrate.ts).
// Exit 0: measured (and thresholds held); 1: nothing scored or a threshold failed; 2: bad input.
import { runCalibration } from "../lib/flows/mod.ts";
import { loadEnv } from "../lib/agent/io.ts";
import {
  fromRoot,
  helpText,
  intFlag,
  IO,
  numberFlag,
  parseFlags,
  printOutcome,
  runMain,
  UsageError,
} from "./_cli.ts";

const HELP = helpText({
  usage: "calibrate --suite FILE --labels FILE --judge ID [options]",
  purpose: "How well a judge model agrees with human labels: accuracy, confusion, Cohen's kappa.",
  about: `Runs the judge over every labelled answer (lib/agent/schemas/labels.schema.json: case id,
answer text, expected pass/fail), with the case's question and llm_judge rubric and the same
prompts and majority rule as a run, and reports accuracy with its 95% Wilson interval, the
confusion counts (judge × label) and Cohen's kappa. Writes OUT/<suite>--<judge>.json and .csv.`,
  options: `  --suite FILE          suite JSON (e.g. fixtures/suites/memory_graph.json)
  --labels FILE         labels JSON (e.g. fixtures/labels/memory_graph.labels.json)
  --judge ID            judge model id in the model registry
  --models FILE         model registry (default: fixtures/agents/models.json)
  --votes N             verdicts asked per label; majority, a tie fails (default: 1)
  --temperature T       judge sampling temperature (default: 0)
  --min-accuracy A      exit 1 when accuracy < A (fraction)
  --min-kappa K         exit 1 when kappa < K (or undefined)
  --out DIR             output folder (default: results/calibration)
  --env-file FILE       dotenv file with API keys (default: .env)`,
  exitCodes: "0 measured, 1 nothing scored or a threshold failed, 2 bad input.",
});

async function main(args: string[]): Promise<number> {
  const { values: v } = parseFlags(args, {
    suite: { type: "string", path: true },
    labels: { type: "string", path: true },
    judge: { type: "string" },
    models: { type: "string", path: true },
    votes: { type: "string" },
    temperature: { type: "string" },
    "min-accuracy": { type: "string" },
    "min-kappa": { type: "string" },
    out: { type: "string", path: true },
    "env-file": { type: "string", default: ".env", path: true },
    help: { type: "boolean", short: "h", default: false },
  });
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  for (const flag of ["suite", "labels", "judge"] as const) {
    if (!v[flag]) throw new UsageError(`--${flag} is required (see --help)`);
  }
  const votes = intFlag("votes", v.votes, undefined, 1);
  const given = <T>(key: string, value: T | undefined) =>
    value === undefined ? {} : { [key]: value };
  const outcome = await runCalibration({
    suite: v.suite!,
    labels: v.labels!,
    judge: v.judge!,
    models: v.models ?? fromRoot("fixtures/agents/models.json"),
    out: v.out ?? fromRoot("results/calibration"),
    env: await loadEnv(v["env-file"]),
    ...given("votes", votes),
    ...given("temperature", numberFlag("temperature", v.temperature, 0, 2)),
    ...given("minAccuracy", numberFlag("min-accuracy", v["min-accuracy"], 0, 1)),
    ...given("minKappa", numberFlag("min-kappa", v["min-kappa"], -1, 1)),
  }, IO);
  return printOutcome(outcome);
}

if (import.meta.main) await runMain("calibrate", () => main(Deno.args));
