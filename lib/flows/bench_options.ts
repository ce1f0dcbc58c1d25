/**
 * The bench's options: their defaults, their check and the plan they make (names resolved,
 * defaults applied), before any file is read; and the task's `--header` and `--out` checks.
 *
 * @module
 */
import type { CatalogFormat } from "../catalog/types.ts";
import { CATALOG_FORMATS } from "../catalog/parse.ts";
import { parseArmList } from "../encodings/mod.ts";
import { RETRIEVER_NAMES, type RetrieverName } from "../retrieval/mod.ts";
import { isTokenizerName, TOKENIZER_NAMES } from "../tokens/default_tokenizer.ts";
import type { Tokenizer, TokenizerName } from "../tokens/types.ts";
import { UsageError } from "../core/errors.ts";
import { checkRetrieverModels, type RetrieverModelPlan } from "./retriever_models.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import { parseCountTargets } from "./bench_cost_layers.ts";

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
 * Options of `runBench` (lib/flows/bench.ts); every one has a default. Paths are absolute or relative to
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
   * Wait, ms, for one answer of an embedding or chat model of the retrievers before it is a
   * timeout (retried once, then the model is down for the run). Default 60 s for embeddings,
   * 120 s for chat models.
   */
  readonly modelTimeoutMs?: number;
  /**
   * `anthropic:ID`: also score `anthropic_hosted`, Anthropic's own tool search asked through the
   * registry's model ID (one request per golden query, cached in `.scratch/hosted_search`).
   */
  readonly hostedSearch?: string;
  /** Variant of the hosted search: `bm25` (default) or `regex`. */
  readonly hostedSearchVariant?: string;
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
  /**
   * Providers and models whose own count endpoints price the catalog (`--count-with
   * anthropic:MODEL,openai:MODEL,gemini:MODEL`): the cost layers' billed rows are then measured
   * (keys and base URLs from the environment; a missing key or a refusal leaves that row not
   * measured, with the reason). Default: none (billed rows are estimates).
   */
  readonly countWith?: readonly string[];
  /** With `countWith`: also one count request per tool (`--count-per-tool`). Default false. */
  readonly countPerTool?: boolean;
  /** Calibration file of the billed estimates (`--calibration`). Default: the shipped one. */
  readonly calibration?: string;
  /** Cache folder of the count answers. Default `.scratch/count_tokens` under the root. */
  readonly countCache?: string;
  /** Measure the cost layers (`--cost-layers none` skips them). Default true. */
  readonly costLayers?: boolean;
  /** Install folder of `proxyServers` packages. Default `.scratch/servers` under the root. */
  readonly installDir?: string;
  /** Tokenizer factory. Default: lib/tokens `createTokenizer`. */
  readonly createTokenizer?: (name: TokenizerName) => Tokenizer;
  /** Task recorded in the report. Default `tasks/bench.ts`. */
  readonly task?: string;
}

/** Options checked and defaults applied, before any file is read. */
export interface Plan {
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

/**
 * The options checked, defaults applied.
 *
 * @param options The options.
 * @param fromRoot Absolute path of a repository-relative default.
 * @returns The plan.
 * @throws {UsageError} As {@linkcode checkBenchOptions}.
 */
export function plan(options: RunBenchOptions, fromRoot: (path: string) => string): Plan {
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
  // --hosted-search selects the hosted search itself (scored beside the chosen retrievers).
  if (options.hostedSearch !== undefined && !retrieverNames.includes("anthropic_hosted")) {
    retrieverNames.push("anthropic_hosted");
  }
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
  const countTargets = parseCountTargets(options.countWith ?? []);
  if (options.countPerTool && countTargets.length === 0) {
    throw new UsageError("--count-per-tool needs --count-with PROVIDER:MODEL");
  }
  if (options.costLayers === false && countTargets.length > 0) {
    throw new UsageError("--count-with prices the cost layers: drop --cost-layers none");
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
 * Checks the options of `runBench` (lib/flows/bench.ts) without reading anything, so a task can reject bad
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
