// deno task synth: a synthetic tool catalog of any size, drawn from the reference corpus,
// written as an mcpmeter capture that `deno task bench --corpus` reads.
import { planSynthCatalog, synthCatalogChunks } from "../lib/catalog/mod.ts";
import { loadSynthReference } from "../lib/catalog/io.ts";
import {
  displayPath,
  ensureWritable,
  fromRoot,
  helpText,
  intFlag,
  parseFlags,
  progress,
  runMain,
  UsageError,
} from "./_cli.ts";

const DEFAULT_REFERENCE = "fixtures/corpora/reference_v1.tools.json";
const DEFAULT_SEED = 1;

/** `n` with its noun, singular for one. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const HELP = helpText({
  usage: "synth --tools N [--seed S] [--out FILE] [options]",
  purpose: "A synthetic tool catalog of N tools drawn from a reference corpus.",
  about:
    `Starts with the reference servers verbatim (every field of every tool as the file has it, so
the reference golden set still finds its tools), then adds seeded rewrites of randomly drawn
reference servers (every field kept, same shapes; words replaced by same-length reference
words, property names renamed consistently) until the catalog has exactly N tools. Same
reference, N and seed: the same bytes.`,
  options: `  --tools N          Number of tools (required, positive)
  --seed S           Seed of every random choice (default ${DEFAULT_SEED})
  --out FILE         Output file (default results/synth/synth_N_sS.tools.json, with
                     --no-reference results/synth/synth_N_sS_noref.tools.json)
  --reference FILE   Reference corpus (default ${DEFAULT_REFERENCE})
  --no-reference     Synthetic servers only (the reference servers are not included)`,
  exitCodes: "0 written, 2 bad input (a flag, an unreadable reference, an unwritable --out)",
  notes: `Example: deno task synth --tools 40000 --seed 7 && \\
  deno task bench --corpus results/synth/synth_40000_s7.tools.json \\
  --golden fixtures/golden/reference_v1.test.json`,
});

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    tools: { type: "string" },
    seed: { type: "string" },
    out: { type: "string", path: true },
    reference: { type: "string", path: true },
    "no-reference": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.tools === undefined) throw new UsageError("--tools N is required (see --help)");
  const tools = intFlag("tools", values.tools, 0, 1);
  const seed = intFlag("seed", values.seed, DEFAULT_SEED);
  const referencePath = values.reference ?? fromRoot(DEFAULT_REFERENCE);
  // Without the reference servers, another default name: not the file of a run with them.
  const noRef = values["no-reference"] ? "_noref" : "";
  const out = values.out ?? fromRoot(`results/synth/synth_${tools}_s${seed}${noRef}.tools.json`);
  await ensureWritable(out, "--out");
  const reference = await loadSynthReference(referencePath);
  if (reference.corpus.tools.length === 0) {
    throw new UsageError(`--reference ${referencePath} has no tools: nothing to draw from`);
  }
  const options = { tools, seed, includeReference: !values["no-reference"] };
  const plan = planSynthCatalog(reference, options);
  progress(
    "synth",
    `${counted(tools, "tool")} in ${
      counted(plan.serverCount, "server")
    } from ${reference.corpus.id}`,
  );

  // Stream compact JSON, piece by piece (synthCatalogChunks: deterministic bytes).
  const started = performance.now();
  const tmp = `${out}.partial`;
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
  try {
    const writer = file.writable.getWriter();
    const enc = new TextEncoder();
    let done = 0;
    for (const chunk of synthCatalogChunks(reference, options)) {
      await writer.write(enc.encode(chunk.text));
      done += chunk.tools;
      if (chunk.tools > 0 && done % 10000 < chunk.tools) {
        progress("synth", `${done}/${tools} tools`);
      }
    }
    await writer.close();
    await Deno.rename(tmp, out);
  } catch (error) {
    // No half-written catalog is left behind (a file already at --out stays as it was).
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `wrote ${displayPath(out)}: ${counted(tools, "tool")}, ${
      counted(plan.serverCount, "server")
    }, seed ${seed} in ${seconds} s`,
  );
  return 0;
}

if (import.meta.main) await runMain("synth", main);
