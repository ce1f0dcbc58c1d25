/**
 * The bench flow: what tool catalogs cost in context tokens under each exposure mode and
 * encoding arm, how well retrievers find the right tool, what captured tool results cost as
 * compact JSON against TOON, and (optionally) what discovery really costs over MCP. Returns the
 * whole {@linkcode BenchReport}, the same bytes for the same inputs but its `run` block;
 * {@linkcode writeBenchResults} writes it with its dashboard.
 *
 * @module
 */
import { countDegenerateDescriptions } from "../catalog/degenerate.ts";
import {
  type BenchReport,
  REPORT_SCHEMA_VERSION,
  summarizeCorpus,
  TOKENIZER_CAVEAT,
} from "../report/bench_report.ts";
import { type CatalogCostSections, measureCatalogCost } from "../modes/catalog_cost.ts";
import {
  type ArmRow,
  armsNamed,
  type EncodingArm,
  measureArms,
  measureToolResults,
} from "../encodings/mod.ts";
import { type IndexArm, packageInfoArm } from "../retrieval/mod.ts";
import { RESULT_DECIMALS, stableJson } from "../core/json.ts";
import { sharedDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { writeAtomic } from "../core/files.ts";
import { counted } from "../core/text.ts";
import { type Plan, plan, type RunBenchOptions } from "./bench_options.ts";
import { type BenchInputs, loadBenchInputs } from "./bench_inputs.ts";
import { type RetrievalSection, scoreRetrieval } from "./bench_retrieval.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import {
  benchCostLayers,
  costLayerToolsCsv,
  COUNT_CACHE_DEFAULT,
  parseCountTargets,
} from "./bench_cost_layers.ts";
import type { CostLayerToolRow } from "../billing/layers.ts";
import { measureDeferred } from "./bench_deferred.ts";
import { shapesOf } from "../billing/sent_layer.ts";

/** The per-tool cost-layer rows of a report (written beside it as CSV; too many for the JSON). */
const costLayerTools = new WeakMap<BenchReport, readonly CostLayerToolRow[]>();

/**
 * Runs the bench and returns its report. Every input file is read before any measurement, so a
 * bad one fails fast; `run` (time, git, wall ms) is the only non-deterministic block.
 *
 * @param options See {@linkcode RunBenchOptions}.
 * @param io Clock, repository root, path display, git, versions, progress (task `bench`).
 *   @default {denoFlowIo()}
 * @returns The report (shape: lib/report/report.schema.json).
 * @throws {UsageError} On bad options (see `checkBenchOptions`), an unreadable golden set or
 *   tool-results file, a corpus or mode catalog with no tools, or two corpora with one id.
 * @throws {import("../catalog/errors.ts").CatalogError} On a catalog that cannot be loaded.
 */
export async function runBench(
  options: RunBenchOptions = {},
  io: FlowIo = denoFlowIo(),
): Promise<BenchReport> {
  const started = io.now();
  const say = (message: string) => io.progress("bench", message);
  // Asked now, answered while the bench works (git runs in its own process). The no-op catch
  // keeps an early failure from going unhandled before the report awaits (and throws) it.
  const git = io.gitState();
  const dependencies = io.dependencyVersions();
  git.catch(() => {});
  dependencies.catch(() => {});
  const p = plan(options, io.fromRoot);
  const inputs = await loadBenchInputs(p, options, io, say);
  const make = options.createTokenizer ?? sharedDefaultTokenizer;
  const tokenizers = p.tokenizerNames.map((n) => make(n));
  const arms = armsNamed(p.armNames);
  const cost = measureCost(p, inputs, arms, tokenizers, say);
  const retrieval = await scoreRetrieval({
    corpora: inputs.corpora.map((c) => c.corpus),
    goldenSets: inputs.goldenSets,
    targets: inputs.targets,
    retrievers: p.retrieverNames,
    indexArms: indexArmsOf(arms, inputs),
    tokenizer: tokenizers[0],
    endpoints: inputs.endpoints,
    seed: p.seed,
    resamples: p.resamples,
    say,
  });
  const toolResults = priceToolResults(inputs, tokenizers, io, say);
  const live = options.live ? await runLiveBlock(p, options, inputs, io, say) : undefined;
  const { deferred, layers } = await measureSent(p, options, inputs, tokenizers, io, say);
  const report: BenchReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    task: options.task ?? "tasks/bench.ts",
    run: { createdAt: io.createdAt(), git: await git, wallMs: Math.round(io.now() - started) },
    seed: p.seed,
    tokenizers: p.tokenizerNames,
    dependencies: await dependencies,
    inputs: inputs.files,
    caveats: { tokenizer: TOKENIZER_CAVEAT },
    degenerateRules: cost.degenerate[0]?.rules ?? [],
    corpora: inputs.corpora.map(({ corpus, path }, i) =>
      summarizeCorpus(corpus, path, cost.degenerate[i])
    ),
    ...cost.sections,
    ...deferred,
    ...(cost.arms ? { arms: cost.arms } : {}),
    ...retrievalBlocks(retrieval),
    ...(toolResults ? { toolResults } : {}),
    ...(live ? { live } : {}),
    ...(inputs.overrides === undefined ? {} : { overrides: inputs.overrides.block }),
    ...(layers ? { costLayers: layers.block } : {}),
    warnings: [
      ...retrieval.warnings,
      ...inputs.corpora.flatMap(({ corpus }) => corpus.warnings.map((w) => `${corpus.id}: ${w}`)),
      ...(inputs.overrides?.block.problems ?? []).map((p) => `overrides: ${p}`),
      ...(layers?.warnings ?? []),
    ],
  };
  if (layers) costLayerTools.set(report, layers.tools);
  return report;
}

/** The catalog-cost sections (modes, scaling, crossovers, heaviest) and arm rows, per corpus. */
function measureCost(
  p: Plan,
  inputs: BenchInputs,
  arms: readonly EncodingArm[],
  tokenizers: readonly Tokenizer[],
  say: (message: string) => void,
): {
  sections: CatalogCostSections;
  arms: ArmRow[] | undefined;
  degenerate: ReturnType<typeof countDegenerateDescriptions>[];
} {
  const names = p.tokenizerNames.join(", ");
  const parts: CatalogCostSections[] = [];
  const rows: ArmRow[] = [];
  for (const { corpus } of inputs.corpora) {
    say(`${corpus.id}: counting ${counted(corpus.tools.length, "tool")} with ${names}`);
    parts.push(measureCatalogCost({
      corpora: [corpus],
      proxyTools: inputs.proxy.tools,
      codeTools: inputs.code.tools,
      tokenizers,
      seed: p.seed,
    }));
  }
  if (p.armNames.length > 0) {
    for (const { corpus } of inputs.corpora) {
      say(`${corpus.id}: encoding arms ${p.armNames.join(", ")} with ${names}`);
      rows.push(...measureArms({ corpus, arms, tokenizers }));
    }
  }
  return {
    sections: {
      modes: parts.flatMap((s) => s.modes),
      scaling: parts.flatMap((s) => s.scaling),
      crossovers: parts.flatMap((s) => s.crossovers),
      heaviest: parts.flatMap((s) => s.heaviest),
    },
    arms: p.armNames.length === 0 ? undefined : rows,
    degenerate: inputs.corpora.map(({ corpus }) => countDegenerateDescriptions(corpus.tools)),
  };
}

/**
 * The deferred modes and the cost layers (unless turned off), each corpus shaped per request
 * format once for both.
 */
async function measureSent(
  p: Plan,
  options: RunBenchOptions,
  inputs: BenchInputs,
  tokenizers: readonly Tokenizer[],
  io: FlowIo,
  say: (message: string) => void,
) {
  const corpora = inputs.corpora.map(({ corpus }, i) => ({
    corpus,
    file: p.corpusPaths[i],
    shaped: shapesOf(corpus.tools),
  }));
  const deferred = await measureDeferred(corpora, inputs.proxy.tools, tokenizers, p.seed, say);
  const layers = options.costLayers === false ? undefined : await benchCostLayers({
    corpora,
    tokenizers: p.tokenizerNames.includes("o200k_base") ? ["o200k_base"] : p.tokenizerNames,
    targets: parseCountTargets(options.countWith ?? []),
    perTool: options.countPerTool ?? false,
    ...(options.calibration === undefined ? {} : { calibration: options.calibration }),
    cacheDir: options.countCache ?? io.fromRoot(COUNT_CACHE_DEFAULT),
  }, io);
  return { deferred, layers };
}

/** The index arms: the encoding arms that alter the index, then `package_info` when given. */
function indexArmsOf(
  arms: readonly EncodingArm[],
  inputs: BenchInputs,
): IndexArm[] {
  const indexArms: IndexArm[] = arms.filter((a) => a.altersIndex);
  if (inputs.packageInfo !== undefined) indexArms.push(packageInfoArm(inputs.packageInfo));
  return indexArms;
}

/** The report's retrieval blocks, each only when it has rows. */
function retrievalBlocks(r: RetrievalSection): Partial<BenchReport> {
  return {
    ...(r.retrieval.length > 0 ? { retrieval: r.retrieval } : {}),
    ...(r.audits.length > 0 ? { goldenSets: r.audits } : {}),
    ...(r.comparisons.length > 0 ? { retrievalComparisons: r.comparisons } : {}),
    ...(r.frontier.length > 0 ? { frontier: r.frontier } : {}),
    ...(r.unreachable.length > 0 ? { unreachable: r.unreachable } : {}),
  };
}

/** Captured tool results priced as compact JSON against TOON, when a file is given. */
function priceToolResults(
  inputs: BenchInputs,
  tokenizers: readonly Tokenizer[],
  io: FlowIo,
  say: (message: string) => void,
): BenchReport["toolResults"] {
  if (inputs.toolResults === undefined) return undefined;
  const { path, file } = inputs.toolResults;
  say(`pricing tool results ${path}`);
  const m = measureToolResults(file.results, tokenizers);
  return {
    resultsId: file.id,
    path: io.displayPath(path),
    payloadCount: m.payloadCount,
    summary: m.summary,
    rows: m.rows,
    skipped: m.skipped,
    provenance: { tokens: "measured", savings: "computed" },
  };
}

/** Discovery measured over MCP (`runLive`, imported here: it loads the MCP SDK). */
async function runLiveBlock(
  p: Plan,
  options: RunBenchOptions,
  inputs: BenchInputs,
  io: FlowIo,
  say: (message: string) => void,
): Promise<BenchReport["live"]> {
  const { runLive } = await import("./live.ts");
  return await runLive({
    tokenizer: p.tokenizerNames[0],
    golden: p.liveGolden,
    ...(options.endpoint ? { endpoint: options.endpoint, headers: options.headers ?? {} } : {}),
    ...(options.discoveryTool ? { tool: options.discoveryTool } : {}),
    ...(options.queryArg ? { queryArg: options.queryArg } : {}),
    onProgress: (m) => say(`live: ${m}`),
    ...(options.createTokenizer ? { createTokenizer: options.createTokenizer } : {}),
    ...(inputs.overrides === undefined ? {} : { overrides: inputs.overrides.doc }),
  }, io);
}

/**
 * Writes `outDir/report.json` (stable JSON) and `outDir/dashboard.html` (self-contained).
 *
 * @param report The report.
 * @param outDir Output folder (created).
 * @param io Progress sink. @default {denoFlowIo()}
 * @param render Renders the dashboard page, e.g. the `render` of `workerDashboardRenderer()`
 *   (`io.ts`: on a worker that loaded the dashboard's modules while the bench ran).
 *   @default renderDashboard (lib/report), imported when first needed
 * @returns The two paths written.
 */
export async function writeBenchResults(
  report: BenchReport,
  outDir: string,
  io: Pick<FlowIo, "progress"> = denoFlowIo(),
  render: (report: BenchReport) => string | Promise<string> = async (r) =>
    (await import("../report/dashboard.ts")).renderDashboard(r),
): Promise<{ reportPath: string; dashboardPath: string }> {
  await Deno.mkdir(outDir, { recursive: true });
  const reportPath = `${outDir}/report.json`;
  const dashboardPath = `${outDir}/dashboard.html`;
  io.progress("bench", "rendering dashboard");
  // Whole or not at all: a bench stopped while writing leaves the last report, not half of one.
  await writeAtomic(reportPath, stableJson(report, { decimals: RESULT_DECIMALS }));
  const tools = costLayerTools.get(report);
  if (tools !== undefined) {
    await writeAtomic(`${outDir}/cost_layers_tools.csv`, costLayerToolsCsv(tools));
  }
  await writeAtomic(dashboardPath, await render(report));
  return { reportPath, dashboardPath };
}
