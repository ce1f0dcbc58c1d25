/**
 * Reports: the bench report's shape and builder, deterministic JSON, Plot
 * figures and the self-contained HTML dashboard.
 *
 * @example Usage
 * ```ts
 * import { stableJson } from "./mod.ts";
 * if (stableJson({ b: 1, a: 2 }) !== '{\n  "a": 2,\n  "b": 1\n}\n') throw new Error("keys not sorted");
 * ```
 *
 * @module
 */
export type { Provenance } from "./provenance.ts";
export { DEFAULT_DECIMALS, stableJson } from "./json.ts";
export {
  type BenchReport,
  type CorpusSummary,
  type CrossoverRow,
  type Heaviest,
  heaviest,
  type HeavyItem,
  measureCatalogCost,
  type MeasureCatalogCostOptions,
  REPORT_SCHEMA_VERSION,
  type RunInfo,
  summarizeCorpus,
  TOKENIZER_CAVEAT,
} from "./bench_report.ts";
export {
  barChart,
  type BarDatum,
  type ChartOptions,
  intervalChart,
  type IntervalDatum,
  type PlotDocument,
  savingsBySizeChart,
} from "./figures.ts";
export { headlessDocument, htmlTable, renderDashboard, renumberPlotIds } from "./dashboard.ts";
export { type Displayable, showPlot, showTable } from "./notebook.ts";
