// deno task merge: joins the run folders of shards (deno task agents --shard i/n) into one run
// (lib/flows/merge.ts).
import { helpText, parseFlags, printOutcome, runMain, UsageError } from "./_cli.ts";
import { runMerge } from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "merge --out DIR RUN_DIR RUN_DIR...",
  purpose: "Join the run folders of shards of one suite (deno task agents --shard i/n) into one.",
  about: `Same suite, agents and repetitions: writes DIR with cases.jsonl in plan order, run.json
listing the inputs, and summary.csv. A case present in two inputs is an error, never counted
twice.`,
  options: `  --out DIR           the merged run folder (required)
  RUN_DIR             a shard's run folder (one or more)`,
  exitCodes: "0 merged, 2 bad input (a missing or malformed run, shards of different runs, " +
    "a case in two inputs)",
});

async function main(): Promise<number> {
  const { values, positionals } = parseFlags(Deno.args, {
    out: { type: "string", path: true },
    help: { type: "boolean", short: "h", default: false },
  }, "paths");
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.out || positionals.length === 0) {
    throw new UsageError("--out DIR and at least one RUN_DIR are required (see --help)");
  }
  return printOutcome(await runMerge({ out: values.out, dirs: positionals }));
}

if (import.meta.main) runMain("merge", main);
