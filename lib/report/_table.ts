/** The dashboards' HTML tables (private to lib/report). @module */
import * as aq from "arquero";

/**
 * An arquero HTML table of `rows` with per-column formats, in a `div.table-wrap` that scrolls
 * sideways on a narrow screen (the page's CSS gives it `overflow-x: auto`) instead of widening
 * the page.
 */
export function htmlTable(
  rows: readonly Record<string, unknown>[],
  format: Record<string, (v: never) => string> = {},
): string {
  if (rows.length === 0) return "<p><em>none</em></p>";
  return `<div class="table-wrap">${
    aq.from(rows as Record<string, unknown>[]).toHTML({ format: format as never })
  }</div>`;
}
