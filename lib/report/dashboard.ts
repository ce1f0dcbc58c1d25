/**
 * The self-contained bench dashboard (`results/dashboard.html`): tables from
 * arquero and inline SVG charts from Observable Plot, nothing fetched at view
 * time.
 *
 * @module
 */
import { percentColumn } from "./_percent.ts";
import { crossingPhrase, crossoverPhrase, leftOutSizesNote } from "./wording.ts";
import { DEFAULT_SUBSET_SIZES } from "../modes/scaling.ts";
import { esc, htmlPage } from "./_html.ts";
import { htmlTable } from "./_table.ts";
import { renderCostLayers } from "./cost_layers_view.ts";

export { htmlTable };
export type { HtmlTableOptions } from "./_table.ts";
import { parseHTML } from "linkedom";
import type { BenchReport } from "./bench_report.ts";
import type { LiveBlock } from "../live/live_block.ts";
import { barChart, frontierChart, intervalChart, savingsBySizeChart } from "./figures.ts";
import { NAME_HIT_WARNING_THRESHOLD } from "../retrieval/audit.ts";

const int = (v: number) => v.toLocaleString("en-US");

/** A headless document for Plot (linkedom). */
export function headlessDocument(): Document {
  return parseHTML("<!doctype html><html><head></head><body></body></html>")
    .document as unknown as Document;
}

/**
 * Renders the dashboard for a bench report.
 *
 * Sections: corpora, exposure modes (table), savings against catalog size
 * (chart per corpus and tokenizer), heaviest tools and servers, and, when
 * present, encoding arms and retrieval quality. Deterministic apart from the
 * `run` block it echoes.
 *
 * @param report The bench report.
 * @param document Document to draw charts into. @default a linkedom document
 * @returns A complete HTML page (UTF-8 text).
 */
export function renderDashboard(
  report: BenchReport,
  document: Document = headlessDocument(),
): string {
  return renumberPlotIds(page(report, renderBenchSections(report, document)));
}

/**
 * The sections of {@linkcode renderDashboard} without the page around them (`<h2>` headings,
 * tables, inline SVG), for pages that embed the bench report, such as the comparison
 * dashboard. Plot ids are not renumbered: renumber the whole page once.
 *
 * @param report The bench report.
 * @param document Document to draw charts into.
 * @returns HTML fragment (UTF-8 text).
 */
export function renderBenchSections(report: BenchReport, document: Document): string {
  const parts: string[] = [];
  const h2 = (t: string) => parts.push(`<h2>${esc(t)}</h2>`);
  const firstTok = report.tokenizers[0];

  // What the user pays comes first: the billed figure of a request carrying the catalog.
  if (report.costLayers) parts.push(renderCostLayers(report.costLayers, document));

  h2("Corpora");
  parts.push(htmlTable(
    report.corpora.map((c) => ({
      corpus: c.id,
      format: c.format,
      servers: c.serverCount,
      tools: c.toolCount,
      "with schema": c.schemaCount,
      "degenerate descriptions": c.degenerateCount,
      sha256: c.sha256.slice(0, 12),
    })),
  ));
  parts.push(
    `<p class="note">Degenerate description rules: ${
      report.degenerateRules.map((r) => `<code>${esc(r.id)}</code>: ${esc(r.description)}`).join(
        "; ",
      )
    }</p>`,
  );
  if (report.overrides) {
    const o = report.overrides;
    parts.push(
      `<p class="note">Tool-description overrides <code>${esc(o.path)}</code> (sha256 ${
        esc(o.sha256.slice(0, 12))
      }) rewrote ${o.applied} of its ${o.keys} tools before anything below was measured: ${
        o.tools.map((t) => `<code>${esc(t)}</code>`).join(", ") || "none"
      }${o.problems.length > 0 ? `; ${o.problems.length} named nothing (see Warnings)` : ""}.</p>`,
    );
  }

  h2("Context tokens by exposure mode");
  // Both savings columns with one number of decimals: the most any of their values needs.
  const savings = percentColumn(
    report.modes.flatMap((m) => [m.savingsNameDescription, m.savingsWithSchemas]),
  ) as (v: never) => string;
  parts.push(htmlTable(
    report.modes.map((m) => ({
      corpus: m.corpusId,
      tokenizer: m.tokenizer,
      mode: m.mode,
      tools: m.toolCount,
      "tokens (name+description)": m.tokensNameDescription,
      "tokens (with schemas)": m.tokensWithSchemas,
      "savings (name+description)": m.savingsNameDescription,
      "savings (with schemas)": m.savingsWithSchemas,
      authoritative: m.withSchemasAuthoritative ? "with schemas" : "name+description",
    })),
    {
      "tokens (name+description)": int,
      "tokens (with schemas)": int,
      "savings (name+description)": savings,
      "savings (with schemas)": savings,
    },
  ));
  parts.push(
    `<p class="note">Token counts are measured; savings = 1 − mode ÷ direct are computed (a negative saving: the mode costs that much more than direct). ${
      esc(report.caveats.tokenizer)
    }</p>`,
  );

  if ((report.deferredModes ?? []).length > 0) renderDeferred(report, parts);

  h2("Savings against catalog size");
  parts.push(htmlTable(
    report.crossovers.map((c) => ({
      corpus: c.corpusId,
      tokenizer: c.tokenizer,
      mode: c.mode,
      "costs less than direct (sampled catalog sizes, computed)": crossoverPhrase(
        c,
        report.scaling,
      ),
      "break-even, tools (estimated from average tokens per tool)": c.estimatedSize ?? "n/a",
    })),
  ));
  parts.push(
    `<p class="note">Sampled sizes are seeded draws of whole servers; a mode that pays off at the smallest sampled size may break even below it, and the estimate (mode tokens ÷ average tokens per tool, rounded up) says where an average tool mix would.</p>`,
  );
  for (const corpus of report.corpora) {
    const rows = report.scaling.filter((r) => r.corpusId === corpus.id && r.tokenizer === firstTok);
    if (rows.length === 0) continue;
    const note = leftOutSizesNote(corpus.id, corpus.toolCount, rows, DEFAULT_SUBSET_SIZES);
    if (note !== null) parts.push(`<p class="note">${esc(note)}.</p>`);
    // The whole corpus alone is one size: nothing to chart against size.
    if (rows.length < 2) continue;
    parts.push(
      savingsBySizeChart(rows, {
        document,
        title: `${corpus.id} (${firstTok}): tokens against catalog size`,
      })
        .outerHTML,
    );
  }

  h2("Heaviest tools and servers");
  for (const h of report.heaviest.filter((x) => x.tokenizer === firstTok)) {
    parts.push(
      barChart(h.tools.map((t) => ({ label: t.id, value: t.tokens })), {
        document,
        title: `${h.corpusId}: 10 heaviest tools (${h.tokenizer} tokens, with schema)`,
        valueLabel: "tokens",
      }).outerHTML,
    );
    parts.push(
      barChart(
        h.servers.map((s) => ({ label: `${s.id} (${s.toolCount} tools)`, value: s.tokens })),
        {
          document,
          title: `${h.corpusId}: 10 heaviest servers (${h.tokenizer} tokens, with schemas)`,
          valueLabel: "tokens",
        },
      ).outerHTML,
    );
  }

  if (report.arms && report.arms.length > 0) renderArms(report, document, parts);
  if (report.retrieval && report.retrieval.length > 0) renderRetrieval(report, document, parts);
  renderFrontier(report, document, parts);
  if (report.toolResults) {
    h2("Tool results: compact JSON against TOON");
    type ClassRow = {
      tokenizer: string;
      class: string;
      payloads: number;
      jsonTokens: number;
      toonTokens: number;
      savings: number | null;
    };
    parts.push(htmlTable(
      (report.toolResults.summary as ClassRow[]).map((r) => ({
        tokenizer: r.tokenizer,
        payloads: r.class.replace("_", "-"),
        count: r.payloads,
        "compact JSON tokens": r.jsonTokens,
        "TOON tokens": r.toonTokens,
        "TOON savings": r.savings === null ? "n/a" : `${(100 * r.savings).toFixed(1)}%`,
      })),
    ));
    parts.push(
      `<p class="note">Real <code>tools/call</code> results of the reference servers, from the fixture ${
        esc(String(report.toolResults.path ?? report.toolResults.resultsId))
      } (the same fixture whatever corpus is benched: <code>--tool-results FILE</code> prices your own); tabular = a top-level array of objects with the same keys and plain values.</p>`,
    );
  }

  if (report.live) renderLive(report.live, document, parts);

  if (report.warnings.length > 0) {
    h2("Warnings");
    parts.push(`<ul>${report.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>`);
  }
  return parts.join("\n");
}

/**
 * Renumbers Plot's generated element ids (`plot-marker-17`, `plot-clip-3`, ...)
 * in order of first appearance. Plot draws them from a process-wide counter,
 * so without this the same report would give different bytes on a second
 * render in the same process.
 *
 * @param html Markup containing Plot output.
 * @returns The same markup with ids `plot-<kind>-1`, `plot-<kind>-2`, ... per kind.
 */
export function renumberPlotIds(html: string): string {
  const seen = new Map<string, string>();
  const perKind = new Map<string, number>();
  return html.replace(/\bplot-([a-z]+)-(\d+)\b/g, (match, kind: string) => {
    let id = seen.get(match);
    if (id === undefined) {
      const n = (perKind.get(kind) ?? 0) + 1;
      perKind.set(kind, n);
      id = `plot-${kind}-${n}`;
      seen.set(match, id);
    }
    return id;
  });
}

function renderArms(report: BenchReport, document: Document, parts: string[]): void {
  const arms = report.arms ?? [];
  parts.push("<h2>Encoding arms</h2>");
  const armSavings = percentColumn(arms.map((a) => a.skipped ? undefined : a.savings));
  parts.push(htmlTable(
    arms.map((a) => {
      const m = a.skipped ? undefined : a;
      return {
        corpus: a.corpusId,
        arm: a.arm,
        tokenizer: m?.tokenizer ?? "",
        "total tokens": m?.totalTokens ?? "skipped",
        "mean / tool": m?.meanTokens ?? "",
        "p95 / tool": m?.p95Tokens ?? "",
        "savings vs baseline_json": typeof m?.savings === "number"
          ? armSavings(m.savings)
          : (a.skipped ? a.reason : ""),
        "skipped tools": m?.skippedTools.count ?? "",
        "altered tools": m?.alteredTools?.count ?? "",
      };
    }),
    { "mean / tool": (v: never) => (typeof v === "number" ? (v as number).toFixed(1) : String(v)) },
  ));
  const firstTok = report.tokenizers[0];
  for (const corpus of report.corpora) {
    const data = arms.flatMap((a) =>
      !a.skipped && a.corpusId === corpus.id && a.tokenizer === firstTok &&
        typeof a.savings === "number"
        ? [{ label: a.arm, value: Math.round(100 * a.savings * 10) / 10 }]
        : []
    );
    if (data.length === 0) continue;
    parts.push(
      barChart(data, {
        document,
        title: `${corpus.id}: savings by encoding arm vs baseline_json (% of ${firstTok} tokens)`,
        valueLabel: "savings %",
      }).outerHTML,
    );
    if (data.some((d) => d.value < 0)) {
      parts.push(
        `<p class="note">A red bar is an arm that costs more ${firstTok} tokens than baseline_json: a saving of −10% is 10% more tokens.</p>`,
      );
    }
  }
}

/** A retriever's name as the tables show it: an emulated hosted search says so. */
function retrieverLabel(r: { readonly retriever: string; readonly hosted?: { kind: string } }) {
  return r.hosted === undefined ? r.retriever : `${r.retriever} (${r.hosted.kind})`;
}

/** Each hosted-search row's provenance: what it stands for and what differs from it. */
function renderHostedNotes(report: BenchReport, parts: string[]): void {
  const seen = new Set<string>();
  for (const r of report.retrieval ?? []) {
    if (r.hosted === undefined || seen.has(r.retriever)) continue;
    seen.add(r.retriever);
    const h = r.hosted;
    parts.push(
      `<p class="note"><b>${esc(r.retriever)}</b> is ${
        h.kind === "emulated" ? "an emulation of" : "what the API returned for"
      } ${esc(h.provider)}'s <code>${esc(h.tool)}</code> (${
        h.maxResults === null
          ? "results per search not documented"
          : `${h.maxResults} results at most`
      }; <a href="${esc(h.source)}">documented behaviour</a>)${
        h.kind === "emulated" ? ". What differs from the hosted search:" : ":"
      }</p><ul class="note">${h.differences.map((d) => `<li>${esc(d)}</li>`).join("")}</ul>`,
    );
  }
}

/** `1 search`, `3 searches`. */
function searchesLabel(n: number): string {
  return n === 1 ? "1 search" : `${n} searches`;
}

/**
 * The deferred modes (provider tool search, a deferring client) in their provider's sent form:
 * session start, tokens per search, break-even against direct and the reference proxy, session
 * estimates, crossovers, what is not counted, and the start against catalog size.
 */
function renderDeferred(report: BenchReport, parts: string[]): void {
  const rows = report.deferredModes ?? [];
  const tok = report.tokenizers.includes("o200k_base") ? "o200k_base" : report.tokenizers[0];
  const shown = rows.filter((r) => r.tokenizer === tok);
  const round = (v: never) => Math.round(v as number).toLocaleString("en-US");
  parts.push("<h2>Deferred tools: provider tool search and deferring clients</h2>");
  parts.push(htmlTable(
    shown.map((r) => ({
      corpus: r.corpusId,
      mode: `${r.mode} (${r.variant})`,
      format: r.format,
      "session start": r.startTokens,
      "per search": r.searchTokens,
      direct: r.directTokens,
      "vs direct": crossingPhrase(r.breakEvenVsDirect),
      "proxy start": r.proxyStartTokens,
      "proxy per search": r.proxySearchTokens,
      "vs proxy": crossingPhrase(r.breakEvenVsProxy),
      ...Object.fromEntries(r.sessions.map((s) => [searchesLabel(s.searches), s.tokens])),
    })),
    {
      "session start": round,
      "per search": round,
      direct: round,
      "proxy start": round,
      "proxy per search": round,
      ...Object.fromEntries(
        (shown[0]?.sessions ?? []).map((s) => [searchesLabel(s.searches), round]),
      ),
    },
  ));
  parts.push(
    `<p class="note">${
      esc(tok)
    } tokens of what each provider is sent (the tools value its requests carry): ` +
      `session start and the direct and proxy figures are measured; a search's tokens are the mean over the corpus's tools taken ${
        shown[0]?.resultsPerSearch ?? 5
      } at a time (computed); break-even is where the session costs cross (computed); sessions are estimates. ` +
      `The context model is the one of the live break-even: what a session holds, each part counted once.</p>`,
  );
  parts.push(htmlTable(
    shown.map((r) => ({
      corpus: r.corpusId,
      mode: `${r.mode} (${r.variant})`,
      ...Object.fromEntries(
        r.crossovers.map((c) => [
          `cheaper than direct from (tools), ${searchesLabel(c.searches)}`,
          `${c.measuredSize ?? "n/a"} sampled · ${c.estimatedSize ?? "n/a"} est.`,
        ]),
      ),
    })),
  ));
  const seen = new Set<string>();
  for (const r of shown) {
    if (seen.has(`${r.mode}/${r.variant}`)) continue;
    seen.add(`${r.mode}/${r.variant}`);
    parts.push(
      `<p class="note"><b>${esc(`${r.mode} (${r.variant})`)}</b> as <a href="${
        esc(r.source)
      }">documented</a>; not counted: ${esc(r.notCounted.join("; "))}.</p>`,
    );
  }
  for (const corpus of report.corpora) {
    const scaled = (report.deferredScaling ?? []).filter((r) =>
      r.corpusId === corpus.id && r.tokenizer === tok
    );
    if (scaled.length === 0) continue;
    const sizes = [...new Set(scaled.map((r) => r.targetSize))];
    const note = leftOutSizesNote(corpus.id, corpus.toolCount, scaled, DEFAULT_SUBSET_SIZES);
    if (note !== null) parts.push(`<p class="note">${esc(note)}.</p>`);
    parts.push(htmlTable(
      sizes.map((size) => {
        const at = scaled.filter((r) => r.targetSize === size);
        return {
          tools: at[0].full ? `${size} (all)` : size,
          "direct (anthropic)": Math.round(
            at.find((r) => r.mode === "anthropic_search")?.directTokens ?? 0,
          ),
          ...Object.fromEntries(
            at.map((r) => [
              `${r.mode} (${r.variant}) start · break-even`,
              `${Math.round(r.startTokens).toLocaleString("en-US")} · ${
                r.breakEvenVsDirect === null ? "n/a" : r.breakEvenVsDirect.toFixed(1)
              }`,
            ]),
          ),
        };
      }),
    ));
  }
}

function renderRetrieval(report: BenchReport, document: Document, parts: string[]): void {
  const rows = report.retrieval ?? [];
  parts.push("<h2>Discovery quality</h2>");
  const f3 = (v: never) => (v as number).toFixed(3);
  renderGoldenAudit(report, parts);
  renderSideBySide(report, parts);
  // One corpus (the usual case): named once above the table, not on every row.
  const corpora = [...new Set(rows.map((r) => r.corpusId))];
  if (corpora.length === 1) parts.push(`<p class="note">Corpus: ${esc(corpora[0])}.</p>`);
  parts.push(htmlTable(
    rows.map((r) => ({
      ...(corpora.length === 1 ? {} : { corpus: r.corpusId }),
      golden: r.goldenSetId,
      retriever: retrieverLabel(r),
      arm: r.arm ?? "(own fields)",
      queries: r.queryCount,
      ...r.metrics,
    })),
    Object.fromEntries(Object.keys(rows[0].metrics).map((k) => [k, f3])),
  ));
  renderHostedNotes(report, parts);
  for (const golden of [...new Set(rows.map((r) => r.goldenSetId))]) {
    const data = rows.filter((r) => r.goldenSetId === golden).flatMap((r) =>
      (["recall@5", "mrr@10", "ndcg@10"] as const).filter((m) => m in r.metrics).map((m) => ({
        label: r.arm === "baseline_json" || !r.arm
          ? retrieverLabel(r)
          : `${retrieverLabel(r)} / ${r.arm}`,
        series: m,
        value: r.metrics[m],
        lo: r.ci95[m]?.[0] ?? r.metrics[m],
        hi: r.ci95[m]?.[1] ?? r.metrics[m],
      }))
    );
    parts.push(
      intervalChart(data, {
        document,
        title: `${golden}: retrieval quality with bootstrap 95% intervals`,
        valueLabel: "score",
      }).outerHTML,
    );
  }
}

function renderSideBySide(report: BenchReport, parts: string[]): void {
  const rows = (report.retrieval ?? []).filter((r) => r.arm === null);
  const sets = [...new Set(rows.map((r) => r.goldenSetId))];
  if (sets.length < 2 && !(report.retrievalComparisons ?? []).length) return;
  const easy = new Set((report.goldenSets ?? []).filter((a) => a.easy).map((a) => a.goldenSetId));
  const cmp = report.retrievalComparisons ?? [];
  const cell = (set: string, retriever: string) => {
    const r = rows.find((x) => x.goldenSetId === set && x.retriever === retriever);
    if (!r) return "";
    const [lo, hi] = r.ci95["ndcg@10"];
    const c = cmp.find((x) =>
      x.goldenSetId === set && x.retriever === retriever && x.metric === "ndcg@10"
    );
    const vs = c
      ? ` Δ vs ${c.baseline} ${c.meanDiff >= 0 ? "+" : ""}${c.meanDiff.toFixed(3)} (p ${
        c.pValue < 0.001 ? "< 0.001" : c.pValue.toFixed(3)
      })`
      : "";
    return `${r.metrics["ndcg@10"].toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]${vs}`;
  };
  parts.push(
    `<p class="note">nDCG@10 with its bootstrap 95% interval per golden set, and the paired ` +
      `randomization test of each retriever against bm25 on the same queries.</p>`,
  );
  parts.push(htmlTable(
    [...new Set(rows.map((r) => r.retriever))].map((retriever) => ({
      retriever: retrieverLabel(rows.find((r) => r.retriever === retriever)!),
      ...Object.fromEntries(
        sets.map((set) => [`${set}${easy.has(set) ? " (easy set)" : ""}`, cell(set, retriever)]),
      ),
    })),
  ));
}

function renderFrontier(report: BenchReport, document: Document, parts: string[]): void {
  const rows = report.frontier ?? [];
  if (rows.length === 0) return;
  parts.push("<h2>Cost–quality frontier</h2>");
  parts.push(
    `<p class="note">For k = 1…${rows[0].points.length}: the ${
      esc(rows[0].tokenizer)
    } tokens of a <code>retrieve_tools</code> response with k results (the reference proxy's ` +
      `${esc(rows[0].detail)} response text; estimated additively, checked exactly at k = ${
        rows[0].check.k
      }: mean relative error ${
        (Math.max(...rows.map((r) => r.check.meanRelativeError)) * 100).toFixed(2)
      }% at most) against recall@k. Pick k and the retriever where the curve flattens.</p>`,
  );
  for (const set of [...new Set(rows.map((r) => r.goldenSetId))]) {
    parts.push(
      frontierChart(rows.filter((r) => r.goldenSetId === set), {
        document,
        title: `${set}: recall@k against response tokens, k = 1…20`,
      }).outerHTML,
    );
  }
  const unreachable = report.unreachable ?? [];
  if (unreachable.length > 0) {
    parts.push("<h2>Unreachable tools</h2>");
    parts.push(
      `<p class="note"><b>never retrieved</b>: tools no query of the set put in any scored ` +
        `retriever's top 10 (baselines aside); <b>isolated vocabulary</b>: tools whose name and ` +
        `description share no content word with any other tool's description, a hint that ` +
        `their description says too little.</p>`,
    );
    parts.push(htmlTable(unreachable.map((u) => ({
      golden: u.goldenSetId,
      corpus: u.corpusId,
      tools: u.toolCount,
      "never retrieved": u.neverRetrieved.length,
      "isolated vocabulary": u.isolatedVocabulary.length,
      "isolated (first 15)": u.isolatedVocabulary.slice(0, 15).join(", "),
    }))));
  }
}

function renderGoldenAudit(report: BenchReport, parts: string[]): void {
  const audits = report.goldenSets ?? [];
  if (audits.length === 0) return;
  parts.push(
    `<p class="note">Golden-set audit: <b>name hit rate</b> is the share of queries that share a ` +
      `content word with their best tool's name; <b>lexical overlap</b> the mean share of a ` +
      `query's content words found in that tool's name and description. A set above ` +
      `${NAME_HIT_WARNING_THRESHOLD} name hit rate was written from tool names: its figures ` +
      `overstate what users will see.</p>`,
  );
  for (const a of audits.filter((a) => a.easy)) {
    parts.push(
      `<p class="warning">⚠ ${esc(a.goldenSetId)}: ${
        (a.nameHitRate * 100).toFixed(1)
      }% of its queries share a word with the best tool's name; read its retrieval figures ` +
        `as an easy set's.</p>`,
    );
  }
  const pct = (key: "nameHitRate" | "lexicalOverlap" | "sharedNameRate") =>
    percentColumn(audits.map((a) => a[key])) as (v: never) => string;
  parts.push(htmlTable(
    audits.map((a) => ({
      golden: a.goldenSetId,
      corpus: a.corpusId,
      queries: a.queryCount,
      "name hit rate": a.nameHitRate,
      "lexical overlap": a.lexicalOverlap,
      "shared best name": a.sharedNameRate,
      servers: a.serverCount,
      "labels 2/1/0": `${a.grades["2"]}/${a.grades["1"]}/${a.grades["0"]}`,
      verdict: a.easy ? "easy set" : "",
    })),
    {
      "name hit rate": pct("nameHitRate"),
      "lexical overlap": pct("lexicalOverlap"),
      "shared best name": pct("sharedNameRate"),
    },
  ));
}

function renderLive(live: LiveBlock, document: Document, parts: string[]): void {
  parts.push("<h2>Live discovery over MCP</h2>");
  const q = live.queries;
  parts.push(
    `<p class="note">${
      esc(live.target.kind ?? "")
    } target; ${q.used} of ${q.total} golden queries used${
      q.skipped.count > 0
        ? ` (${q.skipped.count} left out: their relevance-2 tool is not in the live catalog)`
        : ""
    }, ${q.failed} failed; ${
      esc(live.tokenizer)
    } tokens; latency measured client-side per call, percentiles nearest-rank.</p>`,
  );
  if (q.failed > 0) {
    parts.push(`<p class="note">Failed calls (first 5 of ${q.failures.length}):</p>`);
    parts.push(htmlTable(
      q.failures.slice(0, 5).map((f) => ({
        query: f.queryId,
        detail: f.detail,
        outcome: f.outcome,
        cause: f.message,
      })),
    ));
  }
  const rc = live.responseCost;
  const lat = live.latencyMs;
  const be = live.breakEven as Record<string, unknown>;
  parts.push(htmlTable([{
    "response tokens p50": rc.p50 ?? "",
    "p95": rc.p95 ?? "",
    "max": rc.max ?? "",
    "mean": rc.mean === null ? "" : Math.round(rc.mean),
    "latency p50 ms": lat?.p50 ?? "",
    "p95 ms": lat?.p95 ?? "",
    "p99 ms": lat?.p99 ?? "",
    "break-even calls": be.withheld
      ? `withheld: ${be.reason}`
      : be.noBreakEven
      ? "no break-even"
      : typeof be.calls === "number"
      ? be.calls.toFixed(1)
      : "",
  }]));
  parts.push(
    barChart(
      Object.entries(rc.components).map(([label, value]) => ({ label, value: value as number })),
      {
        document,
        title: "Where discovery response tokens go (sum over queries)",
        valueLabel: "tokens",
      },
    ).outerHTML,
  );
  parts.push(htmlTable(
    live.session.map((r) => ({
      encoding: r.encoding,
      calls: r.calls,
      "proxy menu": r.proxyMenuTokens,
      "mean response": Math.round(r.meanResponseTokens),
      "retry rate (assumed)": r.retryRate,
      "session tokens (estimated)": Math.round(r.tokens),
      "direct menu": r.directMenuTokens ?? "",
    })),
  ));
  const fg = live.flipGate as Record<string, unknown>;
  if (!("skipped" in fg)) {
    const lossy = fg.lossy as { rate: number | null; lossyCount: number; signatureCount: number };
    parts.push(
      `<p class="note">Flip gate (detail=full vs compact): ranked ids identical on ${fg.identicalCount} of ${fg.queryCount} queries; median response-token reduction ${
        typeof fg.medianReduction === "number" ? `${(fg.medianReduction * 100).toFixed(1)}%` : "n/a"
      }; lossy signatures ${lossy.lossyCount} of ${lossy.signatureCount}.</p>`,
    );
  }
}

function page(report: BenchReport, body: string): string {
  return htmlPage({
    generatedBy: report.task,
    title: "mcpmeter bench",
    css:
      `body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1240px; padding: 0 1rem; color: #222; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
figure svg { max-width: 100%; height: auto; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; }
th { background: #f4f4f4; }
.note { color: #555; font-size: 13px; }
.warning { background: #fff4e5; border-left: 4px solid #e8a33d; padding: 4px 8px; }
figure { margin: 1rem 0; }
code { background: #f4f4f4; padding: 0 3px; }
ul.headline { font-size: 16px; padding-left: 1.2rem; }
ul.headline li { margin: 0.3rem 0; }
ul.headline strong { font-size: 20px; }`,
    // The run's metadata closes the page: the first number a reader meets is the bill.
    body: `${body}
<p class="note">Report schema v${report.schemaVersion}; seed ${report.seed}; tokenizers ${
      esc(report.tokenizers.join(", "))
    }; created ${esc(report.run.createdAt)}${
      report.run.git.commit
        ? ` at commit ${esc(report.run.git.commit.slice(0, 12))}${
          report.run.git.dirty ? " (dirty)" : ""
        }`
        : ""
    }.</p>`,
  });
}
