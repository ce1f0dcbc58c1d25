/**
 * Plot figures of the comparison dashboard: cost against accuracy, tokens per case, latency
 * percentiles, pass-rate trends, the case × agent heatmap and tool-call frequency. Like
 * `figures.ts`, each takes the `document` to draw into and returns the Plot element.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import {
  chartFrame,
  type ChartOptions,
  costScatter,
  labelMargin,
  middleCut,
  numberByCost,
} from "./figures.ts";

const sortedUnique = (xs: readonly string[]) => [...new Set(xs)].sort();

/** One point of {@linkcode costAccuracyChart}. */
export interface CostAccuracyDatum {
  /** Point label, e.g. an agent id. */
  readonly label: string;
  /** Colour key, e.g. a suite id. */
  readonly series: string;
  /** Mean agent cost per case, USD. */
  readonly costUsd: number;
  /** Pass rate in [0, 1]. */
  readonly passRate: number;
  /** Lower end of the pass rate's interval. */
  readonly lo: number;
  /** Upper end of the pass rate's interval. */
  readonly hi: number;
}

/**
 * Cost per case (x) against pass rate (y) with the pass rate's interval as a vertical rule;
 * better agents sit up and to the left.
 *
 * @param data Points (agents).
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function costAccuracyChart(
  data: readonly CostAccuracyDatum[],
  options: ChartOptions,
): Element {
  const series = sortedUnique(data.map((d) => d.series));
  // Each point carries a number and the key in the right margin names it: labels at the points
  // overlapped whenever agents shared a pass rate at close costs.
  const keyed = numberByCost(
    data,
    (d) => d.costUsd,
    (d) => d.label,
    (d, n) =>
      series.length > 1
        ? `${n}  ${middleCut(d.label, 26)} · ${middleCut(d.series, 12)}`
        : `${n}  ${middleCut(d.label, 40)}`,
  );
  const scatter = costScatter(keyed, {
    x: "costUsd",
    y: "passRate",
    fill: "series",
    title: (d) => d.label,
  });
  return Plot.plot({
    ...chartFrame(options),
    marginRight: 250,
    marginTop: 40,
    height: Math.max(400, 80 + 14 * keyed.length),
    x: scatter.x,
    y: scatter.y,
    color: { legend: true, domain: series },
    marks: [
      Plot.ruleX(keyed, { x: "costUsd", y1: "lo", y2: "hi", stroke: "series", strokeOpacity: 0.5 }),
      ...scatter.marks,
    ],
  }) as unknown as Element;
}

/** One stacked bar part of {@linkcode tokensChart}. */
export interface TokensDatum {
  /** Row label, e.g. `suite / agent`. */
  readonly label: string;
  /** Token kind, e.g. `input` or `output`. */
  readonly kind: string;
  /** Mean tokens per case. */
  readonly tokens: number;
}

/**
 * Mean tokens per case, stacked by kind, one bar per label.
 *
 * @param data Bar parts.
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function tokensChart(data: readonly TokensDatum[], options: ChartOptions): Element {
  const labels = sortedUnique(data.map((d) => d.label));
  return Plot.plot({
    ...chartFrame(options),
    marginLeft: labelMargin(labels, 240),
    height: 50 + 24 * labels.length,
    x: { label: "mean tokens per case →", grid: true },
    y: { label: null, domain: labels },
    color: { legend: true, domain: sortedUnique(data.map((d) => d.kind)) },
    marks: [Plot.barX(data, { x: "tokens", y: "label", fill: "kind" }), Plot.ruleX([0])],
  }) as unknown as Element;
}

/** Latency percentiles of one label, for {@linkcode latencyChart}. */
export interface LatencyDatum {
  /** Row label, e.g. `suite / agent`. */
  readonly label: string;
  /** Median wall time, ms. */
  readonly p50Ms: number;
  /** 95th percentile wall time, ms. */
  readonly p95Ms: number;
}

/**
 * p50 and p95 wall time per label, joined by a rule.
 *
 * @param data One datum per label.
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function latencyChart(data: readonly LatencyDatum[], options: ChartOptions): Element {
  const labels = sortedUnique(data.map((d) => d.label));
  const points = data.flatMap((d) => [
    { label: d.label, ms: d.p50Ms, percentile: "p50" },
    { label: d.label, ms: d.p95Ms, percentile: "p95" },
  ]);
  return Plot.plot({
    ...chartFrame(options),
    marginLeft: labelMargin(labels, 240),
    height: 50 + 24 * labels.length,
    x: { label: "wall time per case (ms) →", grid: true, zero: true },
    y: { label: null, domain: labels },
    color: { legend: true, domain: ["p50", "p95"] },
    marks: [
      Plot.ruleY(data, { y: "label", x1: "p50Ms", x2: "p95Ms", stroke: "gray" }),
      Plot.dot(points, { y: "label", x: "ms", fill: "percentile", r: 4 }),
    ],
  }) as unknown as Element;
}

/** One point of {@linkcode trendChart}. */
export interface TrendDatum {
  /** Run start. */
  readonly date: Date;
  /** Line key, e.g. an agent id. */
  readonly series: string;
  /** Panel key, e.g. a suite id. */
  readonly panel: string;
  /** Value drawn, e.g. a pass rate. */
  readonly value: number;
}

/**
 * A value over time, one line per series and one panel per panel key.
 *
 * @param data Points.
 * @param options Document, width, title, value label and optional fixed y domain.
 * @returns The Plot element.
 */
export function trendChart(
  data: readonly TrendDatum[],
  options: ChartOptions & { readonly valueLabel: string; readonly domain?: [number, number] },
): Element {
  const panels = sortedUnique(data.map((d) => d.panel));
  const sorted = [...data].sort((a, b) => a.date.getTime() - b.date.getTime());
  return Plot.plot({
    ...chartFrame(options),
    height: 40 + 160 * panels.length,
    marginRight: 90,
    x: { type: "utc", label: "run start →", grid: true },
    y: {
      label: `↑ ${options.valueLabel}`,
      grid: true,
      ...(options.domain ? { domain: options.domain } : {}),
    },
    fy: { label: null, domain: panels },
    color: { legend: true, domain: sortedUnique(data.map((d) => d.series)) },
    marks: [
      Plot.line(sorted, {
        x: "date",
        y: "value",
        stroke: "series",
        // Explicit, so Plot does not warn about an implicit z when series have one point each.
        z: "series",
        fy: "panel",
        marker: "circle",
      }),
    ],
  }) as unknown as Element;
}

/** One cell of {@linkcode heatmapChart}. */
export interface HeatmapDatum {
  /** Column, e.g. an agent id. */
  readonly column: string;
  /** Row, e.g. a case id. */
  readonly row: string;
  /** Value in [0, 1] (pass rate), or `null` for a cell with no scored repetition. */
  readonly value: number | null;
}

/**
 * A grid of cells coloured by value in [0, 1] (red 0 → green 1), with the value printed; cells
 * without a value are grey.
 *
 * @param data Cells.
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function heatmapChart(data: readonly HeatmapDatum[], options: ChartOptions): Element {
  const rows = sortedUnique(data.map((d) => d.row));
  const columns = sortedUnique(data.map((d) => d.column));
  return Plot.plot({
    document: options.document,
    width: options.width ?? Math.max(360, 200 + 90 * columns.length),
    title: options.title,
    marginLeft: 180,
    marginBottom: 60,
    height: 70 + 22 * rows.length,
    padding: 0.04,
    x: { label: null, domain: columns, tickRotate: -20 },
    y: { label: null, domain: rows },
    color: { type: "linear", scheme: "RdYlGn", domain: [0, 1] },
    marks: [
      Plot.cell(data.filter((d) => d.value === null), { x: "column", y: "row", fill: "#ddd" }),
      Plot.cell(data.filter((d) => d.value !== null), { x: "column", y: "row", fill: "value" }),
      // White labels on the dark ends of the scale, black on the light middle, so every value
      // stays readable.
      ...[true, false].map((dark) =>
        Plot.text(data.filter((d) => darkCell(d.value) === dark), {
          x: "column",
          y: "row",
          text: (d: HeatmapDatum) => d.value === null ? "–" : d.value.toFixed(2),
          fontSize: 11,
          fill: dark ? "white" : "black",
        })
      ),
    ],
  }) as unknown as Element;
}

/** Whether a pass rate's RdYlGn colour is dark enough to need a white label. */
function darkCell(value: number | null): boolean {
  return value !== null && (value >= 0.8 || value <= 0.2);
}

/** One dot of {@linkcode toolFrequencyChart}. */
export interface ToolFrequencyDatum {
  /** Tool name (`server:tool`). */
  readonly tool: string;
  /** Colour key, e.g. an agent id. */
  readonly series: string;
  /** Calls per case. */
  readonly callsPerCase: number;
}

/**
 * Calls per case of each tool, one dot per series (agent).
 *
 * @param data Dots.
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function toolFrequencyChart(
  data: readonly ToolFrequencyDatum[],
  options: ChartOptions,
): Element {
  const tools = sortedUnique(data.map((d) => d.tool));
  return Plot.plot({
    ...chartFrame(options),
    marginLeft: 220,
    height: 50 + 22 * tools.length,
    x: { label: "calls per case →", grid: true, zero: true },
    y: { label: null, domain: tools },
    color: { legend: true, domain: sortedUnique(data.map((d) => d.series)) },
    marks: [Plot.dot(data, { x: "callsPerCase", y: "tool", fill: "series", r: 4 })],
  }) as unknown as Element;
}
