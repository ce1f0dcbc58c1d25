/**
 * Visualizations as a registry: the contract (`Visualization`: id, title, layout, `render`),
 * the per-agent-per-run records every visualization receives, the 36 built-ins (the nine metrics
 * by agent and over time, tables, cost, context, tools, reliability, exposure modes, pass@k), the
 * shared theme and the registry. User modules import their types from here.
 *
 * @example Usage
 * ```ts
 * import { createRegistry, vizContext } from "./mod.ts";
 * import { headlessDocument } from "../dashboard.ts";
 * const viz = createRegistry().get("agent-average-correctness")!;
 * const out = viz.render([], vizContext(headlessDocument(), viz.layout));
 * if (!("type" in out) || out.type !== "note") throw new Error("no records: a note, not a chart");
 * ```
 *
 * @module
 */
export {
  type AgentMetrics,
  type AgentRunRecord,
  isVizNote,
  isVizTable,
  type Visualization,
  type VizContext,
  type VizLayout,
  type VizNote,
  type VizOutput,
  type VizTable,
  type VizTheme,
} from "./types.ts";
export { agentMetrics, agentRunRecords, caseToolCostUsd, parseAgentRef } from "./records.ts";
export { DEFAULT_THEME, PALETTE, vizContext, WIDTHS } from "./theme.ts";
export {
  ITERATION_LIMIT_METRIC,
  metricBars,
  type MetricDef,
  METRICS,
  metricTrend,
} from "./metric_charts.ts";
export { passRateMatrix } from "./tables.ts";
export { passKCurves, toolCallCounts } from "./charts.ts";
export {
  BUILTIN_VISUALIZATIONS,
  checkVisualization,
  createRegistry,
  VIZ_ID,
  type VizRegistry,
} from "./registry.ts";
