/**
 * mcpmeter: measure what MCP tools cost an agent and how well the agent does with them.
 *
 * The curated public surface: the entry points and record types of each concept, pure (no
 * files, processes, network or clock; those are in `lib/io.ts`). Each folder's own `mod.ts` (and
 * `io.ts`) has the full list (`@lib/catalog/mod.ts`, ...). Layers, bottom first: catalog and
 * tokens, encodings, retrieval / mcp / modes, proxy, live / agent, sweep, report, flows (see
 * ARCHITECTURE.md).
 *
 * - catalog: the `Tool`/`Corpus` contract, parsers, canonical JSON, degenerate descriptions,
 *   lint, schema normalization per provider dialect, tool-description overrides;
 * - tokens: `cl100k_base`/`o200k_base` tokenizers;
 * - modes: exposure-mode cost (`direct`, `proxy`, `code`), savings (fractions) and scaling;
 * - encodings: the encoding-arm registry (`ARMS`) and its runner;
 * - retrieval: the retriever registry (`RETRIEVERS`), golden sets, evaluation, IR metrics;
 * - stats: seeded PRNG, bootstrap, paired tests, Wilson, pass@k;
 * - mcp: servers configs and listing;
 * - report: the bench report shape, deterministic JSON, the dashboard, the gate;
 * - agent: the provider registry (`PROVIDER_ENTRIES`), configurations, the agent loop;
 * - sweep, live, proxy: parameter sweeps, live discovery cost, the reference proxy;
 * - flows: `runBench` and `runLive`, each taking its I/O as a parameter.
 *
 * @example Price a catalog under two encoding arms and score a retriever
 * ```ts
 * import { ARMS, createTokenizer, evaluateRetrieval, measureArms, parseMcpproxyGolden, RETRIEVERS } from "./mod.ts";
 * const tools = ["create_issue", "list_issues", "read_file"].map((name) => ({
 *   id: `gh:${name}`, server: "gh", name, description: `${name.replace("_", " ")} on GitHub`,
 *   inputSchema: { type: "object", properties: { repo: { type: "string", description: "owner/name" } } },
 * }));
 * const corpus = { id: "demo", version: "1", provenance: { format: "mcp-tools-list" as const }, tools, warnings: [] };
 * const arms = ARMS.filter((a) => a.name === "baseline_json" || a.name === "compact_sig").map((a) => a.arm!);
 * const rows = measureArms({ corpus, arms, tokenizers: [createTokenizer("cl100k_base")] });
 * const sig = rows.find((r) => r.arm === "compact_sig");
 * if (!sig || sig.skipped || sig.savings === null || sig.savings <= 0) throw new Error("compact_sig saves tokens");
 * const golden = parseMcpproxyGolden(JSON.stringify({ queries: [
 *   { id: "q1", query: "open a new issue", labels: [{ tool_id: "gh:create_issue", relevance: 2 }] },
 * ] }), { id: "demo.test" });
 * const bm25 = RETRIEVERS.find((r) => r.name === "bm25")!;
 * const row = evaluateRetrieval({ corpus, golden, retriever: bm25.name, seed: 1, resamples: 10 });
 * if (row.queryCount !== 1) throw new Error("one query scored");
 * ```
 *
 * @module
 */
export {
  applyToolOverrides,
  canonicalJson,
  CATALOG_FORMATS,
  CatalogError,
  type CatalogFormat,
  type Corpus,
  countDegenerateDescriptions,
  InputFileError,
  type JsonObject,
  type JsonValue,
  lintCatalog,
  type LintFinding,
  normalizeForProvider,
  parseCatalog,
  parseToolOverrides,
  SCHEMA_DIALECTS,
  type SchemaDialect,
  schemaText,
  sha256Hex,
  type Tool,
  type ToolOverrides,
} from "./catalog/mod.ts";
export {
  createTokenizer,
  isTokenizerName,
  type Tokenizer,
  TOKENIZER_NAMES,
  type TokenizerName,
} from "./tokens/mod.ts";
export {
  catalogCost,
  type CrossoverRow,
  measureCatalogCost,
  type MeasureCatalogCostOptions,
  type ModeRow,
  savings,
  savingsBySize,
  type ScalingRow,
} from "./modes/mod.ts";
export {
  ARM_NAMES,
  type ArmEntry,
  type ArmRow,
  ARMS,
  type EncodingArm,
  type IndexFields,
  loadArms,
  measureArms,
  measureToolResults,
  observeAltersIndex,
  parseArmList,
  parseToolResults,
  type ToolResultsFile,
  type UnavailableArm,
} from "./encodings/mod.ts";
export {
  auditGoldenSet,
  compareRetrievals,
  createBm25Retriever,
  createTfidfClassicRetriever,
  evaluateRetrieval,
  evaluateRetrievalAsync,
  type EvaluateRetrievalOptions,
  type GoldenSet,
  indexArmsFor,
  METRIC_KEYS,
  type MetricKey,
  parseBeir,
  parseMcpproxyGolden,
  parseToolRet,
  type RetrievalResult,
  type Retriever,
  RETRIEVER_NAMES,
  type RetrieverContext,
  type RetrieverCost,
  type RetrieverEntry,
  retrieverEntry,
  RETRIEVERS,
} from "./retrieval/mod.ts";
export {
  bootstrapMeanCi,
  createRng,
  deriveSeed,
  pairedTest,
  passAtK,
  passHatK,
  wilsonInterval,
} from "./stats/mod.ts";
export {
  CLIENT_INFO,
  listServer,
  parseServersConfig,
  type ServerCaptureRecord,
  type ServerEntry,
  type ServersConfig,
} from "./mcp/mod.ts";
export {
  type BenchReport,
  gateRuns,
  type Provenance,
  renderDashboard,
  REPORT_SCHEMA_VERSION,
  stableJson,
  TOKENIZER_CAVEAT,
  upgradeBenchReport,
} from "./report/mod.ts";
export {
  type AgentConfig,
  type CaseRecord,
  exposeTools,
  type ModelClient,
  type ModelConfig,
  parseAgents,
  parseModels,
  parseSuite,
  PROVIDER_ENTRIES,
  PROVIDER_NAMES,
  type ProviderEntry,
  providerEntry,
  runAgentLoop,
  type Suite,
  summarizeRecords,
} from "./agent/mod.ts";
export { expandSweep } from "./sweep/mod.ts";
export { breakEven, buildLiveBlock, type LiveBlock, sessionEstimates } from "./live/mod.ts";
export {
  createProxyCore,
  createToolIndex,
  PROXY_TOOL_DEFINITIONS,
  proxyRetriever,
} from "./proxy/mod.ts";
export { runBench, type RunBenchOptions, runLive } from "./flows/mod.ts";
