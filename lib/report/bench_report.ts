/**
 * The bench report (`results/report.json`): its shape and a pure builder.
 *
 * Everything outside `run` is a deterministic function of the inputs, the
 * seed and the code: the same inputs give the same bytes. `run` holds the
 * wall-clock time and git state of the run that produced the file.
 * The JSON Schema is `lib/report/report.schema.json`.
 *
 * @module
 */
import type { Corpus } from "../catalog/types.ts";
import type { ModeRow } from "../modes/modes.ts";
import type { ScalingRow } from "../modes/scaling.ts";
import type { CrossoverRow, Heaviest } from "../modes/catalog_cost.ts";
import type { DeferredModeRow, DeferredScalingRow } from "../modes/deferred.ts";
import type { LiveBlock } from "../live/live_block.ts";
import type { ArmRow } from "../encodings/measure.ts";
import type { RetrievalResult } from "../retrieval/evaluate.ts";
import type { GoldenSetAudit } from "../retrieval/audit.ts";
import type { BaselineComparison } from "../retrieval/versus.ts";
import type { FrontierRow, UnreachableTools } from "../live/frontier.ts";
import type { CalibrationSource } from "../billing/estimate.ts";
import type { CostLayerRow } from "../billing/layers.ts";

/**
 * Version of the report shape; bumped when a field changes meaning or type. Version 2: every
 * savings figure is a fraction (`arms[].savings`, `toolResults` `savings`/`minSavings`/
 * `maxSavings`; version 1 had them as percents named `savingsPct`, `minSavingsPct`,
 * `maxSavingsPct`). Version 3: `costLayers` (what the catalog costs as received, as sent to
 * each provider, and as billed). {@linkcode upgradeBenchReport} reads versions 1 and 2.
 */
export const REPORT_SCHEMA_VERSION = 3;

/** Printed in every report and on the README: what token counts mean. */
export const TOKENIZER_CAVEAT: string =
  "Token counts use OpenAI's cl100k_base and o200k_base BPE encodings. For other vendors' models " +
  "(Anthropic, Google, open-weight models) these are estimators and can undercount substantially; " +
  "the ratios between exposure modes and encodings are the headline, not the absolute counts.";

/** Per-corpus summary row. */
export interface CorpusSummary {
  /** Corpus id. */
  readonly id: string;
  /** Corpus version string from the file. */
  readonly version: string;
  /** Catalog format the corpus was read from. */
  readonly format: string;
  /** Path as given on the command line. */
  readonly path: string;
  /** SHA-256 of the file's bytes (hex). */
  readonly sha256: string;
  /** Number of tools (unique ids). */
  readonly toolCount: number;
  /** Number of distinct servers. */
  readonly serverCount: number;
  /** Tools carrying an `inputSchema`. */
  readonly schemaCount: number;
  /** Tools whose description is degenerate (any rule). */
  readonly degenerateCount: number;
  /** Degenerate tools per rule id. */
  readonly degenerateByRule: Readonly<Record<string, number>>;
  /** Loader warnings (lenient parses). */
  readonly warnings: readonly string[];
}

/** Metadata of the producing run (not deterministic). */
export interface RunInfo {
  /** ISO 8601 time the report was written (or `SOURCE_DATE_EPOCH`). */
  readonly createdAt: string;
  /** Commit and dirtiness of the checkout, or nulls outside git. */
  readonly git: { readonly commit: string | null; readonly dirty: boolean | null };
  /** Wall time of the whole bench (ms). */
  readonly wallMs: number;
}

/**
 * The tool-description overrides a bench applied to its corpora (`bench --overrides`) before
 * tokens, encoding arms and retrieval were measured.
 */
export interface OverridesBlock {
  /** The file as given. */
  readonly path: string;
  /**
   * SHA-256 of the overrides' canonical content (`toolOverridesSha256`, lib/catalog), the hash
   * agent runs record too; `inputs` has the file's byte hash.
   */
  readonly sha256: string;
  /** Override keys (`server:tool`) in the file. */
  readonly keys: number;
  /** Distinct tool ids rewritten, over every corpus. */
  readonly applied: number;
  /** Those tool ids, sorted. */
  readonly tools: readonly string[];
  /** Tools rewritten per corpus. */
  readonly corpora: readonly { readonly corpusId: string; readonly applied: number }[];
  /** Keys that named no tool of any corpus, and parameters a tool lacks: one line each, sorted. */
  readonly problems: readonly string[];
}

/** `report.json`'s `costLayers`. */
export interface CostLayersBlock {
  /** The calibration of the estimates: its name, method, file (`null`: the default) and sources. */
  readonly calibration: {
    readonly name: string;
    readonly method: string;
    readonly path: string | null;
    readonly sources: readonly CalibrationSource[];
  };
  /** Count requests planned, sent (retries included) and answered from the cache. */
  readonly counts?: { readonly planned: number; readonly sent: number; readonly cached: number };
  /** Corpus (`server: null`) and server rows of every layer. */
  readonly rows: readonly CostLayerRow[];
}

/** The whole report. Optional sections are present when their inputs were given. */
export interface BenchReport {
  /** Report shape version ({@linkcode REPORT_SCHEMA_VERSION}). */
  readonly schemaVersion: number;
  /** Task that produced the report, e.g. `tasks/bench.ts`. */
  readonly task: string;
  /** Non-deterministic metadata of the producing run. */
  readonly run: RunInfo;
  /** Seed of every random draw in the report. */
  readonly seed: number;
  /** Tokenizer names, in column order. */
  readonly tokenizers: readonly string[];
  /** npm package versions the numbers depend on. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** Files read, with the SHA-256 of their bytes. */
  readonly inputs: readonly { readonly path: string; readonly sha256: string }[];
  /** Caveats printed with the numbers (the tokenizer caveat). */
  readonly caveats: { readonly tokenizer: string };
  /** The degenerate-description rules applied, as text. */
  readonly degenerateRules: readonly { readonly id: string; readonly description: string }[];
  /** One summary per corpus, in input order. */
  readonly corpora: readonly CorpusSummary[];
  /** Cost of each exposure mode per corpus × tokenizer. */
  readonly modes: readonly ModeRow[];
  /** Cost against catalog size per corpus × tokenizer. */
  readonly scaling: readonly ScalingRow[];
  /** Where the proxy and code modes start to pay off, per corpus × tokenizer. */
  readonly crossovers: readonly CrossoverRow[];
  /** The 10 heaviest tools and servers per corpus × tokenizer. */
  readonly heaviest: readonly Heaviest[];
  /**
   * The deferred modes (provider tool search, a deferring client) per corpus × tokenizer, in
   * their provider's sent form (`measureDeferredModes` in lib/modes): session start, tokens per
   * search, break-even against `direct` and the reference proxy, sessions, crossovers.
   */
  readonly deferredModes?: readonly DeferredModeRow[];
  /** The deferred modes against catalog size, per corpus × tokenizer × mode. */
  readonly deferredScaling?: readonly DeferredScalingRow[];
  /** Encoding arm rows (`measureArms` in `lib/encodings`), when measured. */
  readonly arms?: readonly ArmRow[];
  /** Retrieval rows (`evaluateRetrieval` in `lib/retrieval`), when measured. */
  readonly retrieval?: readonly RetrievalResult[];
  /**
   * Audit of every golden set scored, against its corpus (`auditGoldenSet` in `lib/retrieval`):
   * how much its queries echo the best tools' words; `easy` marks a set whose figures overstate
   * what users will see. Present when retrieval was measured.
   */
  readonly goldenSets?: readonly GoldenSetAudit[];
  /**
   * Each retriever against `bm25` on each golden set (plain indexes): paired randomization test
   * of recall@5 and nDCG@10 per query (`compareToBaseline` in `lib/retrieval`).
   */
  readonly retrievalComparisons?: readonly BaselineComparison[];
  /**
   * Cost–quality frontier per golden set × retriever: for k = 1…20, estimated tokens of a
   * `retrieve_tools` response with k results (the proxy's full response text) against recall@k
   * (`measureFrontier` in `lib/live`).
   */
  readonly frontier?: readonly FrontierRow[];
  /** Tools no query retrieved, and tools with an isolated vocabulary, per golden set × corpus. */
  readonly unreachable?: readonly UnreachableTools[];
  /**
   * Captured `tools/call` results priced as compact JSON against TOON (the
   * `toon_results` pseudo-arm), when measured.
   */
  readonly toolResults?: {
    /** Id of the results file. */
    readonly resultsId: string;
    /** Per-class summaries (`tabular`, `non_tabular`, `all`) per tokenizer. */
    readonly summary: readonly unknown[];
    /** Other fields: path, payloadCount, rows, skipped, provenance. */
    readonly [key: string]: unknown;
  };
  /**
   * Live discovery over MCP (`--live`): response cost by component, latency,
   * break-even calls, session estimates, flip gate. Shape: `LiveBlock` in
   * `lib/live/live_block.ts`.
   */
  readonly live?: LiveBlock;
  /** Tool-description overrides applied to the corpora (`bench --overrides`), when given. */
  readonly overrides?: OverridesBlock;
  /**
   * The three cost layers of every corpus (lib/billing, docs/cost-layers.md): `wire` (the
   * `tools/list` arrays as received), `sent` (the `tools` value of each provider's request) and
   * `billed` (the provider's count with `--count-with`, else an estimate with an interval).
   */
  readonly costLayers?: CostLayersBlock;
  /** Non-fatal problems met during the run. */
  readonly warnings: readonly string[];
}

/**
 * Summarizes a loaded corpus for the report.
 *
 * @param corpus The corpus.
 * @param path Path as given by the user.
 * @param degenerate Degenerate-description counts for it.
 * @returns The {@linkcode CorpusSummary}.
 */
export function summarizeCorpus(
  corpus: Corpus,
  path: string,
  degenerate: { readonly count: number; readonly byRule: Readonly<Record<string, number>> },
): CorpusSummary {
  return {
    id: corpus.id,
    version: corpus.version,
    format: corpus.provenance.format,
    path,
    sha256: corpus.provenance.sha256 ?? "",
    toolCount: corpus.tools.length,
    serverCount: new Set(corpus.tools.map((t) => t.server)).size,
    schemaCount: corpus.tools.filter((t) => t.inputSchema !== undefined).length,
    degenerateCount: degenerate.count,
    degenerateByRule: degenerate.byRule,
    warnings: corpus.warnings,
  };
}

/**
 * Reads a parsed `report.json` of any known version as the current shape: version 1 savings in
 * percent (`savingsPct`, `minSavingsPct`, `maxSavingsPct` on `arms[]` and in `toolResults`)
 * become fractions (`savings`, `minSavings`, `maxSavings`); a current report comes back as is.
 *
 * @param json A parsed report (`JSON.parse` of `report.json`).
 * @returns The report in the {@linkcode REPORT_SCHEMA_VERSION} shape (a new object for version 1).
 * @throws {RangeError} When `schemaVersion` is not 1, 2 or 3.
 *
 * @example Usage
 * ```ts
 * import { upgradeBenchReport } from "./bench_report.ts";
 * const v1 = { schemaVersion: 1, arms: [{ arm: "compact_sig", savingsPct: 74.5 }] };
 * const r = upgradeBenchReport(v1) as unknown as { arms: { savings: number }[] };
 * if (Math.abs(r.arms[0].savings - 0.745) > 1e-12) throw new Error();
 * ```
 */
export function upgradeBenchReport(json: { readonly schemaVersion?: unknown }): BenchReport {
  if (json.schemaVersion === REPORT_SCHEMA_VERSION) return json as BenchReport;
  // Version 2 is version 3 without costLayers.
  if (json.schemaVersion === 2) {
    return { ...json, schemaVersion: REPORT_SCHEMA_VERSION } as unknown as BenchReport;
  }
  if (json.schemaVersion !== 1) {
    throw new RangeError(
      `Cannot read a bench report of schemaVersion ${
        JSON.stringify(json.schemaVersion)
      }: expected 1 to ${REPORT_SCHEMA_VERSION}`,
    );
  }
  const fraction = (row: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      const renamed =
        { savingsPct: "savings", minSavingsPct: "minSavings", maxSavingsPct: "maxSavings" }[k];
      if (renamed === undefined) out[k] = v;
      else out[renamed] = typeof v === "number" ? v / 100 : v;
    }
    return out;
  };
  const old = json as Record<string, unknown> & {
    arms?: Record<string, unknown>[];
    toolResults?: Record<string, unknown> & {
      rows?: Record<string, unknown>[];
      summary?: Record<string, unknown>[];
      provenance?: Record<string, unknown>;
    };
  };
  return {
    ...old,
    schemaVersion: REPORT_SCHEMA_VERSION,
    ...(old.arms === undefined ? {} : { arms: old.arms.map(fraction) }),
    ...(old.toolResults === undefined ? {} : {
      toolResults: {
        ...old.toolResults,
        ...(old.toolResults.rows ? { rows: old.toolResults.rows.map(fraction) } : {}),
        ...(old.toolResults.summary ? { summary: old.toolResults.summary.map(fraction) } : {}),
        ...(old.toolResults.provenance ? { provenance: fraction(old.toolResults.provenance) } : {}),
      },
    }),
  } as unknown as BenchReport;
}
