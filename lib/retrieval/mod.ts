/**
 * Discovery quality: BEIR-shaped golden sets (mcpproxy, BEIR and ToolRet formats), retrievers
 * behind one interface and one registry (`RETRIEVERS`: `bm25`, `tfidf_classic`, `random`,
 * `oracle`, `dense` and `hybrid` over an OpenAI-compatible embeddings endpoint, `rerank` and
 * `expand` over an injected chat model, each declaring the index fields it reads), IR metrics (recall@k,
 * MRR@10, nDCG@10, MAP@10) with bootstrap intervals, and a paired comparison.
 *
 * File loaders live in `load_golden.ts` (they read the disk); everything here is pure.
 *
 * @example Usage
 * ```ts
 * import { evaluateRetrieval, parseMcpproxyGolden } from "./mod.ts";
 * const tools = ["create_issue", "list_issues", "read_file"].map((name) => ({
 *   id: `gh:${name}`, server: "gh", name, description: "",
 * }));
 * const corpus = { id: "demo", version: "1", provenance: { format: "mcp-tools-list" as const }, tools, warnings: [] };
 * const golden = parseMcpproxyGolden(JSON.stringify({ queries: [
 *   { id: "q1", query: "open a new issue", labels: [{ tool_id: "gh:create_issue", relevance: 2 }] },
 * ] }), { id: "demo.test" });
 * const row = evaluateRetrieval({ corpus, golden, retriever: "oracle", seed: 1 });
 * if (row.metrics["ndcg@10"] !== 1) throw new Error("the oracle is ideal");
 * ```
 *
 * @module
 */

export type { PairedTestResult } from "../stats/paired.ts";
// The retrieval vocabulary: everything types.ts exports is public.
export * from "./types.ts";
export { GoldenSetError, IdMismatchError } from "./errors.ts";
export { InputFileError } from "../core/errors.ts";
export {
  auditGoldenSet,
  auditWarning,
  contentWords,
  type GoldenSetAudit,
  NAME_HIT_WARNING_THRESHOLD,
} from "./audit.ts";
export { type GoldenParseOptions, parseMcpproxyGolden } from "./golden.ts";
export { alignGolden, type AlignOptions, diagnoseIdMismatch } from "./align.ts";
export { defaultIndexFields, docsFromTools } from "./docs.ts";
export {
  bm25Entry,
  type Bm25FieldWeights,
  type Bm25Options,
  bm25SeesArm,
  createBm25Retriever,
  DEFAULT_BM25_WEIGHTS,
} from "./bm25.ts";
export {
  createTfidfClassicRetriever,
  DEFAULT_TFIDF_BOOSTS,
  type TfidfBoosts,
  tfidfClassicEntry,
  type TfidfClassicOptions,
  TfidfSharedAnalysis,
} from "./tfidf_classic.ts";
export {
  createOracleRetriever,
  createRandomRetriever,
  oracleEntry,
  randomEntry,
} from "./baselines.ts";
export {
  changedIndexFields,
  type IndexArm,
  indexArmsFor,
  RETRIEVER_NAMES,
  retrieverEntry,
  RETRIEVERS,
} from "./registry.ts";
export {
  averagePrecisionAtK,
  compareHits,
  meanMetrics,
  METRIC_KEYS,
  type MetricKey,
  METRICS,
  type MetricValues,
  ndcgAtK,
  queryMetrics,
  rankHits,
  recallAtK,
  reciprocalRankAtK,
} from "./metrics.ts";
export {
  builtinRetriever,
  compareRetrievals,
  type DocCorpus,
  evaluateRetrieval,
  evaluateRetrievalAsync,
  type EvaluateRetrievalOptions,
  type PerQueryRow,
  type RetrievalComparison,
  type RetrievalResult,
  type RetrieverConfigJson,
  type RetrieverFactory,
  type RetrieverName,
} from "./evaluate.ts";
export {
  cosine,
  createEmbedder,
  type Embedder,
  type EmbedderOptions,
  embeddingCacheKey,
  EmbeddingError,
  type EmbeddingModel,
  type EmbeddingStore,
  type EmbeddingUsage,
} from "./embeddings.ts";
export {
  createDenseRetriever,
  denseDocText,
  denseEntry,
  type DenseOptions,
  type DenseRetriever,
  embedderFromContext,
} from "./dense.ts";
export {
  createHybridRetriever,
  DEFAULT_RRF_K,
  hybridEntry,
  type HybridOptions,
  reciprocalRankFusion,
} from "./hybrid.ts";
export {
  type BaselineComparison,
  compareToBaseline,
  type CompareToBaselineOptions,
} from "./versus.ts";
export { bm25ParamsEntry, TASK_TUNED_BM25_WEIGHTS } from "./bm25_params.ts";
export {
  ANTHROPIC_BM25_EMULATION,
  ANTHROPIC_MAX_PATTERN,
  ANTHROPIC_MAX_REFERENCES,
  ANTHROPIC_REGEX_EMULATION,
  ANTHROPIC_TOOL_SEARCH_DOCS,
  anthropicBm25Entry,
  anthropicRegexEntry,
  argumentText,
  compileToolSearchPattern,
  OPENAI_SEARCH_EMULATION,
  OPENAI_TOOL_SEARCH_DOCS,
  openaiSearchEntry,
  regexPatternFor,
  searchByPattern,
  ToolSearchPatternError,
} from "./hosted_emulation.ts";
export { anthropicHostedEntry, createHostedRetriever, hostedRanking } from "./hosted_search.ts";
export {
  type CachedChat,
  chatCacheKey,
  type ChatCall,
  type ChatCaller,
  type ChatFn,
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  type ChatStore,
  type ChatUsage,
  createChatCaller,
} from "./chat.ts";
export {
  createRerankEntry,
  createRerankRetriever,
  DEFAULT_RERANK_BASE,
  DEFAULT_RERANK_K,
  type ParsedRanking,
  parseRanking,
  RERANK_DESCRIPTION_CHARS,
  RERANK_PROMPT_VERSION,
  RerankError,
  type RerankOptions,
  rerankPrompt,
  type RerankRetriever,
  rerankSettings,
} from "./rerank.ts";
export {
  createExpandRetriever,
  DEFAULT_EXPANSIONS,
  EXPAND_PROMPT_VERSION,
  expandEntry,
  ExpandError,
  type ExpandOptions,
  type ExpandRetriever,
  expandSettings,
  expansionPrompt,
  parseExpansions,
} from "./expand.ts";
export {
  PACKAGE_INFO_FORMAT,
  type PackageInfo,
  packageInfoArm,
  parsePackageInfo,
} from "./package_info.ts";
