/**
 * The help text of `deno task bench`, generated from the registries (encoding arms, retrievers,
 * tokenizers) and the bench defaults, so it never names an arm or a retriever that does not
 * exist.
 *
 * @module
 */
import { ARM_NAMES } from "../encodings/mod.ts";
import {
  DEFAULT_EXPANSIONS,
  DEFAULT_RERANK_BASE,
  DEFAULT_RERANK_K,
  RETRIEVER_NAMES,
  RETRIEVERS,
} from "../retrieval/mod.ts";
import { TOKENIZER_NAMES } from "../tokens/default_tokenizer.ts";
import { BENCH_DEFAULTS } from "./bench_options.ts";
import { CATALOG_FORMATS } from "../catalog/parse.ts";
import { helpText } from "../core/help.ts";

/**
 * `deno task bench --help`.
 *
 * @returns The text in the layout every task's help shares (lib/core/help.ts).
 */
export function benchHelp(): string {
  return helpText({
    usage: "bench [options]",
    purpose:
      "What MCP tool catalogs cost in context tokens, and how well retrievers find the tools.",
    about: `Reads the catalogs, golden sets and configs you name wherever they are (default: the
reference corpus of 73 npm MCP servers) and writes report.json and dashboard.html.`,
    options:
      `  --corpus FILE        Tool catalog to measure; repeat for several. Formats: mcpmeter capture,
                       mcpproxy corpus, LiveMCPBench snapshot, raw MCP tools/list result
                       (bare, the whole JSON-RPC response, or its tools array), or one
                       server's tools as a provider takes them (Anthropic Messages, OpenAI
                       Chat Completions or Responses, Gemini: the tools array or the whole
                       request body; read as MCP tools); detected automatically. Its id
                       is the file's id, else its name
                       (a bare tools.json: its folder's); two files that give the same id are
                       named by their paths (a/x/tools.json, b/x/tools.json: a/x, b/x).
                       Default: ${BENCH_DEFAULTS.corpus}
  --format NAME        Format of the --corpus files when detection cannot tell:
                       ${CATALOG_FORMATS.slice(0, 4).join(", ")},
                       ${CATALOG_FORMATS.slice(4).join(", ")}
                       (default: detected)
  --tokenizers LIST    Comma-separated encodings: ${TOKENIZER_NAMES.join(",")} (default: both)
  --proxy-catalog FILE Catalog of the discovery proxy priced as the "proxy" mode
                       (default: ${BENCH_DEFAULTS.proxyCatalog}, mcpmeter's reference proxy)
  --proxy-servers CONFIG
                       Price your running gateway instead: capture the tools/list of the
                       server(s) in this mcpServers config live and use it as the "proxy"
                       catalog (replaces --proxy-catalog)
  --code-catalog FILE  Catalog priced as the "code" mode (default: ${BENCH_DEFAULTS.codeCatalog})
  --arms LIST          Encoding arms to price: "all" (default), "none", or a comma list of
                       ${ARM_NAMES.join(", ")}
  --golden FILE        Graded golden query set (mcpproxy format) scored against the corpus whose
                       id matches its corpus_version (with one corpus: that corpus, warned when
                       the set names another; with several: a set naming none of them is
                       skipped with a warning, and exit 2 when every set is); repeat for several;
                       "none" to skip
                       (default, with the default corpus: ${
        BENCH_DEFAULTS.goldenSets.join(" and ")
      },
                       v1 the easy set written from tool names, v2 written from user scenarios;
                       each set's audit is reported and a set whose name hit rate is above 0.5
                       is flagged)
  --retrievers LIST    Retrievers to score: ${RETRIEVER_NAMES.join(", ")};
                       "none" to score none (default: ${BENCH_DEFAULTS.retrievers}). ${
        new Intl.ListFormat("en", { type: "conjunction" }).format(
          RETRIEVERS.filter((r) => r.reads.length > 0 && r.plainIndexOnly === undefined).map((r) =>
            r.name
          ),
        )
      }
                       are also scored on the index of every selected arm that changes a field
                       they read (retrievers that call an endpoint: their plain index only)
  --embedding-model ID Model-registry entry (kind "embedding", any OpenAI-compatible
                       /v1/embeddings endpoint) of dense and hybrid; required by them
  --models FILE        Model registry (default: ${BENCH_DEFAULTS.models}); keys come from the
                       environment or .env, never from the file
  --embedding-cache DIR
                       Vector cache, keyed by model + sha256 of the text (default:
                       ${BENCH_DEFAULTS.embeddingCache}); a second run embeds no document again
  --rerank-model ID    Chat model of the registry (any provider) that reorders the top k of
                       --rerank-base per query, listwise; required by rerank. Its tokens and
                       USD are reported per query and in total
  --rerank-base NAME   Retriever whose top k rerank reorders (default: ${DEFAULT_RERANK_BASE})
  --rerank-k N         Candidates per query shown to the rerank model (default: ${DEFAULT_RERANK_K})
  --expand-model ID    Chat model of the registry that writes ${DEFAULT_EXPANSIONS} user requests per tool at
                       index time (expand, doc2query-style); its one-off cost is reported
  --chat-cache DIR     Answers of the rerank and expand models, keyed by model + sha256 of the
                       prompt (default: ${BENCH_DEFAULTS.chatCache}); a rerun sends no prompt again
  --model-timeout SECONDS
                       Wait for one answer of the embedding or a chat model before it is a
                       timeout: retried once, then that model is down for the run (default: 60
                       for embeddings, 120 for chat models; raise it for a slow local model)
  --hosted-search anthropic:ID
                       Also score anthropic_hosted: Anthropic's own tool search, asked through
                       the registry's model ID (a model with tool search) once per golden query
                       with every corpus tool deferred; answers cached in .scratch/hosted_search
                       (a rerun sends nothing), tokens and USD reported per query and in total
  --hosted-search-variant bm25|regex
                       Which tool search tool --hosted-search sends (default: bm25)
  --package-info FILE  Package description and keywords per server (a capture manifest, or e.g.
                       fixtures/corpora/reference_v1.packages.json): scored as the package_info
                       index of the retrievers that read the server field
  --resamples N        Bootstrap resamples per metric (default: 1000)
  --tool-results FILE  Captured tools/call results priced as compact JSON vs TOON (the
                       toon_results pseudo-arm); "none" to skip (default: ${BENCH_DEFAULTS.toolResults})
  --live               Also measure discovery over MCP: boot the reference retrieve_tools proxy
                       over the installed reference servers (or a small set installed on first
                       use), call it for each golden query over streamable HTTP, and add the
                       live block (response tokens by component, latency, break-even calls,
                       session estimates, full-vs-compact flip gate). Takes about a minute.
  --endpoint URL       With --live: measure this MCP server or gateway instead of the proxy
  --header K:V         With --endpoint: request header (repeatable; values never recorded)
  --discovery-tool N   With --endpoint: name of its discovery tool (default: retrieve_tools)
  --query-arg NAME     With --endpoint: argument that carries the query (default: query)
  --overrides FILE     Tool-description overrides ({"overrides": {"server:tool": {"description",
                       "title", "parameters": {NAME or /JSON/Pointer: text}}}}) applied to every
                       corpus before tokens, arms and retrieval are measured (with --live,
                       to the reference proxy's upstream tools too); the report's
                       "overrides" block records the file, its sha256, the tools rewritten and
                       every key that names no tool (also a warning)
  --count-with P:M     Price the catalog with the providers' own count endpoints, e.g.
                       anthropic:claude-sonnet-4-5,openai:gpt-5,gemini:gemini-2.5-pro (keys
                       from ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY; base URLs from
                       ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GEMINI_BASE_URL when set). One
                       request without tools, one with the catalog, one per server; the
                       number is printed before they are sent; answers are cached in
                       .scratch/count_tokens (a second run sends none). A missing key or a
                       refusal leaves that row "not measured" with the reason
  --count-per-tool     With --count-with: also one request per tool
  --calibration FILE   Calibration of the billed estimates (deno task calibrate-tokens
                       writes one; default: the shipped one, from cited sources)
  --cost-layers none   Skip the cost layers (wire, sent, billed; docs/cost-layers.md)
  --out DIR            Output folder for report.json, cost_layers_tools.csv and dashboard.html (default: ${BENCH_DEFAULTS.out}/)
  --seed N             Seed of the random server subsets (default: ${BENCH_DEFAULTS.seed}); recorded`,
    exitCodes: "0 written, 1 measured nothing (what failed is in report.json) or a crash, " +
      "2 bad input (a flag, a catalog, a golden set that matches no corpus)",
    notes: `Outputs: DIR/report.json (schema: lib/report/report.schema.json) and DIR/dashboard.html
(self-contained). Token counts use OpenAI encodings; read ratios between modes, not absolutes.`,
  });
}
