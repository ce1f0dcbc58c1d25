/**
 * The file and process edge of lib/report: reading run folders, dashboards, saved reports and
 * user visualization modules, expanding `--runs` globs, and printing pages with headless
 * Chromium. Everything pure is in `mod.ts`.
 *
 * @module
 */
export { loadRun, loadRuns, type LoadRunsOptions, RunInputError } from "./load_runs.ts";
export {
  deleteDashboard,
  deleteReport,
  loadDashboards,
  loadReports,
  saveDashboard,
  saveReport,
} from "./load_dashboards.ts";
export { type LoadUserOptions, loadUserVisualizations, VizModuleError } from "./viz/load_user.ts";
export { expandRunGlobs } from "./run_globs.ts";
export {
  CHROMIUM_ARGS,
  CHROMIUM_PATHS,
  ChromiumMissingError,
  findChromium,
  printPdf,
  type PrintPdfOptions,
  screenshotFigures,
} from "./pdf.ts";
