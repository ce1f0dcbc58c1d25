// deno task report: the comparison dashboard over agent runs (and optionally a bench report),
// with a CSV file per table beside the HTML.
import { basename, dirname, extname, join } from "node:path";
import { ensureWritable, parseFlags, progress, runMain, UsageError } from "./_cli.ts";
import { loadRuns, RunInputError } from "../lib/report/load_runs.ts";
import { filterRuns } from "../lib/report/runs.ts";
import { renderCompareDashboard, tablesToCsv } from "../lib/report/compare_dashboard.ts";
import type { BenchReport } from "../lib/report/bench_report.ts";

const HELP = `Usage: deno task report --runs DIR [DIR...] [options]

Writes one self-contained HTML page comparing agent runs (agent comparison, trends over runs,
reliability, sweep groups) and a CSV file per table beside it.

Options:
  --runs DIR...      run folders (holding run.json) or folders of runs, e.g. results/runs;
                     repeat the flag or list folders after it
  --bench FILE       a bench report (results/report.json) whose sections are appended
  --suite ID[,ID]    keep these suites
  --agent ID[,ID]    keep these agents
  --from DATE        keep runs started on or after DATE (YYYY-MM-DD, UTC)
  --to DATE          keep runs started on or before DATE (inclusive)
  --out FILE         HTML file (default: results/compare/dashboard.html); CSVs are
                     written beside it as <name>_<table>.csv
  --help             show this help

Exit codes: 0 written, 2 unusable input (missing or malformed run, bad flag).`;

const list = (v: string | undefined) =>
  v === undefined ? undefined : v.split(",").map((s) => s.trim()).filter(Boolean);

async function main(): Promise<number> {
  const parsed = parseFlags(Deno.args, {
    runs: { type: "string", multiple: true },
    bench: { type: "string" },
    suite: { type: "string" },
    agent: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    out: { type: "string", default: "results/compare/dashboard.html" },
    help: { type: "boolean", default: false },
  }, true);
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const dirs = [...(values.runs ?? []), ...positionals];
  if (dirs.length === 0) throw new UsageError("--runs DIR is required (see --help)");
  let runs;
  try {
    runs = await loadRuns(dirs);
  } catch (e) {
    if (e instanceof RunInputError) throw new UsageError(e.message);
    throw e;
  }
  const filter = {
    ...(values.suite ? { suites: list(values.suite) } : {}),
    ...(values.agent ? { agents: list(values.agent) } : {}),
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
  };
  await ensureWritable(values.out!, "--out");
  let kept;
  try {
    kept = filterRuns(runs, filter);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (kept.length === 0) {
    throw new UsageError(`no run left after the filters (${runs.length} run(s) read)`);
  }
  let bench: BenchReport | undefined;
  if (values.bench) {
    try {
      bench = JSON.parse(await Deno.readTextFile(values.bench));
    } catch (e) {
      throw new UsageError(`cannot read bench report "${values.bench}": ${(e as Error).message}`);
    }
    if (!bench || typeof bench !== "object" || !Array.isArray(bench.modes)) {
      throw new UsageError(`"${values.bench}" is not a bench report (no "modes" array)`);
    }
  }
  const out = values.out!;
  const base = basename(out, extname(out));
  const { html, tables } = renderCompareDashboard({
    runs: kept,
    filter,
    ...(bench ? { bench } : {}),
    csvBase: base,
  });
  await Deno.mkdir(dirname(out), { recursive: true });
  await Deno.writeTextFile(out, html);
  const csv = tablesToCsv(tables);
  for (const [name, text] of Object.entries(csv)) {
    await Deno.writeTextFile(join(dirname(out), `${base}_${name}.csv`), text);
  }
  progress(
    "report",
    `${kept.length} run(s) → ${out} (+ ${Object.keys(csv).length} CSV: ${
      Object.keys(csv).join(", ")
    })`,
  );
  return 0;
}

if (import.meta.main) runMain("report", main);
