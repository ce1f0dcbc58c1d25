/**
 * Every input of a bench, read and checked before anything is measured, so a bad file fails
 * fast: the corpora (named apart, overridden, with their warnings), the golden sets and the
 * corpus each is scored on, the endpoint retrievers' models, the `proxy` and `code` catalogs,
 * package info and captured tool results.
 *
 * @module
 */
import { loadCatalog, sha256Hex } from "../catalog/load.ts";
import type { OverrideProblem, ToolOverrides } from "../catalog/overrides.ts";
import { loneSurrogateField } from "../catalog/lint.ts";
import type { Corpus } from "../catalog/types.ts";
import type { OverridesBlock } from "../report/bench_report.ts";
import { loadToolResults } from "../encodings/io.ts";
import { loadGolden } from "../retrieval/load_golden.ts";
import { alignGolden } from "../retrieval/align.ts";
import { IdMismatchError } from "../retrieval/errors.ts";
import { type PackageInfo, parsePackageInfo } from "../retrieval/mod.ts";
import type { GoldenSet } from "../retrieval/types.ts";
import { UsageError } from "../core/errors.ts";
import { counted } from "../core/text.ts";
import { uniqueCorpusIds } from "./_corpus_ids.ts";
import { resolveRetrieverModels, type RetrieverModels } from "./retriever_models.ts";
import type { GoldenTarget } from "./bench_retrieval.ts";
import { BENCH_DEFAULTS, type Plan, type RunBenchOptions } from "./bench_options.ts";
import type { FlowIo } from "./io.ts";

/** The bench's inputs, loaded. */
export interface BenchInputs {
  /** The corpora measured, with their paths as recorded. */
  readonly corpora: readonly { readonly corpus: Corpus; readonly path: string }[];
  /** The golden sets, in `--golden` order. */
  readonly goldenSets: readonly GoldenSet[];
  /** Per golden set, the corpus it is scored on. */
  readonly targets: readonly GoldenTarget[];
  /** The endpoint retrievers' models. */
  readonly endpoints: RetrieverModels;
  /** The `proxy` mode's catalog. */
  readonly proxy: Corpus;
  /** The `code` mode's catalog. */
  readonly code: Corpus;
  /** `--package-info`, parsed. */
  readonly packageInfo?: ReadonlyMap<string, PackageInfo>;
  /** Captured tool results, with their path. */
  readonly toolResults?: {
    readonly path: string;
    readonly file: Awaited<ReturnType<typeof loadToolResults>>;
  };
  /** `--overrides`, applied. */
  readonly overrides?: LoadedOverrides;
  /** Every input file with its sha256, in report order. */
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
}

/** An overrides file as read and applied. */
export interface LoadedOverrides {
  readonly doc: ToolOverrides;
  readonly block: OverridesBlock;
  readonly input: { readonly path: string; readonly sha256: string };
}

/**
 * Reads and checks every input of the plan.
 *
 * @param p The plan (`plan` in bench_options.ts).
 * @param options The options (paths of the inputs the plan leaves to them).
 * @param io Paths, environment, clock.
 * @param say Progress lines.
 * @returns The inputs.
 * @throws {UsageError} On an unreadable golden set, tool-results or package-info file, a corpus
 *   or mode catalog with no tools, a corpus given twice, or golden sets none of which can be
 *   scored.
 * @throws {import("../catalog/errors.ts").CatalogError} On a catalog that cannot be loaded.
 * @throws {IdMismatchError} On a golden set none of whose labels is a tool of the one corpus.
 */
export async function loadBenchInputs(
  p: Plan,
  options: RunBenchOptions,
  io: FlowIo,
  say: (message: string) => void,
): Promise<BenchInputs> {
  const toolResultsPath = options.toolResults ?? io.fromRoot(BENCH_DEFAULTS.toolResults);
  const toolResults = toolResultsPath === "none" ? undefined : {
    path: toolResultsPath,
    file: await loadToolResults(toolResultsPath).catch((error) => {
      throw new UsageError(`--tool-results ${toolResultsPath}: ${(error as Error).message}`);
    }),
  };
  const corpora = await loadCorpora(p, io, say);
  const overrides = options.overrides === undefined
    ? undefined
    : await overrideCorpora(corpora, options.overrides, io, say);
  const goldenSets = await loadGoldenSets(p, say);
  const targets = goldenTargets(corpora.map((c) => c.corpus), goldenSets, options.live ?? false);
  for (const t of targets) if (t.warning !== undefined) say(t.warning);
  // Models (and their keys) are resolved before any measurement, so a missing key fails fast.
  const endpoints = await resolveRetrieverModels(p.models, {
    modelsPath: options.models ?? io.fromRoot(BENCH_DEFAULTS.models),
    embeddingCache: options.embeddingCache ?? io.fromRoot(BENCH_DEFAULTS.embeddingCache),
    chatCache: options.chatCache ?? io.fromRoot(BENCH_DEFAULTS.chatCache),
    // Keys from the environment or the git-ignored .env, as the agents read them.
    env: io.env(),
    dotEnv: io.fromRoot(".env"),
    now: io.epochNow,
    ...(options.modelTimeoutMs === undefined ? {} : { timeoutMs: options.modelTimeoutMs }),
  });
  const { proxy, code, proxyPath, codePath } = await loadModeCatalogs(options, io, say);
  const packageInfo = options.packageInfo === undefined
    ? undefined
    : await loadPackageInfo(options.packageInfo, say);
  const files = [
    ...corpora.map(({ corpus, path }) => ({ path, sha256: corpus.provenance.sha256 ?? "" })),
    { path: io.displayPath(proxyPath), sha256: proxy.provenance.sha256 ?? "" },
    { path: io.displayPath(codePath), sha256: code.provenance.sha256 ?? "" },
    ...p.goldenPaths.filter((g) => g !== "none").map((path, i) => ({
      path: io.displayPath(path),
      sha256: goldenSets[i].sha256 ?? "",
    })),
    ...(toolResults === undefined ? [] : [{
      path: io.displayPath(toolResults.path),
      sha256: toolResults.file.sha256 ?? "",
    }]),
    ...(overrides === undefined ? [] : [overrides.input]),
  ];
  return {
    corpora,
    goldenSets,
    targets,
    endpoints,
    proxy,
    code,
    ...(packageInfo === undefined ? {} : { packageInfo }),
    ...(toolResults === undefined ? {} : { toolResults }),
    ...(overrides === undefined ? {} : { overrides }),
    files,
  };
}

/** The corpora, each with its surrogate warning, two files of one id named by their paths. */
async function loadCorpora(
  p: Plan,
  io: FlowIo,
  say: (message: string) => void,
): Promise<{ corpus: Corpus; path: string }[]> {
  const corpora: { corpus: Corpus; path: string }[] = [];
  for (const path of p.corpusPaths) {
    say(`loading ${path}`);
    const corpus = await loadCatalog(path, p.format === undefined ? {} : { format: p.format });
    if (corpus.tools.length === 0) {
      throw new UsageError(`corpus ${path} has no tools: nothing to measure`);
    }
    corpora.push({ corpus: withSurrogateWarning(corpus), path: io.displayPath(path) });
  }
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
  return corpora;
}

async function loadGoldenSets(p: Plan, say: (message: string) => void): Promise<GoldenSet[]> {
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
  return goldenSets;
}

/**
 * Which corpus each golden set is scored against: the one whose id is its `corpus_version`;
 * with one corpus, that corpus whatever the set names (a warning says so when it names
 * another, e.g. a reference_v1 set scored on a synthetic catalog); else none (skipped, with a
 * warning that names the set, why, and what to change). Checked now, before any measurement: a
 * run that asked for golden sets and could score none of them is bad input (unless `live`
 * scores one), and so is a set scored on the only corpus though it names another when none of
 * its labels is a tool of that corpus.
 */
function goldenTargets(
  corpora: readonly Corpus[],
  goldenSets: readonly GoldenSet[],
  live: boolean,
): GoldenTarget[] {
  const corpusIds = corpora.map((c) => c.id);
  const targets = goldenSets.map((golden): GoldenTarget => {
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
  if (goldenSets.length > 0 && !live && targets.every((t) => t.corpus < 0)) {
    throw new UsageError(
      `--golden: no golden set can be scored, so nothing asked for would be measured: ${
        targets.map((t) => t.reason).join("; ")
      }`,
    );
  }
  for (const [g, t] of targets.entries()) {
    const golden = goldenSets[g];
    if (t.corpus < 0 || t.warning === undefined) continue;
    const ids = new Set(corpora[t.corpus].tools.map((tool) => tool.id));
    try {
      alignGolden(golden, ids, { strict: false });
    } catch (error) {
      if (!(error instanceof IdMismatchError)) throw error;
      throw new IdMismatchError(
        `${error.message}; the set names corpus "${golden.corpusVersion}", not "${
          corpora[t.corpus].id
        }" (the corpus measured): pass the corpus it labels with --corpus`,
        "",
      );
    }
  }
  return targets;
}

/** The `proxy` catalog (a file, or the live tools/list of `--proxy-servers`) and `code`'s. */
async function loadModeCatalogs(
  options: RunBenchOptions,
  io: FlowIo,
  say: (message: string) => void,
): Promise<{ proxy: Corpus; code: Corpus; proxyPath: string; codePath: string }> {
  const codePath = options.codeCatalog ?? io.fromRoot(BENCH_DEFAULTS.codeCatalog);
  let proxyPath = options.proxyCatalog ?? io.fromRoot(BENCH_DEFAULTS.proxyCatalog);
  let proxy: Corpus;
  if (options.proxyServers) {
    // Imported here: it loads the MCP SDK, which a bench without --proxy-servers never needs.
    const { captureCatalog } = await import("./capture_catalog.ts");
    const live = await captureCatalog(options.proxyServers, {
      installDir: options.installDir ?? io.fromRoot(BENCH_DEFAULTS.installDir),
      task: "bench",
    }, io);
    for (const f of live.failed) {
      say(`proxy server ${f.server} failed: ${f.outcome}: ${f.message}`);
    }
    // The config's bytes are the input this catalog is traced to.
    proxy = {
      ...live.corpus,
      provenance: { ...live.corpus.provenance, sha256: live.configSha256 },
    };
    proxyPath = options.proxyServers;
  } else {
    proxy = await loadCatalog(proxyPath, { server: "proxy" });
  }
  const code = await loadCatalog(codePath, { server: "proxy" });
  for (
    const [flag, catalog, path] of [
      [options.proxyServers ? "--proxy-servers" : "--proxy-catalog", proxy, proxyPath],
      ["--code-catalog", code, codePath],
    ] as const
  ) {
    if (catalog.tools.length === 0) throw new UsageError(`${flag} ${path} has no tools`);
  }
  return { proxy, code, proxyPath, codePath };
}

async function loadPackageInfo(
  path: string,
  say: (message: string) => void,
): Promise<Map<string, PackageInfo>> {
  say(`loading package info ${path}`);
  return await Deno.readTextFile(path).then((t) => parsePackageInfo(t, path)).catch((error) => {
    throw new UsageError(`--package-info ${path}: ${(error as Error).message}`);
  });
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
): Promise<LoadedOverrides> {
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
