// A small bench report for the report and dashboard tests (not part of the surface).
import { corpus, proxy, tool, words } from "./modes.ts";
import { measureCatalogCost } from "../lib/modes/catalog_cost.ts";
import type { CostLayerRow } from "../lib/billing/layers.ts";
import {
  type BenchReport,
  type CostLayersBlock,
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

const base = {
  corpusId: "c",
  model: null,
  tokenizer: null,
  fields: {},
} as const;
const counted = (
  layer: "wire" | "sent",
  server: string | null,
  format: CostLayerRow["format"],
  tokens: number,
  fields: CostLayerRow["fields"] = {},
): CostLayerRow => ({
  ...base,
  server,
  layer,
  provider: format === null
    ? null
    : format === "anthropic-messages"
    ? "anthropic"
    : format === "gemini"
    ? "gemini"
    : "openai",
  format,
  tokenizer: "o200k_base",
  tokens,
  low: tokens,
  high: tokens,
  provenance: "measured",
  fields,
});
const billed = (
  provider: "anthropic" | "openai" | "gemini",
  server: string | null,
  figure: { tokens: number; low: number; high: number } | { reason: string },
  model: string | null = null,
  provenance: "measured" | "estimated" = "estimated",
): CostLayerRow => ({
  ...base,
  server,
  provider,
  format: provider === "anthropic"
    ? "anthropic-messages"
    : provider === "openai"
    ? "openai-responses"
    : "gemini",
  model,
  layer: "billed",
  ...("reason" in figure
    ? { tokens: null, low: null, high: null, provenance: null, reason: figure.reason }
    : { ...figure, provenance }),
});

/**
 * A hand-made `costLayers` block (the view's tests know every figure): a corpus `c` of three servers: wire a 100, b 300, z 300 (b and z tie: b first by name), 700 in
 * all; Anthropic measured 1,500 by claude-x beside an estimate; OpenAI's count refused, estimated
 * 640 [500-900]; Gemini estimated only.
 */
export function tinyCostLayers(): CostLayersBlock {
  return {
    calibration: { name: "test calibration", method: "by hand", path: null, sources: [] },
    counts: { planned: 10, sent: 4, cached: 6 },
    rows: [
      counted("wire", null, null, 700, { name: 70, description: 210, inputSchema: 420 }),
      counted("wire", "a", null, 100),
      counted("wire", "b", null, 300),
      counted("wire", "z", null, 300),
      counted("sent", null, "anthropic-messages", 600, { name: 60, inputSchema: 540 }),
      counted("sent", "b", "anthropic-messages", 250),
      counted("sent", null, "openai-responses", 650),
      counted("sent", null, "openai-chat-completions", 640),
      counted("sent", null, "gemini", 800),
      billed("anthropic", null, { tokens: 1200, low: 1000, high: 1400 }),
      billed("anthropic", "b", { tokens: 420, low: 380, high: 470 }),
      billed("anthropic", null, { tokens: 1500, low: 1500, high: 1500 }, "claude-x", "measured"),
      billed("openai", null, { tokens: 640, low: 500, high: 900 }),
      billed("openai", null, { reason: "401 refused" }, "gpt-x"),
      billed("gemini", null, { tokens: 810, low: 690, high: 1050 }),
    ],
  };
}
