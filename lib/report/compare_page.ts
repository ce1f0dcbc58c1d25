/**
 * The Compare versions page and its text view: KPI panels with deltas against the baseline and
 * the gate's statistics, the Pareto scatter of cost against pass rate with the efficient
 * frontier, the per-case regression matrix (pass rates, and the change against the baseline,
 * regressions first), per-repetition strips that say "identical every repetition" instead of
 * drawing a spread, and the comparison as CSV. Pure.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { headlessDocument, renumberPlotIds } from "./dashboard.ts";
import { passRateAxis } from "./figures.ts";
import { esc } from "./_html.ts";
import {
  PRINT_WIDTH,
  reportPage,
  simulatedNotice,
  standaloneSvg,
  type VizExport,
  vizTableCsv,
} from "./dashboard_page.ts";
import { compareRows, type KpiDelta, type VersionComparison } from "./compare_versions.ts";
import { DEFAULT_THEME, WIDTHS } from "./viz/theme.ts";

const fmtKpi = (k: KpiDelta["kpi"], v: number | null): string => {
  if (v === null) return "–";
  switch (k) {
    case "passRate":
      return `${(v * 100).toFixed(1)}%`;
    case "costPerCaseUsd":
      return v === 0 ? "$0" : `$${v.toPrecision(4)}`;
    case "durationMs":
      return `${Math.round(v).toLocaleString("en-US")} ms`;
    case "inputTokens":
      return Math.round(v).toLocaleString("en-US");
    case "toolCalls":
      return v.toFixed(2);
  }
};
const fmtDelta = (d: KpiDelta): string => {
  if (d.delta === null) return "–";
  const sign = d.delta > 0 ? "+" : d.delta < 0 ? "−" : "±";
  const abs = d.kpi === "passRate"
    ? `${(Math.abs(d.delta) * 100).toFixed(1)} pt`
    : fmtKpi(d.kpi, Math.abs(d.delta));
  const pct = d.deltaPct === null
    ? ""
    : ` (${d.deltaPct >= 0 ? "+" : "−"}${Math.abs(d.deltaPct * 100).toFixed(1)}%)`;
  return `${sign}${abs}${pct}`;
};
const fmtInterval = (d: KpiDelta): string => {
  if (d.interval === null) return "";
  const f = (x: number) =>
    d.kpi === "passRate"
      ? `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}`
      : `${x >= 0 ? "+" : "−"}${fmtKpi(d.kpi, Math.abs(x))}`;
  return `95% [${f(d.interval[0])}, ${f(d.interval[1])}]${d.kpi === "passRate" ? " pt" : ""}`;
};
const statsLine = (d: KpiDelta): string =>
  [
    d.pValue === null ? "" : `p = ${d.pValue.toPrecision(2)}`,
    fmtInterval(d),
    d.underpowered ? `underpowered at this n (${d.n} cases)` : `n = ${d.n} cases`,
  ].filter(Boolean).join(" · ");

/**
 * The comparison as text for a terminal: one block per candidate, one line per KPI.
 *
 * @param c The comparison.
 * @returns Lines joined by `\n`, ending in a newline.
 */
export function compareText(c: VersionComparison): string {
  const lines = [
    `${c.suiteId} / ${c.agentId}: ${
      c.points.map((p) => `${p.label}${p.isBaseline ? " (baseline)" : ""} [${p.record.runId}]`)
        .join(", ")
    }`,
  ];
  for (const [label, ds] of Object.entries(c.deltas)) {
    lines.push(`${label} vs ${c.baseline}:`);
    for (const d of ds) {
      lines.push(
        `  ${d.label.padEnd(22)} ${fmtKpi(d.kpi, d.baseline).padStart(12)} → ${
          fmtKpi(d.kpi, d.candidate).padStart(12)
        }  ${fmtDelta(d).padEnd(22)} ${d.direction.padEnd(7)} ${statsLine(d)}`,
      );
    }
  }
  const reg = c.matrix.filter((r) => r.regressed);
  lines.push(`efficient frontier (cost vs pass rate): ${c.frontier.join(", ") || "–"}`);
  lines.push(
    reg.length === 0
      ? "no case regressed against the baseline"
      : `regressed cases: ${reg.map((r) => r.caseId).join(", ")}`,
  );
  return lines.join("\n") + "\n";
}

/** A rendered Compare versions page. */
export interface ComparePage {
  /** The HTML page. */
  readonly html: string;
  /** SVG of the charts and the CSV of the comparison. */
  readonly exports: readonly VizExport[];
}

/** A figure of the page; an SVG chart (when `svg`) also goes to the exports. */
type Fig = (
  name: string,
  title: string,
  layout: "half" | "full",
  el: Element | string,
  svg?: boolean,
) => string;

/**
 * Renders the Compare versions page.
 *
 * @param c The comparison.
 * @param options Document, print mode (one column at the A4 width), and `agentInConfig: false`
 *   when the agent is not one of the working config's (the demo's, or deleted): then no version
 *   can be cut from it, and the page says so instead of suggesting it.
 * @returns `{html, exports}`; the exports hold `compare.csv` (one row per point).
 */
export function renderComparePage(
  c: VersionComparison,
  options: {
    readonly document?: Document;
    readonly print?: boolean;
    readonly agentInConfig?: boolean;
  } = {},
): ComparePage {
  const document = options.document ?? headlessDocument();
  const half = options.print ? PRINT_WIDTH : WIDTHS.half;
  const exports: VizExport[] = [];
  const fig: Fig = (name, title, layout, el, svg = true) => {
    const html = typeof el === "string" ? el : el.outerHTML;
    if (svg && typeof el !== "string") exports.push({ name, kind: "svg", text: standaloneSvg(el) });
    return `<figure class="viz ${layout} ${
      svg ? "chart" : "note"
    }" data-ref="compare-${name}" data-name="${name}">
<figcaption><span class="viz-title">${esc(title)}</span><span class="export">${
      svg && typeof el !== "string"
        ? `<button data-export="svg">SVG</button><button data-export="png">PNG</button>`
        : ""
    }</span></figcaption>
${html}
<p class="viz-foot">compare-${name}</p>
</figure>`;
  };
  // The order of the exports: the strips' SVGs, compare.csv, then the pareto and matrix SVGs.
  const pareto = paretoChart(c, document, half);
  const strips = stripFigures(c, document, half, fig);
  const csv = vizTableCsv({ type: "table", rows: compareRows(c) });
  exports.push({ name: "compare", kind: "csv", text: csv });
  const body = [
    `<section><h2>Deltas against ${esc(c.baseline)}</h2>${
      kpiPanels(c, options.agentInConfig ?? true)
    }
<p class="note">Pass rate = passed ÷ scored cases; cost = agent cost per case (tokens + tools, judge excluded). p: two-sided case-level paired permutation test over the cases run by both (exact up to 16 cases); intervals: Newcombe for the pass rate, seeded bootstrap (seed ${c.seed}) of per-case differences otherwise; underpowered: with n cases no outcome can reach p &lt; ${c.alpha}.</p></section>`,
    `<section><h2>Cost, correctness and reliability</h2><div class="grid">
${
      fig(
        "pareto",
        "Cost against pass rate (frontier in green, dominated points grey; size = duration)",
        "half",
        pareto,
        typeof pareto !== "string",
      )
    }
<figure class="viz half table" data-ref="compare-reliability" data-name="compare"><figcaption><span class="viz-title">Reliability per version</span><span class="export"><button data-export="csv">CSV</button></span></figcaption>${
      reliabilityTable(c, csv)
    }<p class="viz-foot">compare-reliability</p></figure>
</div></section>`,
    `<section><h2>Per case</h2><div class="grid">
${
      fig(
        "matrix",
        "Pass rate per case (regressions first)",
        "half",
        caseMatrix(c, document, half, "rate"),
      )
    }
${
      fig(
        "matrix-diff",
        `Change against ${c.baseline} (percentage points)`,
        "half",
        caseMatrix(c, document, half, "diff"),
      )
    }
</div></section>`,
    `<section><h2>Per repetition</h2><div class="grid">${strips.join("\n")}</div></section>`,
  ].join("\n");
  const html = reportPage({
    title: `Compare ${c.by}: ${c.agentId} on ${c.suiteId}`,
    subtitle: `${c.points.length} point(s): ${
      c.points.map((p) => `${p.label} (${p.record.runId}, ${p.record.startedAt.slice(0, 10)})`)
        .join(", ")
    }; baseline ${c.baseline}`,
    notice: simulatedNotice(c.points.map((p) => p.record)),
    body,
    print: options.print ?? false,
  });
  return { html: renumberPlotIds(html), exports };
}

/** One panel per KPI and candidate (value, delta against the baseline, the gate's statistics). */
function kpiPanels(c: VersionComparison, agentInConfig: boolean): string {
  const single = c.points.length === 1
    ? `<p class="viz-note">Only one version of ${esc(c.agentId)} has run on ${esc(c.suiteId)}: ${
      agentInConfig
        ? `cut a version (deno task agents --cut-version ${esc(c.agentId)}) and run ${
          esc(c.agentId)
        }@N to compare.`
        : `${
          esc(c.agentId)
        } is not an agent of the working config (a demo agent, or one since deleted), so no version of it can be cut; versions are cut from the agents on the Agents page.`
    }</p>`
    : "";
  const sections = Object.entries(c.deltas).map(([label, ds]) => {
    const panels = ds.map((d) =>
      `<div class="kpi"><div class="name">${esc(d.label)}</div><div class="value">${
        esc(fmtKpi(d.kpi, d.candidate))
      }</div>
<div class="delta ${d.direction}">${esc(fmtDelta(d))} vs ${esc(fmtKpi(d.kpi, d.baseline))}</div>
<div class="stats">${esc(statsLine(d))}</div></div>`
    ).join("\n");
    return `<h3>${esc(label)} against ${esc(c.baseline)}</h3><div class="kpis">${panels}</div>`;
  });
  return `${single}${sections.join("\n")}`;
}

/** Cost against pass rate with the efficient frontier; a note when no point is priced and scored. */
function paretoChart(c: VersionComparison, document: Document, width: number): Element | string {
  const theme = DEFAULT_THEME;
  const pts = c.points.flatMap((p) => {
    const m = p.record.metrics;
    return m.overallCostUsd === null || m.passRate === null ? [] : [{
      label: p.label + (p.isBaseline ? " (baseline)" : ""),
      cost: m.overallCostUsd,
      pass: m.passRate,
      duration: m.avgDurationMs ?? 0,
      frontier: c.frontier.includes(p.label),
    }];
  });
  if (pts.length === 0) {
    return `<p class="viz-note">No priced and scored point: the model has no pricing or usage was not reported.</p>`;
  }
  const front = pts.filter((p) => p.frontier).sort((a, b) => a.cost - b.cost);
  return Plot.plot({
    document,
    width,
    height: 320,
    marginRight: 120,
    x: { label: "agent cost per case (USD) →", grid: true, zero: true },
    y: passRateAxis(),
    r: { range: [4, 14], label: "duration (ms)" },
    marks: [
      Plot.line(front, {
        x: "cost",
        y: "pass",
        stroke: theme.good,
        strokeWidth: 2,
        curve: "step-after",
      }),
      Plot.dot(pts, {
        x: "cost",
        y: "pass",
        r: "duration",
        fill: (d: (typeof pts)[number]) => d.frontier ? theme.palette[0] : theme.muted,
        stroke: "white",
        title: (d: (typeof pts)[number]) => `${d.label}: ${Math.round(d.duration)} ms per case`,
      }),
      // Neighbouring points (by cost) get their labels on staggered lines.
      ...[0, 1, 2].map((line) =>
        Plot.text([...pts].sort((a, b) => a.cost - b.cost).filter((_, i) => i % 3 === line), {
          x: "cost",
          y: "pass",
          text: "label",
          dx: 12,
          dy: 14 * line,
          textAnchor: "start",
          fontSize: 10,
        })
      ),
    ],
  }) as unknown as Element;
}

/** The per-case matrix: pass rates (`rate`) or the change against the baseline (`diff`). */
function caseMatrix(
  c: VersionComparison,
  document: Document,
  width: number,
  mode: "rate" | "diff",
): Element {
  const labels = c.points.map((p) => p.label);
  const cases = c.matrix.map((r) => r.caseId);
  const cells = c.matrix.flatMap((r) =>
    labels.map((l) => ({ caseId: r.caseId, label: l, rate: r.rates[l], diff: r.diffs[l] }))
  );
  return Plot.plot({
    document,
    width,
    marginLeft: 170,
    marginBottom: 30,
    height: 60 + 22 * cases.length,
    padding: 0.05,
    x: { label: null, domain: labels, axis: "top" },
    y: { label: null, domain: cases },
    color: mode === "rate"
      ? { type: "linear", scheme: "RdYlGn", domain: [0, 1] }
      : { type: "diverging", scheme: "RdYlGn", domain: [-1, 1], pivot: 0 },
    marks: [
      Plot.cell(cells.filter((d) => (mode === "rate" ? d.rate : d.diff) === null), {
        x: "label",
        y: "caseId",
        fill: "#eee",
      }),
      Plot.cell(cells.filter((d) => (mode === "rate" ? d.rate : d.diff) !== null), {
        x: "label",
        y: "caseId",
        fill: mode === "rate" ? "rate" : "diff",
        fillOpacity: 0.6,
      }),
      Plot.text(cells, {
        x: "label",
        y: "caseId",
        fontSize: 10,
        text: (d: (typeof cells)[number]) => {
          const v = mode === "rate" ? d.rate : d.diff;
          return v === null
            ? "–"
            : mode === "rate"
            ? `${Math.round(v * 100)}%`
            : v === 0
            ? "0"
            : `${v > 0 ? "+" : "−"}${Math.round(Math.abs(v) * 100)}`;
        },
      }),
    ],
  }) as unknown as Element;
}

/** One strip per metric: each repetition's mean, or "identical every repetition" as one tick. */
function stripFigures(c: VersionComparison, document: Document, width: number, fig: Fig): string[] {
  const theme = DEFAULT_THEME;
  const metrics = [...new Set(c.strips.map((s) => s.metric))];
  return metrics.map((metric) => {
    const ss = c.strips.filter((s) => s.metric === metric);
    const dots = ss.filter((s) => !s.identical).flatMap((s) =>
      s.values.map((v) => ({ label: s.label, ...v }))
    );
    const same = ss.filter((s) => s.identical).map((s) => ({
      label: s.label,
      value: s.values[0].value,
    }));
    const unit = ss[0].unit;
    const all = ss.flatMap((s) => s.values.map((v) => v.value));
    const mid = (Math.min(...all) + Math.max(...all)) / 2;
    // Beside the tick, on the side with room.
    const identical = (side: "start" | "end") =>
      Plot.text(same, {
        x: "value",
        y: "label",
        text: () => "identical every repetition",
        textAnchor: side,
        dx: side === "start" ? 6 : -6,
        fontSize: 10,
        fill: "#555",
        filter: (d: (typeof same)[number]) => side === "start" ? d.value <= mid : d.value > mid,
      });
    const el = Plot.plot({
      document,
      width,
      height: 40 + 34 * ss.length,
      marginLeft: 90,
      marginRight: 20,
      x: {
        label: `${metric} per case (${unit}), mean over cases of each repetition →`,
        grid: true,
      },
      y: { label: null, domain: ss.map((s) => s.label) },
      marks: [
        Plot.dot(dots, {
          x: "value",
          y: "label",
          r: 4,
          fill: theme.palette[0],
          title: (d: (typeof dots)[number]) => `repetition ${d.repetition + 1}: ${d.value}`,
        }),
        Plot.tickX(same, { x: "value", y: "label", stroke: theme.ink }),
        identical("start"),
        identical("end"),
      ],
    }) as unknown as Element;
    return fig(`strip-${metric.replace(/ /g, "-")}`, `Per repetition: ${metric}`, "half", el);
  });
}

/** Error and iteration-limit rates per version, with the comparison's CSV for the export button. */
function reliabilityTable(c: VersionComparison, csv: string): string {
  const pc = (v: number | null) => v === null ? "–" : `${(v * 100).toFixed(1)}%`;
  return `<div class="table-wrap"><table><thead><tr><th>version</th><th>run</th><th>cases</th><th>error rate</th><th>iteration-limit rate</th><th>iteration budget use</th></tr></thead><tbody>${
    c.points.map((p) => {
      const m = p.record.metrics;
      return `<tr><td>${esc(p.label)}${p.isBaseline ? " (baseline)" : ""}</td><td>${
        esc(p.record.runId)
      }</td><td class="num">${p.record.cases.length}</td><td class="num">${
        pc(m.errorRate)
      }</td><td class="num">${pc(m.iterationLimitRate)}</td><td class="num">${
        pc(m.iterationBudgetUse)
      }</td></tr>`;
    }).join("")
  }</tbody></table></div><script type="text/csv" class="csv-data">${
    csv.replace(/<\//g, "<\\/")
  }</script>`;
}
