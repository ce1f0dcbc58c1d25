/**
 * The visualization contract: a module with an id, a title, a layout and a `render` function
 * from per-agent-per-run records to a Plot chart, a table or a note. Built-in visualizations and
 * user modules dropped into a folder share it.
 *
 * @module
 */
import type { AgentConfig, CaseRecord } from "../../agent/types.ts";
import type { AgentSummary } from "../../agent/summary.ts";
import type { RunCatalog } from "../runs.ts";

/** Width class of a visualization on a dashboard: half a row or the whole row. */
export type VizLayout = "half" | "full";

/**
 * The nine per-agent outcome metrics (MAVERIK's names), plus mcpmeter's own extras. Costs are
 * USD per case (mean over the records that report one), tokens and tool calls are means per
 * case, duration is the mean wall time per case in ms, peak context the mean of each case's
 * largest single request (input + cache read + cache write tokens of one turn).
 */
export interface AgentMetrics {
  /** passed ÷ scored records, `null` when nothing was scored. */
  readonly passRate: number | null;
  /** Mean `wallMs` over scored records, ms; `null` when none. */
  readonly avgDurationMs: number | null;
  /** Mean uncached input tokens per scored record that reports them. */
  readonly avgInputTokens: number | null;
  /** Mean output tokens per scored record that reports them. */
  readonly avgOutputTokens: number | null;
  /** Mean tool calls the model made per scored record (upstream `via` calls excluded). */
  readonly avgToolCalls: number | null;
  /** Mean peak context tokens per scored record that reports it. */
  readonly avgPeakContextTokens: number | null;
  /** Largest peak context tokens of any record. */
  readonly maxPeakContextTokens: number | null;
  /** Mean model-token cost per case, USD (record cost minus its tool cost). */
  readonly tokenCostUsd: number | null;
  /** Mean tool cost per case, USD (tool prices of run.json × calls). */
  readonly toolCostUsd: number | null;
  /** Mean agent cost per case, USD (tokens + tools; judge excluded). */
  readonly overallCostUsd: number | null;
  /** Mean judge cost per case, USD, over records with a judge cost. */
  readonly judgeCostUsd: number | null;
  /** Mean cache-read input tokens per record that reports them. */
  readonly avgCacheReadTokens: number | null;
  /** Mean cache-write input tokens per record that reports them. */
  readonly avgCacheWriteTokens: number | null;
  /** Mean model turns per scored record. */
  readonly avgIterations: number | null;
  /** Iteration-limit failures ÷ scored records. */
  readonly iterationLimitRate: number | null;
  /** Infrastructure errors ÷ all records. */
  readonly errorRate: number | null;
  /** Mean over scored records of min(1, iterations ÷ the agent's `maxIterations`). */
  readonly iterationBudgetUse: number | null;
}

/** One agent of one run: the unit every visualization receives (a MAVERIK "suite-run record"). */
export interface AgentRunRecord {
  /** Suite id. */
  readonly suiteId: string;
  /** Run id. */
  readonly runId: string;
  /** Run start, ISO 8601 (the x of trends). */
  readonly startedAt: string;
  /** Agent id as the records carry it: `id`, or `id@N` for a run of version N. */
  readonly agentId: string;
  /** The agent's own id, without `@N`. */
  readonly baseAgentId: string;
  /** Version number run, or `null` for the live configuration. */
  readonly version: number | null;
  /** Version the live configuration equalled when it ran (`null`: none, or a version run). */
  readonly equalsVersion: number | null;
  /** SHA-256 of the resolved configuration run (see lib/agent `snapshotSha256`), when known. */
  readonly snapshotSha256: string | null;
  /** The configuration snapshotted in run.json, when present. */
  readonly agent: AgentConfig | null;
  /** The agent's tool catalog as run.json records it. */
  readonly catalog: RunCatalog | null;
  /** This agent's case records in the run, file order. */
  readonly cases: readonly CaseRecord[];
  /** Tool cost of each case, USD, index-aligned with `cases`. */
  readonly caseToolCostUsd: readonly number[];
  /** lib/agent summary (pass rate interval, pass@k, percentiles). */
  readonly summary: AgentSummary;
  /** The nine metrics and extras. */
  readonly metrics: AgentMetrics;
  /** Configuration changed since this agent's previous record (`null`: first record). */
  readonly configChanged: boolean | null;
  /**
   * The run used a simulated model (mcpmeter's scripted one, `run.json` `models[].simulated`):
   * its USD figures are what the pricing would charge, not a bill.
   */
  readonly simulated?: boolean;
}

/** A shared palette and helpers, so every chart colours agents the same way. */
export interface VizTheme {
  /** Categorical colours, in order. */
  readonly palette: readonly string[];
  /** Colour of an agent id among a domain of ids (stable: by sorted position). */
  colorOf(id: string, domain: readonly string[]): string;
  /** Text colour. */
  readonly ink: string;
  /** Muted colour (dominated points, grid). */
  readonly muted: string;
  /** Good (pass) and bad (fail) colours. */
  readonly good: string;
  /** Colour of a regression or failure. */
  readonly bad: string;
}

/** What `render` receives besides the records. */
export interface VizContext {
  /** Document to draw into (a browser's, or linkedom's under Deno). */
  readonly document: Document;
  /** Width of a full-row visualization, CSS px. */
  readonly fullWidth: number;
  /** Width of a half-row visualization, CSS px. */
  readonly halfWidth: number;
  /** Width for this instance (its layout's width). */
  readonly width: number;
  /** Shared theme. */
  readonly theme: VizTheme;
}

/** A table result: rows of flat values (exported as CSV), optional per-column formats. */
export interface VizTable {
  /** Discriminator. */
  readonly type: "table";
  /** Column order; default the keys of the first row. */
  readonly columns?: readonly string[];
  /** Rows. */
  readonly rows: readonly Record<string, string | number | boolean | null>[];
  /** Column → formatter of a cell for the page (CSV keeps raw values). */
  readonly format?: Readonly<Record<string, (v: never) => string>>;
  /** Column → numeric cell value in [0, 1] coloured red → green (a heatmap table). */
  readonly heat?: readonly string[];
}

/** A note in place of a chart: the data needed is not recorded by these runs, or is empty. */
export interface VizNote {
  /** Discriminator. */
  readonly type: "note";
  /** One or two sentences, e.g. "Peak context not recorded by these runs". */
  readonly text: string;
}

/** What `render` returns: a Plot element (SVG or figure), a table, or a note. */
export type VizOutput = Element | VizTable | VizNote;

/** A visualization module. */
export interface Visualization {
  /** Unique id, kebab-case, e.g. `agent-average-correctness`. */
  readonly id: string;
  /** Default title (a dashboard may override it per instance). */
  readonly title: string;
  /** Half or full row; default `half`. */
  readonly layout: VizLayout;
  /** One sentence on what it shows, for the list and the page. */
  readonly description?: string;
  /**
   * Draws the records. Pure: reads nothing but its arguments, touches only `ctx.document`.
   *
   * @param records Per-agent-per-run records, sorted by start time, run id, agent id.
   * @param ctx Document, widths, theme.
   */
  render(records: readonly AgentRunRecord[], ctx: VizContext): VizOutput;
}

/** Whether a render result is a table. */
export function isVizTable(out: VizOutput): out is VizTable {
  return (out as VizTable).type === "table" && Array.isArray((out as VizTable).rows);
}

/** Whether a render result is a note. */
export function isVizNote(out: VizOutput): out is VizNote {
  return (out as VizNote).type === "note" && typeof (out as VizNote).text === "string";
}
