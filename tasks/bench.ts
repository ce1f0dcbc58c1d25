// deno task bench: what a tool catalog costs in context tokens under each
// exposure mode, written to results/report.json and results/dashboard.html.
import { loadCatalog } from "../lib/catalog/load.ts";
import { countDegenerateDescriptions } from "../lib/catalog/degenerate.ts";
import type { CatalogFormat, Corpus } from "../lib/catalog/types.ts";
import { CATALOG_FORMATS } from "../lib/catalog/parse.ts";
import {
  type BenchReport,
  REPORT_SCHEMA_VERSION,
  summarizeCorpus,
  TOKENIZER_CAVEAT,
} from "../lib/report/bench_report.ts";
import { measureCatalogCost } from "../lib/modes/catalog_cost.ts";
import { renderDashboard } from "../lib/report/dashboard.ts";
import {
  type EncodingArm,
  loadArms,
  loadToolResults,
  measureArms,
  measureToolResults,
  parseArmList,
} from "../lib/encodings/mod.ts";
import { loadGolden } from "../lib/retrieval/load_golden.ts";
import type { GoldenSet } from "../lib/retrieval/types.ts";
import { runLive } from "./live.ts";
import { captureCatalog } from "./_capture_catalog.ts";
import {
  evaluateRetrieval,
  indexArmsFor,
  type RetrievalResult,
  RETRIEVER_NAMES,
  RETRIEVERS,
} from "../lib/retrieval/mod.ts";
import { stableJson } from "../lib/report/json.ts";
import { createTokenizer, isTokenizerName, TOKENIZER_NAMES } from "../lib/tokens/tokenizers.ts";
import {
  createdAt,
  dependencyVersions,
  displayPath,
  fromRoot,
  gitState,
  intFlag,
  parseFlags,
  progress,
  runMain,
  UsageError,
} from "./_cli.ts";

/** Default inputs, relative to the repository root. */
export const DEFAULTS = {
  corpus: "fixtures/corpora/reference_v1.tools.json",
  proxyCatalog: "fixtures/proxies/reference_proxy.tools.json",
  codeCatalog: "fixtures/proxies/reference_code.tools.json",
  golden: "fixtures/golden/reference_v1.test.json",
  retrievers: "bm25,tfidf_classic,random,oracle",
  toolResults: "fixtures/tool_results/results_v1.json",
  out: "results",
  seed: 20261130,
} as const;

const HELP = `mcpmeter bench — what MCP tool catalogs cost in context tokens

Usage: deno task bench [options]

Options:
  --corpus FILE        Tool catalog to measure; repeat for several. Formats: mcpmeter capture,
                       mcpproxy corpus, LiveMCPBench snapshot, raw MCP tools/list result
                       (detected automatically). Default: ${DEFAULTS.corpus}
  --format NAME        Format of the --corpus files when detection cannot tell: mcpmeter-capture,
                       mcpproxy-corpus, livemcpbench, mcp-tools-list (default: detected)
  --tokenizers LIST    Comma-separated encodings: ${TOKENIZER_NAMES.join(",")} (default: both)
  --proxy-catalog FILE Catalog of the discovery proxy priced as the "proxy" mode
                       (default: ${DEFAULTS.proxyCatalog}, mcpmeter's reference proxy)
  --proxy-servers CONFIG
                       Price your running gateway instead: capture the tools/list of the
                       server(s) in this mcpServers config live and use it as the "proxy"
                       catalog (replaces --proxy-catalog)
  --code-catalog FILE  Catalog priced as the "code" mode (default: ${DEFAULTS.codeCatalog})
  --arms LIST          Encoding arms to price: "all" (default), "none", or a comma list of
                       baseline_json, compact_sig, toon_listing, tron_dedup, minified_json,
                       markdown, tscg
  --golden FILE        Graded golden query set (mcpproxy format) scored against the corpus whose
                       id matches its corpus_version; repeat for several; "none" to skip
                       (default: ${DEFAULTS.golden} when the default corpus is measured)
  --retrievers LIST    Retrievers to score: ${RETRIEVER_NAMES.join(", ")}
                       (default: ${DEFAULTS.retrievers}). ${
  RETRIEVERS.filter((r) => r.reads.length > 0).map((r) => r.name).join(" and ")
} are also
                       scored on the index of every selected arm that changes a field they read
  --resamples N        Bootstrap resamples per metric (default: 1000)
  --tool-results FILE  Captured tools/call results priced as compact JSON vs TOON (the
                       toon_results pseudo-arm); "none" to skip (default: ${DEFAULTS.toolResults})
  --live               Also measure discovery over MCP: boot the reference retrieve_tools proxy
                       over the installed reference servers (or a small set installed on first
                       use), call it for each golden query over streamable HTTP, and add the
                       live block (response tokens by component, latency, break-even calls,
                       session estimates, full-vs-compact flip gate). Takes about a minute.
  --endpoint URL       With --live: measure this MCP server or gateway instead of the proxy
  --header K:V         With --endpoint: request header (repeatable; values never recorded)
  --discovery-tool N   With --endpoint: name of its discovery tool (default: retrieve_tools)
  --query-arg NAME     With --endpoint: argument that carries the query (default: query)
  --out DIR            Output folder for report.json and dashboard.html (default: ${DEFAULTS.out}/)
  --seed N             Seed of the random server subsets (default: ${DEFAULTS.seed}); recorded
  -h, --help           Show this help

Outputs: DIR/report.json (schema: lib/report/report.schema.json) and DIR/dashboard.html
(self-contained). Token counts use OpenAI encodings; read ratios between modes, not absolutes.
`;

async function main(args: string[]): Promise<number> {
  const parsed = parseFlags(args, {
    corpus: { type: "string", multiple: true },
    format: { type: "string" },
    tokenizers: { type: "string" },
    "proxy-catalog": { type: "string" },
    "code-catalog": { type: "string" },
    "proxy-servers": { type: "string" },
    arms: { type: "string" },
    golden: { type: "string", multiple: true },
    retrievers: { type: "string" },
    resamples: { type: "string" },
    "tool-results": { type: "string" },
    live: { type: "boolean" },
    endpoint: { type: "string" },
    header: { type: "string", multiple: true },
    "discovery-tool": { type: "string" },
    "query-arg": { type: "string" },
    out: { type: "string" },
    seed: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  const flags = parsed.values;
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const started = performance.now();
  const seed = intFlag("seed", flags.seed, DEFAULTS.seed);
  const tokenizerNames = (flags.tokenizers ?? TOKENIZER_NAMES.join(",")).split(",").map((s) =>
    s.trim()
  )
    .filter(Boolean);
  for (const name of tokenizerNames) {
    if (!isTokenizerName(name)) {
      throw new UsageError(
        `--tokenizers: unknown tokenizer "${name}" (known: ${TOKENIZER_NAMES.join(", ")})`,
      );
    }
  }
  const tokenizers = tokenizerNames.map((n) => createTokenizer(n as "cl100k_base"));
  const corpusPaths = flags.corpus ?? [fromRoot(DEFAULTS.corpus)];
  const outDir = flags.out ?? fromRoot(DEFAULTS.out);

  const armSpec = flags.arms ?? "all";
  let armNames: string[] = [];
  if (armSpec !== "none") {
    try {
      armNames = parseArmList(armSpec);
    } catch (error) {
      throw new UsageError(`--arms: ${(error as Error).message}`);
    }
  }
  const goldenPaths = flags.golden ?? (flags.corpus ? [] : [fromRoot(DEFAULTS.golden)]);
  const retrieverNames = (flags.retrievers ?? DEFAULTS.retrievers).split(",").map((r) => r.trim())
    .filter(Boolean);
  for (const name of retrieverNames) {
    if (!(RETRIEVER_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--retrievers: unknown retriever "${name}" (known: ${RETRIEVER_NAMES.join(", ")})`,
      );
    }
  }
  const resamples = intFlag("resamples", flags.resamples, 1000);
  if (
    !flags.live && (flags.endpoint || flags.header || flags["discovery-tool"] || flags["query-arg"])
  ) {
    throw new UsageError("--endpoint, --header, --discovery-tool and --query-arg need --live");
  }
  const headers: Record<string, string> = {};
  for (const h of flags.header ?? []) {
    const i = h.indexOf(":");
    if (i <= 0) {
      throw new UsageError(`--header must be K:V: current value is "${h.split(":")[0]}..."`);
    }
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  if (resamples < 1 || resamples > MAX_RESAMPLES) {
    throw new UsageError(
      `--resamples must be between 1 and ${MAX_RESAMPLES}: current value is ${resamples}`,
    );
  }
  const liveGolden = goldenPaths.find((p) => p !== "none") ??
    (flags.live ? fromRoot(DEFAULTS.golden) : undefined);
  if (flags.live && goldenPaths.length > 0 && goldenPaths.every((p) => p === "none")) {
    throw new UsageError(
      "--live scores discovery on a golden set: drop --golden none or pass --golden FILE",
    );
  }
  // Fail on an unwritable --out now, not after the work.
  try {
    await Deno.mkdir(outDir, { recursive: true });
    await Deno.writeTextFile(`${outDir}/.write-test`, "");
    await Deno.remove(`${outDir}/.write-test`);
  } catch (error) {
    throw new UsageError(`--out ${outDir} is not a writable folder: ${(error as Error).message}`);
  }

  const format = flags.format as CatalogFormat | undefined;
  if (format !== undefined && !(CATALOG_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `--format must be one of ${CATALOG_FORMATS.join(", ")}: current value is "${format}"`,
    );
  }
  // Every input file is read before any measurement, so a bad one fails fast.
  const toolResultsPath = flags["tool-results"] ?? fromRoot(DEFAULTS.toolResults);
  const toolResultsFile = toolResultsPath === "none"
    ? undefined
    : await loadToolResults(toolResultsPath).catch((error) => {
      throw new UsageError(`--tool-results ${toolResultsPath}: ${(error as Error).message}`);
    });
  const corpora: { corpus: Corpus; path: string }[] = [];
  for (const path of corpusPaths) {
    progress("bench", `loading ${path}`);
    const corpus = await loadCatalog(path, format === undefined ? {} : { format });
    if (corpus.tools.length === 0) {
      throw new UsageError(`corpus ${path} has no tools: nothing to measure`);
    }
    corpora.push({ corpus, path: displayPath(path) });
  }
  const ids = corpora.map((c) => c.corpus.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new UsageError(`two corpora have the same id "${dup}"; pass each file once`);
  const goldenSets: GoldenSet[] = [];
  for (const path of goldenPaths.filter((p) => p !== "none")) {
    progress("bench", `loading golden set ${path}`);
    goldenSets.push(
      await loadGolden(path).catch((error) => {
        throw new UsageError(`--golden ${path}: ${(error as Error).message}`);
      }),
    );
  }
  const proxyPath = flags["proxy-catalog"] ?? fromRoot(DEFAULTS.proxyCatalog);
  const codePath = flags["code-catalog"] ?? fromRoot(DEFAULTS.codeCatalog);
  if (flags["proxy-servers"] && flags["proxy-catalog"]) {
    throw new UsageError("pass either --proxy-catalog or --proxy-servers, not both");
  }
  const proxy = flags["proxy-servers"]
    ? await (async () => {
      const live = await captureCatalog(flags["proxy-servers"]!, {
        installDir: fromRoot(".scratch/servers"),
        task: "bench",
      });
      for (const f of live.failed) {
        progress("bench", `proxy server ${f.server} failed: ${f.outcome}: ${f.message}`);
      }
      // The config's bytes are the input this catalog is traced to.
      return {
        ...live.corpus,
        provenance: { ...live.corpus.provenance, sha256: live.configSha256 },
      };
    })()
    : await loadCatalog(proxyPath, { server: "proxy" });
  const code = await loadCatalog(codePath, { server: "proxy" });
  for (
    const [flag, catalog, path] of [["--proxy-catalog", proxy, proxyPath], [
      "--code-catalog",
      code,
      codePath,
    ]] as const
  ) {
    if (catalog.tools.length === 0) throw new UsageError(`${flag} ${path} has no tools`);
  }

  const degenerate = corpora.map(({ corpus }) => countDegenerateDescriptions(corpus.tools));
  const sections = measureCatalogCost({
    corpora: corpora.map((c) => c.corpus),
    proxyTools: proxy.tools,
    codeTools: code.tools,
    tokenizers,
    seed,
    onProgress: (m) => progress("bench", m),
  });
  const loadedArms = await loadArms(armNames);
  const arms = armNames.length === 0 ? undefined : corpora.flatMap(({ corpus }) => {
    progress("bench", `${corpus.id}: encoding arms ${armNames.join(", ")}`);
    return measureArms({ corpus, arms: loadedArms, tokenizers });
  });
  const retrieval: RetrievalResult[] = [];
  const retrievalWarnings: string[] = [];
  const indexArms = loadedArms.filter((a): a is EncodingArm =>
    !("unavailable" in a) && a.altersIndex
  );
  for (const golden of goldenSets) {
    const target = corpora.find(({ corpus }) => corpus.id === golden.corpusVersion) ??
      (corpora.length === 1 ? corpora[0] : undefined);
    if (!target) {
      retrievalWarnings.push(
        `golden set ${golden.id} names corpus "${golden.corpusVersion}", which was not measured; skipped`,
      );
      continue;
    }
    for (const retriever of retrieverNames) {
      const chosen = indexArmsFor(retriever, target.corpus.tools, indexArms);
      for (const skip of chosen.skipped) {
        retrievalWarnings.push(
          `${golden.id}/${retriever} on the ${skip.arm} index not scored: ${skip.reason}`,
        );
      }
      const arms = [undefined, ...chosen.score];
      for (const arm of arms) {
        progress("bench", `${golden.id}: ${retriever}${arm ? ` on ${arm.name} index` : ""}`);
        const result = evaluateRetrieval({
          corpus: target.corpus,
          golden,
          retriever,
          arm,
          seed,
          resamples,
        });
        if (result.dropped.count > 0) {
          retrievalWarnings.push(
            `${golden.id}/${retriever}: ${result.dropped.count} queries dropped (${
              Object.entries(result.dropped.reasons).map(([k, v]) => `${k}: ${v}`).join(", ")
            })`,
          );
        }
        retrieval.push(result);
      }
    }
  }
  const toolResults = toolResultsFile === undefined ? undefined : (() => {
    progress("bench", `pricing tool results ${toolResultsPath}`);
    const file = toolResultsFile;
    const m = measureToolResults(file.results, tokenizers);
    return {
      resultsId: file.id,
      path: displayPath(toolResultsPath),
      payloadCount: m.payloadCount,
      summary: m.summary,
      rows: m.rows,
      skipped: m.skipped,
      provenance: { tokens: "measured", savingsPct: "computed" },
    };
  })();
  const live = !flags.live ? undefined : await runLive({
    tokenizer: tokenizerNames[0] as "cl100k_base",
    golden: liveGolden,
    ...(flags.endpoint ? { endpoint: flags.endpoint, headers } : {}),
    ...(flags["discovery-tool"] ? { tool: flags["discovery-tool"] } : {}),
    ...(flags["query-arg"] ? { queryArg: flags["query-arg"] } : {}),
    onProgress: (m) => progress("bench", `live: ${m}`),
  });
  const warnings = [
    ...retrievalWarnings,
    ...corpora.flatMap(({ corpus }) => corpus.warnings.map((w) => `${corpus.id}: ${w}`)),
  ];
  const report: BenchReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    task: "tasks/bench.ts",
    run: {
      createdAt: createdAt(),
      git: await gitState(),
      wallMs: Math.round(performance.now() - started),
    },
    seed,
    tokenizers: tokenizerNames,
    dependencies: await dependencyVersions(),
    inputs: [
      ...corpora.map(({ corpus, path }) => ({ path, sha256: corpus.provenance.sha256 ?? "" })),
      {
        path: displayPath(flags["proxy-servers"] ?? proxyPath),
        sha256: proxy.provenance.sha256 ?? "",
      },
      { path: displayPath(codePath), sha256: code.provenance.sha256 ?? "" },
      ...goldenPaths.filter((p) => p !== "none").map((path, i) => ({
        path: displayPath(path),
        sha256: goldenSets[i].sha256 ?? "",
      })),
      ...(toolResultsFile === undefined
        ? []
        : [{ path: displayPath(toolResultsPath), sha256: toolResultsFile.sha256 ?? "" }]),
    ],
    caveats: { tokenizer: TOKENIZER_CAVEAT },
    degenerateRules: degenerate[0]?.rules ?? [],
    corpora: corpora.map(({ corpus, path }, i) => summarizeCorpus(corpus, path, degenerate[i])),
    ...sections,
    ...(arms ? { arms } : {}),
    ...(retrieval.length > 0 ? { retrieval } : {}),
    ...(toolResults ? { toolResults } : {}),
    ...(live ? { live } : {}),
    warnings,
  };
  await Deno.mkdir(outDir, { recursive: true });
  const reportPath = `${outDir}/report.json`;
  const dashboardPath = `${outDir}/dashboard.html`;
  await Deno.writeTextFile(reportPath, stableJson(report));
  progress("bench", "rendering dashboard");
  await Deno.writeTextFile(dashboardPath, renderDashboard(report));
  for (const line of summaryLines(report)) console.log(line);
  console.log(
    `wrote ${displayPath(reportPath)} and ${displayPath(dashboardPath)} in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  if (live && live.queries.used > 0 && live.queries.failed >= live.queries.used) {
    const first = live.queries.failures[0];
    throw new Error(
      `live: all ${live.queries.used} discovery calls failed (first: ${first?.outcome}: ${first?.message}); ` +
        `the report keeps every failure row`,
    );
  }
  return 0;
}

/** Upper bound of --resamples: beyond it the bootstrap takes minutes for no precision gain. */
export const MAX_RESAMPLES = 100_000;

/**
 * The console summary: per corpus the mode costs, the arm savings and the
 * retrieval headline, under the first tokenizer.
 *
 * @param report The finished report.
 * @returns Lines to print.
 */
export function summaryLines(report: BenchReport): string[] {
  const tok = report.tokenizers[0];
  const lines: string[] = [];
  const pct = (v: number, digits = 2) => `${(v * 100).toFixed(digits)}%`;
  for (const m of report.modes.filter((m) => m.tokenizer === tok)) {
    const authoritative = m.withSchemasAuthoritative;
    const tokens = authoritative ? m.tokensWithSchemas : m.tokensNameDescription;
    const saved = authoritative ? m.savingsWithSchemas : m.savingsNameDescription;
    lines.push(
      `${m.corpusId.padEnd(16)} ${m.mode.padEnd(7)} ${String(m.toolCount).padStart(5)} tools ${
        String(tokens).padStart(9)
      } ${tok} tokens${m.mode === "direct" ? "" : `  saves ${pct(saved)}`}`,
    );
  }
  for (const corpus of report.corpora) {
    const savings = (report.arms ?? []).flatMap((a) =>
      !a.skipped && a.corpusId === corpus.id && a.tokenizer === tok &&
        a.arm !== "baseline_json" && typeof a.savingsPct === "number"
        ? [`${a.arm} ${a.savingsPct >= 0 ? "-" : "+"}${Math.abs(a.savingsPct).toFixed(1)}%`]
        : []
    );
    if (savings.length > 0) {
      lines.push(`${corpus.id.padEnd(16)} arm tokens vs baseline_json: ${savings.join(", ")}`);
    }
  }
  for (const r of (report.retrieval ?? []).filter((r) => r.arm === null)) {
    const [lo, hi] = r.ci95["recall@5"];
    lines.push(
      `${r.goldenSetId.padEnd(18)} ${r.retriever.padEnd(13)} recall@5 ${
        r.metrics["recall@5"].toFixed(3)
      } [${lo.toFixed(3)}, ${hi.toFixed(3)}]  mrr@10 ${r.metrics["mrr@10"].toFixed(3)}  ndcg@10 ${
        r.metrics["ndcg@10"].toFixed(3)
      }  (${r.queryCount} queries)`,
    );
  }
  if (report.live) {
    const l = report.live;
    const be = l.breakEven as { calls?: number | null; noBreakEven?: boolean; withheld?: boolean };
    lines.push(
      `live             response tokens p50 ${l.responseCost.p50 ?? "n/a"} p95 ${
        l.responseCost.p95 ?? "n/a"
      }, latency p50 ${l.latencyMs?.p50?.toFixed(2) ?? "n/a"} ms, break-even ${
        be.withheld ? "withheld" : be.noBreakEven ? "none" : `${be.calls?.toFixed(1)} calls`
      }`,
    );
  }
  return lines;
}

if (import.meta.main) await runMain("bench", () => main(Deno.args));
