/**
 * The flow behind `deno task report`: the comparison dashboard over agent runs (optionally with a
 * bench report's sections), a registry dashboard or saved report written to a folder, or the
 * Compare versions page of one agent; with SVG/CSV exports and optional PNG and PDF through
 * headless Chromium.
 *
 * @module
 */
import { basename, dirname, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../core/errors.ts";
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
  type VizRegistry,
} from "../report/mod.ts";
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
} from "../report/io.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import { ensureWritable } from "./_write.ts";
import type { FlowOutcome } from "./outcome.ts";

/** Default folders of user visualizations, dashboards and saved reports (repository-relative). */
export const REPORT_DEFAULTS = {
  vizDir: "reporting/visualizations",
  dashboardsDir: "reporting/dashboards",
  reportsDir: "reporting/reports",
  comparisonOut: "results/compare/dashboard.html",
} as const;

/** What `deno task report` was asked for (flag names in comments). */
export interface RunReportOptions {
  /** Run folders, folders of runs, or quoted globs (`--runs`). */
  readonly runs: readonly string[];
  /** Run filter from `--suite`, `--agent`, `--from`, `--to`. */
  readonly filter: RunFilter;
  /** Bench report whose sections the comparison page appends (`--bench`). */
  readonly bench?: string;
  /** Output file (comparison page) or folder (dashboard, report, compare) (`--out`). */
  readonly out?: string;
  /** Dashboard id to render (`--dashboard`). */
  readonly dashboard?: string;
  /** Saved report id to render (`--report`). */
  readonly report?: string;
  /** Agent whose versions are compared (`--compare`). */
  readonly compare?: string;
  /** Baseline point of the comparison: a version number or `live` (`--baseline`). */
  readonly baseline?: string;
  /** Points of the comparison: `versions` (default) or `runs` (`--by`). */
  readonly by?: string;
  /** Also print an A4 PDF here (`--pdf`). */
  readonly pdf?: string;
  /** Also write a PNG per chart and table (`--png`). */
  readonly png?: boolean;
  /** Folder of user visualization modules (`--viz-dir`). */
  readonly vizDir?: string;
  /** Folder of user dashboards (`--dashboards-dir`). */
  readonly dashboardsDir?: string;
  /** Folder of saved reports (`--reports-dir`). */
  readonly reportsDir?: string;
  /** Type-check user visualization modules (`--no-check` turns it off). @default {true} */
  readonly check?: boolean;
}

/**
 * Where a report went: the files written; for the console the Compare versions text on stdout
 * (empty otherwise; stderr stays empty), and exit code 0.
 */
export interface ReportOutcome extends FlowOutcome {
  /** Paths written, in order. */
  readonly written: readonly string[];
}

/**
 * The visualization registry: built-ins plus the user modules of `vizDir`.
 *
 * @param vizDir Folder of user modules. @default {REPORT_DEFAULTS.vizDir}
 * @param check Type-check them first. @default {true}
 * @returns The registry.
 * @throws {UsageError} On a module that fails to load or check, or a duplicate id.
 */
export async function reportRegistry(
  vizDir: string = REPORT_DEFAULTS.vizDir,
  check = true,
): Promise<VizRegistry> {
  try {
    return createRegistry(await loadUserVisualizations(vizDir, { check }));
  } catch (e) {
    if (e instanceof VizModuleError || e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * Every dashboard (built-in and of `dir`), for `--list-dashboards` and rendering.
 *
 * @param dir Folder of user dashboards.
 * @param registry The visualization registry their refs are checked against.
 * @returns The dashboards.
 * @throws {UsageError} On a malformed dashboard file or an unknown visualization ref.
 */
export async function reportDashboards(
  dir: string,
  registry: VizRegistry,
): Promise<Awaited<ReturnType<typeof loadDashboards>>> {
  try {
    return await loadDashboards(dir, registry);
  } catch (e) {
    if (e instanceof DashboardError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * Runs `deno task report`: the Compare versions page with `compare`, a dashboard with `dashboard`
 * or `report`, the comparison page otherwise.
 *
 * @param options What to render (see {@linkcode RunReportOptions}).
 * @param io Progress lines. @default {denoFlowIo()}
 * @returns The lines for stdout and the paths written.
 * @throws {UsageError} On no run given or left after the filters, an unreadable bench report,
 *   run, dashboard, report or module, a bad `by`, `pdf`/`png` without a dashboard, an output
 *   that cannot be written, or Chromium missing for `pdf`/`png`.
 */
export async function runReport(
  options: RunReportOptions,
  io: Pick<FlowIo, "progress"> = denoFlowIo(),
): Promise<ReportOutcome> {
  const dirs = await expandRunGlobs([...options.runs]);
  if (dirs.length === 0) throw new UsageError("--runs DIR is required (see --help)");
  // One unusable run among several is left out with a warning; the rest are still reported.
  const skipped: string[] = [];
  const runs = await loadRuns(dirs, { onSkip: (e) => skipped.push(e.message) });
  const warned = (o: ReportOutcome): ReportOutcome =>
    skipped.length === 0 ? o : {
      ...o,
      stderr: [
        ...skipped.map((m) => `mcpmeter report: warning: left out: ${m}`),
        ...o.stderr,
      ],
    };
  try {
    if (options.compare !== undefined) return warned(await compareMode(runs, options, io));
    if (options.dashboard !== undefined || options.report !== undefined) {
      return warned(await dashboardMode(runs, options, io));
    }
    if (options.pdf !== undefined || options.png) {
      throw new UsageError("--pdf and --png need --dashboard ID or --report ID");
    }
    return warned(await comparisonMode(runs, options, io));
  } catch (e) {
    if (e instanceof ChromiumMissingError) throw new UsageError(e.message);
    throw e;
  }
}

type Runs = Awaited<ReturnType<typeof loadRuns>>;

/** `runs` through `filter`; none left is bad input (`read` counts every run read). */
function keep(runs: Runs, filter: RunFilter, read = runs.length): Runs {
  let kept;
  try {
    kept = filterRuns(runs, filter);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (kept.length === 0) {
    throw new UsageError(`no run left after the filters (${read} run(s) read)`);
  }
  return kept;
}

async function readBench(path: string): Promise<BenchReport> {
  let bench: BenchReport;
  try {
    bench = JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    throw new UsageError(`cannot read bench report "${path}": ${(e as Error).message}`);
  }
  if (!bench || typeof bench !== "object" || !Array.isArray(bench.modes)) {
    throw new UsageError(`"${path}" is not a bench report (no "modes" array)`);
  }
  try {
    return upgradeBenchReport(bench);
  } catch (e) {
    throw new UsageError(`"${path}": ${(e as Error).message}`);
  }
}

/**
 * The folder modes write index.html, SVGs and CSVs into `--out`: a page-like name
 * (`report.html`) that is not an existing folder would become a folder of that name.
 */
async function refuseFileOut(outDir: string, mode: string): Promise<void> {
  if (!/\.html?$/i.test(outDir)) return;
  if ((await Deno.stat(outDir).catch(() => null))?.isDirectory) return;
  throw new UsageError(
    `--out ${outDir}: with ${mode} --out is a folder (index.html, an SVG per chart, a CSV per table go in it); give a folder, e.g. --out ${
      outDir.replace(/\.html?$/i, "")
    }`,
  );
}

async function comparisonMode(
  runs: Runs,
  options: RunReportOptions,
  io: Pick<FlowIo, "progress">,
): Promise<ReportOutcome> {
  // --out names the page; a folder (existing, or written with a trailing slash) gets it inside.
  const given = options.out ?? REPORT_DEFAULTS.comparisonOut;
  const isDir = /[\/\\]$/.test(given) ||
    (await Deno.stat(given).catch(() => null))?.isDirectory === true;
  const out = isDir ? join(given, basename(REPORT_DEFAULTS.comparisonOut)) : given;
  await ensureWritable(out, "--out");
  const kept = keep(runs, options.filter);
  const bench = options.bench ? await readBench(options.bench) : undefined;
  const base = basename(out, extname(out));
  const { html, tables } = renderCompareDashboard({
    runs: kept,
    filter: options.filter,
    ...(bench ? { bench } : {}),
    csvBase: base,
  });
  await Deno.mkdir(dirname(out), { recursive: true });
  await Deno.writeTextFile(out, html);
  const written = [out];
  const csv = tablesToCsv(tables);
  for (const [name, text] of Object.entries(csv)) {
    const path = join(dirname(out), `${base}_${name}.csv`);
    await Deno.writeTextFile(path, text);
    written.push(path);
  }
  io.progress(
    "report",
    `${kept.length} run(s) → ${out} (+ ${Object.keys(csv).length} CSV: ${
      Object.keys(csv).join(", ")
    })`,
  );
  return { stdout: [], stderr: [], exitCode: 0, written };
}

async function dashboardMode(
  runs: Runs,
  options: RunReportOptions,
  io: Pick<FlowIo, "progress">,
): Promise<ReportOutcome> {
  const registry = await reportRegistry(options.vizDir, options.check ?? true);
  const dashboards = await reportDashboards(
    options.dashboardsDir ?? REPORT_DEFAULTS.dashboardsDir,
    registry,
  );
  let dashboardId = options.dashboard;
  let title: string | undefined;
  let selected = runs;
  if (options.report !== undefined) {
    const reportsDir = options.reportsDir ?? REPORT_DEFAULTS.reportsDir;
    let reports;
    try {
      reports = await loadReports(reportsDir, dashboards.map((d) => d.id));
    } catch (e) {
      if (e instanceof DashboardError) throw new UsageError(e.message);
      throw e;
    }
    const report = reports.find((r) => r.id === options.report);
    if (!report) {
      throw new UsageError(
        `no report "${options.report}" in ${reportsDir} (known: ${
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
  const kept = keep(selected, options.filter, runs.length);
  const outDir = options.out ?? `results/reports/${options.report ?? dashboard.id}`;
  await refuseFileOut(outDir, "--dashboard or --report");
  await ensureWritable(join(outDir, "index.html"), "--out");
  if (options.pdf !== undefined) await ensureWritable(options.pdf, "--pdf");
  const records = agentRunRecords(kept);
  const subtitle = `${kept.length} run(s), ${records.length} agent record(s), ${
    kept.reduce((n, r) => n + r.records.length, 0)
  } case records; runs ${kept[0].startedAt.slice(0, 10)} … ${
    kept[kept.length - 1].startedAt.slice(0, 10)
  }; dashboard ${dashboard.id}`;
  const render = (print: boolean) =>
    renderDashboardPage({
      dashboard,
      records,
      registry,
      subtitle,
      ...(print ? { print } : {}),
      ...(title ? { title } : {}),
    });
  const page = render(false);
  const written = await writePage(outDir, page.html, page.exports);
  io.progress(
    "report",
    `${kept.length} run(s) → ${join(outDir, "index.html")} (+ ${page.exports.length} SVG/CSV)`,
  );
  written.push(...await chromiumExtras(outDir, options, () => render(true).html, io));
  return { stdout: [], stderr: [], exitCode: 0, written };
}

async function compareMode(
  runs: Runs,
  options: RunReportOptions,
  io: Pick<FlowIo, "progress">,
): Promise<ReportOutcome> {
  const agentId = options.compare!;
  let kept;
  try {
    kept = filterRuns(runs, options.filter);
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
  if (options.by !== undefined && options.by !== "runs" && options.by !== "versions") {
    throw new UsageError(`--by must be runs or versions, got "${options.by}"`);
  }
  let cmp;
  try {
    cmp = compareVersions(records, suites[0], agentId, {
      ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
      ...(options.by === "runs" ? { points: "runs" as const } : {}),
    });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  const stdout = [compareText(cmp).trimEnd()];
  const outDir = options.out ?? `results/compare/${suites[0]}--${agentId}`;
  await refuseFileOut(outDir, "--compare");
  await ensureWritable(join(outDir, "index.html"), "--out");
  if (options.pdf !== undefined) await ensureWritable(options.pdf, "--pdf");
  const page = renderComparePage(cmp);
  const written = await writePage(outDir, page.html, page.exports);
  io.progress(
    "report",
    `compare → ${join(outDir, "index.html")} (+ compare.csv, ${page.exports.length - 1} SVG)`,
  );
  written.push(
    ...await chromiumExtras(
      outDir,
      options,
      () => renderComparePage(cmp, { print: true }).html,
      io,
    ),
  );
  return { stdout, stderr: [], exitCode: 0, written };
}

async function writePage(
  dir: string,
  html: string,
  exports: readonly VizExport[],
): Promise<string[]> {
  await Deno.mkdir(dir, { recursive: true });
  const written = [join(dir, "index.html")];
  await Deno.writeTextFile(written[0], html);
  for (const e of exports) {
    const path = join(dir, `${e.name}.${e.kind}`);
    await Deno.writeTextFile(path, e.text);
    written.push(path);
  }
  return written;
}

/** The PNGs (`png`) and the PDF (`pdf`, printed from a print-layout page) of a written page. */
async function chromiumExtras(
  dir: string,
  options: RunReportOptions,
  printHtml: () => string,
  io: Pick<FlowIo, "progress">,
): Promise<string[]> {
  const written: string[] = [];
  if (options.png) {
    const names = await screenshotFigures({
      url: pathToFileURL(resolve(dir, "index.html")).href,
      dir,
    });
    io.progress("report", `${names.length} PNG → ${dir}`);
    written.push(...names.map((n) => join(dir, n)));
  }
  if (options.pdf !== undefined) {
    const printPath = join(dir, "print.html");
    await Deno.writeTextFile(printPath, printHtml());
    await Deno.mkdir(dirname(options.pdf), { recursive: true });
    const bytes = await printPdf({ url: pathToFileURL(resolve(printPath)).href, out: options.pdf });
    io.progress("report", `PDF → ${options.pdf} (${Math.round(bytes / 1024)} KiB)`);
    written.push(printPath, options.pdf);
  }
  return written;
}
