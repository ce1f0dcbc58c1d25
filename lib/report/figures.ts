/**
 * Charts for reports and notebooks, drawn with Observable Plot.
 *
 * Every function takes the `document` to draw into (a browser's, or
 * linkedom's under Deno), so the same code renders in Jupyter, in tests and in
 * the headless dashboard. Each returns the Plot element; use `.outerHTML` for
 * a standalone SVG (or `<figure>` when titled).
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import type { ScalingRow } from "../modes/scaling.ts";
import type { FrontierRow } from "../live/frontier.ts";

/** The subset of the DOM `Document` that Plot needs. */
export type PlotDocument = Document;

/** Options shared by every chart. */
export interface ChartOptions {
  /** Document to draw into (e.g. linkedom's `parseHTML(...).document`). */
  readonly document: PlotDocument;
  /** Chart width in CSS pixels. @default {640} */
  readonly width?: number;
  /** Optional title above the chart. */
  readonly title?: string;
}

/**
 * The frame every chart of this module shares: document, width (640 px unless given), title.
 *
 * @param options The chart's options.
 * @returns The `document`, `width` and `title` of a `Plot.plot` call.
 */
export function chartFrame(
  options: ChartOptions,
): { document: PlotDocument; width: number; title: string | undefined } {
  return { document: options.document, width: options.width ?? 640, title: options.title };
}

/**
 * A left margin wide enough for the longest y-axis label at Plot's 10 px font (about 6 px a
 * character, plus 12 px), at least `min` and at most 340 px.
 *
 * @example Usage
 * ```ts
 * import { labelMargin } from "./figures.ts";
 * if (labelMargin(["a".repeat(52)], 240) !== 324) throw new Error("margin");
 * ```
 *
 * @param labels The axis labels.
 * @param min The smallest margin, px. @default {160}
 * @returns The margin, px.
 */
export function labelMargin(labels: readonly string[], min = 160): number {
  const longest = Math.max(0, ...labels.map((l) => l.length));
  return Math.min(340, Math.max(min, 12 + 6 * longest));
}

/**
 * `text` cut to `max` characters with the ellipsis in the middle, so both ends stay readable (a
 * sweep agent's varied values are at the end of its id).
 *
 * @example Usage
 * ```ts
 * import { middleCut } from "./figures.ts";
 * if (middleCut("abcdefghij", 7) !== "ab…ghij") throw new Error(middleCut("abcdefghij", 7));
 * ```
 *
 * @param text The text.
 * @param max Most characters, the ellipsis included (≥ 2).
 * @returns `text` when it fits, else its first third and last two thirds around `…`.
 */
export function middleCut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor((max - 1) / 3);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/**
 * The key of a numbered scatter: one text block in the right margin, a line per point
 * (`1  name`, ...), top-aligned with the frame. Leave about 6 px per character of margin.
 *
 * @param lines One line per point, in number order.
 * @param fill Text colour. @default {"currentColor"}
 * @returns A Plot text mark.
 */
export function pointKey(lines: readonly string[], fill = "currentColor"): Plot.Markish {
  return Plot.text([lines.join("\n")], {
    frameAnchor: "top-right",
    dx: 14,
    text: (t: string) => t,
    textAnchor: "start",
    lineAnchor: "top",
    lineHeight: 1.35,
    fontSize: 10,
    fill,
  });
}

/**
 * The points of a numbered cost scatter, cheapest first (ties by label, UTF-16 order), each with
 * its number `n` (`"1"`, `"2"`, ...) and its line of the {@linkcode pointKey}.
 *
 * @param data The points.
 * @param cost A point's cost (the x value).
 * @param label A point's label (the tie-break).
 * @param keyLine A point's key line, given the point and its number.
 * @returns The points in number order, with `n` and `key` added.
 */
export function numberByCost<T extends object>(
  data: readonly T[],
  cost: (d: T) => number,
  label: (d: T) => string,
  keyLine: (d: T, n: string) => string,
): (T & { n: string; key: string })[] {
  return [...data].sort((a, b) => cost(a) - cost(b) || (label(a) < label(b) ? -1 : 1))
    .map((d, i) => ({ ...d, n: String(i + 1), key: keyLine(d, String(i + 1)) }));
}

/**
 * The y axis of a chart against pass rate: [0, 1], gridded.
 *
 * @returns Plot scale options.
 */
export function passRateAxis(): Plot.ScaleOptions {
  return { label: "↑ pass rate", domain: [0, 1], grid: true };
}

/**
 * The axes and marks of a numbered cost scatter: mean cost per case (USD, from 0) along x, pass
 * rate up y, a dot per point with its number written on it, and the {@linkcode pointKey}.
 *
 * @param keyed Points in number order (as {@linkcode numberByCost} gives them).
 * @param channels The x, y and fill fields, a point's hover title, and the key's text colour
 *   (`currentColor` unless given).
 * @returns The `x` and `y` scale options and the marks of a `Plot.plot` call.
 */
export function costScatter<T extends { n: string; key: string }>(
  keyed: readonly T[],
  channels: {
    x: string;
    y: string;
    fill: string;
    title: (d: T) => string;
    keyFill?: string;
  },
): { x: Plot.ScaleOptions; y: Plot.ScaleOptions; marks: Plot.Markish[] } {
  const { x, y, fill, title } = channels;
  return {
    x: {
      label: "mean cost per case (USD) →",
      labelAnchor: "center",
      grid: true,
      zero: true,
      insetRight: 10,
    },
    y: passRateAxis(),
    marks: [
      Plot.dot(keyed, { x, y, fill, r: 7, title }),
      Plot.text(keyed, { x, y, text: "n", fill: "white", fontSize: 9 }),
      pointKey(keyed.map((d) => d.key), channels.keyFill),
    ],
  };
}

/**
 * Token cost of each exposure mode against catalog size (log–log): direct
 * grows with the catalog, proxy and code stay flat.
 *
 * @param rows Rows from `savingsBySize` for one corpus and tokenizer.
 * @param options Document, width, title.
 * @returns The Plot element (SVG or figure).
 */
export function savingsBySizeChart(rows: readonly ScalingRow[], options: ChartOptions): Element {
  const points = [...rows].sort((a, b) => a.meanToolCount - b.meanToolCount).flatMap((r) => [
    { tools: r.meanToolCount, tokens: r.directTokens, mode: "direct" },
    { tools: r.meanToolCount, tokens: r.proxyTokens, mode: "proxy" },
    { tools: r.meanToolCount, tokens: r.codeTokens, mode: "code" },
  ]);
  const sizes = points.map((p) => p.tools);
  // A tick and its label at every 1, 2 and 5 of each decade the sizes span. Plot's log axis
  // keeps the labels of 1 to 4 times a power of ten alone (no label at 50 or 500), whatever
  // tickFormat says; a text channel of our own is drawn as given.
  const ticks = oneTwoFive(Math.min(...sizes), Math.max(...sizes));
  return Plot.plot({
    ...chartFrame(options),
    x: { type: "log", label: "tools in catalog (mean of draws) →" },
    y: { type: "log", label: "↑ context tokens (with schemas)", grid: true },
    color: { legend: true, domain: ["direct", "proxy", "code"] },
    marks: [
      Plot.gridX(ticks),
      Plot.axisX(ticks, { text: (d: number) => d.toLocaleString("en-US") }),
      Plot.line(points, { x: "tools", y: "tokens", stroke: "mode", z: "mode", marker: "circle" }),
    ],
  }) as unknown as Element;
}

/**
 * The numbers 1, 2 and 5 times a power of ten from `lo` to `hi` (inclusive), e.g. 5 to 1,389:
 * 5, 10, 20, 50, 100, 200, 500, 1,000.
 *
 * @param lo Smallest value (> 0).
 * @param hi Largest value.
 * @returns The ticks, ascending; `[]` when `lo` is not positive or the range is empty.
 */
function oneTwoFive(lo: number, hi: number): number[] {
  if (!(lo > 0) || !(hi >= lo) || !Number.isFinite(hi)) return [];
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      // Rounded from the decimal text, so 10^-1 * 2 is 0.2, not 0.20000000000000001.
      const v = Number(`${m}e${e}`);
      if (v >= lo && v <= hi) ticks.push(v);
    }
  }
  return ticks;
}

/** One bar of a horizontal bar chart. */
export interface BarDatum {
  /** Label on the category axis. */
  readonly label: string;
  /** Value drawn (units of the axis). */
  readonly value: number;
}

/**
 * Horizontal bars, largest first (ties broken by label), e.g. the heaviest
 * tools or servers by tokens.
 *
 * @param data Bars to draw.
 * @param options Document, width, title, and the value axis label.
 * @returns The Plot element.
 */
export function barChart(
  data: readonly BarDatum[],
  options: ChartOptions & { readonly valueLabel: string },
): Element {
  const sorted = [...data].sort((a, b) =>
    b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)
  );
  const frame = chartFrame(options);
  const marginLeft = 260;
  const marginRight = 60;
  const text = (d: BarDatum) => barLabel(d.value);
  const positive = sorted.filter((d) => d.value >= 0);
  const negative = sorted.filter((d) => d.value < 0);
  return Plot.plot({
    ...frame,
    marginLeft,
    marginRight,
    height: 40 + 22 * sorted.length,
    x: {
      label: `${options.valueLabel} →`,
      grid: true,
      ...barDomain(sorted, frame.width - marginLeft - marginRight),
    },
    y: { label: null, domain: sorted.map((d) => d.label) },
    marks: [
      // A negative bar in another colour: on a savings chart it costs more than the baseline.
      Plot.barX(sorted, {
        x: "value",
        y: "label",
        fill: (d: BarDatum) => d.value < 0 ? NEGATIVE_FILL : "steelblue",
      }),
      // Each label just past its bar's end: right of a positive bar, left of a negative one (the
      // domain leaves it room there, so it neither overlaps the bar nor reaches the axis).
      Plot.text(positive, { x: "value", y: "label", text, dx: 4, textAnchor: "start" }),
      Plot.text(negative, { x: "value", y: "label", text, dx: -4, textAnchor: "end" }),
      Plot.ruleX([0]),
    ],
  }) as unknown as Element;
}

/**
 * A bar's value as its label: thousands separators (`234,697`, as the axis writes `200,000`), at
 * most one decimal.
 *
 * @param value The bar's value.
 * @returns The label.
 */
export function barLabel(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 1 });
}

/** Fill of a negative bar in {@linkcode barChart}. */
const NEGATIVE_FILL = "#c8553d";

/**
 * The x domain of a bar chart with negative bars: from the smallest value, widened to the left
 * by room for its label (about 6 px a character at Plot's 10 px font, plus 8 px), to the largest
 * value or 0. Without negative bars, Plot's own domain (none given).
 */
function barDomain(
  data: readonly BarDatum[],
  innerWidth: number,
): { domain?: [number, number] } {
  const negative = data.filter((d) => d.value < 0);
  if (negative.length === 0) return {};
  const lo = Math.min(...negative.map((d) => d.value));
  const hi = Math.max(0, ...data.map((d) => d.value));
  // The label of each negative bar needs its width left of the bar's end; the widest need wins.
  const need = Math.max(...negative.map((d) => 8 + 6 * barLabel(d.value).length));
  const room = Math.max(innerWidth - need, innerWidth / 2);
  const perPx = (hi - lo) / room;
  const pad = Math.max(
    ...negative.map((d) => (8 + 6 * barLabel(d.value).length) * perPx - (d.value - lo)),
  );
  return { domain: [lo - Math.max(0, pad), hi] };
}

/** One point estimate with its interval, for {@linkcode intervalChart}. */
export interface IntervalDatum {
  /** Row label, e.g. a retriever or arm. */
  readonly label: string;
  /** Facet/colour key, e.g. a metric name. */
  readonly series: string;
  /** Value drawn (units of the axis). */
  readonly value: number;
  /** Lower end of the interval. */
  readonly lo: number;
  /** Upper end of the interval. */
  readonly hi: number;
}

/**
 * Point estimates with interval bars (e.g. bootstrap 95% intervals), one
 * panel per series.
 *
 * @param data Points with intervals.
 * @param options Document, width, title, and the value axis label.
 * @returns The Plot element.
 */
export function intervalChart(
  data: readonly IntervalDatum[],
  options: ChartOptions & { readonly valueLabel: string },
): Element {
  const labels = [...new Set(data.map((d) => d.label))].sort();
  const marginLeft = labelMargin(labels);
  // The facet (series) names sit in the right margin.
  const longestSeries = Math.max(0, ...data.map((d) => d.series.length));
  const marginRight = Math.min(200, Math.max(80, 16 + 6 * longestSeries));
  const frame = chartFrame(options);
  return Plot.plot({
    ...frame,
    // Extra label room widens the chart rather than narrowing its plot area.
    width: frame.width + (marginLeft - 160) + (marginRight - 80),
    marginLeft,
    marginRight,
    height: 60 + 18 * labels.length * new Set(data.map((d) => d.series)).size,
    x: { label: `${options.valueLabel} →`, domain: [0, 1], grid: true },
    y: { label: null, domain: labels },
    fy: { label: null },
    marks: [
      Plot.ruleY(data, { fy: "series", y: "label", x1: "lo", x2: "hi", stroke: "gray" }),
      Plot.dot(data, { fy: "series", y: "label", x: "value", fill: "series" }),
    ],
  }) as unknown as Element;
}

/**
 * Cost–quality frontier: recall@k against the tokens of a `retrieve_tools` response with k
 * results, one line per retriever (points at k = 1…20, left to right).
 *
 * @param rows Frontier rows of one golden set.
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function frontierChart(rows: readonly FrontierRow[], options: ChartOptions): Element {
  const points = rows.flatMap((r) =>
    r.points.map((p) => ({
      retriever: r.retriever,
      k: p.k,
      tokens: p.meanTokens,
      recall: p.recall,
    }))
  );
  return Plot.plot({
    ...chartFrame(options),
    x: { label: "response tokens (mean over queries) →", grid: true },
    y: { label: "↑ recall@k", domain: [0, 1], grid: true },
    color: { legend: true },
    marks: [
      Plot.line(points, { x: "tokens", y: "recall", stroke: "retriever", z: "retriever" }),
      Plot.dot(points, {
        x: "tokens",
        y: "recall",
        stroke: "retriever",
        r: 2,
        title: (d: { retriever: string; k: number }) => `${d.retriever} k=${d.k}`,
      }),
    ],
  }) as unknown as Element;
}
