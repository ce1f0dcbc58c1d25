/**
 * What `deno task bench` prints once the report is written: a few lines per corpus (mode costs,
 * arm savings), retrieval headlines, the audit, counts of warnings, the live block; and why a
 * report measured nothing.
 *
 * @module
 */
import type { BenchReport } from "../report/bench_report.ts";
import { crossingPhrase, savingsPhrase } from "../report/wording.ts";
import { percentText } from "../report/_percent.ts";
import { counted } from "../core/text.ts";
import { costLayerLines } from "./bench_cost_layers.ts";

/**
 * Why a bench report's live block measured nothing (every discovery call failed), or null.
 *
 * @param report The report.
 * @returns The one-line reason, or null.
 */
export function benchFailure(report: BenchReport): string | null {
  const live = report.live;
  if (!live || live.queries.used === 0 || live.queries.failed < live.queries.used) return null;
  const first = live.queries.failures[0];
  return `live: all ${live.queries.used} discovery calls failed (first: ${first?.outcome}: ${first?.message}); ` +
    `the report keeps every failure row`;
}

/**
 * The console summary: per corpus the mode costs, the arm savings and the
 * retrieval headline, under the first tokenizer; then how many warnings the report holds (they
 * are listed in the report and on the dashboard, not on the console).
 *
 * @param report The finished report.
 * @returns Lines to print.
 */
export function benchSummaryLines(report: BenchReport): string[] {
  const tok = report.tokenizers[0];
  const lines = [
    // First what the catalog is billed per provider (measured, else estimated with its interval).
    ...(report.costLayers
      ? costLayerLines(
        report.costLayers,
        report.costLayers.rows.find((r) => r.tokenizer !== null)?.tokenizer ?? "o200k_base",
      )
      : []),
    ...modeLines(report, tok),
    // In the tokenizer of the cost layers' sent lines, so direct reads as their sent figure.
    ...deferredLines(report, report.tokenizers.includes("o200k_base") ? "o200k_base" : tok),
    ...armLines(report, tok),
    ...retrievalLines(report),
  ];
  if (report.warnings.length > 0) {
    // Counted, not listed: a catalog's loader notes alone can run to dozens of lines.
    lines.push(
      `warnings         ${
        counted(report.warnings.length, "warning")
      }, listed in report.json "warnings" and on the dashboard`,
    );
  }
  lines.push(...retrievalCostLines(report));
  if (report.overrides) {
    const o = report.overrides;
    lines.push(
      `overrides        ${o.path}: ${o.applied} of ${counted(o.keys, "tool")} rewritten${
        o.problems.length > 0 ? `, ${o.problems.length} naming nothing (see warnings)` : ""
      }`,
    );
  }
  if (report.live) lines.push(...liveLines(report.live));
  return lines;
}

/** Per corpus and mode, its tokens under `tok` and its savings; a note per partial corpus. */
function modeLines(report: BenchReport, tok: string): string[] {
  const lines: string[] = [];
  // Two decimals, never rounded onto 0% or 100% a fraction does not equal (a 5 MB description
  // makes the proxy save 99.998%, which must not read "saves 100.00%").
  const pct = (v: number) => percentText(v, 2);
  // A corpus where some tool has no inputSchema is counted on names and descriptions (the
  // with-schemas figures would compare unlike catalogs): the line says so, and one note per corpus.
  const partial = new Set<string>();
  for (const m of report.modes.filter((m) => m.tokenizer === tok)) {
    const authoritative = m.withSchemasAuthoritative;
    if (!authoritative) partial.add(m.corpusId);
    const tokens = authoritative ? m.tokensWithSchemas : m.tokensNameDescription;
    const saved = authoritative ? m.savingsWithSchemas : m.savingsNameDescription;
    lines.push(
      `${m.corpusId.padEnd(16)} ${m.mode.padEnd(7)} ${String(m.toolCount).padStart(5)} ${
        m.toolCount === 1 ? "tool " : "tools"
      } ${String(tokens).padStart(9)} ${tok} tokens${authoritative ? "" : " (names+descriptions)"}${
        m.mode === "direct" ? "" : `  ${savingsPhrase(saved, pct)} up front`
      }`,
    );
  }
  for (const id of partial) {
    lines.push(
      `${
        "note".padEnd(16)
      } ${id}: not every tool has an inputSchema, so its modes are counted on names and descriptions (report.json modes[].tokensWithSchemas has the rest)`,
    );
  }
  return lines;
}

/** Per corpus, the arms' savings against baseline_json and a note per arm that skipped tools. */
function armLines(report: BenchReport, tok: string): string[] {
  const lines: string[] = [];
  for (const corpus of report.corpora) {
    const savings = (report.arms ?? []).flatMap((a) =>
      !a.skipped && a.corpusId === corpus.id && a.tokenizer === tok &&
        a.arm !== "baseline_json" && typeof a.savings === "number"
        ? [`${a.arm} ${savingsPhrase(a.savings)}`]
        : []
    );
    if (savings.length > 0) {
      // The report keeps one sign (savings > 0 = fewer tokens); the console words it (savingsPhrase).
      lines.push(
        `${corpus.id.padEnd(16)} arms vs baseline_json (name, description, inputSchema): ${
          savings.join(", ")
        }`,
      );
    }
    // An arm that could not encode some tools says so here, not only in report.json.
    for (const a of report.arms ?? []) {
      if (a.skipped || a.corpusId !== corpus.id || a.tokenizer !== tok) continue;
      if (a.skippedTools.count === 0) continue;
      const first = a.skippedTools.examples[0];
      lines.push(
        `${"note".padEnd(16)} ${corpus.id}: ${a.arm} could not encode ${
          a.skippedTools.count === corpus.toolCount
            ? (corpus.toolCount === 1 ? "its one tool" : `any of its ${corpus.toolCount} tools`)
            : `${a.skippedTools.count} of ${counted(corpus.toolCount, "tool")}`
        }${
          first === undefined ? "" : ` (${first.toolId}: ${first.reason})`
        }; report.json arms[].skippedTools lists them`,
      );
    }
  }
  return lines;
}

/** Why retrieval was not scored, or its headline rows, emulation notes, paired tests, audits. */
function retrievalLines(report: BenchReport): string[] {
  const lines: string[] = [];
  if ((report.retrieval ?? []).length === 0) {
    // Say why no retrieval line follows: a bench on one's own catalog has no golden set.
    lines.push(
      `${"retrieval".padEnd(16)} not scored: ${
        (report.goldenSets ?? []).length > 0
          ? "no retriever selected (--retrievers)"
          : "no golden set; --golden FILE scores queries labelled with this catalog's server:tool ids (format: fixtures/golden/README.md)"
      }`,
    );
  }
  for (const r of (report.retrieval ?? []).filter((r) => r.arm === null)) {
    const [lo, hi] = r.ci95["recall@5"];
    const name = r.hosted === undefined ? r.retriever : `${r.retriever} (${r.hosted.kind})`;
    lines.push(
      `${r.goldenSetId.padEnd(18)} ${name.padEnd(13)} recall@5 ${
        r.metrics["recall@5"].toFixed(3)
      } [${lo.toFixed(3)}, ${hi.toFixed(3)}]  mrr@10 ${r.metrics["mrr@10"].toFixed(3)}  ndcg@10 ${
        r.metrics["ndcg@10"].toFixed(3)
      }  (${counted(r.queryCount, "query", "queries")})`,
    );
  }
  // An emulated hosted search says what it stands for, once, where its figures are read.
  const hostedSeen = new Set<string>();
  for (const r of report.retrieval ?? []) {
    if (r.hosted === undefined || hostedSeen.has(r.retriever)) continue;
    hostedSeen.add(r.retriever);
    lines.push(
      `${"note".padEnd(16)} ${r.retriever} ${
        r.hosted.kind === "emulated" ? "emulates" : "asked"
      } ${r.hosted.provider}'s ${r.hosted.tool}${
        r.hosted.kind === "emulated"
          ? `; ${
            counted(r.hosted.differences.length, "difference")
          } from the hosted search in report.json retrieval[].hosted.differences`
          : ""
      }`,
    );
  }
  for (const c of (report.retrievalComparisons ?? []).filter((c) => c.metric === "ndcg@10")) {
    const sign = c.meanDiff >= 0 ? "+" : "";
    lines.push(
      `${c.goldenSetId.padEnd(18)} ${c.retriever.padEnd(13)} vs ${c.baseline} ndcg@10 ${sign}${
        c.meanDiff.toFixed(3)
      } [${c.ci95[0].toFixed(3)}, ${c.ci95[1].toFixed(3)}] p=${c.pValue.toFixed(4)}`,
    );
  }
  for (const a of report.goldenSets ?? []) {
    lines.push(
      `${a.goldenSetId.padEnd(18)} audit: name hit rate ${
        a.nameHitRate.toFixed(3)
      }, lexical overlap ${a.lexicalOverlap.toFixed(3)}${
        a.easy ? "  WARNING: easy set, its figures overstate what users will see" : ""
      }`,
    );
  }
  return lines;
}

/** What the endpoint retrievers cost (requests, tokens, USD). */
function retrievalCostLines(report: BenchReport): string[] {
  const lines: string[] = [];
  for (const r of (report.retrieval ?? []).filter((r) => r.arm === null && r.cost)) {
    const c = r.cost!;
    lines.push(
      `${r.goldenSetId.padEnd(18)} ${
        r.retriever.padEnd(13)
      } cost ${c.requests} requests, ${c.inputTokens} input tokens, ${
        c.outputTokens === undefined ? "" : `${c.outputTokens} output tokens, `
      }${c.usd === null ? "USD n/a" : `$${c.usd.toFixed(6)}`}${
        c.cachedTexts ? ` (${c.cachedTexts} texts from the cache)` : ""
      }`,
    );
  }
  return lines;
}

/** The live block: response tokens, latency, break-even, and the queries it rests on. */
function liveLines(l: NonNullable<BenchReport["live"]>): string[] {
  const lines: string[] = [];
  const be = l.breakEven as { calls?: number | null; noBreakEven?: boolean; withheld?: boolean };
  lines.push(
    `live             response tokens p50 ${l.responseCost.p50 ?? "n/a"} p95 ${
      l.responseCost.p95 ?? "n/a"
    }, latency p50 ${l.latencyMs?.p50?.toFixed(2) ?? "n/a"} ms, break-even ${
      be.withheld ? "withheld" : be.noBreakEven ? "none" : `${be.calls?.toFixed(1)} calls`
    }`,
  );
  // How many golden queries the figures rest on, and why the rest were left out.
  const q = l.queries;
  const reasons = Object.entries(q.skipped.reasons).map(([why, n]) => `${n} ${why}`);
  lines.push(
    `live             on ${q.used} of ${counted(q.total, "query", "queries")} of ${q.goldenSetId}${
      q.skipped.count > 0 ? ` (${q.skipped.count} left out: ${reasons.join(", ")})` : ""
    }${q.failed > 0 ? `, ${q.failed} failed` : ""}`,
  );
  return lines;
}

/**
 * One line per deferred mode of each corpus (sent form of its provider, first tokenizer): the
 * session start, a search, and where it stops beating `direct` and the reference proxy.
 */
function deferredLines(report: BenchReport, tok: string): string[] {
  const rows = (report.deferredModes ?? []).filter((r) => r.tokenizer === tok);
  if (rows.length === 0) return [];
  const n = (v: number) => Math.round(v).toLocaleString("en-US");
  const lines = rows.map((r) =>
    `${r.corpusId.padEnd(16)} ${`${r.mode} ${r.variant}`.padEnd(28)} start ${n(r.startTokens)} + ${
      n(r.searchTokens)
    }/search (${counted(r.resultsPerSearch, "tool")}); vs direct ${n(r.directTokens)}: ${
      crossingPhrase(r.breakEvenVsDirect)
    }; vs proxy ${n(r.proxyStartTokens)} + ${n(r.proxySearchTokens)}/search: ${
      crossingPhrase(r.breakEvenVsProxy)
    }`
  );
  lines.push(
    `${"note".padEnd(16)} deferred modes: each provider's sent form, ${tok} tokens, ${
      counted(rows[0].resultsPerSearch, "tool")
    } per search assumed; what no document publishes is not counted (report.json deferredModes[].notCounted)`,
  );
  return lines;
}
