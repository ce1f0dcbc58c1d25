// deno task demo-agents: example agent runs against a scripted local model (lib/flows/demo.ts),
// for notebooks 05 and 06 and for trying `deno task report` / `deno task gate`.
import { demoRuns, demoSummary } from "../lib/flows/mod.ts";
import { SERVE_DEFAULTS } from "../lib/workbench/mod.ts";
import { fromRoot, helpText, intFlag, IO, parseFlags, runMain } from "./_cli.ts";

const HELP = helpText({
  usage: "demo-agents [--out DIR] [--repetitions N] [--fresh]",
  purpose: "Example agent runs against a scripted local model: no API key needed.",
  about:
    `Runs seven example agents on the fs_basics and memory_graph suites, twice each (two run ids
per suite), then one sweep over a lever (the tools allow-list: the baseline offered every tool of
its servers, or only the filesystem tools fs_basics needs), against a local server that speaks the
Anthropic and OpenAI wire formats with scripted replies computed from the real tool output. The
agents differ as real ones do, each by its configuration: baseline; cheaper-model (same answers,
a cheaper price); via-proxy (tools found through the discovery proxy); warm (temperature 1: flaky
cases); tight-budget (two turns: iteration limits); no-tools (told not to use tools: wrong and
cheap); broken-server (a server that cannot start: infrastructure errors). Its models are marked
simulated: USD figures are what the pricing would charge, not a bill. The first run installs the
pinned MCP server packages from npm (later runs reuse .scratch/servers). Writes
DIR/config/ (the agents and models), DIR/runs/demo-<suite>-<n>/ and
DIR/runs/demo-fs_basics-sweep-tools/.`,
  options: `  --out DIR         output folder (default: results/demo)
  --repetitions N   repetitions per case (default: 3)
  --fresh           rerun every demo run (finished ones are reused otherwise, and said so)`,
  exitCodes: "0 every demo run written, 1 a run failed, 2 bad input",
  notes: `Ends with each agent's pass rate per suite (simulated) and what to open next:
deno task serve and its Runs page, or deno task report --runs 'results/demo/runs/*'.`,
});

async function main(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    out: { type: "string", path: true },
    repetitions: { type: "string" },
    fresh: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const reps = intFlag("repetitions", values.repetitions, 3, 1);
  const outDir = values.out ?? fromRoot("results/demo");
  const dirs = await demoRuns({ outDir, repetitions: reps, fresh: values.fresh }, IO);
  console.log(`demo runs in:\n${dirs.map((d) => IO.displayPath(d)).join("\n")}\n`);
  const url = `http://127.0.0.1:${SERVE_DEFAULTS.port}`;
  console.log((await demoSummary(dirs, outDir, url, IO)).join("\n"));
  return 0;
}

if (import.meta.main) await runMain("demo-agents", () => main(Deno.args));
