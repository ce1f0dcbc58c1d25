/** Helpers shared by the built-in visualizations (private). @module */
import type {
  AgentMetrics,
  AgentRunRecord,
  Visualization,
  VizContext,
  VizNote,
  VizOutput,
} from "./types.ts";

/** Sorted unique strings. */
export const uniq = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

/** Mean of finite numbers, `null` when none. */
export const mean = (xs: readonly (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
};

/** A note result. */
export const note = (text: string): VizNote => ({ type: "note", text });

/** The note shown when nothing was selected. */
export const EMPTY = note("No run selected: nothing to draw.");

/**
 * A built-in visualization: `draw` runs when some record is selected; with none, the
 * visualization shows {@linkcode EMPTY}.
 *
 * @param def Id, title, layout and description.
 * @param draw Renders the selected records (at least one).
 * @returns The visualization.
 */
export function builtinViz(
  def: Omit<Visualization, "render">,
  draw: (records: readonly AgentRunRecord[], ctx: VizContext) => VizOutput,
): Visualization {
  return { ...def, render: (records, ctx) => records.length === 0 ? EMPTY : draw(records, ctx) };
}

/** Agent ids of the records, sorted. */
export const agentDomain = (records: readonly AgentRunRecord[]): string[] =>
  uniq(records.map((r) => r.agentId));

/** Records grouped by agent id, in sorted agent order. */
export function byAgent(records: readonly AgentRunRecord[]): [string, AgentRunRecord[]][] {
  const m = new Map<string, AgentRunRecord[]>();
  for (const r of records) m.set(r.agentId, [...(m.get(r.agentId) ?? []), r]);
  return [...m.entries()].sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

/** Mean of one metric over records (each record weighs one, as MAVERIK's averages). */
export const avgMetric = (
  records: readonly AgentRunRecord[],
  key: keyof AgentMetrics,
): number | null => mean(records.map((r) => r.metrics[key]));

/** `12.3%`. */
export const pct = (v: number | null): string => v === null ? "–" : `${(v * 100).toFixed(1)}%`;
/** `$0.001234` (4 significant digits). */
export const usd = (v: number | null): string =>
  v === null ? "–" : v === 0 ? "$0" : `$${v.toPrecision(4)}`;
/** `1,234`. */
export const int = (v: number | null): string =>
  v === null ? "–" : Math.round(v).toLocaleString("en-US");
/** Rounds for tables and CSV (6 decimals). */
export const r6 = (v: number | null): number | null =>
  v === null ? null : Math.round(v * 1e6) / 1e6;
/** First 12 hex digits of a hash, without a `sha256:` prefix. */
export const shortHash = (h: string | null | undefined): string =>
  h ? h.replace(/^sha256:/, "").slice(0, 12) : "–";
