/**
 * The three cost layers of a catalog, per server and for the whole catalog, each split by field:
 * - `wire`: the `tools/list` arrays as the client received them (one per server; the catalog's
 *   figure is their sum) — `wire.ts`;
 * - `sent`: the `tools` value of one request carrying the whole catalog, per request format —
 *   `sent_layer.ts`; a server's figure is its tools' share of that text;
 * - `billed`: the provider's own count (`count_tokens` with the tools less without them), or an
 *   estimate with an interval (`estimate.ts`).
 *
 * Pure: the count answers are passed in (the flow sends the requests).
 *
 * @module
 */
import type { Corpus, JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { SENT_FORMATS, type SentFormat, sentTools } from "../catalog/sent.ts";
import type { TokenizerName } from "../tokens/types.ts";
import { createDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import {
  addFields,
  attributeParsedText,
  attributeToolsValues,
  FIELD_NAMES,
  type FieldTokens,
} from "./fields.ts";
import { eachWireServerOfBytes, type WireOrder, wireServers } from "./wire.ts";
import { toolsShare } from "./count_api.ts";
import { type Shapes, shapesOf, shapeTools } from "./sent_layer.ts";
import {
  addFeatures,
  BILLING_FORMAT,
  BILLING_PROVIDERS,
  type BillingProvider,
  type Calibration,
  calibrationEntry,
  DEFAULT_ESTIMATE_MODEL,
  estimateTokens,
  type Features,
  providerFeatures,
} from "./estimate.ts";

/** The cost layers. */
export type CostLayer = "wire" | "sent" | "billed";

/** One row of `report.json`'s `costLayers`. */
export interface CostLayerRow {
  /** Corpus id. */
  readonly corpusId: string;
  /** Server, or `null` for the whole corpus. */
  readonly server: string | null;
  /** Provider of a `sent` or `billed` row; `null` for `wire`. */
  readonly provider: BillingProvider | null;
  /** Request format of a `sent` or `billed` row; `null` for `wire`. */
  readonly format: SentFormat | null;
  /** Model of a `billed` row when one was named (`--count-with`); else `null`. */
  readonly model: string | null;
  /** The layer. */
  readonly layer: CostLayer;
  /** Encoding of a `wire` or `sent` count; `null` for `billed` (the provider's tokens). */
  readonly tokenizer: TokenizerName | null;
  /** Tokens; `null` when not measured. */
  readonly tokens: number | null;
  /** Interval of an estimate (else equal to `tokens`). */
  readonly low: number | null;
  /** Interval of an estimate (else equal to `tokens`). */
  readonly high: number | null;
  /** `measured` (counted), `estimated` (calibration), or `null` when not measured. */
  readonly provenance: "measured" | "estimated" | null;
  /** Why a row is not measured (no key, refused, unreachable); absent otherwise. */
  readonly reason?: string;
  /** UTF-8 bytes of the counted text (`wire`, `sent`). */
  readonly bytes?: number;
  /**
   * Tokens per field. `billed` rows apportion their tokens by the shares of the `sent` text of
   * their format (the provider does not say), so their fields are estimates.
   */
  readonly fields: FieldTokens;
  /** `wire`: where the key order comes from (`received`, `sorted`, `reconstructed`). */
  readonly wireOrder?: WireOrder;
  /** `wire`: tokens of the servers' `instructions` (not part of `tokens`), when present. */
  readonly instructionsTokens?: number;
  /** `billed`, whole corpus: the fixed tool-use overhead included in `tokens` (calibration). */
  readonly overhead?: number;
  /** `billed` estimate: the calibration entry used. */
  readonly calibration?: string;
}

/** One row of the per-tool table (`cost_layers_tools.csv`): a tool under one layer. */
export interface CostLayerToolRow {
  /** Corpus id. */
  readonly corpusId: string;
  /** Server. */
  readonly server: string;
  /** Tool id (`server:name`, `#n` for a repeated name). */
  readonly tool: string;
  /** Layer. */
  readonly layer: CostLayer;
  /** Provider (`sent`, `billed`), else `null`. */
  readonly provider: BillingProvider | null;
  /** Format (`sent`, `billed`), else `null`. */
  readonly format: SentFormat | null;
  /** Tokens (o200k_base for `wire` and `sent`). */
  readonly tokens: number | null;
  /** Interval of an estimate. */
  readonly low: number | null;
  /** Interval of an estimate. */
  readonly high: number | null;
  /** Provenance. */
  readonly provenance: "measured" | "estimated" | null;
  /** Tokens per field. */
  readonly fields: FieldTokens;
}

/** A provider count target (`--count-with anthropic:MODEL`). */
export interface CountTarget {
  /** Provider. */
  readonly provider: BillingProvider;
  /** Model. */
  readonly model: string;
}

/** One count request of a plan. */
export interface CountPlanItem {
  /** Target. */
  readonly target: CountTarget;
  /** `none` (the request without tools), `catalog`, `server` or `tool`. */
  readonly scope: "none" | "catalog" | "server" | "tool";
  /** Server of a `server`/`tool` item. */
  readonly server: string | null;
  /** Tool id of a `tool` item. */
  readonly tool: string | null;
  /** The rendered `tools` value; `undefined` for `none`. */
  readonly tools: readonly JsonObject[] | undefined;
}

/** A count answer: tokens, or why there is none. */
export type CountOutcome = { readonly tokens: number } | { readonly error: string };

/** Key of a plan item in the answers map. */
export const planKey = (p: Pick<CountPlanItem, "target" | "scope" | "server" | "tool">): string =>
  `${p.target.provider}|${p.target.model}|${p.scope}|${p.server ?? ""}|${p.tool ?? ""}`;

/** Each server's tool positions (ascending), servers in order of first appearance. */
function toolsByServer(corpus: Corpus): Map<string, number[]> {
  const out = new Map<string, number[]>();
  corpus.tools.forEach((t, i) => {
    const list = out.get(t.server);
    if (list === undefined) out.set(t.server, [i]);
    else list.push(i);
  });
  return out;
}

/**
 * The count requests for a corpus: per target, the request without tools, the whole catalog,
 * each server, and with `perTool` each tool (one request each).
 *
 * @param corpus The corpus.
 * @param targets Providers and models.
 * @param perTool Whether to count each tool alone.
 * @returns The plan, in send order.
 */
export function countPlan(
  corpus: Corpus,
  targets: readonly CountTarget[],
  perTool: boolean,
): CountPlanItem[] {
  const out: CountPlanItem[] = [];
  for (const target of targets) {
    const format = BILLING_FORMAT[target.provider];
    const shaped = shapeTools(corpus.tools, format);
    const render = (idx: number[]) => sentTools(idx.map((i) => shaped[i]), format);
    const all = corpus.tools.map((_, i) => i);
    out.push({ target, scope: "none", server: null, tool: null, tools: undefined });
    out.push({ target, scope: "catalog", server: null, tool: null, tools: render(all) });
    for (const [server, idx] of toolsByServer(corpus)) {
      out.push({ target, scope: "server", server, tool: null, tools: render(idx) });
      if (perTool) {
        for (const i of idx) {
          out.push({ target, scope: "tool", server, tool: corpus.tools[i].id, tools: render([i]) });
        }
      }
    }
  }
  return out;
}

/** Inputs of {@linkcode measureCostLayers}. */
export interface CostLayersInput {
  /** The corpus (after any overrides). */
  readonly corpus: Corpus;
  /**
   * Text of the file it was read from (the wire layer reads it), or its bytes (then a capture
   * file is read server by server, never decoded whole), or a function reading them when the
   * wire layer starts (then they are let go when it ends, before the other layers).
   */
  readonly fileText: string | Uint8Array | (() => string | Uint8Array);
  /** Encodings of the `wire` and `sent` rows. */
  readonly tokenizers: readonly TokenizerName[];
  /** The calibration of the estimates. */
  readonly calibration: Calibration;
  /** Count targets (their models also pick the estimate's calibration entry). */
  readonly targets?: readonly CountTarget[];
  /** Count answers by {@linkcode planKey}. */
  readonly counts?: ReadonlyMap<string, CountOutcome>;
  /** The corpus's tools shaped per format, when the caller shares them. @default {shapesOf(corpus.tools)} */
  readonly shaped?: Shapes;
}

/** What {@linkcode measureCostLayers} returns. */
export interface CostLayers {
  /** Corpus and server rows. */
  readonly rows: CostLayerRow[];
  /** Per-tool rows (o200k_base). */
  readonly tools: CostLayerToolRow[];
  /** Notes (wire order not received, ...). */
  readonly warnings: string[];
}

const scale = (fields: FieldTokens, from: number, to: number): FieldTokens => {
  if (from <= 0) return {};
  const out: Record<string, number> = {};
  for (const k of FIELD_NAMES) {
    const v = fields[k];
    if (v) out[k] = Math.round((v * to) / from);
  }
  return out;
};

const idOf = (server: string, name: string, seen: Map<string, number>): string => {
  const key = `${server}:${name}`;
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  return n === 1 ? key : `${key}#${n}`;
};

/** One corpus's layers being measured: the rows written so far and the tools shaped per dialect. */
interface Measure {
  readonly corpus: Corpus;
  readonly servers: readonly string[];
  /** Each server's tool positions, ascending. */
  readonly byServer: ReadonlyMap<string, readonly number[]>;
  readonly rows: CostLayerRow[];
  readonly toolRows: CostLayerToolRow[];
  readonly warnings: string[];
  /** The tools shaped for a format's dialect, once per dialect (the two OpenAI formats share one). */
  readonly shaped: Shapes;
}

/** A `sent` or `billed` row's fields: the shares of the `sent` text of its format (o200k_base). */
type Share = (format: SentFormat, server: string | null, tokens: number) => FieldTokens;

/**
 * The three cost layers of one corpus (see the module doc).
 *
 * @param input Corpus, file text, encodings, calibration, count targets and answers.
 * @returns Report rows, per-tool rows and notes.
 */
export function measureCostLayers(input: CostLayersInput): CostLayers {
  const { corpus } = input;
  const byServer = toolsByServer(corpus);
  const m: Measure = {
    corpus,
    servers: [...byServer.keys()],
    byServer,
    rows: [],
    toolRows: [],
    warnings: [],
    shaped: input.shaped ?? shapesOf(corpus.tools),
  };
  wireLayer(m, input.fileText, input.tokenizers);
  const share = sentLayer(m, input.tokenizers);
  billedEstimates(m, input.calibration, input.targets ?? [], share);
  billedMeasured(m, input.calibration, input.targets ?? [], input.counts ?? new Map(), share);
  return { rows: m.rows, tools: m.toolRows, warnings: m.warnings };
}

/**
 * Wire: each server's `tools/list` array as received, per encoding; the catalog is their sum.
 * The servers are read one at a time, so only one server's text is held.
 */
function wireLayer(
  m: Measure,
  file: CostLayersInput["fileText"],
  tokenizers: readonly TokenizerName[],
): void {
  const corpusId = m.corpus.id;
  const base = { corpusId, model: null, reason: undefined };
  const format = m.corpus.provenance.format;
  const source = typeof file === "function" ? file() : file;
  const wire = typeof source === "string"
    ? wireServers(source, format, m.servers[0])
    : eachWireServerOfBytes(source, format, m.servers[0]);
  // Each server's text is parsed and written once for every encoding; rows keep encoding order.
  const counters = tokenizers.map((tok) => createDefaultTokenizer(tok));
  const perTok = tokenizers.map(() => ({
    rows: [] as CostLayerRow[],
    total: 0,
    bytes: 0,
    instr: 0,
    fields: {} as FieldTokens,
  }));
  let sorted = 0;
  let reconstructed = false;
  let instructions = false;
  for (const w of wire) {
    if (w.order === "sorted") sorted++;
    if (w.order === "reconstructed") reconstructed = true;
    if (w.instructions !== undefined) instructions = true;
    const value = parsedOrUndefined(w.text);
    const all = attributeParsedText(w.text, value, tokenizers);
    tokenizers.forEach((tok, t) => {
      const a = all[t];
      const acc = perTok[t];
      const f = addFields(...a.items.map((i) => i.fields), { envelope: a.envelope });
      const it = w.instructions === undefined ? undefined : counters[t].count(w.instructions);
      acc.total += a.tokens;
      acc.bytes += a.bytes;
      acc.instr += it ?? 0;
      acc.fields = addFields(acc.fields, f);
      acc.rows.push({
        ...base,
        server: w.server,
        provider: null,
        format: null,
        layer: "wire",
        tokenizer: tok,
        tokens: a.tokens,
        low: a.tokens,
        high: a.tokens,
        provenance: "measured",
        bytes: a.bytes,
        fields: f,
        wireOrder: w.order,
        ...(it === undefined ? {} : { instructionsTokens: it }),
      });
      if (tok === "o200k_base") wireToolRows(m, w.server, value ?? JSON.parse(w.text), a.items);
    });
  }
  if (sorted > 0) {
    m.warnings.push(
      `${corpusId}: wire order of ${sorted} server(s) not recorded (a capture made before toolsWire): ` +
        `counted with sorted keys`,
    );
  }
  const wireOrder: WireOrder = reconstructed ? "reconstructed" : sorted > 0 ? "sorted" : "received";
  tokenizers.forEach((tok, t) => {
    const { rows, total, bytes, instr, fields } = perTok[t];
    for (const row of rows) m.rows.push(row);
    m.rows.push({
      ...base,
      server: null,
      provider: null,
      format: null,
      layer: "wire",
      tokenizer: tok,
      tokens: total,
      low: total,
      high: total,
      provenance: "measured",
      bytes,
      fields,
      wireOrder,
      ...(instructions ? { instructionsTokens: instr } : {}),
    });
  });
}

const parsedOrUndefined = (text: string): JsonValue | undefined => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // attributed from the lossless parser, which says where the text is wrong
  }
};

/** The per-tool wire rows of one server, named as its `tools/list` names them. */
function wireToolRows(
  m: Measure,
  server: string,
  value: JsonValue,
  items: readonly { readonly tokens: number; readonly fields: FieldTokens }[],
): void {
  const names = value as { name?: unknown }[];
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    m.toolRows.push({
      corpusId: m.corpus.id,
      server,
      tool: idOf(server, String(names[i]?.name ?? ""), seen),
      layer: "wire",
      provider: null,
      format: null,
      tokens: item.tokens,
      low: item.tokens,
      high: item.tokens,
      provenance: "measured",
      fields: item.fields,
    });
  });
}

/**
 * Sent: one request carrying the whole catalog, per format and encoding; a server's figure is its
 * tools' share of that text.
 *
 * @returns The field shares (o200k_base) that `billed` rows apportion their tokens by.
 */
function sentLayer(m: Measure, tokenizers: readonly TokenizerName[]): Share {
  const { corpus } = m;
  const base = { corpusId: corpus.id, model: null, reason: undefined };
  const sentShares = new Map<string, { total: number; fields: FieldTokens }>();
  const providerOf = (f: SentFormat): BillingProvider =>
    f === "anthropic-messages" ? "anthropic" : f === "gemini" ? "gemini" : "openai";
  // The formats' texts written in step: a schema or description they share is written once.
  const texts = attributeToolsValues(
    SENT_FORMATS.map((format) => ({
      value: sentTools(m.shaped(format), format),
      items: format === "gemini" ? "gemini" : "array",
    })),
    tokenizers,
  );
  for (const [f, format] of SENT_FORMATS.entries()) {
    const all = texts[f];
    for (const [t, tok] of tokenizers.entries()) {
      const a = all[t];
      const perServer = new Map<string, { tokens: number; fields: FieldTokens }>();
      a.items.forEach((item, i) => {
        const server = corpus.tools[i].server;
        const cur = perServer.get(server) ?? { tokens: 0, fields: {} };
        perServer.set(server, {
          tokens: cur.tokens + item.tokens,
          fields: addFields(cur.fields, item.fields),
        });
      });
      const total = addFields(...a.items.map((i) => i.fields), { envelope: a.envelope });
      const sentBase = {
        ...base,
        provider: providerOf(format),
        format,
        layer: "sent" as const,
        tokenizer: tok,
      };
      m.rows.push({
        ...sentBase,
        server: null,
        tokens: a.tokens,
        low: a.tokens,
        high: a.tokens,
        provenance: "measured",
        bytes: a.bytes,
        fields: total,
      });
      for (const [server, s] of perServer) {
        m.rows.push({
          ...sentBase,
          server,
          tokens: s.tokens,
          low: s.tokens,
          high: s.tokens,
          provenance: "measured",
          fields: s.fields,
        });
      }
      if (tok !== "o200k_base") continue;
      sentShares.set(format, { total: a.tokens, fields: total });
      for (const [server, s] of perServer) {
        sentShares.set(`${format}|${server}`, { total: s.tokens, fields: s.fields });
      }
      a.items.forEach((item, i) => {
        const t: Tool = corpus.tools[i];
        m.toolRows.push({
          corpusId: corpus.id,
          server: t.server,
          tool: t.id,
          layer: "sent",
          provider: providerOf(format),
          format,
          tokens: item.tokens,
          low: item.tokens,
          high: item.tokens,
          provenance: "measured",
          fields: item.fields,
        });
      });
    }
  }
  return (format, server, tokens) => {
    const s = sentShares.get(server === null ? format : `${format}|${server}`);
    return s === undefined ? {} : scale(s.fields, s.total, tokens);
  };
}

/**
 * Billed, estimated: per provider, for the model of each of its count targets, else for the
 * model a user of it pays today ({@linkcode DEFAULT_ESTIMATE_MODEL}).
 */
function billedEstimates(
  m: Measure,
  calibration: Calibration,
  targets: readonly CountTarget[],
  share: Share,
): void {
  const { corpus } = m;
  const corpusId = corpus.id;
  for (const provider of BILLING_PROVIDERS) {
    const named = targets.filter((t) => t.provider === provider).map((t) => t.model);
    const models = named.length === 0 ? [DEFAULT_ESTIMATE_MODEL[provider]] : named;
    const format = BILLING_FORMAT[provider];
    let f: ReturnType<typeof providerFeatures> | undefined;
    for (const model of models) {
      const entry = calibrationEntry(calibration, provider, model);
      if (entry === undefined) {
        m.warnings.push(
          `${corpusId}: no calibration entry for ${provider}${model ? ` ${model}` : ""}`,
        );
        continue;
      }
      f ??= providerFeatures(provider, m.shaped(format));
      const label = `${calibration.name}: ${entry.label}`;
      const estBase = {
        corpusId,
        provider,
        format,
        model,
        layer: "billed" as const,
        tokenizer: null,
        provenance: "estimated" as const,
        calibration: label,
      };
      const all = estimateTokens(entry, addFeatures(...f.perTool, f.wrapper), true);
      m.rows.push({
        ...estBase,
        server: null,
        ...all,
        fields: share(format, null, all.tokens),
        overhead: Math.round(entry.intercept.mid),
      });
      const perTool = f.perTool;
      for (const [server, idx] of m.byServer) {
        const feats: Features[] = idx.map((i) => perTool[i]);
        const e = estimateTokens(entry, addFeatures(...feats), false);
        m.rows.push({ ...estBase, server, ...e, fields: share(format, server, e.tokens) });
      }
      if (model !== models[0]) continue;
      f.perTool.forEach((feat, i) => {
        const t = corpus.tools[i];
        const e = estimateTokens(entry, feat, false);
        m.toolRows.push({
          corpusId,
          server: t.server,
          tool: t.id,
          layer: "billed",
          provider,
          format,
          ...e,
          provenance: "estimated",
          fields: {},
        });
      });
    }
  }
}

/**
 * Tokens per byte of the tools sent above which a measured share cannot be: a token of text
 * covers at least one byte, and a provider's own layout of the tools (indentation, wrappers)
 * does not quadruple them; its fixed tool-use prompt is allowed on top (the calibration's
 * intercept, high end).
 */
const MAX_TOKENS_PER_SENT_BYTE = 4;

/** Billed, measured: the tools' share of each count target's requests (with less without). */
function billedMeasured(
  m: Measure,
  calibration: Calibration,
  targets: readonly CountTarget[],
  counts: ReadonlyMap<string, CountOutcome>,
  share: Share,
): void {
  const corpusId = m.corpus.id;
  for (const target of targets) {
    const format = BILLING_FORMAT[target.provider];
    const key = (scope: CountPlanItem["scope"], server: string | null, tool: string | null) =>
      planKey({ target, scope, server, tool });
    const none = counts.get(key("none", null, null));
    // The whole catalog's bytes as sent in this format bound every scope's share.
    const bytes = m.rows.find((r) =>
      r.layer === "sent" && r.format === format && r.server === null && r.bytes !== undefined
    )?.bytes;
    const overhead = calibrationEntry(calibration, target.provider, target.model)?.intercept.high ??
      0;
    const bound = bytes === undefined
      ? Infinity
      : Math.ceil(MAX_TOKENS_PER_SENT_BYTE * bytes + overhead);
    const measured = (
      scope: CountPlanItem["scope"],
      server: string | null,
      tool: string | null,
    ): { tokens: number } | { reason: string } => {
      const withTools = counts.get(key(scope, server, tool));
      if (none === undefined || withTools === undefined) return { reason: "not requested" };
      if ("error" in none) return { reason: none.error };
      if ("error" in withTools) return { reason: withTools.error };
      const counted = toolsShare(withTools.tokens, none.tokens);
      const share = "tokens" in counted && counted.tokens > bound
        ? {
          reason: `impossible counts: ${withTools.tokens} tokens with the tools, ${none.tokens} ` +
            `without them, a share of ${counted.tokens} for ${bytes} bytes of tools sent ` +
            `(at most ${bound}: ${MAX_TOKENS_PER_SENT_BYTE} a byte and the tool-use prompt)`,
        }
        : counted;
      if ("reason" in share) {
        // Sent and answered, so no earlier warning names it.
        m.warnings.push(
          `${corpusId}: ${target.provider}:${target.model}${
            tool !== null ? ` tool ${tool}` : server !== null ? ` server ${server}` : ""
          } not measured: ${share.reason}`,
        );
      }
      return share;
    };
    const mBase = {
      corpusId,
      provider: target.provider,
      format,
      model: target.model,
      layer: "billed" as const,
      tokenizer: null,
    };
    for (const server of [null, ...m.servers]) {
      const c = measured(server === null ? "catalog" : "server", server, null);
      m.rows.push(
        "tokens" in c
          ? {
            ...mBase,
            server,
            tokens: c.tokens,
            low: c.tokens,
            high: c.tokens,
            provenance: "measured",
            fields: share(format, server, c.tokens),
          }
          : {
            ...mBase,
            server,
            tokens: null,
            low: null,
            high: null,
            provenance: null,
            reason: c.reason,
            fields: {},
          },
      );
    }
    for (const t of m.corpus.tools) {
      const c = measured("tool", t.server, t.id);
      if (!("tokens" in c)) continue;
      m.toolRows.push({
        corpusId,
        server: t.server,
        tool: t.id,
        layer: "billed",
        provider: target.provider,
        format,
        tokens: c.tokens,
        low: c.tokens,
        high: c.tokens,
        provenance: "measured",
        fields: {},
      });
    }
  }
}

/**
 * The headline of one provider for a corpus: what the user pays for the catalog's tools, the
 * measured count where there is one (the first target of that provider that measured), else
 * the estimate with its interval.
 *
 * @param rows Cost-layer rows.
 * @param corpusId Corpus.
 * @param provider Provider.
 * @returns The corpus-level billed row, or `undefined`.
 */
export function billedHeadline(
  rows: readonly CostLayerRow[],
  corpusId: string,
  provider: BillingProvider,
): CostLayerRow | undefined {
  const billed = rows.filter((r) =>
    r.corpusId === corpusId && r.server === null && r.layer === "billed" && r.provider === provider
  );
  return billed.find((r) => r.provenance === "measured") ??
    billed.find((r) => r.provenance === "estimated");
}
