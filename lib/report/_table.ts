/** The dashboards' HTML tables (private to lib/report). @module */
import * as aq from "arquero";

/** Options of {@linkcode htmlTable}. */
export interface HtmlTableOptions {
  /** The header a column key shows (default: the key). */
  readonly label?: (key: string) => string;
  /** Marks the table's wrapper `wrap`, for a page whose CSS lets long cells of such a table wrap. */
  readonly wrap?: boolean;
}

/**
 * An arquero HTML table of `rows` with per-column formats, in a `div.table-wrap` that scrolls
 * sideways on a narrow screen (the page's CSS gives it `overflow-x: auto`) instead of widening
 * the page. A number column without a format of its own shows thousands separators and the same
 * decimals on every row (as many as its longest value has, at most 6); an empty cell shows `–`.
 */
export function htmlTable(
  rows: readonly Record<string, unknown>[],
  format: Record<string, (v: never) => string> = {},
  options: HtmlTableOptions = {},
): string {
  if (rows.length === 0) return "<p><em>none</em></p>";
  const label = options.label ?? ((k: string) => k);
  const keys = Object.keys(rows[0]);
  const formats: Record<string, (v: never) => string> = {};
  for (const k of keys) {
    const f = format[k] ?? numberColumnFormat(rows.map((r) => r[k]));
    if (f) formats[label(k)] = f;
  }
  let table = aq.from(rows as Record<string, unknown>[]);
  if (options.label) table = table.rename(Object.fromEntries(keys.map((k) => [k, label(k)])));
  return `<div class="table-wrap${options.wrap ? " wrap" : ""}">${
    table.toHTML({ format: formats as never, null: () => "–" })
  }</div>`;
}

/** Separators and one count of decimals for a column of numbers; none for another column. */
function numberColumnFormat(values: readonly unknown[]): ((v: never) => string) | undefined {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0 || !present.every((v) => typeof v === "number" && Number.isFinite(v))) {
    return undefined;
  }
  const decimals = Math.min(
    6,
    Math.max(...(present as number[]).map((v) => (String(v).split(".")[1] ?? "").length)),
  );
  return ((v: number) =>
    v.toLocaleString("en-US", {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    })) as (v: never) => string;
}
