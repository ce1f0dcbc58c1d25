/**
 * Reports: the bench report's shape and builder, deterministic JSON (lib/core's writer), Plot
 * figures and the self-contained HTML dashboard.
 *
 * @example Usage
 * ```ts
 * import { RESULT_DECIMALS, stableJson } from "./mod.ts";
 * const text = stableJson({ b: 1 / 3, a: 2 }, { decimals: RESULT_DECIMALS });
 * if (text !== '{\n  "a": 2,\n  "b": 0.33333\n}\n') throw new Error("keys not sorted");
 * ```
 *
 * @module
 */
export type { Provenance } from "../core/provenance.ts";
export { RESULT_DECIMALS, stableJson, type StableJsonOptions } from "../core/json.ts";
export type {
  Crossing,
  DeferredMode,
  DeferredModeRow,
  DeferredScalingRow,
} from "../modes/deferred.ts";
export {
  type BenchReport,
  type CorpusSummary,
  type CostLayersBlock,
  type OverridesBlock,
  REPORT_SCHEMA_VERSION,
  type RunInfo,
  summarizeCorpus,
  TOKENIZER_CAVEAT,
  upgradeBenchReport,
} from "./bench_report.ts";
export {
  barChart,
  type BarDatum,
  type ChartOptions,
  frontierChart,
  intervalChart,
  type IntervalDatum,
  type PlotDocument,
  savingsBySizeChart,
} from "./figures.ts";
export { crossoverPhrase, savingsPhrase } from "./wording.ts";
export type { BillingProvider } from "../billing/estimate.ts";
export { FIELD_NAMES, type FieldName, type FieldTokens } from "../billing/fields.ts";
export type { WireOrder } from "../billing/wire.ts";
export type { TokenizerName } from "../tokens/types.ts";
export type { CostLayer, CostLayerRow } from "../billing/layers.ts";
export type { SentFormat } from "../catalog/sent.ts";
export {
  type BilledHeadline,
  billedHeadlines,
  billedText,
  type FieldShare,
  fieldShares,
  fieldSharesChart,
  FORMAT_LABEL,
  heaviestServers,
  type LayerBar,
  layerBars,
  layersChart,
  layerTable,
  PROVIDER_LABEL,
  renderCostLayers,
  shownTokenizer,
} from "./cost_layers_view.ts";
export {
  headlessDocument,
  htmlTable,
  renderBenchSections,
  renderDashboard,
  renumberPlotIds,
} from "./dashboard.ts";
export type { HtmlTableOptions } from "./dashboard.ts";
export {
  display,
  type Displayable,
  JUPYTER_FLUSH_MS,
  type JupyterDisplay,
  showPlot,
  showTable,
} from "./notebook.ts";
export {
  byStart,
  filterRuns,
  type LoadedRun,
  type RecordRow,
  recordRows,
  type RunAgentVersion,
  type RunCatalog,
  type RunFilter,
  runsTable,
  type SweepInfo,
} from "./runs.ts";
export { RunInputError } from "./load_runs.ts";
export {
  FORECAST_SCHEMA_VERSION,
  forecastDocument,
  forecastLines,
  forecastLoadedRun,
  type NotForecast,
  notForecastable,
  type RunForecastOptions,
} from "./forecast.ts";
export { InputFileError } from "../core/errors.ts";
export {
  agentRows,
  type AgentRunRow,
  type CaseRow,
  caseRows,
  type ErrorRow,
  errorRows,
  flakyRows,
  latestBySuiteAgent,
  type SweepGroupRow,
  sweepGroupRows,
  type ToolRow,
  toolRows,
  trendRows,
} from "./compare.ts";
export {
  costAccuracyChart,
  type CostAccuracyDatum,
  heatmapChart,
  type HeatmapDatum,
  latencyChart,
  type LatencyDatum,
  tokensChart,
  type TokensDatum,
  toolFrequencyChart,
  type ToolFrequencyDatum,
  trendChart,
  type TrendDatum,
} from "./compare_figures.ts";
export {
  type CompareDashboard,
  type CompareDashboardInput,
  renderCompareDashboard,
  tablesToCsv,
} from "./compare_dashboard.ts";
export { type GateCheck, gateExitCode, GateInputError, type Verdict, verdictLine } from "./gate.ts";
export {
  catalogCheck,
  costCheck,
  type GateOptions,
  gateRuns,
  latencyCheck,
  passRateCheck,
  runStatusCheck,
} from "./gate_runs.ts";
export { type BenchGateOptions, gateBenchReports } from "./gate_bench.ts";
export { gateJunit } from "./gate_junit.ts";
export { type GateContext, gateMarkdown } from "./gate_markdown.ts";
export * from "./viz/mod.ts";
export {
  BUILTIN_DASHBOARDS,
  type Dashboard,
  DashboardError,
  type DashboardItem,
  type DashboardSection,
  type ReportDef,
  reportFilter,
  validateDashboard,
  validateReport,
} from "./dashboards.ts";
export {
  type DashboardPage,
  type DashboardPageInput,
  PRINT_WIDTH,
  renderDashboardPage,
  type RenderedViz,
  renderViz,
  reportPage,
  standaloneSvg,
  type VizExport,
  vizTableCsv,
} from "./dashboard_page.ts";
export {
  type CaseMatrixRow,
  compareRows,
  compareVersions,
  type CompareVersionsOptions,
  type KpiDelta,
  type KpiKey,
  type RepetitionStrip,
  type VersionComparison,
  type VersionPoint,
} from "./compare_versions.ts";
export { type ComparePage, compareText, renderComparePage } from "./compare_page.ts";
