// deno task merge: joins the run folders of shards (deno task agents --shard i/n) into one run
// (lib/flows/merge.ts).
import { parseFlags, printOutcome, runMain, UsageError } from "./_cli.ts";
import { runMerge } from "../lib/flows/mod.ts";

const HELP = `Usage: deno task merge --out DIR RUN_DIR RUN_DIR...

Joins the run folders of shards of one suite (same suite, agents and repetitions)
into DIR: cases.jsonl in plan order, run.json listing the inputs, summary.csv.
A case present in two inputs is an error (exit 2), never counted twice.`;

async function main(): Promise<number> {
  const { values, positionals } = parseFlags(Deno.args, {
    out: { type: "string" },
    help: { type: "boolean", default: false },
  }, true);
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
