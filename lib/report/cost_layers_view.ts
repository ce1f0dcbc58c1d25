/**
 * The cost layers (`report.json`'s `costLayers`, lib/billing) as a reader meets them: first what a
 * request carrying the whole catalog is billed, per provider (the provider's count where one was
 * asked for, else the estimate with its interval, each with its provenance), then the layers side
 * by side (as received, as sent, as billed) for the catalog and its heaviest servers, and where
 * the tokens go (each field's share of the text). Pure: report rows in, table rows, Plot elements
 * and HTML out; the bench dashboard and notebook 01 both draw from here.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { BILLING_FORMAT, BILLING_PROVIDERS, type BillingProvider } from "../billing/estimate.ts";
import { FIELD_NAMES, type FieldName } from "../billing/fields.ts";
import { billedHeadline, type CostLayerRow } from "../billing/layers.ts";
import type { SentFormat } from "../catalog/sent.ts";
import type { CostLayersBlock } from "./bench_report.ts";
import { chartFrame, type ChartOptions, labelMargin } from "./figures.ts";
import { esc } from "./_html.ts";
import { htmlTable } from "./_table.ts";

const int = (v: number) => v.toLocaleString("en-US");

/** Providers' names as the page writes them. */
export const PROVIDER_LABEL: Readonly<Record<BillingProvider, string>> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Gemini",
};

/** Request formats' names as the page writes them. */
export const FORMAT_LABEL: Readonly<Record<SentFormat, string>> = {
  "anthropic-messages": "Anthropic Messages",
  "openai-chat-completions": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  gemini: "Gemini",
};

/**
 * A billed figure in words: `912,438 [833,925–1,013,001] estimated`, `18,406 measured`, or
 * `not measured: why`.
 *
 * @param row A `billed` row.
 * @returns The text.
 */
export function billedText(row: CostLayerRow): string {
  if (row.provenance === null || row.tokens === null) {
    return `not measured${row.reason ? `: ${row.reason}` : ""}`;
  }
  if (row.provenance === "measured") {
    return `${int(row.tokens)} measured${row.model ? ` (${row.model})` : ""}`;
  }
  return `${int(row.tokens)} [${int(row.low ?? row.tokens)}–${
    int(row.high ?? row.tokens)
  }] estimated`;
}

/** One corpus and provider: what a request carrying the whole catalog is billed, and the layers under it. */
export interface BilledHeadline {
  /** Corpus. */
  readonly corpusId: string;
  /** Provider. */
  readonly provider: BillingProvider;
  /** The billed row shown first: the provider's count where one measured, else the estimate. */
  readonly billed: CostLayerRow;
  /** The other billed rows of the catalog (an estimate beside a count, other models, refusals). */
  readonly others: readonly CostLayerRow[];
  /** The catalog's `sent` row in the format the provider is billed in, when counted. */
  readonly sent: CostLayerRow | undefined;
  /** The catalog's `wire` row, when counted. */
  readonly wire: CostLayerRow | undefined;
}

/** The encoding of the `wire` and `sent` figures shown: `o200k_base` when counted, else the first. */
export function shownTokenizer(block: CostLayersBlock): string | null {
  const names = [...new Set(block.rows.flatMap((r) => r.tokenizer === null ? [] : [r.tokenizer]))];
  return names.includes("o200k_base") ? "o200k_base" : names[0] ?? null;
}

const corporaOf = (block: CostLayersBlock) => [...new Set(block.rows.map((r) => r.corpusId))];

/**
 * Per corpus and provider (in report order), the billed headline of a request carrying the whole
 * catalog, with the rows beside it.
 *
 * @param block The report's `costLayers`.
 * @returns One headline per corpus and provider that has a billed row.
 */
export function billedHeadlines(block: CostLayersBlock): BilledHeadline[] {
  const tok = shownTokenizer(block);
  const out: BilledHeadline[] = [];
  for (const corpusId of corporaOf(block)) {
    const top = block.rows.filter((r) => r.corpusId === corpusId && r.server === null);
    for (const provider of BILLING_PROVIDERS) {
      const billedRows = top.filter((r) => r.layer === "billed" && r.provider === provider);
      const billed = billedHeadline(block.rows, corpusId, provider) ?? billedRows[0];
      if (billed === undefined) continue;
      out.push({
        corpusId,
        provider,
        billed,
        others: billedRows.filter((r) => r !== billed),
        sent: top.find((r) =>
          r.layer === "sent" && r.format === BILLING_FORMAT[provider] && r.tokenizer === tok
        ),
        wire: top.find((r) => r.layer === "wire" && r.tokenizer === tok),
      });
    }
  }
  return out;
}

/**
 * The servers of a corpus with the most `wire` tokens (or `sent`, when no wire row), heaviest
 * first, ties by name.
 *
 * @param block The report's `costLayers`.
 * @param corpusId Corpus.
 * @param n How many. @default {5}
 * @returns Server names.
 */
export function heaviestServers(block: CostLayersBlock, corpusId: string, n = 5): string[] {
  const tok = shownTokenizer(block);
  const rows = block.rows.filter((r) =>
    r.corpusId === corpusId && r.server !== null && r.tokenizer === tok
  );
  const layer = rows.some((r) => r.layer === "wire") ? "wire" : "sent";
  const tokens = new Map<string, number>();
  for (const r of rows) {
    if (r.layer !== layer || r.server === null) continue;
    // Sent: the largest format's figure stands for the server.
    tokens.set(r.server, Math.max(tokens.get(r.server) ?? 0, r.tokens ?? 0));
  }
  return [...tokens].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, n).map(([server]) => server);
}

/**
 * The layers side by side for a corpus: one row for the whole catalog, then one per heaviest
 * server; columns `wire`, then per provider its `sent` figure (in the format it is billed in) and
 * its billed figure in words ({@linkcode billedText}), and the Chat Completions `sent` figure.
 * A server's billed figure is its tools' share, without the request's fixed overhead.
 *
 * @param block The report's `costLayers`.
 * @param corpusId Corpus.
 * @param servers How many heaviest servers. @default {5}
 * @returns Table rows (numbers for counts, text for billed figures).
 */
export function layerTable(
  block: CostLayersBlock,
  corpusId: string,
  servers = 5,
): Record<string, string | number>[] {
  const tok = shownTokenizer(block);
  const scopes: (string | null)[] = [null, ...heaviestServers(block, corpusId, servers)];
  return scopes.map((server) => {
    const rows = block.rows.filter((r) => r.corpusId === corpusId && r.server === server);
    const count = (layer: "wire" | "sent", format: SentFormat | null) => {
      const r = rows.find((x) =>
        x.layer === layer && x.format === format && x.tokenizer === tok && x.tokens !== null
      );
      return r?.tokens ?? "";
    };
    const row: Record<string, string | number> = {
      scope: server === null ? "whole catalog" : server,
      wire: count("wire", null),
    };
    for (const provider of BILLING_PROVIDERS) {
      const name = PROVIDER_LABEL[provider];
      row[`${name} sent`] = count("sent", BILLING_FORMAT[provider]);
      const billed = rows.filter((r) => r.layer === "billed" && r.provider === provider);
      const head = billed.find((r) => r.provenance === "measured") ??
        billed.find((r) => r.provenance === "estimated") ?? billed[0];
      row[`${name} billed`] = head === undefined ? "" : billedText(head);
    }
    row["OpenAI Chat Completions sent"] = count("sent", "openai-chat-completions");
    return row;
  });
}

/** One bar of {@linkcode layersChart}. */
export interface LayerBar {
  /** Row label, e.g. `Anthropic billed`. */
  readonly label: string;
  /** The layer: its colour. */
  readonly layer: "wire" | "sent" | "billed";
  /** Tokens. */
  readonly value: number;
  /** Interval of an estimate (else `value`). */
  readonly low: number;
  /** Interval of an estimate (else `value`). */
  readonly high: number;
  /** `measured`, `estimated`. */
  readonly provenance: "measured" | "estimated";
}

/**
 * The bars of a corpus's catalog, layer by layer: wire, then per provider its sent figure and its
 * billed headline (a billed row not measured has no bar).
 *
 * @param block The report's `costLayers`.
 * @param corpusId Corpus.
 * @returns Bars, top to bottom.
 */
export function layerBars(block: CostLayersBlock, corpusId: string): LayerBar[] {
  const out: LayerBar[] = [];
  const bar = (label: string, layer: LayerBar["layer"], r: CostLayerRow | undefined) => {
    if (r === undefined || r.tokens === null || r.provenance === null) return;
    out.push({
      label,
      layer,
      value: r.tokens,
      low: r.low ?? r.tokens,
      high: r.high ?? r.tokens,
      provenance: r.provenance,
    });
  };
  const heads = billedHeadlines(block).filter((h) => h.corpusId === corpusId);
  bar("received (wire)", "wire", heads[0]?.wire);
  for (const h of heads) {
    const name = PROVIDER_LABEL[h.provider];
    bar(`${name} sent`, "sent", h.sent);
    bar(`${name} billed`, "billed", h.billed);
  }
  return out;
}

const LAYER_FILL = { wire: "#8c8c8c", sent: "#4e79a7", billed: "#e15759" } as const;

/**
 * The layers side by side: one horizontal bar per layer (grey: received, blue: sent, red:
 * billed), an estimate drawn lighter with its interval as a black line, each bar labelled with
 * its tokens and provenance.
 *
 * @param bars Bars, top to bottom ({@linkcode layerBars}).
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function layersChart(bars: readonly LayerBar[], options: ChartOptions): Element {
  const frame = chartFrame(options);
  const top = Math.max(1, ...bars.map((b) => b.high));
  const label = (b: LayerBar) =>
    b.provenance === "estimated" ? `${int(b.value)} est.` : int(b.value);
  const estimates = bars.filter((b) => b.provenance === "estimated" && b.high > b.low);
  return Plot.plot({
    ...frame,
    marginLeft: labelMargin(bars.map((b) => b.label), 120),
    marginRight: 20,
    height: 40 + 26 * bars.length,
    // Room right of the longest bar for its label.
    x: { label: "tokens per request carrying the catalog →", grid: true, domain: [0, top * 1.22] },
    y: { label: null, domain: bars.map((b) => b.label) },
    marks: [
      Plot.barX(bars, {
        x: "value",
        y: "label",
        fill: (b: LayerBar) => LAYER_FILL[b.layer],
        fillOpacity: (b: LayerBar) => b.provenance === "estimated" ? 0.55 : 1,
      }),
      Plot.ruleY(estimates, {
        y: "label",
        x1: "low",
        x2: "high",
        stroke: "#222",
        strokeWidth: 1.5,
      }),
      Plot.tickX(estimates, { y: "label", x: "low", stroke: "#222" }),
      Plot.tickX(estimates, { y: "label", x: "high", stroke: "#222" }),
      Plot.text(bars, {
        x: "high",
        y: "label",
        text: label,
        dx: 4,
        textAnchor: "start",
      }),
      Plot.ruleX([0]),
    ],
  }) as unknown as Element;
}

/** One segment of {@linkcode fieldSharesChart}: a field's tokens in one text. */
export interface FieldShare {
  /** The text, e.g. `received (wire)` or `Anthropic Messages`. */
  readonly label: string;
  /** The field. */
  readonly field: FieldName;
  /** Its tokens. */
  readonly tokens: number;
  /** Its share of the text's tokens, in percent. */
  readonly share: number;
}

/**
 * Each field's share of a corpus's catalog texts: as received (wire) and as sent in each format
 * (billed rows apportion their tokens by the shares of their format's sent text, so they add
 * nothing of their own).
 *
 * @param block The report's `costLayers`.
 * @param corpusId Corpus.
 * @returns Segments, text by text, fields in report order (fields with no token left out).
 */
export function fieldShares(block: CostLayersBlock, corpusId: string): FieldShare[] {
  const tok = shownTokenizer(block);
  const texts: { label: string; row: CostLayerRow | undefined }[] = [
    {
      label: "received (wire)",
      row: block.rows.find((r) =>
        r.corpusId === corpusId && r.server === null && r.layer === "wire" && r.tokenizer === tok
      ),
    },
    ...(Object.keys(FORMAT_LABEL) as SentFormat[]).map((format) => ({
      label: `sent: ${FORMAT_LABEL[format]}`,
      row: block.rows.find((r) =>
        r.corpusId === corpusId && r.server === null && r.layer === "sent" &&
        r.format === format && r.tokenizer === tok
      ),
    })),
  ];
  const out: FieldShare[] = [];
  for (const { label, row } of texts) {
    if (row === undefined || !row.tokens) continue;
    for (const field of FIELD_NAMES) {
      const tokens = row.fields[field] ?? 0;
      if (tokens > 0) out.push({ label, field, tokens, share: (100 * tokens) / row.tokens });
    }
  }
  return out;
}

/** A colour per field (Tableau 10 and two greys), fixed so every chart reads alike. */
const FIELD_COLOR: Readonly<Record<FieldName, string>> = {
  name: "#4e79a7",
  title: "#76b7b2",
  description: "#59a14f",
  inputSchema: "#f28e2b",
  outputSchema: "#e15759",
  annotations: "#b07aa1",
  icons: "#edc948",
  _meta: "#9c755f",
  other: "#bab0ac",
  envelope: "#d4d4d4",
};

/**
 * Field shares as stacked bars: one bar per text, 100% wide, a segment per field, a legend.
 *
 * @param shares Segments ({@linkcode fieldShares}).
 * @param options Document, width, title.
 * @returns The Plot element.
 */
export function fieldSharesChart(shares: readonly FieldShare[], options: ChartOptions): Element {
  const labels = [...new Set(shares.map((s) => s.label))];
  const fields = FIELD_NAMES.filter((f) => shares.some((s) => s.field === f));
  return Plot.plot({
    ...chartFrame(options),
    marginLeft: labelMargin(labels, 120),
    marginRight: 20,
    height: 50 + 28 * labels.length,
    x: { label: "share of the text's tokens (%) →", domain: [0, 100], grid: true },
    y: { label: null, domain: labels },
    color: { legend: true, domain: fields, range: fields.map((f) => FIELD_COLOR[f]) },
    marks: [
      Plot.barX(
        shares,
        Plot.stackX({
          x: "share",
          y: "label",
          fill: "field",
          order: fields,
          title: (s: FieldShare) => `${s.field}: ${int(s.tokens)} tokens (${s.share.toFixed(1)}%)`,
        }),
      ),
    ],
  }) as unknown as Element;
}

/**
 * The cost-layers section of the bench dashboard: the billed headline of each corpus and
 * provider first, then per corpus the layers side by side (catalog and heaviest servers, a
 * chart), the field shares, and notes (key order, instructions, count requests, calibration).
 *
 * @param block The report's `costLayers`.
 * @param document Document to draw charts into.
 * @returns HTML fragment (an `<h2>` and what follows).
 */
export function renderCostLayers(block: CostLayersBlock, document: Document): string {
  const tok = shownTokenizer(block) ?? "o200k_base";
  const parts: string[] = ["<h2>What a request carrying the catalog costs</h2>"];
  const heads = billedHeadlines(block);
  parts.push(`<ul class="headline">${
    heads.map((h) => {
      const b = h.billed;
      const what = b.provenance === "estimated"
        ? `estimated${b.model ? ` for <code>${esc(b.model)}</code>` : ""} (calibration ${
          esc(b.calibration ?? block.calibration.name)
        })`
        : b.provenance === "measured"
        ? `measured by ${esc(PROVIDER_LABEL[h.provider])}'s token count${
          b.model ? ` for <code>${esc(b.model)}</code>` : ""
        }`
        : esc(billedText(b));
      const figure = b.tokens === null
        ? "<strong>not measured</strong>"
        : `<strong>${int(b.tokens)}</strong> tokens${
          b.provenance === "estimated"
            ? ` [${int(b.low ?? b.tokens)}–${int(b.high ?? b.tokens)}]`
            : ""
        }`;
      const others = h.others.map((o) =>
        `${o.model ? `<code>${esc(o.model)}</code> ` : ""}${esc(billedText(o))}`
      );
      const under = [
        ...(b.overhead ? [`its ${int(b.overhead)}-token tool-use overhead included`] : []),
        ...(h.sent?.tokens ? [`sent ${int(h.sent.tokens)}`] : []),
        ...(h.wire?.tokens ? [`received ${int(h.wire.tokens)} (${esc(tok)})`] : []),
        ...others.map((o) => `also ${o}`),
      ];
      return `<li>${figure} billed by ${esc(PROVIDER_LABEL[h.provider])} for <b>${
        esc(h.corpusId)
      }</b>, ${what}${
        under.length > 0 ? `<br><span class="note">${under.join("; ")}</span>` : ""
      }</li>`;
    }).join("")
  }</ul>`);
  parts.push(
    `<p class="note">Billed: the provider's own count of the tools' share of a request (<code>--count-with</code>), else an estimate with its interval from the calibration below; sent: the exact <code>tools</code> value each provider's request carries, received (wire): the servers' <code>tools/list</code> as the client got them, both counted with ${
      esc(tok)
    }. See docs/cost-layers.md.</p>`,
  );
  for (const corpusId of corporaOf(block)) {
    parts.push(`<h3>${esc(corpusId)}: received, sent and billed, side by side</h3>`);
    const bars = layerBars(block, corpusId);
    if (bars.length > 0) parts.push(layersChart(bars, { document }).outerHTML);
    const rows = layerTable(block, corpusId);
    const numeric = Object.fromEntries(
      Object.keys(rows[0] ?? {}).filter((k) => k === "wire" || k.endsWith(" sent")).map((k) => [
        k,
        (v: never) => typeof v === "number" ? int(v) : String(v),
      ]),
    );
    parts.push(htmlTable(rows, numeric));
    parts.push(
      `<p class="note">Bars: grey as received, blue as sent, red as billed (pale with a black line: an estimate and its interval). The whole catalog and its ${
        rows.length - 1
      } heaviest servers (by tokens received). A server's billed figure is its tools' share, without the request's fixed overhead.</p>`,
    );
    const shares = fieldShares(block, corpusId);
    if (shares.length > 0) {
      parts.push(`<h3>${esc(corpusId)}: where the tokens go</h3>`);
      parts.push(fieldSharesChart(shares, { document }).outerHTML);
      parts.push(
        `<p class="note">Each field's share of the text's tokens (a token counts for the field holding its first byte; envelope: JSON syntax and a format's own keys). Billed figures are split by the shares of their format's sent text: providers do not say.</p>`,
      );
    }
    const wire = block.rows.find((r) =>
      r.corpusId === corpusId && r.server === null && r.layer === "wire" && r.tokenizer === tok
    );
    if (wire?.wireOrder && wire.wireOrder !== "received") {
      parts.push(
        `<p class="note">Key order of the received figure: ${
          wire.wireOrder === "sorted"
            ? "sorted (a capture made before the received order was kept)"
            : "reconstructed (the corpus holds no tools/list items)"
        }.</p>`,
      );
    }
    if (wire?.instructionsTokens !== undefined) {
      parts.push(
        `<p class="note">The servers' <code>instructions</code> add ${
          int(wire.instructionsTokens)
        } ${esc(tok)} tokens, loaded at session start by a client that defers its tools.</p>`,
      );
    }
  }
  if (block.counts) {
    parts.push(
      `<p class="note">Count requests: ${int(block.counts.planned)} planned, ${
        int(block.counts.sent)
      } sent, ${int(block.counts.cached)} answered from the cache.</p>`,
    );
  }
  const c = block.calibration;
  parts.push(
    `<details><summary>Calibration of the estimates: ${esc(c.name)}${
      c.path ? ` (<code>${esc(c.path)}</code>)` : ""
    }</summary><p class="note">${esc(c.method)}</p><ul>${
      c.sources.map((s) =>
        `<li><a href="${esc(s.url)}">${esc(s.title)}</a>: ${esc(s.usedFor)}</li>`
      ).join("")
    }</ul></details>`,
  );
  return parts.join("\n");
}
