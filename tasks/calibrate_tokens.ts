// deno task calibrate-tokens: fits the billed-token estimate of one provider and model on its
// own count endpoint and writes a calibration file (lib/flows/calibrate_tokens.ts).
// Exit 0: written; 1: too few counts to fit (no key, refused); 2: bad input.
import { runCalibrateTokens } from "../lib/flows/mod.ts";
import {
  fromRoot,
  helpText,
  intFlag,
  IO,
  parseFlags,
  printOutcome,
  runMain,
  UsageError,
} from "./_cli.ts";

const HELP = helpText({
  usage: "calibrate-tokens --provider anthropic|openai|gemini --model MODEL [options]",
  purpose: "Fit the billed-token estimate on a provider's own counts (its count endpoint).",
  about: `Sends one count request without tools and one per sampled tool (alone) to the provider's
count endpoint (keys from ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY; base URLs from
ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GEMINI_BASE_URL), fits the estimator's coefficients and
interval, and writes a calibration file for deno task bench --calibration FILE. Answers are
cached (.scratch/count_tokens): a second run sends nothing. Method: docs/cost-layers.md.`,
  options: `  --provider P     anthropic, openai or gemini
  --model M        model name, as the endpoint takes it
  --corpus FILE    catalog whose tools are sampled (default: the reference corpus)
  --sample N       tools sampled (default: 40)
  --seed N         seed of the sample (default: 20261130)
  --out FILE       output (default: results/calibration_<provider>_<model>.json)`,
  exitCodes: "0 written, 1 too few counts to fit, 2 bad input.",
});

async function main(args: string[]): Promise<number> {
  const { values: v } = parseFlags(args, {
    provider: { type: "string" },
    model: { type: "string" },
    corpus: { type: "string", path: true },
    sample: { type: "string" },
    seed: { type: "string" },
    out: { type: "string", path: true },
    help: { type: "boolean", short: "h", default: false },
  });
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  if (!v.provider || !v.model) {
    throw new UsageError("--provider and --model are required (see --help)");
  }
  const safe = `${v.provider}_${v.model}`.replace(/[^A-Za-z0-9._-]/g, "_");
  return printOutcome(
    await runCalibrateTokens({
      provider: v.provider,
      model: v.model,
      corpus: v.corpus ?? fromRoot("fixtures/corpora/reference_v1.tools.json"),
      sample: intFlag("sample", v.sample, 40, 3),
      seed: intFlag("seed", v.seed, 20261130),
      out: v.out ?? fromRoot(`results/calibration_${safe}.json`),
      cacheDir: fromRoot(".scratch/count_tokens"),
    }, IO),
  );
}

if (import.meta.main) await runMain("calibrate-tokens", () => main(Deno.args));
