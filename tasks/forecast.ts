// deno task forecast: the expected USD, tokens and wall time of N questions like a run's suite,
// with a seeded bootstrap interval (lib/agent/forecast.ts), optionally under other prices.
// Exit 0: forecast printed; 2: unusable input.
import { helpText, intFlag, parseFlags, runMain, UsageError } from "./_cli.ts";
import { runForecast } from "../lib/flows/mod.ts";
import { DEFAULT_FORECAST_RESAMPLES } from "../lib/agent/mod.ts";

const HELP = helpText({
  usage: "forecast --run DIR --questions N [options]",
  purpose: "Expected USD, tokens and wall time of N future questions like a run's suite.",
  about: `From one run folder (results/runs/<runId>/): expected USD split into agent, judge and tool
costs, tokens (input, output, cache read/write, judge) and wall time, each with a 95% interval
from a seeded bootstrap over the run's cases and their repetitions. Provenance: estimated,
assuming future questions are like the suite's.`,
  options: `  --run DIR            run folder holding run.json and cases.jsonl (required)
  --questions N        number of future questions (required, >= 1)
  --agent ID           only this agent (default: every agent of the run)
  --price-file FILE    re-price under other prices: the model registry's shape,
                       {"models": [{"id": "...", "pricing": {...}}], "toolPrices": {...}}
                       (a models.json works as it is; ids absent keep the run's prices; a
                       file pricing none of the run's models and tools is refused, exit 2).
                       Prices change, token counts do not: "cache on" needs a run with
                       caching on, whose cache tokens are then priced here
  --seed S             bootstrap seed, recorded in the output (default: 0)
  --resamples B        bootstrap resamples (default: ${DEFAULT_FORECAST_RESAMPLES})
  --concurrency C      cases in flight for the wall-time total (default: 1)
  --json               print the forecast as JSON (sorted keys) instead of text`,
  exitCodes: `0 forecast printed, 2 unusable input (missing or malformed run, bad flag,
bad price file, unknown agent, no agent with a record that is not an infrastructure error).`,
  notes: `An agent whose every record is an infrastructure error has measured no cost: it is not
forecast, a line says so and why, and a warning goes to stderr (--json: "notForecast"); the
other agents are. An unfinished run, a shard, or infrastructure errors among an agent's
records print a warning on stderr.`,
});

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    run: { type: "string", path: true },
    questions: { type: "string" },
    agent: { type: "string" },
    "price-file": { type: "string", path: true },
    seed: { type: "string" },
    resamples: { type: "string" },
    concurrency: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.run === undefined) throw new UsageError("--run DIR is required (see --help)");
  if (values.questions === undefined) {
    throw new UsageError("--questions N is required (see --help)");
  }
  const out = await runForecast({
    run: values.run,
    questions: intFlag("questions", values.questions, 1, 1),
    seed: intFlag("seed", values.seed, 0),
    resamples: intFlag("resamples", values.resamples, DEFAULT_FORECAST_RESAMPLES, 1),
    concurrency: intFlag("concurrency", values.concurrency, 1, 1),
    json: values.json,
    ...(values.agent === undefined ? {} : { agentId: values.agent }),
    ...(values["price-file"] === undefined ? {} : { priceFile: values["price-file"] }),
  });
  for (const w of out.warnings) console.error(`mcpmeter forecast: warning: ${w}`);
  Deno.stdout.writeSync(new TextEncoder().encode(out.stdout));
  return 0;
}

if (import.meta.main) await runMain("forecast", main);
