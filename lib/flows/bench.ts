/**
 * The bench flow: what tool catalogs cost in context tokens under each exposure mode and
 * encoding arm, how well retrievers find the right tool, what captured tool results cost as
 * compact JSON against TOON, and (optionally) what discovery really costs over MCP. Returns the
 * whole {@linkcode BenchReport}; {@linkcode writeBenchResults} writes it with its dashboard.
 *
 * @module
 */
import { loadCatalog, sha256Hex } from "../catalog/load.ts";
import type { OverrideProblem, ToolOverrides } from "../catalog/overrides.ts";
import { countDegenerateDescriptions } from "../catalog/degenerate.ts";
import { loneSurrogateField } from "../catalog/lint.ts";
import type { CatalogFormat, Corpus } from "../catalog/types.ts";
import { CATALOG_FORMATS } from "../catalog/parse.ts";
import {
  type BenchReport,
  type OverridesBlock,
  REPORT_SCHEMA_VERSION,
  summarizeCorpus,
  TOKENIZER_CAVEAT,
} from "../report/bench_report.ts";
import type { CatalogCostSections } from "../modes/catalog_cost.ts";
import { type ArmRow, measureToolResults, parseArmList } from "../encodings/mod.ts";
import { loadToolResults } from "../encodings/io.ts";
import { loadGolden } from "../retrieval/load_golden.ts";
import { alignGolden } from "../retrieval/align.ts";
import { IdMismatchError } from "../retrieval/errors.ts";
import { uniqueCorpusIds } from "./_corpus_ids.ts";
import type { GoldenSet } from "../retrieval/types.ts";
import { type FrontierRow, type UnreachableTools, unreachableTools } from "../live/frontier.ts";
import {
  auditGoldenSet,
  auditWarning,
  type BaselineComparison,
  changedIndexFields,
  type GoldenSetAudit,
  type IndexArm,
  indexArmsFor,
  type IndexFieldName,
  type PackageInfo,
  parsePackageInfo,
  type RetrievalResult,
  RETRIEVER_NAMES,
  retrieverEntry,
  type RetrieverName,
} from "../retrieval/mod.ts";
import {
  checkRetrieverModels,
  resolveRetrieverModels,
  type RetrieverModelPlan,
} from "./retriever_models.ts";
import { stableJson } from "../report/json.ts";
import { savingsPhrase } from "../report/wording.ts";
import { percentText } from "../report/_percent.ts";
import {
  createDefaultTokenizer,
  isTokenizerName,
  TOKENIZER_NAMES,
} from "../tokens/default_tokenizer.ts";
import { hasRankTable } from "../tokens/piecewise.ts";
import type { Tokenizer, TokenizerName } from "../tokens/types.ts";
import {
  type BenchJob,
  type BenchJobContext,
  type BenchJobResult,
  benchJobRunner,
  benchLane,
  type BenchPool,
  type BenchPoolFactory,
  COMPARISON_BASELINE,
  type CorpusFile,
  inProcessBenchPool,
  mergeArmRows,
  mergeCatalogCost,
} from "./bench_jobs.ts";
import { armGroups } from "./bench_plan.ts";
import { UsageError } from "../core/errors.ts";
import { writeAtomic } from "../core/files.ts";
import { deriveSeed } from "../stats/mod.ts";

/** The metrics `compareToBaseline` compares by default (lib/retrieval/versus.ts). */
const COMPARED_METRICS = ["recall@5", "ndcg@10"] as const;
import { denoFlowIo, type FlowIo } from "./io.ts";
import { counted } from "../core/text.ts";

/** Default inputs, relative to the repository root. */
export const BENCH_DEFAULTS = {
  corpus: "fixtures/corpora/reference_v1.tools.json",
  proxyCatalog: "fixtures/proxies/reference_proxy.tools.json",
  codeCatalog: "fixtures/proxies/reference_code.tools.json",
  golden: "fixtures/golden/reference_v1.test.json",
  goldenSets: [
    "fixtures/golden/reference_v1.test.json",
    "fixtures/golden/reference_v2.test.json",
  ],
  retrievers: "bm25,tfidf_classic,random,oracle,anthropic_bm25,anthropic_regex,openai_search",
  models: "fixtures/agents/models.json",
  embeddingCache: ".scratch/embeddings",
  chatCache: ".scratch/chat",
  toolResults: "fixtures/tool_results/results_v1.json",
  installDir: ".scratch/servers",
  out: "results",
  seed: 20261130,
  resamples: 1000,
} as const;

/** Upper bound of `resamples`: beyond it the bootstrap takes minutes for no precision gain. */
export const MAX_RESAMPLES = 100_000;

/**
 * Options of {@linkcode runBench}; every one has a default. Paths are absolute or relative to
 * the working directory; defaults are {@linkcode BENCH_DEFAULTS} under the repository root.
 * Error messages name the `deno task bench` flag of the option at fault.
 */
export interface RunBenchOptions {
  /** Catalogs to measure (any format `loadCatalog` reads). Default: the reference corpus. */
  readonly corpora?: readonly string[];
  /** Format of the corpora when detection cannot tell. Default: detected. */
  readonly format?: string;
  /** Tokenizer names, in report column order. Default: every known tokenizer. */
  readonly tokenizers?: readonly string[];
  /** Catalog priced as the `proxy` mode. Default: mcpmeter's reference proxy. */
  readonly proxyCatalog?: string;
  /** Servers config whose live tools/list is the `proxy` catalog (excludes `proxyCatalog`). */
  readonly proxyServers?: string;
  /** Catalog priced as the `code` mode. Default: the reference code catalog. */
  readonly codeCatalog?: string;
  /** Encoding arms: `"all"`, `"none"` or a comma list. Default `"all"`. */
  readonly arms?: string;
  /**
   * Golden sets (`"none"` entries are skipped). Default: the reference test sets v1 (the easy
   * set, written from tool names) and v2 (written task-first) when `corpora` is not given, none
   * otherwise.
   */
  readonly golden?: readonly string[];
  /** Retriever names. Default: {@linkcode BENCH_DEFAULTS}`.retrievers`. */
  readonly retrievers?: readonly string[];
  /**
   * Model-registry id of the embedding model (`kind: "embedding"`) of `dense` and `hybrid`;
   * required when one of them is selected.
   */
  readonly embeddingModel?: string;
  /** Model registry file. Default {@linkcode BENCH_DEFAULTS}`.models`. */
  readonly models?: string;
  /** Vector cache folder of the embedding retrievers. Default `.scratch/embeddings`. */
  readonly embeddingCache?: string;
  /** Model-registry id of the chat model of `rerank`; required when it is selected. */
  readonly rerankModel?: string;
  /** Retriever whose top k `rerank` reorders. Default `bm25`. */
  readonly rerankBase?: string;
  /** Candidates `rerank` takes from its base per query (≥ 2). Default 20. */
  readonly rerankK?: number;
  /** Model-registry id of the chat model of `expand`; required when it is selected. */
  readonly expandModel?: string;
  /** Answer cache folder of the chat retrievers. Default `.scratch/chat`. */
  readonly chatCache?: string;
  /**
   * Package descriptions and keywords per server (a capture manifest or a package-info file):
   * scored as the `package_info` index arm, which appends them to each tool's server field.
   */
  readonly packageInfo?: string;
  /** Bootstrap resamples per metric, 1 to {@linkcode MAX_RESAMPLES}. Default 1000. */
  readonly resamples?: number;
  /** Captured tool results priced as JSON vs TOON, or `"none"`. Default: results_v1. */
  readonly toolResults?: string;
  /** Also measure discovery over MCP (`runLive`). Default false. */
  readonly live?: boolean;
  /** With `live`: the endpoint measured instead of the reference proxy. */
  readonly endpoint?: string;
  /** With `endpoint`: request headers (values never recorded). */
  readonly headers?: Readonly<Record<string, string>>;
  /** With `endpoint`: name of its discovery tool. */
  readonly discoveryTool?: string;
  /** With `endpoint`: argument that carries the query. */
  readonly queryArg?: string;
  /** Seed of every random draw (recorded). Default {@linkcode BENCH_DEFAULTS}`.seed`. */
  readonly seed?: number;
  /**
   * Tool-description overrides file (lib/catalog/overrides.ts) applied to every corpus before
   * tokens, arms and retrieval are measured, and with `live` to the reference proxy's upstream
   * catalog; the report's `overrides` block records it. Default: none.
   */
  readonly overrides?: string;
  /** Install folder of `proxyServers` packages. Default `.scratch/servers` under the root. */
  readonly installDir?: string;
  /** Tokenizer factory. Default: lib/tokens `createTokenizer`. */
  readonly createTokenizer?: (name: TokenizerName) => Tokenizer;
  /** Task recorded in the report. Default `tasks/bench.ts`. */
  readonly task?: string;
  /**
   * Given a draft of the report once every measurement but the paired tests is done (no
   * `retrievalComparisons`, tool results or live block; `run` and `dependencies` placeholders):
   * `deno task bench` warms its dashboard worker on it (`DashboardRenderer.warm`). Awaited; do
   * not change the draft (it shares the report's rows). Default: none.
   */
  readonly onDraft?: (draft: BenchReport) => void | Promise<void>;
  /**
   * Given, once the golden sets are read, the seed and sizes of the paired tests the bench
   * expects to run (`pairedTestTables` in lib/stats draws their tables): `deno task bench` has
   * its dashboard worker draw them while this thread measures. Tables kept for other sizes go
   * unused; the tests' results are the same either way. Default: none.
   */
  readonly pairedTables?: (
    tests: readonly { seed: number; n: number; resamples: number }[],
  ) => void;
  /**
   * Told the encodings whose rank tables this thread lacks before the inputs load (not with
   * `createTokenizer`), e.g. to have a worker build them while they load and keep them here
   * (`workerDashboardRenderer().rankTables`, lib/flows/io.ts): the tokenizers are made once the
   * inputs are loaded, after its promise settles or {@linkcode RANK_TABLES_WAIT_MS} have
   * passed, whichever is first (then they build what is missing themselves: the same tables,
   * so the same counts). Default: none.
   */
  readonly rankTables?: (names: readonly TokenizerName[]) => Promise<void>;
  /**
   * Runs the measurement jobs (lib/flows/bench_jobs.ts): the calling thread alone (default,
   * {@linkcode inProcessBenchPool}) or workers too (`workerBenchPool` in lib/flows/io.ts).
   * Results merge in job order, so the report is the same bytes whatever the pool. Ignored
   * (everything runs here) with `createTokenizer`, which cannot cross into a worker.
   */
  readonly pool?: BenchPoolFactory;
}

/**
 * How long the bench waits, once its inputs are loaded, for the rank tables it asked for
 * ({@linkcode RunBenchOptions.rankTables}) before its tokenizers build their own (ms): about
 * what building both takes on this thread, so waiting longer would not be faster.
 */
export const RANK_TABLES_WAIT_MS = 150;

/** Options checked and defaults applied, before any file is read. */
interface Plan {
  readonly tokenizerNames: TokenizerName[];
  readonly corpusPaths: readonly string[];
  readonly armNames: string[];
  readonly goldenPaths: readonly string[];
  readonly retrieverNames: RetrieverName[];
  readonly models: RetrieverModelPlan;
  readonly resamples: number;
  readonly liveGolden: string | undefined;
  readonly format: CatalogFormat | undefined;
  readonly seed: number;
}

function plan(options: RunBenchOptions, fromRoot: (path: string) => string): Plan {
  // A name or file given twice is measured once (as --arms does), in first-given order.
  const tokenizerNames = [...new Set(options.tokenizers ?? TOKENIZER_NAMES)];
  for (const name of tokenizerNames) {
    if (!isTokenizerName(name)) {
      throw new UsageError(
        `--tokenizers: unknown tokenizer "${name}" (known: ${TOKENIZER_NAMES.join(", ")})`,
      );
    }
  }
  let armNames: string[] = [];
  const armSpec = options.arms ?? "all";
  if (armSpec !== "none") {
    try {
      armNames = parseArmList(armSpec);
    } catch (error) {
      throw new UsageError(`--arms: ${(error as Error).message}`);
    }
  }
  const goldenPaths = [
    ...new Set(
      options.golden ??
        (options.corpora ? [] : BENCH_DEFAULTS.goldenSets.map((g) => fromRoot(g))),
    ),
  ];
  const retrieverSpec = options.retrievers ?? BENCH_DEFAULTS.retrievers.split(",");
  // `none` (alone) scores no retriever, as --arms none encodes no arm.
  const retrieverNames = retrieverSpec.length === 1 && retrieverSpec[0] === "none"
    ? []
    : [...new Set(retrieverSpec)];
  for (const name of retrieverNames) {
    if (!(RETRIEVER_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--retrievers: unknown retriever "${name}" (known: ${RETRIEVER_NAMES.join(", ")})`,
      );
    }
  }
  const models = checkRetrieverModels(retrieverNames, options, "--retrievers");
  const live = options.live ?? false;
  if (
    !live && (options.endpoint || options.headers || options.discoveryTool || options.queryArg)
  ) {
    throw new UsageError("--endpoint, --header, --discovery-tool and --query-arg need --live");
  }
  const resamples = options.resamples ?? BENCH_DEFAULTS.resamples;
  if (resamples < 1 || resamples > MAX_RESAMPLES) {
    throw new UsageError(
      `--resamples must be an integer in [1, ${MAX_RESAMPLES}], got ${JSON.stringify(resamples)}`,
    );
  }
  const liveGolden = goldenPaths.find((p) => p !== "none") ??
    (live ? fromRoot(BENCH_DEFAULTS.golden) : undefined);
  if (live && goldenPaths.length > 0 && goldenPaths.every((p) => p === "none")) {
    throw new UsageError(
      "--live scores discovery on a golden set: drop --golden none or pass --golden FILE",
    );
  }
  const format = options.format as CatalogFormat | undefined;
  if (format !== undefined && !(CATALOG_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `--format must be one of ${CATALOG_FORMATS.join(", ")}, got ${JSON.stringify(format)}`,
    );
  }
  if (options.proxyServers && options.proxyCatalog) {
    throw new UsageError("pass either --proxy-catalog or --proxy-servers, not both");
  }
  return {
    tokenizerNames: tokenizerNames as TokenizerName[],
    corpusPaths: options.corpora ?? [fromRoot(BENCH_DEFAULTS.corpus)],
    armNames,
    goldenPaths,
    retrieverNames: retrieverNames as RetrieverName[],
    models,
    resamples,
    liveGolden,
    format,
    seed: options.seed ?? BENCH_DEFAULTS.seed,
  };
}

/**
 * Checks the options of {@linkcode runBench} without reading anything, so a task can reject bad
 * flags before it touches the disk.
 *
 * @param options The options.
 * @param io Repository root for the defaults. @default {denoFlowIo()}
 * @throws {UsageError} On an unknown tokenizer, arm, retriever or format, resamples out of
 *   range, endpoint options without `live`, `live` with no golden set, or both proxy inputs.
 */
export function checkBenchOptions(
  options: RunBenchOptions,
  io: Pick<FlowIo, "fromRoot"> = denoFlowIo(),
): void {
  plan(options, io.fromRoot);
}

/**
 * The golden-set × retriever × index loop as jobs: {@linkcode planRetrieval} lists the jobs
 * (and, in loop order, the warnings known before scoring); {@linkcode replayRetrieval} walks the
 * same order over the jobs' results, so the rows and warnings come out as a sequential loop
 * would give them.
 */
type RetrievalStep =
  | { readonly warning: string }
  | { readonly job: number; readonly golden: GoldenSet; readonly retriever: RetrieverName }
  | { readonly frontier: number }
  | { readonly audit: GoldenSetAudit }
  | { readonly unreachable: GoldenSet; readonly corpus: Corpus };

/** Where a golden set is scored: a corpus index (-1: skipped), and why when it is not plain. */
interface GoldenTarget {
  /** Index into the corpora, or -1 when the set is skipped. */
  readonly corpus: number;
  /** The skip, or the scoring against the only corpus of a set naming another, in words. */
  readonly warning?: string;
  /** Of a skipped set: why, and what to change, without the "skipped" (for an error). */
  readonly reason?: string;
}

/**
 * Which corpus each golden set is scored against: the one whose id is its `corpus_version`;
 * with one corpus, that corpus whatever the set names (a warning says so when it names
 * another, e.g. a reference_v1 set scored on a synthetic catalog); else none (skipped, with a
 * warning that names the set, why, and what to change).
 */
function goldenTargets(
  corpusIds: readonly string[],
  goldenSets: readonly GoldenSet[],
): GoldenTarget[] {
  return goldenSets.map((golden) => {
    const c = corpusIds.findIndex((id) => id === golden.corpusVersion);
    if (c >= 0) return { corpus: c };
    if (corpusIds.length === 1) {
      return golden.corpusVersion === undefined ? { corpus: 0 } : {
        corpus: 0,
        warning: `golden set ${golden.id} names corpus "${golden.corpusVersion}", not "${
          corpusIds[0]
        }"; scored against "${corpusIds[0]}", the only corpus measured`,
      };
    }
    const why = golden.corpusVersion === undefined
      ? `names no corpus (it has no "corpus_version")`
      : `names corpus "${golden.corpusVersion}", which was not measured`;
    const fix = `set its "corpus_version" to the id of the corpus it labels (measured: ${
      corpusIds.join(", ")
    })`;
    return {
      corpus: -1,
      warning: `golden set ${golden.id} ${why}; skipped: ${fix}`,
      reason: `golden set ${golden.id} ${why}; ${fix}`,
    };
  });
}

function planRetrieval(
  corpora: readonly { corpus: Corpus }[],
  goldenSets: readonly GoldenSet[],
  targets: readonly GoldenTarget[],
  p: Plan,
  indexArms: readonly IndexArm[],
  jobs: BenchJob[],
): RetrievalStep[] {
  const steps: RetrievalStep[] = [];
  // The fields each index arm changes, per corpus: rendered once, not once per golden set and
  // retriever.
  const changedByCorpus = new Map<number, Map<string, IndexFieldName[]>>();
  const changedOn = (c: number) => {
    let changed = changedByCorpus.get(c);
    if (changed === undefined) {
      const tools = corpora[c].corpus.tools;
      changed = new Map(indexArms.map((a) => [a.name, changedIndexFields(tools, a.indexFields)]));
      changedByCorpus.set(c, changed);
    }
    return changed;
  };
  for (const [g, golden] of goldenSets.entries()) {
    const { corpus: targetIndex, warning } = targets[g];
    if (warning !== undefined) steps.push({ warning });
    if (targetIndex < 0) continue;
    const target = corpora[targetIndex];
    const audit = auditGoldenSet(golden, target.corpus);
    steps.push({ audit });
    const easy = auditWarning(audit);
    if (easy !== undefined) steps.push({ warning: easy });
    for (const retriever of p.retrieverNames) {
      const entry = retrieverEntry(retriever);
      const local = entry.endpoint !== undefined || entry.asyncBuild;
      const chosen = entry.reads.length === 0
        ? indexArmsFor(retriever, target.corpus.tools, indexArms)
        : indexArmsFor(retriever, target.corpus.tools, indexArms, changedOn(targetIndex));
      // A retriever that calls an endpoint is scored on its plain index only: every arm's
      // index would be embedded (and paid for) again.
      const armsScored = entry.endpoint === undefined ? chosen.score : [];
      if (entry.endpoint !== undefined && chosen.score.length > 0) {
        steps.push({
          warning: `${golden.id}/${retriever} scored on its plain index only: the ${
            chosen.score.map((a) => a.name).join(", ")
          } indexes would each call the ${entry.endpoint} endpoint again`,
        });
      }
      for (const skip of chosen.skipped) {
        steps.push({
          warning: `${golden.id}/${retriever} on the ${skip.arm} index not scored: ${skip.reason}`,
        });
      }
      for (const arm of [undefined, ...armsScored]) {
        steps.push({ job: jobs.length, golden, retriever });
        jobs.push({
          kind: "retrieval",
          golden: g,
          corpus: targetIndex,
          retriever,
          arm: arm?.name ?? null,
          local,
          label: `${golden.id}: ${retriever}${arm ? ` on ${arm.name} index` : ""}`,
        });
      }
      if (!FRONTIER_SKIP.has(retriever)) {
        steps.push({ frontier: jobs.length });
        jobs.push({
          kind: "frontier",
          golden: g,
          corpus: targetIndex,
          retriever,
          local,
          label: `${golden.id}: ${retriever} cost-quality frontier`,
        });
      }
    }
    steps.push({ unreachable: golden, corpus: target.corpus });
  }
  return steps;
}

/** The scored rows, the audit of each scored set, and the warnings met, in loop order. */
function replayRetrieval(
  steps: readonly RetrievalStep[],
  results: readonly BenchJobResult[],
): {
  retrieval: RetrievalResult[];
  audits: GoldenSetAudit[];
  frontier: FrontierRow[];
  unreachable: UnreachableTools[];
  warnings: string[];
} {
  const retrieval: RetrievalResult[] = [];
  const audits: GoldenSetAudit[] = [];
  const frontier: FrontierRow[] = [];
  const unreachable: UnreachableTools[] = [];
  const warnings: string[] = [];
  const baselines = new Set(["random", "oracle"]);
  for (const step of steps) {
    if ("warning" in step) warnings.push(step.warning);
    else if ("audit" in step) audits.push(step.audit);
    else if ("frontier" in step) frontier.push(results[step.frontier] as FrontierRow);
    else if ("unreachable" in step) {
      const golden = step.unreachable;
      unreachable.push(unreachableTools(
        golden.id,
        step.corpus,
        retrieval.filter((r) =>
          r.goldenSetId === golden.id && r.arm === null && !baselines.has(r.retriever)
        ).flatMap((r) => r.perQuery.map((q) => q.topIds)),
      ));
    } else {
      const { golden, retriever } = step;
      const entry = retrieverEntry(retriever);
      const result = results[step.job] as RetrievalResult;
      if (result.dropped.count > 0) {
        warnings.push(
          `${golden.id}/${retriever}: ${result.dropped.count} queries dropped (${
            Object.entries(result.dropped.reasons).map(([k, v]) => `${k}: ${v}`).join(", ")
          })`,
        );
      }
      const repaired = result.perQuery.filter((q) => q.notes !== undefined).length;
      if (repaired > 0) {
        warnings.push(
          `${golden.id}/${retriever}: ${repaired} of ${result.queryCount} queries needed repairs (see perQuery[].notes)`,
        );
      }
      const failures = result.cost?.failures;
      if (failures !== undefined) {
        warnings.push(
          `${golden.id}/${retriever}: ${failures.count} ${entry.endpoint} calls failed after retries (first: ${
            failures.examples[0]
          })`,
        );
      }
      retrieval.push(result);
    }
  }
  return { retrieval, audits, frontier, unreachable, warnings };
}

/**
 * The paired-test jobs: one per plain-index row of a retriever other than the baseline that
 * has a baseline row (same golden set and corpus), in row order, as `compareToBaseline` over
 * every row walks them.
 */
function compareJobs(rows: readonly RetrievalResult[]): BenchJob[] {
  return rows.flatMap((row) => {
    if (row.arm !== null || row.retriever === COMPARISON_BASELINE) return [];
    const baseline = rows.find((r) =>
      r.arm === null && r.retriever === COMPARISON_BASELINE &&
      r.goldenSetId === row.goldenSetId && r.corpusId === row.corpusId
    );
    return baseline === undefined ? [] : [{
      kind: "compare" as const,
      row,
      baseline,
      local: false,
      label: `${row.goldenSetId}: ${row.retriever} vs ${COMPARISON_BASELINE} paired tests`,
    }];
  });
}

/** Retrievers whose frontier is drawn: all but the random floor. */
const FRONTIER_SKIP = new Set(["random"]);

/**
 * Runs the bench and returns its report. Every input file is read before any measurement, so a
 * bad one fails fast; `run` (time, git, wall ms) is the only non-deterministic block.
 *
 * @param options See {@linkcode RunBenchOptions}.
 * @param io Clock, repository root, path display, git, versions, progress (task `bench`).
 *   @default {denoFlowIo()}
 * @returns The report (shape: lib/report/report.schema.json).
 * @throws {UsageError} On bad options (see {@linkcode checkBenchOptions}), an unreadable golden
 *   set or tool-results file, a corpus or mode catalog with no tools, or two corpora with one id.
 * @throws {import("../catalog/errors.ts").CatalogError} On a catalog that cannot be loaded.
 */
export async function runBench(
  options: RunBenchOptions = {},
  io: FlowIo = denoFlowIo(),
): Promise<BenchReport> {
  const started = io.now();
  // A custom tokenizer factory cannot cross into a worker: then every job runs here.
  const pool = (options.createTokenizer === undefined ? options.pool : undefined) ??
    inProcessBenchPool();
  const running = pool();
  try {
    return await benchOn(running, started, options, io);
  } finally {
    running.close();
  }
}

async function benchOn(
  running: BenchPool,
  started: number,
  options: RunBenchOptions,
  io: FlowIo,
): Promise<BenchReport> {
  const say = (message: string) => io.progress("bench", message);
  // Asked now, answered while the bench works (git runs in its own process): the state of the
  // checkout the run started from. The no-op catch keeps an early failure from going unhandled
  // before the report awaits it (and throws it) below.
  const git = io.gitState();
  const dependencies = io.dependencyVersions();
  git.catch(() => {});
  dependencies.catch(() => {});
  const p = plan(options, io.fromRoot);
  // The default tokenizers' rank tables, asked for now (a worker builds them while the inputs
  // load); the tokenizers are made once the inputs are loaded, below.
  const rankTables = options.createTokenizer === undefined
    ? options.rankTables?.(p.tokenizerNames.filter((n) => !hasRankTable(n)))
    : undefined;

  const toolResultsPath = options.toolResults ?? io.fromRoot(BENCH_DEFAULTS.toolResults);
  const toolResultsFile = toolResultsPath === "none"
    ? undefined
    : await loadToolResults(toolResultsPath).catch((error) => {
      throw new UsageError(`--tool-results ${toolResultsPath}: ${(error as Error).message}`);
    });
  const corpora: { corpus: Corpus; path: string }[] = [];
  // Corpora measured as their files give them go to the other lanes by name: each loads them
  // itself, from now on (none with overrides), beside this thread.
  const files: CorpusFile[] | undefined = options.overrides === undefined
    ? p.corpusPaths.map((path) => ({
      path,
      ...(p.format === undefined ? {} : { format: p.format }),
    }))
    : undefined;
  if (files !== undefined) running.prefetch?.(files);
  for (const path of p.corpusPaths) {
    say(`loading ${path}`);
    const corpus = await loadCatalog(path, p.format === undefined ? {} : { format: p.format });
    if (corpus.tools.length === 0) {
      throw new UsageError(`corpus ${path} has no tools: nothing to measure`);
    }
    corpora.push({ corpus: withSurrogateWarning(corpus), path: io.displayPath(path) });
  }
  // The corpora as their files give them: one changed below (renamed, overridden) is copied.
  const asLoaded = corpora.map((c) => c.corpus);
  const given = p.corpusPaths.map((path) => path.replace(/^(\.\/)+/, ""));
  const twice = given.find((path, i) => given.indexOf(path) !== i);
  if (twice) throw new UsageError(`--corpus ${twice} is given twice; pass each file once`);
  // Two files that give the same id (a/x/tools.json, b/x/tools.json) are named by their paths.
  uniqueCorpusIds(corpora.map((c, i) => ({ id: c.corpus.id, path: given[i] }))).forEach(
    (choice, i) => {
      if (choice.warning === undefined) return;
      const { corpus } = corpora[i];
      corpora[i].corpus = {
        ...corpus,
        id: choice.id,
        warnings: [...corpus.warnings, choice.warning],
      };
    },
  );
  const overrides = options.overrides === undefined
    ? undefined
    : await overrideCorpora(corpora, options.overrides, io, say);
  const goldenSets: GoldenSet[] = [];
  for (const path of p.goldenPaths.filter((g) => g !== "none")) {
    say(`loading golden set ${path}`);
    goldenSets.push(
      await loadGolden(path).catch((error) => {
        const message = (error as Error).message;
        throw new UsageError(
          message.includes(path) ? `--golden: ${message}` : `--golden ${path}: ${message}`,
        );
      }),
    );
  }
  if (rankTables !== undefined) await settledWithin(rankTables, RANK_TABLES_WAIT_MS);
  const make = options.createTokenizer ?? createDefaultTokenizer;
  const tokenizers = p.tokenizerNames.map((n) => make(n));
  // Matched to the corpora now, before any measurement: the console names each skip (and each
  // set scored on the only corpus though it names another), and a run that asked for golden
  // sets and could score none of them is bad input, not a run without retrieval.
  const targets = goldenTargets(corpora.map((c) => c.corpus.id), goldenSets);
  for (const t of targets) if (t.warning !== undefined) say(t.warning);
  if (goldenSets.length > 0 && !options.live && targets.every((t) => t.corpus < 0)) {
    throw new UsageError(
      `--golden: no golden set can be scored, so nothing asked for would be measured: ${
        targets.map((t) => t.reason).join("; ")
      }`,
    );
  }
  for (const [g, t] of targets.entries()) {
    const golden = goldenSets[g];
    if (t.corpus < 0 || t.warning === undefined) continue;
    // Scored on the only corpus though it names another: when none of its labels is a tool of
    // that corpus, the error says that the set names another corpus.
    const ids = new Set(corpora[t.corpus].corpus.tools.map((tool) => tool.id));
    try {
      alignGolden(golden, ids, { strict: false });
    } catch (error) {
      if (!(error instanceof IdMismatchError)) throw error;
      throw new IdMismatchError(
        `${error.message}; the set names corpus "${golden.corpusVersion}", not "${
          corpora[t.corpus].corpus.id
        }" (the corpus measured): pass the corpus it labels with --corpus`,
        "",
      );
    }
  }
  // The paired tests to come, each retriever against the baseline per golden set and metric (as
  // compareRetrievals derives their seeds; its 10,000 permutations), for a thread to prepare.
  if (
    options.pairedTables && p.retrieverNames.includes(COMPARISON_BASELINE) &&
    p.retrieverNames.length > 1
  ) {
    options.pairedTables(goldenSets.flatMap((g) => {
      const n = [...g.queries.keys()].filter((id) => g.qrels.has(id)).length;
      return COMPARED_METRICS.map((metric) => ({
        seed: deriveSeed(p.seed, metric),
        n,
        resamples: 10000,
      }));
    }));
  }
  // Models (and their keys) are resolved before any measurement, so a missing key fails fast.
  const endpoints = await resolveRetrieverModels(p.models, {
    modelsPath: options.models ?? io.fromRoot(BENCH_DEFAULTS.models),
    embeddingCache: options.embeddingCache ?? io.fromRoot(BENCH_DEFAULTS.embeddingCache),
    chatCache: options.chatCache ?? io.fromRoot(BENCH_DEFAULTS.chatCache),
    // Keys from the environment or the git-ignored .env, as the agents read them.
    env: io.env(),
    dotEnv: io.fromRoot(".env"),
    now: io.epochNow,
  });
  const proxyPath = options.proxyCatalog ?? io.fromRoot(BENCH_DEFAULTS.proxyCatalog);
  const codePath = options.codeCatalog ?? io.fromRoot(BENCH_DEFAULTS.codeCatalog);
  const proxy = options.proxyServers
    ? await (async () => {
      // Imported here, not at the top: it loads the MCP SDK, which a bench without
      // --proxy-servers never needs (the same for runLive and --live below).
      const { captureCatalog } = await import("./capture_catalog.ts");
      const live = await captureCatalog(options.proxyServers!, {
        installDir: options.installDir ?? io.fromRoot(BENCH_DEFAULTS.installDir),
        task: "bench",
      }, io);
      for (const f of live.failed) {
        say(`proxy server ${f.server} failed: ${f.outcome}: ${f.message}`);
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
    const [flag, catalog, path] of [
      ["--proxy-catalog", proxy, proxyPath],
      ["--code-catalog", code, codePath],
    ] as const
  ) {
    if (catalog.tools.length === 0) throw new UsageError(`${flag} ${path} has no tools`);
  }

  const degenerate = corpora.map(({ corpus }) => countDegenerateDescriptions(corpus.tools));
  let packageInfo: Map<string, PackageInfo> | undefined;
  if (options.packageInfo !== undefined) {
    const path = options.packageInfo;
    say(`loading package info ${path}`);
    packageInfo = await Deno.readTextFile(path).then((t) => parsePackageInfo(t, path)).catch(
      (error) => {
        throw new UsageError(`--package-info ${path}: ${(error as Error).message}`);
      },
    );
  }
  // Every measurement is an independent job (lib/flows/bench_jobs.ts), run by the pool (the
  // calling thread, or workers too) and merged back in job order.
  const context: BenchJobContext = {
    corpora: corpora.map((c) => c.corpus),
    goldenSets,
    tokenizerNames: p.tokenizerNames,
    armNames: p.armNames,
    ...(packageInfo === undefined ? {} : { packageInfo }),
    proxyTools: proxy.tools,
    codeTools: code.tools,
    seed: p.seed,
    resamples: p.resamples,
  };
  // Loaded first: the pool settles its lanes here, and the job split below reads them.
  running.load(
    context,
    files?.map((f, i) =>
      context.corpora[i] === asLoaded[i]
        ? { ...f, sha256: asLoaded[i].provenance.sha256 ?? "" }
        : undefined
    ),
  );
  const workers = running.lanes - 1;
  say(
    `${counted(running.lanes, "lane")} (this thread${
      workers === 0 ? "" : ` and ${counted(workers, "worker")}`
    })`,
  );
  const lane = await benchLane(context, tokenizers, endpoints);
  const jobs: BenchJob[] = [];
  // Catalog cost and arms: one job per corpus over every tokenizer, whatever the lanes: each arm
  // is rendered once and each shared description and schema counted once per tokenizer, which
  // a job per tokenizer would do again on every lane. The lanes share out the jobs instead:
  // modes with the first arms group (one lane counts their texts once), the arms in groups only
  // where a lane would wait (armGroups), each retriever's jobs, on whichever lane is free.
  const all = p.tokenizerNames.map((_, t) => t);
  const each = corpora.map((_, corpus) => ({ corpus, tokenizers: all }));
  const names = (tokenizers: readonly number[]) =>
    tokenizers.map((t) => p.tokenizerNames[t]).join(", ");
  for (const { corpus, tokenizers } of each) {
    const c = corpora[corpus].corpus;
    jobs.push({
      kind: "modes",
      corpus,
      tokenizers,
      local: false,
      label: `${c.id}: counting ${counted(c.tools.length, "tool")} with ${names(tokenizers)}`,
    });
  }
  const armJobs = jobs.length;
  // The retrieval jobs are listed apart first (their steps index that list, placed after the
  // arms below), so that the arms split weighs them: the arms go in groups only where a lane
  // would otherwise wait (each group's job measures the baseline again).
  const retrievalJobs: BenchJob[] = [];
  const steps = planRetrieval(corpora, goldenSets, targets, p, lane.indexArms, retrievalJobs);
  const armSplit = armGroups(
    p.armNames,
    running.lanes,
    [...jobs, ...retrievalJobs],
    corpora.map(({ corpus }) => corpus.tools.length),
  );
  if (p.armNames.length > 0) {
    for (const { corpus, tokenizers } of each) {
      for (const group of armSplit) {
        const listed = group.map((a) => p.armNames[a]);
        jobs.push({
          kind: "arms",
          corpus,
          tokenizers,
          ...(armSplit.length === 1 ? {} : { arms: group }),
          local: false,
          label: `${corpora[corpus].corpus.id}: encoding arms ${listed.join(", ")} with ${
            names(tokenizers)
          }`,
        });
      }
    }
  }
  const retrievalAt = jobs.length;
  jobs.push(...retrievalJobs);
  const runner = benchJobRunner(lane);
  const results = await running.run(jobs, runner, say);
  const sections = mergeCatalogCost(results.slice(0, armJobs) as CatalogCostSections[]);
  const arms = p.armNames.length === 0 ? undefined : corpora.flatMap((_, corpus) =>
    mergeArmRows(
      p.armNames,
      armSplit.map((_, g) => results[armJobs + corpus * armSplit.length + g] as ArmRow[]),
    )
  );
  const replayed = replayRetrieval(steps, results.slice(retrievalAt));
  const warnings = [
    ...replayed.warnings,
    ...corpora.flatMap(({ corpus }) => corpus.warnings.map((w) => `${corpus.id}: ${w}`)),
  ];
  const inputs = [
    ...corpora.map(({ corpus, path }) => ({ path, sha256: corpus.provenance.sha256 ?? "" })),
    {
      path: io.displayPath(options.proxyServers ?? proxyPath),
      sha256: proxy.provenance.sha256 ?? "",
    },
    { path: io.displayPath(codePath), sha256: code.provenance.sha256 ?? "" },
    ...p.goldenPaths.filter((g) => g !== "none").map((path, i) => ({
      path: io.displayPath(path),
      sha256: goldenSets[i].sha256 ?? "",
    })),
    ...(toolResultsFile === undefined
      ? []
      : [{ path: io.displayPath(toolResultsPath), sha256: toolResultsFile.sha256 ?? "" }]),
    ...(overrides === undefined ? [] : [overrides.input]),
  ];
  const summaries = corpora.map(({ corpus, path }, i) =>
    summarizeCorpus(corpus, path, degenerate[i])
  );
  /** The report of the measurements so far, with the parts measured after them. */
  const reportOf = (later: {
    run: BenchReport["run"];
    dependencies: BenchReport["dependencies"];
    comparisons: readonly BaselineComparison[];
    toolResults?: BenchReport["toolResults"];
    live?: BenchReport["live"];
  }): BenchReport => ({
    schemaVersion: REPORT_SCHEMA_VERSION,
    task: options.task ?? "tasks/bench.ts",
    run: later.run,
    seed: p.seed,
    tokenizers: p.tokenizerNames,
    dependencies: later.dependencies,
    inputs,
    caveats: { tokenizer: TOKENIZER_CAVEAT },
    degenerateRules: degenerate[0]?.rules ?? [],
    corpora: summaries,
    ...sections,
    ...(arms ? { arms } : {}),
    ...(replayed.retrieval.length > 0 ? { retrieval: replayed.retrieval } : {}),
    ...(replayed.audits.length > 0 ? { goldenSets: replayed.audits } : {}),
    ...(later.comparisons.length > 0 ? { retrievalComparisons: later.comparisons } : {}),
    ...(replayed.frontier.length > 0 ? { frontier: replayed.frontier } : {}),
    ...(replayed.unreachable.length > 0 ? { unreachable: replayed.unreachable } : {}),
    ...(later.toolResults ? { toolResults: later.toolResults } : {}),
    ...(later.live ? { live: later.live } : {}),
    ...(overrides === undefined ? {} : { overrides: overrides.block }),
    warnings: [...warnings, ...(overrides?.block.problems ?? []).map((p) => `overrides: ${p}`)],
  });
  // A draft for whoever wants one (the dashboard's worker warms up on it) before the paired tests.
  if (options.onDraft) {
    await options.onDraft(reportOf({
      run: { createdAt: io.createdAt(), git: { commit: null, dirty: null }, wallMs: 0 },
      dependencies: {},
      comparisons: [],
    }));
  }
  // The paired tests read the scored rows: a second batch, one job per compared row.
  const comparisons = await running.run(
    compareJobs(results.filter((_, i) => jobs[i].kind === "retrieval") as RetrievalResult[]),
    runner,
    say,
  );
  const toolResults = toolResultsFile === undefined ? undefined : (() => {
    say(`pricing tool results ${toolResultsPath}`);
    const m = measureToolResults(toolResultsFile.results, tokenizers);
    return {
      resultsId: toolResultsFile.id,
      path: io.displayPath(toolResultsPath),
      payloadCount: m.payloadCount,
      summary: m.summary,
      rows: m.rows,
      skipped: m.skipped,
      provenance: { tokens: "measured", savings: "computed" },
    };
  })();
  const live = !options.live ? undefined : await (await import("./live.ts")).runLive({
    tokenizer: p.tokenizerNames[0],
    golden: p.liveGolden,
    ...(options.endpoint ? { endpoint: options.endpoint, headers: options.headers ?? {} } : {}),
    ...(options.discoveryTool ? { tool: options.discoveryTool } : {}),
    ...(options.queryArg ? { queryArg: options.queryArg } : {}),
    onProgress: (m) => say(`live: ${m}`),
    ...(options.createTokenizer ? { createTokenizer: options.createTokenizer } : {}),
    ...(overrides === undefined ? {} : { overrides: overrides.doc }),
  }, io);
  return reportOf({
    run: {
      createdAt: io.createdAt(),
      git: await git,
      wallMs: Math.round(io.now() - started),
    },
    dependencies: await dependencies,
    comparisons: (comparisons as BaselineComparison[][]).flat(),
    ...(toolResults ? { toolResults } : {}),
    ...(live ? { live } : {}),
  });
}

/**
 * Waits for `promise` at most `ms` milliseconds: settles when it settles (fulfilled or rejected)
 * or when the time is up, whichever is first; never rejects, and leaves no timer behind.
 *
 * @param promise Anything awaited (its value and error are dropped).
 * @param ms The bound (ms).
 * @returns Settles as said.
 */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise((resolve) => timer = setTimeout(resolve, ms)),
  ]);
  clearTimeout(timer);
}

/**
 * Reads `--overrides` and applies it to every corpus in place (before anything is measured).
 * A key is a problem only when it names a tool of no corpus; a parameter problem is one per
 * corpus whose tool lacks it.
 */
async function overrideCorpora(
  corpora: { corpus: Corpus; path: string }[],
  path: string,
  io: FlowIo,
  say: (message: string) => void,
): Promise<
  { doc: ToolOverrides; block: OverridesBlock; input: { path: string; sha256: string } }
> {
  say(`loading overrides ${path}`);
  // Imported here: the overrides' zod schemas load only for a bench given --overrides.
  const { loadToolOverrides } = await import("../catalog/load_overrides.ts");
  const { applyToolOverrides, toolOverridesSha256 } = await import("../catalog/overrides.ts");
  const doc: ToolOverrides = await loadToolOverrides(path, io.displayPath(path));
  const keyProblems = new Map<string, OverrideProblem[]>();
  const problems: string[] = [];
  const perCorpus: { corpusId: string; applied: number }[] = [];
  const tools = new Set<string>();
  for (const [i, c] of corpora.entries()) {
    const out = applyToolOverrides(c.corpus.tools, doc);
    corpora[i] = { ...c, corpus: { ...c.corpus, tools: out.tools } };
    perCorpus.push({ corpusId: c.corpus.id, applied: out.applied.length });
    for (const a of out.applied) tools.add(a.toolId);
    for (const p of out.problems) {
      if (p.parameter === undefined) keyProblems.set(p.key, [...(keyProblems.get(p.key) ?? []), p]);
      else problems.push(`${c.corpus.id}: ${p.message}`);
    }
  }
  for (const list of keyProblems.values()) {
    // Named no tool of any corpus: report it once (as unknown-tool when some corpus has the server).
    if (list.length < corpora.length) continue;
    problems.push((list.find((p) => p.kind === "unknown-tool") ?? list[0]).message);
  }
  const sha256 = await toolOverridesSha256(doc);
  return {
    doc,
    block: {
      path: io.displayPath(path),
      sha256,
      keys: Object.keys(doc.overrides).length,
      applied: tools.size,
      tools: [...tools].sort(),
      corpora: perCorpus,
      problems: problems.sort(),
    },
    input: { path: io.displayPath(path), sha256: await sha256Hex(await Deno.readFile(path)) },
  };
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
  // Asked first: a worker renders the page while this thread writes report.json.
  const page = render(report);
  // Whole or not at all: a bench stopped while writing leaves the last report, not half of one.
  await writeAtomic(reportPath, stableJson(report));
  await writeAtomic(dashboardPath, await page);
  return { reportPath, dashboardPath };
}

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
        m.mode === "direct" ? "" : `  ${savingsPhrase(saved, pct)}`
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
  for (const corpus of report.corpora) {
    const savings = (report.arms ?? []).flatMap((a) =>
      !a.skipped && a.corpusId === corpus.id && a.tokenizer === tok &&
        a.arm !== "baseline_json" && typeof a.savings === "number"
        ? [`${a.arm} ${savingsPhrase(a.savings)}`]
        : []
    );
    if (savings.length > 0) {
      // The report keeps one sign (savings > 0 = fewer tokens); the console words it (savingsPhrase).
      lines.push(`${corpus.id.padEnd(16)} arms vs baseline_json: ${savings.join(", ")}`);
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
  if (report.warnings.length > 0) {
    // Counted, not listed: a catalog's loader notes alone can run to dozens of lines.
    lines.push(
      `warnings         ${
        counted(report.warnings.length, "warning")
      }, listed in report.json "warnings" and on the dashboard`,
    );
  }
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
  if (report.overrides) {
    const o = report.overrides;
    lines.push(
      `overrides        ${o.path}: ${o.applied} of ${counted(o.keys, "tool")} rewritten${
        o.problems.length > 0 ? `, ${o.problems.length} naming nothing (see warnings)` : ""
      }`,
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
    // How many golden queries the figures rest on, and why the rest were left out.
    const q = l.queries;
    const reasons = Object.entries(q.skipped.reasons).map(([why, n]) => `${n} ${why}`);
    lines.push(
      `live             on ${q.used} of ${
        counted(q.total, "query", "queries")
      } of ${q.goldenSetId}${
        q.skipped.count > 0 ? ` (${q.skipped.count} left out: ${reasons.join(", ")})` : ""
      }${q.failed > 0 ? `, ${q.failed} failed` : ""}`,
    );
  }
  return lines;
}

/**
 * `--header K:V` values as request headers (keys and values trimmed). The message of a bad value
 * shows only what comes before its first `:`, since a header value may be a secret.
 *
 * @param values The flag's values (absent: none).
 * @returns Header name → value.
 * @throws {UsageError} On a value without a name before `:`.
 */
export function parseHeaderFlags(values: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values ?? []) {
    const i = h.indexOf(":");
    if (i <= 0) {
      throw new UsageError(`--header must be K:V, got "${h.split(":")[0]}..."`);
    }
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return headers;
}

/**
 * Checks, before any work, that `outDir` is a folder the bench can write: creates it and writes
 * then removes a probe file.
 *
 * @param outDir The `--out` folder.
 * @throws {UsageError} When it cannot be created or written.
 */
export async function checkOutFolder(outDir: string): Promise<void> {
  try {
    await Deno.mkdir(outDir, { recursive: true });
    await Deno.writeTextFile(`${outDir}/.write-test`, "");
    await Deno.remove(`${outDir}/.write-test`);
  } catch (error) {
    throw new UsageError(`--out ${outDir} is not a writable folder: ${(error as Error).message}`);
  }
}

/**
 * The corpus with a warning naming its tools whose name, title, description or schema holds an
 * unpaired UTF-16 surrogate: it is priced as the text is (the counts do not change), but such a
 * string has no UTF-8 form and strict JSON parsers refuse the request that carries it.
 */
function withSurrogateWarning(corpus: Corpus): Corpus {
  const found: string[] = [];
  for (const tool of corpus.tools) {
    const at = loneSurrogateField(tool);
    if (at !== undefined) found.push(`${tool.id} ${at}`);
  }
  if (found.length === 0) return corpus;
  const shown = found.slice(0, 5).join(", ") +
    (found.length > 5 ? `, and ${found.length - 5} more` : "");
  const warning = `unpaired UTF-16 surrogate (no UTF-8 form; strict JSON parsers refuse it, ` +
    `priced as written): ${counted(found.length, "tool")} (${shown})`;
  return { ...corpus, warnings: [...corpus.warnings, warning] };
}
