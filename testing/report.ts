// A small bench report for the report and dashboard tests (not part of the surface).
import { corpus, proxy, tool, words } from "./modes.ts";
import { measureCatalogCost } from "../lib/modes/catalog_cost.ts";
import {
  type BenchReport,
  REPORT_SCHEMA_VERSION,
  summarizeCorpus,
  TOKENIZER_CAVEAT,
} from "../lib/report/bench_report.ts";

/**
 * The bench report of the modes tests' 78-tool corpus with the word "tokenizer": the catalog-cost
 * sections at sizes 5, 20 and 50, fixed run metadata, no arms or retrieval.
 *
 * @param seed The report's seed (also the sampling seed). @default {7}
 * @param warnings The report's warnings. @default {[]}
 * @returns The report.
 */
export function tinyBenchReport(seed = 7, warnings: string[] = []): BenchReport {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    task: "test",
    run: { createdAt: "2026-01-01T00:00:00.000Z", git: { commit: null, dirty: null }, wallMs: 0 },
    seed,
    tokenizers: ["cl100k_base"],
    dependencies: {},
    inputs: [],
    caveats: { tokenizer: TOKENIZER_CAVEAT },
    degenerateRules: [],
    corpora: [summarizeCorpus(corpus, "tiny.json", { count: 0, byRule: {} })],
    ...measureCatalogCost({
      corpora: [corpus],
      proxyTools: proxy,
      codeTools: proxy,
      tokenizers: [words],
      seed,
      sizes: [5, 20, 50],
    }),
    warnings,
  };
}

/**
 * The bench report of a one-tool corpus (`one`: the tool `s:t0`, "does x", 4 tokens with its
 * schema, 3 without) against the 8-token proxy (7 without schema) as proxy and code catalogs:
 * every mode costs more than direct (savings 1 − 8/4 = −1 with schemas, 1 − 7/3 without).
 *
 * @returns The report.
 */
export function oneToolBenchReport(): BenchReport {
  const one = { ...corpus, id: "one", tools: [tool("s", "t0", "does x")] };
  return {
    ...tinyBenchReport(),
    corpora: [summarizeCorpus(one, "one.json", { count: 0, byRule: {} })],
    ...measureCatalogCost({
      corpora: [one],
      proxyTools: proxy,
      codeTools: proxy,
      tokenizers: [words],
      seed: 7,
      sizes: [5, 20, 50],
    }),
  };
}
