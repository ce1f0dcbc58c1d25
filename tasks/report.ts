// deno task report: the comparison dashboard over agent runs (and optionally a bench report),
// with a CSV file per table beside the HTML; or a registry dashboard / saved report / version
// comparison written to a folder, with SVG and CSV exports and optional PNG and PDF.
import { helpText, listFlag, parseFlags, printOutcome, runMain } from "./_cli.ts";
import { REPORT_DEFAULTS, reportDashboards, reportRegistry, runReport } from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "report --runs DIR|GLOB [...] [options]",
  purpose:
    "Dashboards over agent runs: comparison page, registry dashboards, version compare, PDF.",
  about: `Without --dashboard or --report: writes one self-contained HTML page comparing agent runs
(agent comparison, trends over runs, reliability, sweep groups) and a CSV file per table.

With --dashboard ID or --report ID: renders that dashboard (built-in or from --dashboards-dir)
over the selected runs into --out DIR: index.html, an SVG per chart and a CSV per table.`,
  options: ` Runs and filters:
  --runs DIR...        run folders (holding run.json), folders of runs (results/runs), or a
                       quoted glob ("results/runs/fs_*"); repeat the flag or list after it
  --suite ID[,ID]      keep these suites
  --agent ID[,ID]      keep these agents
  --from DATE          keep runs started on or after DATE (YYYY-MM-DD, UTC)
  --to DATE            keep runs started on or before DATE (inclusive)
 Comparison page (default):
  --bench FILE         a bench report (results/report.json) whose sections are appended
  --out FILE           HTML file (default: results/compare/dashboard.html); CSVs are
                       written beside it as <name>_<table>.csv; a folder (existing, or
                       ending in /) gets dashboard.html inside
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
  --no-check           do not type-check user visualization modules`,
  exitCodes: `0 written, 2 unusable input (missing or malformed run, dashboard or module, bad
flag, Chromium missing for --pdf/--png).`,
});

async function main(): Promise<number> {
  const { values, positionals } = parseFlags(Deno.args, {
    runs: { type: "string", multiple: true, path: true },
    bench: { type: "string", path: true },
    suite: { type: "string" },
    agent: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    out: { type: "string", path: true },
    dashboard: { type: "string" },
    report: { type: "string" },
    pdf: { type: "string", path: true },
    png: { type: "boolean", default: false },
    "list-visualizations": { type: "boolean", default: false },
    "list-dashboards": { type: "boolean", default: false },
    "viz-dir": { type: "string", default: REPORT_DEFAULTS.vizDir, path: true },
    "dashboards-dir": { type: "string", default: REPORT_DEFAULTS.dashboardsDir, path: true },
    "reports-dir": { type: "string", default: REPORT_DEFAULTS.reportsDir, path: true },
    "no-check": { type: "boolean", default: false },
    compare: { type: "string" },
    by: { type: "string" },
    baseline: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  }, "paths");
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values["list-visualizations"] || values["list-dashboards"]) {
    const registry = await reportRegistry(values["viz-dir"], !values["no-check"]);
    if (values["list-visualizations"]) { for (const v of registry.all) console.log(v.id); }
    else {
      const dashboards = await reportDashboards(values["dashboards-dir"], registry);
      for (const d of dashboards) console.log(`${d.id}\t${d.title}`);
    }
    return 0;
  }
  const outcome = await runReport({
    runs: [...(values.runs ?? []), ...positionals],
    filter: {
      ...(values.suite ? { suites: listFlag("suite", values.suite) } : {}),
      ...(values.agent ? { agents: listFlag("agent", values.agent) } : {}),
      ...(values.from ? { from: values.from } : {}),
      ...(values.to ? { to: values.to } : {}),
    },
    ...pick(values, ["bench", "out", "dashboard", "report", "compare", "baseline", "by", "pdf"]),
    png: values.png,
    vizDir: values["viz-dir"],
    dashboardsDir: values["dashboards-dir"],
    reportsDir: values["reports-dir"],
    check: !values["no-check"],
  });
  return printOutcome(outcome);
}

/** The flags among `names` that were given. */
function pick<K extends string>(
  values: Partial<Record<K, string | boolean | string[]>>,
  names: readonly K[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const n of names) if (typeof values[n] === "string") out[n] = values[n] as string;
  return out;
}

if (import.meta.main) runMain("report", main);
