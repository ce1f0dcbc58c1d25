// deno task scale: the scale benchmark. Wall time and peak RSS of the whole default bench
// (modes, scaling, heaviest, all arms, both tokenizers, every retriever and index, retrieval on
// the reference golden set) on synthetic catalogs of 1k, 10k, 40k and 100k tools, plus the
// default bench on the reference corpus (lib/flows/scale.ts); refreshes the generated section
// of docs/performance.md.
import {
  displayPath,
  fromRoot,
  helpText,
  intFlag,
  IO,
  parseFlags,
  runMain,
  taskRunArgs,
  UsageError,
} from "./_cli.ts";
import {
  runScale,
  scaleMachine,
  scaleSection,
  scaleTable,
  withScaleSection,
} from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "scale [--sizes LIST] [--seed S] [--out DIR] [--docs FILE] [--no-default]",
  purpose: "Time and peak memory of deno task bench against catalog size.",
  about: `Generates (once, with deno task synth) a catalog of each size, runs the whole default
bench on it (retrieval scored on fixtures/golden/reference_v1.test.json, whose tools every
synthetic catalog of 1,389 tools or more contains; smaller ones are not scored), and prints
wall seconds, peak RSS (the bench process with its worker threads) and the load average
when each run started. Runs the default bench on the reference corpus first.
Results: DIR/scale.json, and the generated section of docs/performance.md (the machine,
the date, the commit and the table), which it replaces.`,
  options: `  --sizes LIST   Comma-separated tool counts (default 1000,10000,40000,100000)
  --seed S       Seed of the synthetic catalogs (default 1)
  --out DIR      Catalogs, bench outputs and scale.json (default results/scale)
  --docs FILE    The page whose generated section is refreshed (default
                 docs/performance.md; created when missing); --docs none leaves it alone
  --no-default   Skip the default bench on the reference corpus`,
  exitCodes: "0 every bench ran, 1 a bench failed (its row says so), 2 bad input",
  notes: "Long: 100,000 tools take minutes on a loaded 2-core machine. Do not run it in a loop.",
});

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    sizes: { type: "string", default: "1000,10000,40000,100000" },
    seed: { type: "string" },
    out: { type: "string", path: true },
    docs: { type: "string", path: true },
    "no-default": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const sizes = values.sizes.split(",").map((s) => s.trim());
  if (sizes.some((s) => s === "")) {
    throw new UsageError(`--sizes has an empty entry, got ${JSON.stringify(values.sizes)}`);
  }
  const counts = sizes.map((s) => intFlag("sizes", s, 0, 1));
  const seed = intFlag("seed", values.seed, 1);
  const docs = values.docs ?? fromRoot("docs/performance.md");
  // Each child runs with the permissions deno.json declares for its task (not -A).
  const { rows, file } = await runScale({
    sizes: counts,
    seed,
    out: values.out ?? fromRoot("results/scale"),
    includeDefault: !values["no-default"],
    benchArgs: await taskRunArgs("bench"),
    synthArgs: await taskRunArgs("synth"),
  }, IO);
  console.log("\n" + scaleTable(rows).join("\n"));
  console.log(`wrote ${displayPath(file)}`);
  if (docs !== "none") {
    const old = await Deno.readTextFile(docs).catch((e) => {
      if (e instanceof Deno.errors.NotFound) return "# Performance\n";
      throw e;
    });
    await Deno.writeTextFile(
      docs,
      withScaleSection(old, scaleSection(rows, await scaleMachine(IO), seed)),
    );
    // Laid out as deno fmt lays out the rest of the page, so `deno fmt --check` stays green.
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", docs] }).output();
    console.log(`refreshed ${displayPath(docs)}`);
  }
  return rows.every((r) => r.exitCode === 0) ? 0 : 1;
}

if (import.meta.main) await runMain("scale", main);
