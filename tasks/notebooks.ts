// deno task notebooks: execute every numbered notebook headless with the Deno
// Jupyter kernel; executed copies and HTML exports land in results/notebooks/.
// Fails on any cell error. Without Jupyter: skips with instructions, except
// when CI is set, where a missing Jupyter is a failure.
import { fromRoot, helpText, IO, parseFlags, runMain } from "./_cli.ts";
import { runNotebooks } from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "notebooks [--out DIR] [NOTEBOOK ...]",
  purpose: "Execute notebooks/NN_*.ipynb headless, writing executed copies and HTML.",
  options:
    `  --out DIR    Where executed notebooks and HTML exports go (default: results/notebooks/)
  NOTEBOOK     Run only these notebooks (default: every notebooks/[0-9][0-9]_*.ipynb)`,
  exitCodes: "0 executed (or skipped without Jupyter, said so; with CI set that is a failure), " +
    "1 a notebook failed",
  notes: `Needs Jupyter with the Deno kernel: apt-get install -y jupyter-nbconvert python3-nbclient
jupyter-client python3-ipykernel && deno jupyter --install`,
});

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    out: { type: "string", path: true },
    help: { type: "boolean", short: "h", default: false },
  }, true);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const dir = fromRoot("notebooks/");
  const notebooks = positionals.length > 0 ? positionals.map((p) => p.split("/").pop()!) : [
    ...Deno.readDirSync(dir),
  ].map((e) => e.name).filter((n) => /^\d\d_.*\.ipynb$/.test(n)).sort();
  const outDir = values.out ?? fromRoot("results/notebooks");
  const { skipped, failed } = await runNotebooks({
    dir,
    notebooks,
    outDir,
    requireJupyter: Deno.env.get("CI") !== undefined,
  }, IO);
  if (skipped !== undefined) {
    console.error(`notebooks skipped (${notebooks.length}): ${skipped}`);
    return 0;
  }
  for (const f of failed) console.error(f.message);
  if (failed.length > 0) {
    throw new Error(`${failed.length} notebook(s) failed: ${failed.map((f) => f.name).join(", ")}`);
  }
  console.log(`${notebooks.length} notebooks executed; outputs in ${outDir}`);
  return 0;
}

if (import.meta.main) await runMain("notebooks", () => main(Deno.args));
