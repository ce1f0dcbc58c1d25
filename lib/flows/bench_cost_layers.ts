/**
 * The bench's cost layers (lib/billing): per corpus, the wire, sent and billed rows; with
 * `--count-with`, the providers' own counts first (cached; how many requests, said before they
 * are sent); the per-tool rows go to `cost_layers_tools.csv` beside the report.
 *
 * @module
 */
import {
  BILLING_PROVIDERS,
  type BillingProvider,
  type Calibration,
  type CostLayerRow,
  type CostLayerToolRow,
  type CountOutcome,
  countPlan,
  type CountTarget,
  DEFAULT_CALIBRATION,
  FIELD_NAMES,
  measureCostLayers,
  planKey,
  type Shapes,
} from "../billing/mod.ts";
import {
  type CountClientOptions,
  CountError,
  createCountClient,
  loadCalibration,
} from "../billing/io.ts";
import type { CostLayersBlock } from "../report/bench_report.ts";
import type { Corpus } from "../catalog/types.ts";
import type { TokenizerName } from "../tokens/types.ts";
import { UsageError } from "../core/errors.ts";
import { columnsCsvChunks } from "../core/csv.ts";
import { readWhole } from "../core/files.ts";
import type { FlowIo } from "./io.ts";

/** Default folder of the count cache, under the repository root. */
export const COUNT_CACHE_DEFAULT = ".scratch/count_tokens";

/**
 * Parses `--count-with` entries (`anthropic:claude-sonnet-4-5`, comma lists allowed).
 *
 * @param specs The flag's values.
 * @returns The targets, in given order, each once.
 * @throws {UsageError} On a provider not known or a missing model.
 */
export function parseCountTargets(specs: readonly string[]): CountTarget[] {
  const out: CountTarget[] = [];
  for (const spec of specs.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean)) {
    const i = spec.indexOf(":");
    const provider = (i < 0 ? spec : spec.slice(0, i)) as BillingProvider;
    const model = i < 0 ? "" : spec.slice(i + 1);
    if (!BILLING_PROVIDERS.includes(provider) || model === "") {
      throw new UsageError(
        `--count-with: "${spec}" is not PROVIDER:MODEL with a provider among ${
          BILLING_PROVIDERS.join(", ")
        } (e.g. anthropic:claude-sonnet-4-5)`,
      );
    }
    if (!out.some((t) => t.provider === provider && t.model === model)) {
      out.push({ provider, model });
    }
  }
  return out;
}

/** What {@linkcode benchCostLayers} needs. */
export interface BenchCostLayersOptions {
  /** Corpora with the files they were read from (and their tools shaped, when shared). */
  readonly corpora: readonly {
    readonly corpus: Corpus;
    readonly file: string;
    readonly shaped?: Shapes;
  }[];
  /** Encodings of the wire and sent rows. */
  readonly tokenizers: readonly TokenizerName[];
  /** `--count-with` targets. */
  readonly targets: readonly CountTarget[];
  /** `--count-per-tool`. */
  readonly perTool: boolean;
  /** `--calibration FILE`, or undefined for the default. */
  readonly calibration?: string;
  /** Count cache folder. */
  readonly cacheDir: string;
  /** Per-attempt timeout and sleep of the count client (tests). */
  readonly countClient?: Pick<CountClientOptions, "timeoutMs" | "sleep">;
}

/**
 * Measures the cost layers of every corpus (and asks the providers when told to).
 *
 * @param options Corpora, encodings, targets, calibration, cache.
 * @param io Environment, progress, paths.
 * @returns The report block, the per-tool rows and warnings.
 * @throws {UsageError} When the calibration file cannot be read.
 */
export async function benchCostLayers(
  options: BenchCostLayersOptions,
  io: Pick<FlowIo, "env" | "progress" | "displayPath">,
): Promise<{ block: CostLayersBlock; tools: CostLayerToolRow[]; warnings: string[] }> {
  const say = (m: string) => io.progress("bench", m);
  let calibration: Calibration = DEFAULT_CALIBRATION;
  if (options.calibration !== undefined) {
    try {
      calibration = await loadCalibration(options.calibration);
    } catch (error) {
      throw new UsageError(`--calibration ${options.calibration}: ${(error as Error).message}`);
    }
    say(
      `estimates use the calibration ${io.displayPath(options.calibration)} (${calibration.name})`,
    );
  }
  const rows: CostLayerRow[] = [];
  const tools: CostLayerToolRow[] = [];
  const warnings: string[] = [];
  const client = options.targets.length === 0
    ? undefined
    : createCountClient({ ...options.countClient, env: io.env(), cacheDir: options.cacheDir });
  let planned = 0;
  for (const { corpus, file, shaped } of options.corpora) {
    const counts = new Map<string, CountOutcome>();
    if (client !== undefined) {
      const plan = countPlan(corpus, options.targets, options.perTool);
      planned += plan.length;
      say(
        `${corpus.id}: ${plan.length} count request(s) to ${
          options.targets.map((t) => `${t.provider}:${t.model}`).join(", ")
        } (cached answers are not sent again)`,
      );
      const failed = new Map<string, string>();
      for (const item of plan) {
        const target = `${item.target.provider}:${item.target.model}`;
        const reason = failed.get(target);
        if (reason !== undefined) {
          counts.set(planKey(item), { error: reason });
          continue;
        }
        try {
          const r = await client.count(item.target.provider, item.target.model, item.tools);
          counts.set(planKey(item), { tokens: r.tokens });
        } catch (error) {
          const message = error instanceof CountError ? error.message : String(error);
          counts.set(planKey(item), { error: message });
          // A missing key, a refusal or an endpoint that hangs will not change for the next
          // request of this target; and without the request without tools (sent first) no share
          // of it can be measured.
          if (
            item.scope === "none" ||
            error instanceof CountError &&
              ["no-key", "refused", "timeout", "down"].includes(error.code)
          ) {
            failed.set(target, message);
          }
          warnings.push(`${corpus.id}: ${target} not measured: ${message}`);
        }
      }
    }
    say(`${corpus.id}: cost layers (wire, sent, billed)`);
    const m = measureCostLayers({
      corpus,
      fileText: await readOnce(file),
      tokenizers: options.tokenizers,
      calibration,
      targets: options.targets,
      counts,
      ...(shaped === undefined ? {} : { shaped }),
    });
    // One push per row: a spread of one row per tool and target overflows the call stack on
    // a large catalog (40,000 tools).
    for (const row of m.rows) rows.push(row);
    for (const tool of m.tools) tools.push(tool);
    warnings.push(...m.warnings);
  }
  return {
    block: {
      calibration: {
        name: calibration.name,
        method: calibration.method,
        path: options.calibration === undefined ? null : io.displayPath(options.calibration),
        sources: calibration.sources,
      },
      ...(client === undefined
        ? {}
        : { counts: { planned, sent: client.sent(), cached: client.hits() } }),
      rows,
    },
    tools,
    warnings: [...new Set(warnings)],
  };
}

/**
 * The file's bytes, handed over once: the wire layer takes them and lets them go when it ends
 * (a capture's bytes are the size of the file). Awaited here, not in the caller, whose frame
 * would hold the awaited buffer while every layer runs; `readWhole`'s buffer, unlike one an op
 * returns, is not held by a handle of the runtime either.
 */
async function readOnce(file: string): Promise<() => Uint8Array> {
  let held: Uint8Array | undefined = await readWhole(file);
  return () => {
    const out = held;
    held = undefined;
    if (out === undefined) throw new Error(`the bytes of ${file} were taken already`);
    return out;
  };
}

/**
 * The per-tool table as CSV: one line per tool and layer (and provider), fields as columns.
 *
 * @param rows Per-tool rows.
 * @returns CSV text in chunks of whole lines (a large catalog's table is tens of MB).
 */
export function costLayerToolsCsv(rows: readonly CostLayerToolRow[]): Iterable<string> {
  return columnsCsvChunks<CostLayerToolRow>([
    ["corpus", (r) => r.corpusId],
    ["server", (r) => r.server],
    ["tool", (r) => r.tool],
    ["layer", (r) => r.layer],
    ["provider", (r) => r.provider ?? ""],
    ["format", (r) => r.format ?? ""],
    ["tokens", (r) => r.tokens ?? ""],
    ["low", (r) => r.low ?? ""],
    ["high", (r) => r.high ?? ""],
    ["provenance", (r) => r.provenance ?? "not measured"],
    ...FIELD_NAMES.map((f) => [f, (r: CostLayerToolRow) => r.fields[f] ?? 0] as const),
  ], rows);
}

/**
 * ` for <entry label>` of an estimate made without a model: which models its calibration entry
 * is for (Claude's tokenizer changed with Opus 4.7, so the figure depends on it); `""` when the
 * row does not say.
 */
function entryLabel(block: CostLayersBlock, row: CostLayerRow): string {
  const named = row.calibration;
  if (named === undefined) return "";
  const prefix = `${block.calibration.name}: `;
  return ` for ${named.startsWith(prefix) ? named.slice(prefix.length) : named}`;
}

/**
 * The console lines of the cost layers: per corpus, one line per provider whose first number is
 * what the user pays (the provider's count where measured, else the estimate with its interval),
 * with its provenance, then the wire count (what the client received, which no provider bills).
 *
 * @param block The report block.
 * @param tokenizer Encoding of the wire and sent figures shown.
 * @returns Lines.
 */
export function costLayerLines(block: CostLayersBlock, tokenizer: TokenizerName): string[] {
  const fmt = (n: number | null) => n === null ? "-" : n.toLocaleString("en-US");
  const lines: string[] = [];
  const corpora = [...new Set(block.rows.map((r) => r.corpusId))];
  for (const corpusId of corpora) {
    const top = block.rows.filter((r) => r.corpusId === corpusId && r.server === null);
    for (const provider of BILLING_PROVIDERS) {
      const sent = top.find((r) =>
        r.layer === "sent" && r.provider === provider && r.tokenizer === tokenizer &&
        r.format !== "openai-chat-completions"
      );
      const billed = top.filter((r) => r.layer === "billed" && r.provider === provider);
      const measured = billed.filter((r) => r.provenance === "measured");
      const notMeasured = billed.filter((r) => r.provenance === null);
      const estimates = billed.filter((r) => r.provenance === "estimated");
      const head = measured[0] ?? estimates[0];
      if (head === undefined) continue;
      // The request's fixed tool-use overhead, in the catalog's estimate and in no server's.
      const overhead = head.overhead ?? 0;
      const withOverhead = overhead > 0
        ? `, incl. its ${fmt(overhead)}-token tool-use overhead`
        : "";
      const figure = head.provenance === "measured"
        ? `billed ${fmt(head.tokens)} measured (${head.model})`
        : `billed ${fmt(head.tokens)} [${fmt(head.low)}-${fmt(head.high)}] estimated${
          head.model
            ? ` (${head.model}${withOverhead})`
            : `${entryLabel(block, head)}${withOverhead}`
        }`;
      const missing = notMeasured.map((r) => `; ${r.model} not measured: ${r.reason}`).join("");
      lines.push(
        `${corpusId} ${provider} ${figure} · sent ${
          fmt(sent?.tokens ?? null)
        } ${tokenizer}${missing}`,
      );
    }
    const wire = top.find((r) => r.layer === "wire" && r.tokenizer === tokenizer);
    if (wire) {
      lines.push(
        `${corpusId} wire ${fmt(wire.tokens)} ${tokenizer} tokens (tools/list as received${
          wire.wireOrder === "received" ? "" : `, ${wire.wireOrder} key order`
        })`,
      );
    }
  }
  return lines;
}
