// deno task report: the comparison dashboard over agent runs (and optionally a bench report),
// with a CSV file per table beside the HTML; or a registry dashboard / saved report / version
// comparison written to a folder, with SVG and CSV exports and optional PNG and PDF.
import { basename, dirname, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureWritable, listFlag, parseFlags, progress, runMain, UsageError } from "./_cli.ts";
import {
  agentRunRecords,
  type BenchReport,
  compareText,
  compareVersions,
  createRegistry,
  DashboardError,
  filterRuns,
  renderCompareDashboard,
  renderComparePage,
  renderDashboardPage,
  reportFilter,
  type RunFilter,
  tablesToCsv,
  upgradeBenchReport,
  type VizExport,
} from "../lib/report/mod.ts";
import {
  ChromiumMissingError,
  expandRunGlobs,
  loadDashboards,
  loadReports,
  loadRuns,
  loadUserVisualizations,
  printPdf,
  screenshotFigures,
  VizModuleError,
} from "../lib/report/io.ts";

const HELP = `Usage: deno task report --runs DIR|GLOB [...] [options]

Without --dashboard or --report: writes one self-contained HTML page comparing agent runs
(agent comparison, trends over runs, reliability, sweep groups) and a CSV file per table.

With --dashboard ID or --report ID: renders that dashboard (built-in or from --dashboards-dir)
over the selected runs into --out DIR: index.html, an SVG per chart and a CSV per table.

Runs and filters:
  --runs DIR...        run folders (holding run.json), folders of runs (results/runs), or a
                       quoted glob ("results/runs/fs_*"); repeat the flag or list after it
  --suite ID[,ID]      keep these suites
  --agent ID[,ID]      keep these agents
  --from DATE          keep runs started on or after DATE (YYYY-MM-DD, UTC)
  --to DATE            keep runs started on or before DATE (inclusive)

Comparison page (default):
  --bench FILE         a bench report (results/report.json) whose sections are appended
  --out FILE           HTML file (default: results/compare/dashboard.html); CSVs are
                       written beside it as <name>_<table>.csv

Compare versions (one suite × one agent; runs of ID and ID@N, see deno task agents --cut-version):
  --compare AGENT      print KPI deltas against the baseline with the gate's statistics and
                       write --out DIR: index.html (the Compare versions page), compare.csv, SVGs
  --suite ID           the suite (required with --compare when the runs hold several)
  --baseline V         baseline point: a version number, or live (default: the oldest version)
  --by runs            points are the agent's runs (one configuration over time), not versions

Dashboards and reports:
  --dashboard ID       agent-comparison, trends-over-time, reliability-diagnostics, or a file
                       <ID>.json of --dashboards-dir
  --report ID          a saved report <ID>.json of --reports-dir: its filter is applied to
                       --runs (then the flags above), its dashboard rendered
  --out DIR            output folder (default: results/reports/<dashboard or report id>)
  --pdf FILE           also print the page to an A4 PDF (headless Chromium)
  --png                also write a PNG per chart and table (headless Chromium)
  --list-visualizations  print every visualization id, one per line, and exit
  --list-dashboards    print every dashboard id and title, and exit
  --viz-dir DIR        user visualization modules (default: reporting/visualizations)
  --dashboards-dir DIR user dashboards (default: reporting/dashboards)
  --reports-dir DIR    saved reports (default: reporting/reports)
  --no-check           do not type-check user visualization modules

  --help               show this help

Exit codes: 0 written, 2 unusable input (missing or malformed run, dashboard or module, bad
flag, Chromium missing for --pdf/--png).`;

async function main(): Promise<number> {
  const parsed = parseFlags(Deno.args, {
    runs: { type: "string", multiple: true },
    bench: { type: "string" },
    suite: { type: "string" },
    agent: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    out: { type: "string" },
    dashboard: { type: "string" },
    report: { type: "string" },
    pdf: { type: "string" },
    png: { type: "boolean", default: false },
    "list-visualizations": { type: "boolean", default: false },
    "list-dashboards": { type: "boolean", default: false },
    "viz-dir": { type: "string", default: "reporting/visualizations" },
    "dashboards-dir": { type: "string", default: "reporting/dashboards" },
    "reports-dir": { type: "string", default: "reporting/reports" },
    "no-check": { type: "boolean", default: false },
    compare: { type: "string" },
    by: { type: "string" },
    baseline: { type: "string" },
    help: { type: "boolean", default: false },
  }, true);
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const registry = async () => {
    try {
      return createRegistry(
        await loadUserVisualizations(values["viz-dir"]!, { check: !values["no-check"] }),
      );
    } catch (e) {
      if (e instanceof VizModuleError || e instanceof RangeError) throw new UsageError(e.message);
      throw e;
    }
  };
  if (values["list-visualizations"]) {
    for (const v of (await registry()).all) console.log(v.id);
    return 0;
  }
  if (values["list-dashboards"]) {
    const dashboards = await loadDashboardsOrExit(values["dashboards-dir"]!, await registry());
    for (const d of dashboards) console.log(`${d.id}\t${d.title}`);
    return 0;
  }
  const dirs = await expandRunGlobs([...(values.runs ?? []), ...positionals]);
  if (dirs.length === 0) throw new UsageError("--runs DIR is required (see --help)");
  const runs = await loadRuns(dirs);
  const filter = {
    ...(values.suite ? { suites: listFlag("suite", values.suite) } : {}),
    ...(values.agent ? { agents: listFlag("agent", values.agent) } : {}),
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
  };
  if (values.compare !== undefined) return await compareMode(runs, filter, values);
  if (values.dashboard !== undefined || values.report !== undefined) {
    return await dashboardMode(runs, filter, values, await registry());
  }
  if (values.pdf !== undefined || values.png) {
    throw new UsageError("--pdf and --png need --dashboard ID or --report ID");
  }
  values.out ??= "results/compare/dashboard.html";
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
    try {
      bench = upgradeBenchReport(bench);
    } catch (e) {
      throw new UsageError(`"${values.bench}": ${(e as Error).message}`);
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

async function loadDashboardsOrExit(dir: string, reg: Awaited<ReturnType<typeof createRegistry>>) {
  try {
    return await loadDashboards(dir, reg);
  } catch (e) {
    if (e instanceof DashboardError) throw new UsageError(e.message);
    throw e;
  }
}

async function dashboardMode(
  runs: Awaited<ReturnType<typeof loadRuns>>,
  flagFilter: RunFilter,
  values: {
    dashboard?: string;
    report?: string;
    out?: string;
    pdf?: string;
    png?: boolean;
    "dashboards-dir"?: string;
    "reports-dir"?: string;
  },
  reg: ReturnType<typeof createRegistry>,
): Promise<number> {
  const dashboards = await loadDashboardsOrExit(values["dashboards-dir"]!, reg);
  let dashboardId = values.dashboard;
  let title: string | undefined;
  let selected = runs;
  if (values.report !== undefined) {
    let reports;
    try {
      reports = await loadReports(values["reports-dir"]!, dashboards.map((d) => d.id));
    } catch (e) {
      if (e instanceof DashboardError) throw new UsageError(e.message);
      throw e;
    }
    const report = reports.find((r) => r.id === values.report);
    if (!report) {
      throw new UsageError(
        `no report "${values.report}" in ${values["reports-dir"]} (known: ${
          reports.map((r) => r.id).join(", ") || "none"
        })`,
      );
    }
    // The report's filter is re-resolved over the runs at hand, every time.
    selected = filterRuns(runs, reportFilter(report));
    dashboardId ??= report.dashboardId;
    title = report.title;
  }
  const dashboard = dashboards.find((d) => d.id === dashboardId);
  if (!dashboard) {
    throw new UsageError(
      `no dashboard "${dashboardId}" (known: ${dashboards.map((d) => d.id).join(", ")})`,
    );
  }
  let kept;
  try {
    kept = filterRuns(selected, flagFilter);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (kept.length === 0) {
    throw new UsageError(`no run left after the filters (${runs.length} run(s) read)`);
  }
  const outDir = values.out ?? `results/reports/${values.report ?? dashboard.id}`;
  await ensureWritable(join(outDir, "index.html"), "--out");
  if (values.pdf !== undefined) await ensureWritable(values.pdf, "--pdf");
  const records = agentRunRecords(kept);
  const subtitle = `${kept.length} run(s), ${records.length} agent record(s), ${
    kept.reduce((n, r) => n + r.records.length, 0)
  } case records; runs ${kept[0].startedAt.slice(0, 10)} … ${
    kept[kept.length - 1].startedAt.slice(0, 10)
  }; dashboard ${dashboard.id}`;
  const page = renderDashboardPage({
    dashboard,
    records,
    registry: reg,
    subtitle,
    ...(title ? { title } : {}),
  });
  await Deno.mkdir(outDir, { recursive: true });
  await Deno.writeTextFile(join(outDir, "index.html"), page.html);
  await writeExports(outDir, page.exports);
  progress(
    "report",
    `${kept.length} run(s) → ${join(outDir, "index.html")} (+ ${page.exports.length} SVG/CSV)`,
  );
  try {
    if (values.png) {
      const names = await screenshotFigures({
        url: pathToFileURL(resolve(outDir, "index.html")).href,
        dir: outDir,
      });
      progress("report", `${names.length} PNG → ${outDir}`);
    }
    if (values.pdf !== undefined) {
      const printed = renderDashboardPage({
        dashboard,
        records,
        registry: reg,
        subtitle,
        print: true,
        ...(title ? { title } : {}),
      });
      const printPath = join(outDir, "print.html");
      await Deno.writeTextFile(printPath, printed.html);
      await Deno.mkdir(dirname(values.pdf), { recursive: true });
      const bytes = await printPdf({
        url: pathToFileURL(resolve(printPath)).href,
        out: values.pdf,
      });
      progress("report", `PDF → ${values.pdf} (${Math.round(bytes / 1024)} KiB)`);
    }
  } catch (e) {
    if (e instanceof ChromiumMissingError) throw new UsageError(e.message);
    throw e;
  }
  return 0;
}

async function compareMode(
  runs: Awaited<ReturnType<typeof loadRuns>>,
  filter: RunFilter,
  values: {
    compare?: string;
    baseline?: string;
    by?: string;
    out?: string;
    pdf?: string;
    png?: boolean;
  },
): Promise<number> {
  const agentId = values.compare!;
  let kept;
  try {
    kept = filterRuns(runs, filter);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const records = agentRunRecords(kept).filter((r) => r.baseAgentId === agentId);
  const suites = [...new Set(records.map((r) => r.suiteId))].sort();
  if (suites.length === 0) {
    throw new UsageError(
      `no run of agent "${agentId}" after the filters (${runs.length} run(s) read)`,
    );
  }
  if (suites.length > 1) {
    throw new UsageError(`agent "${agentId}" ran on ${suites.join(", ")}: pick one with --suite`);
  }
  let cmp;
  try {
    if (values.by !== undefined && values.by !== "runs" && values.by !== "versions") {
      throw new UsageError(`--by must be runs or versions, got "${values.by}"`);
    }
    cmp = compareVersions(records, suites[0], agentId, {
      ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
      ...(values.by === "runs" ? { points: "runs" as const } : {}),
    });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  console.log(compareText(cmp).trimEnd());
  const outDir = values.out ?? `results/compare/${suites[0]}--${agentId}`;
  await ensureWritable(join(outDir, "index.html"), "--out");
  if (values.pdf !== undefined) await ensureWritable(values.pdf, "--pdf");
  const page = renderComparePage(cmp);
  await Deno.mkdir(outDir, { recursive: true });
  await Deno.writeTextFile(join(outDir, "index.html"), page.html);
  await writeExports(outDir, page.exports);
  progress(
    "report",
    `compare → ${join(outDir, "index.html")} (+ compare.csv, ${page.exports.length - 1} SVG)`,
  );
  try {
    if (values.png) {
      const names = await screenshotFigures({
        url: pathToFileURL(resolve(outDir, "index.html")).href,
        dir: outDir,
      });
      progress("report", `${names.length} PNG → ${outDir}`);
    }
    if (values.pdf !== undefined) {
      const printPath = join(outDir, "print.html");
      await Deno.writeTextFile(printPath, renderComparePage(cmp, { print: true }).html);
      await Deno.mkdir(dirname(values.pdf), { recursive: true });
      const bytes = await printPdf({
        url: pathToFileURL(resolve(printPath)).href,
        out: values.pdf,
      });
      progress("report", `PDF → ${values.pdf} (${Math.round(bytes / 1024)} KiB)`);
    }
  } catch (e) {
    if (e instanceof ChromiumMissingError) throw new UsageError(e.message);
    throw e;
  }
  return 0;
}

async function writeExports(dir: string, exports: readonly VizExport[]): Promise<void> {
  for (const e of exports) await Deno.writeTextFile(join(dir, `${e.name}.${e.kind}`), e.text);
}

if (import.meta.main) runMain("report", main);
