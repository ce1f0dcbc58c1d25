/**
 * Renders dashboards (and any list of visualizations) as one self-contained HTML page: sections,
 * half- and full-width visualizations on a two-column grid, tables with optional heat cells,
 * notes where the data is not recorded, per-visualization exports (SVG, PNG and CSV buttons in
 * the browser; the same SVG and CSV texts returned for writing beside the page) and print CSS
 * for A4 PDFs (light colours, no chart cut across pages, one section per page). Pure: the page
 * comes out as text, deterministic for the same records (Plot ids renumbered, no clock).
 *
 * @module
 */
import { csvText } from "../core/csv.ts";
import { headlessDocument, renumberPlotIds } from "./dashboard.ts";
import type { Dashboard } from "./dashboards.ts";
import type { VizRegistry } from "./viz/registry.ts";
import { vizContext, WIDTHS } from "./viz/theme.ts";
import {
  type AgentRunRecord,
  isVizNote,
  isVizTable,
  type Visualization,
  type VizTable,
} from "./viz/types.ts";

import { esc } from "./_html.ts";

/** One export of a rendered visualization. */
export interface VizExport {
  /** File name stem, e.g. `03-agent-average-correctness`. */
  readonly name: string;
  /** `svg` for a chart, `csv` for a table. */
  readonly kind: "svg" | "csv";
  /** File content. */
  readonly text: string;
}

/** A rendered visualization instance. */
export interface RenderedViz {
  /** `<figure class="viz half|full">` markup. */
  readonly html: string;
  /** Its export (none for a note). */
  readonly export: VizExport | null;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Standalone SVG text of a Plot element (the chart's `<svg>`, with its namespace). */
export function standaloneSvg(el: Element): string {
  const svgs = el.tagName.toLowerCase() === "svg" ? [el] : [...el.querySelectorAll("svg")];
  const main = svgs[svgs.length - 1] ?? el;
  const text = main.outerHTML;
  return text.includes("xmlns=") ? text : text.replace(/^<svg/, `<svg xmlns="${SVG_NS}"`);
}

/**
 * CSV text of a table visualization (arquero `toCSV`; `null` as an empty cell).
 *
 * @param t The table.
 * @returns CSV ending in a newline (a header only when there are no rows).
 */
export function vizTableCsv(t: VizTable): string {
  const columns = [...(t.columns ?? Object.keys(t.rows[0] ?? {}))];
  return csvText(
    columns,
    t.rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null]))),
  );
}

/**
 * The header a column shows: a snake_case key in words, its unit in brackets (`token_cost_usd` →
 * `token cost (USD)`, `duration_ms` → `duration (ms)`); any other key (an agent id, a case) as it
 * is. The CSV keeps the keys.
 *
 * @param key Column key.
 * @returns The header text.
 */
export function columnLabel(key: string): string {
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(key)) return key;
  const words = key.split("_");
  const unit = { usd: "USD", ms: "ms" }[words.at(-1)!];
  return unit === undefined ? words.join(" ") : `${words.slice(0, -1).join(" ")} (${unit})`;
}

/**
 * One number format for a whole column: thousands separators, and the same number of decimals
 * on every row (none when every value is an integer; else 1 from 100 up, 2 from 1 up, and below
 * 1 enough for two significant digits of the smallest non-zero value, at most 6).
 *
 * @param values The column's values.
 * @returns The formatter of a number of that column.
 */
export function columnNumberFormat(values: readonly unknown[]): (v: number) => string {
  const numbers = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const smallest = Math.min(...numbers.filter((v) => v !== 0).map(Math.abs));
  const decimals = numbers.every(Number.isInteger)
    ? 0
    : smallest >= 100
    ? 1
    : smallest >= 1
    ? 2
    : Math.min(6, Math.ceil(-Math.log10(smallest)) + 1);
  return (v) =>
    v.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

function heatColor(v: number): string {
  // red (0) → yellow (0.5) → green (1), light enough for black text and print.
  const h = Math.round(v * 120);
  return `hsl(${h} 70% 78%)`;
}

function tableHtml(t: VizTable): string {
  const columns = [...(t.columns ?? Object.keys(t.rows[0] ?? {}))];
  if (t.rows.length === 0) return `<p class="note">No rows.</p>`;
  const heat = new Set(t.heat ?? []);
  const numberFormat = new Map(
    columns.map((c) => [c, columnNumberFormat(t.rows.map((r) => r[c] ?? null))]),
  );
  // A column with a number in it is right-aligned, its empty cells too.
  const numeric = new Set(columns.filter((c) => t.rows.some((r) => typeof r[c] === "number")));
  const head = columns.map((c) =>
    `<th${numeric.has(c) ? ` class="num"` : ""} title="${esc(c)}">${esc(columnLabel(c))}</th>`
  ).join("");
  const body = t.rows.map((r) =>
    `<tr>${
      columns.map((c) => {
        const v = r[c] ?? null;
        const f = t.format?.[c];
        const text = f
          ? f(v as never)
          : v === null
          ? "–"
          : typeof v === "number"
          ? numberFormat.get(c)!(v)
          : String(v);
        const style = heat.has(c) && typeof v === "number"
          ? ` style="background:${heatColor(v)}"`
          : "";
        const cls = numeric.has(c) && (v === null || typeof v === "number") ? ` class="num"` : "";
        return `<td${cls}${style}>${esc(text)}</td>`;
      }).join("")
    }</tr>`
  ).join("\n");
  return `<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/**
 * Renders one visualization instance into a figure.
 *
 * @param viz The visualization.
 * @param records Records to draw.
 * @param options Document, caption override, export name, widths.
 * @returns Markup and export.
 * @throws nothing: a `render` that throws becomes a note quoting its error, so one broken user
 *   module does not take the page down.
 */
export function renderViz(
  viz: Visualization,
  records: readonly AgentRunRecord[],
  options: {
    readonly document: Document;
    readonly title?: string;
    readonly name: string;
    readonly widths?: { readonly full: number; readonly half: number };
  },
): RenderedViz {
  const title = options.title ?? viz.title;
  const ctx = vizContext(options.document, viz.layout, options.widths ?? WIDTHS);
  let content: string;
  let exp: VizExport | null = null;
  let kind = "chart";
  try {
    const out = viz.render(records, ctx);
    if (isVizTable(out)) {
      kind = "table";
      const csv = vizTableCsv(out);
      exp = { name: options.name, kind: "csv", text: csv };
      content = tableHtml(out) +
        `<script type="text/csv" class="csv-data">${csv.replace(/<\//g, "<\\/")}</script>`;
    } else if (isVizNote(out)) {
      kind = "note";
      content = `<p class="viz-note">${esc(out.text)}</p>`;
    } else {
      content = (out as Element).outerHTML;
      exp = { name: options.name, kind: "svg", text: standaloneSvg(out as Element) };
    }
  } catch (e) {
    kind = "note";
    content = `<p class="viz-note">This visualization failed: ${esc((e as Error).message)}</p>`;
  }
  const buttons = kind === "chart"
    ? `<button data-export="svg">SVG</button><button data-export="png">PNG</button>`
    : kind === "table"
    ? `<button data-export="csv">CSV</button><button data-export="png">PNG</button>`
    : "";
  return {
    html: `<figure class="viz ${viz.layout} ${kind}" data-ref="${esc(viz.id)}" data-name="${
      esc(options.name)
    }">
<figcaption><span class="viz-title">${
      esc(title)
    }</span><span class="export">${buttons}</span></figcaption>
${content}
<p class="viz-foot">${esc(viz.id)}</p>
</figure>`,
    export: exp,
  };
}

/** Inputs of {@linkcode renderDashboardPage}. */
export interface DashboardPageInput {
  /** The dashboard (already validated against `registry`). */
  readonly dashboard: Dashboard;
  /** Records to draw (see `agentRunRecords`). */
  readonly records: readonly AgentRunRecord[];
  /** Visualizations by id. */
  readonly registry: VizRegistry;
  /** Page title; default the dashboard's. */
  readonly title?: string;
  /** One line under the title (e.g. the filter and the run count). */
  readonly subtitle?: string;
  /** Draw for print: one column, every chart at the A4 text width. @default {false} */
  readonly print?: boolean;
  /** Document to draw into. @default a linkedom document */
  readonly document?: Document;
}

/** A rendered dashboard page. */
export interface DashboardPage {
  /** The complete HTML page. */
  readonly html: string;
  /** SVG of every chart and CSV of every table, in page order. */
  readonly exports: readonly VizExport[];
}

/** Width of a chart drawn for an A4 page with 12 mm margins, CSS px. */
export const PRINT_WIDTH = 700;

/**
 * Renders a dashboard over records as one HTML page.
 *
 * @param input Dashboard, records, registry, titles, print mode.
 * @returns `{html, exports}`.
 * @throws {RangeError} when a `ref` is not in the registry (validate the dashboard first).
 */
export function renderDashboardPage(input: DashboardPageInput): DashboardPage {
  const document = input.document ?? headlessDocument();
  const widths = input.print ? { full: PRINT_WIDTH, half: PRINT_WIDTH } : WIDTHS;
  const exports: VizExport[] = [];
  let n = 0;
  const sections = input.dashboard.sections.map((s) => {
    const figs = s.visualizations.map((item) => {
      const viz = input.registry.get(item.ref);
      if (!viz) {
        throw new RangeError(`Cannot render dashboard: unknown visualization "${item.ref}"`);
      }
      n += 1;
      const r = renderViz(viz, input.records, {
        document,
        ...(item.title ? { title: item.title } : {}),
        name: `${String(n).padStart(2, "0")}-${item.ref}`,
        widths,
      });
      if (r.export) exports.push(r.export);
      return r.html;
    });
    return `<section><h2>${esc(s.title)}</h2>\n<div class="grid">\n${
      figs.join("\n")
    }\n</div></section>`;
  });
  const html = reportPage({
    title: input.title ?? input.dashboard.title,
    subtitle: input.subtitle ?? "",
    notice: simulatedNotice(input.records),
    body: sections.join("\n"),
    print: input.print ?? false,
  });
  return { html: renumberPlotIds(html), exports };
}

/**
 * The line a page over agent runs carries when some used a simulated model: which, and that
 * their USD figures are not a bill.
 *
 * @param records The records drawn.
 * @returns The notice, or `""` when none is simulated.
 */
export function simulatedNotice(
  records: readonly Pick<AgentRunRecord, "simulated" | "runId">[],
): string {
  const runs = [...new Set(records.filter((r) => r.simulated).map((r) => r.runId))].sort();
  if (runs.length === 0) return "";
  const all = new Set(records.map((r) => r.runId)).size;
  return `Simulated: ${
    runs.length === all ? "every run" : `${runs.length} of ${all} runs (${runs.join(", ")})`
  } used a scripted model, which no provider bills; USD figures from ${
    runs.length === all ? "them" : "those runs"
  } are what the pricing would charge.`;
}

/**
 * Wraps a body in the report page: styles for screen and print (A4, light colours, figures
 * never split, sections from a new page), and the export buttons' script (SVG and PNG of a
 * chart, CSV and PNG of a table, made in the browser).
 *
 * @param page Title, subtitle, a notice shown under it (e.g. {@linkcode simulatedNotice}), body
 *   markup, print mode (one column).
 * @returns The HTML page.
 */
export function reportPage(
  page: {
    readonly title: string;
    readonly subtitle: string;
    readonly notice?: string;
    readonly body: string;
    readonly print?: boolean;
  },
): string {
  return `<!doctype html>
<!-- Generated by mcpmeter (lib/report) — do not edit -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)}</title>
<style>
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: ${
    page.print ? PRINT_WIDTH + 20 : WIDTHS.full + 40
  }px; padding: 0 1rem; color: #222; background: #fff; }
h1 { font-size: 1.5rem; margin: 0 0 0.2rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 0.4rem; border-bottom: 1px solid #ddd; }
.subtitle, .note { color: #555; font-size: 13px; }
.notice { background: #fef7e0; border: 1px solid #fde293; border-radius: 4px; padding: 4px 8px; font-size: 13px; }
.grid { display: grid; grid-template-columns: ${
    page.print ? "1fr" : "repeat(2, minmax(0, 1fr))"
  }; gap: 16px 24px; }
figure.viz { margin: 0; min-width: 0; break-inside: avoid; page-break-inside: avoid; }
figure.viz.full { grid-column: 1 / -1; }
figure.viz figcaption { display: flex; justify-content: space-between; align-items: baseline; font-weight: 600; margin-bottom: 4px; }
.export button { font: 11px system-ui, sans-serif; margin-left: 4px; padding: 1px 6px; border: 1px solid #bbb; background: #f7f7f7; border-radius: 3px; cursor: pointer; }
.viz-foot { color: #999; font-size: 10px; margin: 2px 0 0; text-align: right; }
.viz-note { color: #555; background: #f6f6f6; border: 1px dashed #ccc; padding: 1rem; margin: 0; font-size: 13px; }
svg { max-width: 100%; height: auto; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 2px 6px; text-align: left; white-space: nowrap; }
th { white-space: normal; word-break: keep-all; overflow-wrap: normal; vertical-align: bottom; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f4f4f4; }
.kpis { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 10px; }
.kpi { border: 1px solid #ddd; border-radius: 4px; padding: 8px 10px; break-inside: avoid; }
.kpi .value { font-size: 1.25rem; font-weight: 600; }
.kpi .delta.better { color: #1a7f37; } .kpi .delta.worse { color: #c0392b; } .kpi .delta.neutral { color: #555; }
.kpi .stats { color: #555; font-size: 11px; }
@page { size: A4; margin: 12mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; }
  .export, nav, form, .no-print { display: none !important; }
  .grid { grid-template-columns: 1fr; }
  .table-wrap { overflow: visible; }
  table { font-size: 8.5px; width: 100%; }
  th, td { white-space: normal; padding: 1px 3px; }
  th { overflow-wrap: normal; word-break: keep-all; hyphens: manual; }
  td { overflow-wrap: anywhere; }
  td.num { white-space: nowrap; overflow-wrap: normal; }
  section + section { break-before: page; }
  h2 { break-after: avoid; }
  figure.viz, .kpi, tr { break-inside: avoid; page-break-inside: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
</style>
</head>
<body>
<h1>${esc(page.title)}</h1>
${page.subtitle ? `<p class="subtitle">${esc(page.subtitle)}</p>` : ""}
${page.notice ? `<p class="notice">${esc(page.notice)}</p>` : ""}
${page.body}
<script>
(() => {
  const save = (blob, name) => { const a = document.createElement("a"); a.href = URL.createObjectURL(blob); a.download = name; a.click(); setTimeout(() => URL.revokeObjectURL(a.href), 1000); };
  const svgText = (fig) => { const svgs = fig.querySelectorAll("svg"); const s = svgs[svgs.length - 1].cloneNode(true); s.setAttribute("xmlns", "http://www.w3.org/2000/svg"); return new XMLSerializer().serializeToString(s); };
  const toPng = (fig, name) => {
    let w, h, svg;
    const t = fig.querySelector("table");
    if (t) {
      const r = t.getBoundingClientRect(); w = Math.ceil(r.width); h = Math.ceil(r.height);
      const style = [...document.styleSheets].flatMap((s) => [...s.cssRules].map((r) => r.cssText)).join("\\n");
      svg = '<svg xmlns="http://www.w3.org/2000/svg" width="' + w + '" height="' + h + '"><foreignObject width="100%" height="100%"><div xmlns="http://www.w3.org/1999/xhtml"><style>' + style + '</style>' + new XMLSerializer().serializeToString(t) + '</div></foreignObject></svg>';
    } else {
      const s = fig.querySelectorAll("svg"); const r = s[s.length - 1].getBoundingClientRect(); w = Math.ceil(r.width); h = Math.ceil(r.height); svg = svgText(fig);
    }
    const img = new Image();
    img.onload = () => { const c = document.createElement("canvas"); c.width = w * 2; c.height = h * 2; const g = c.getContext("2d"); g.fillStyle = "#fff"; g.fillRect(0, 0, c.width, c.height); g.scale(2, 2); g.drawImage(img, 0, 0, w, h); c.toBlob((b) => save(b, name + ".png"), "image/png"); };
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  };
  document.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-export]"); if (!b) return;
    const fig = b.closest("figure"); const name = fig.dataset.name || "chart";
    const kind = b.dataset.export;
    if (kind === "svg") save(new Blob([svgText(fig)], { type: "image/svg+xml" }), name + ".svg");
    else if (kind === "csv") save(new Blob([fig.querySelector("script.csv-data").textContent.replace(/<\\\\\\//g, "</")], { type: "text/csv" }), name + ".csv");
    else toPng(fig, name);
  });
})();
</script>
</body>
</html>
`;
}
