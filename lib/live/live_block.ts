/**
 * Assembles the report's `live` block from measured discovery calls. Pure:
 * the calls, catalogs and golden set are passed in.
 *
 * @module
 */
import { encode as toonEncode } from "@toon-format/toon";
import type { Tool } from "../catalog/types.ts";
import { catalogCost } from "../modes/cost.ts";
import type { Provenance } from "../core/provenance.ts";
import { meanMetrics, type MetricValues, queryMetrics } from "../retrieval/metrics.ts";
import { percentileNearestRank } from "../stats/percentile.ts";
import type { Drops, GoldenSet } from "../retrieval/types.ts";
import type { Tokenizer, TokenizerName } from "../tokens/types.ts";
import {
  addComponents,
  attributeResponse,
  type ComponentTokens,
  RESPONSE_COMPONENTS,
  ZERO_COMPONENTS,
} from "./attribution.ts";
import { breakEven, type BreakEvenResult } from "./break_even.ts";
import { flipGate, type FlipGateResult, type FlipPair } from "./flip_gate.ts";
import { rankedIds } from "./golden_filter.ts";
import { type LatencySummary, summarizeLatency } from "./latency.ts";
import type { CallOutcome, DiscoveryCall } from "./discovery_calls.ts";
import {
  DEFAULT_RETRY_RATES,
  type EncodingResponse,
  sessionEstimates,
  type SessionRow,
} from "./session_estimate.ts";

/** Version of the `live` block's shape. */
export const LIVE_BLOCK_VERSION = 1;

/** What was measured. */
export interface LiveTarget {
  /** `reference-proxy` (booted by mcpmeter over upstream servers) or `endpoint` (external). */
  readonly kind: "reference-proxy" | "endpoint";
  /** Endpoint URL (the reference proxy's is on 127.0.0.1 and changes per run). */
  readonly url: string;
  /** Discovery tool name. */
  readonly tool: string;
  /** Argument carrying the query. */
  readonly queryArg: string;
  /** Fixed extra arguments of every discovery call (e.g. `{limit: 10}`). */
  readonly extraArgs: { readonly [key: string]: string | number | boolean };
  /** Upstream servers and their state (reference proxy only). */
  readonly servers?: readonly {
    readonly server: string;
    readonly state: string;
    readonly toolCount: number;
    readonly message?: string;
    /** Protocol revision the proxy negotiated with it. */
    readonly protocolVersion?: string;
    /** The `instructions` it sent. */
    readonly instructions?: string;
  }[];
  /** Protocol revision negotiated with the measured endpoint, when it connected. */
  readonly protocolVersion?: string;
  /** The `instructions` the endpoint sent, when it sent some. */
  readonly instructions?: string;
}

/** The measured calls of one golden query. */
export interface QueryCalls {
  /** Golden query id. */
  readonly queryId: string;
  /** Query text. */
  readonly query: string;
  /** The discovery call as configured (`detail=full` for the reference proxy). */
  readonly full: DiscoveryCall;
  /** The same query with the compact arguments, when the flip gate runs. */
  readonly compact?: DiscoveryCall;
}

/** Inputs of {@linkcode buildLiveBlock}. */
export interface LiveBlockInput {
  /** Encoding used for every count (recorded, and the token boundaries of the attribution). */
  readonly tokenizer: TokenizerName;
  /** The tokenizer that counts (from lib/tokens `createTokenizer`); its `name` is `tokenizer`. */
  readonly counter: Tokenizer;
  /** What was measured. */
  readonly target: LiveTarget;
  /** The golden set after restriction to the live catalog (see `restrictGolden`). */
  readonly golden: GoldenSet;
  /** Queries in the golden set before restriction (count). */
  readonly goldenTotal: number;
  /** Calls per used query, in golden-set order. */
  readonly calls: readonly QueryCalls[];
  /** The endpoint's own `tools/list` (the proxy menu), or `null` when listing failed. */
  readonly proxyMenu: readonly Tool[] | null;
  /** Every upstream tool (the direct menu), or `null` when unknown (external endpoint without a corpus). */
  readonly directMenu: readonly Tool[] | null;
  /** Wall time of listing every upstream tool directly, once (ms), or `null` when not measured. */
  readonly directListingMs: number | null;
  /** Finds a live tool by id (flip gate's lossy-signature check). */
  readonly lookup: (id: string) => Tool | undefined;
  /** Extra warnings to carry (start-up, listing). */
  readonly warnings?: readonly string[];
}

/** One query's row in `responseCost.perQuery`. */
export interface PerQueryCost {
  /** Golden query id. */
  readonly queryId: string;
  /** `ok` or the fault. */
  readonly outcome: CallOutcome;
  /** Tokens of the response text (tokens); 0 for a failed call without text. */
  readonly tokens: number;
  /** UTF-8 bytes of the response text. */
  readonly bytes: number;
  /** Tokens per component; sums to `tokens`. */
  readonly components: ComponentTokens;
  /** Whether the text was JSON (false: all tokens are `other`). */
  readonly json: boolean;
  /** Client-side latency of the call (ms). */
  readonly latencyMs: number;
  /** Ranked tool ids read from the response (top 10), `null` when unreadable. */
  readonly topIds: readonly string[] | null;
}

/** The `live` block of the report. Numbers are rounded to 4 decimals. */
export interface LiveBlock {
  /** Shape version ({@linkcode LIVE_BLOCK_VERSION}). */
  readonly version: number;
  /** Encoding of every token count. */
  readonly tokenizer: TokenizerName;
  /** What was measured. */
  readonly target: LiveTarget;
  /** Golden queries: how many there were, used, left out (why), failed (why). */
  readonly queries: {
    readonly goldenSetId: string;
    readonly total: number;
    readonly used: number;
    readonly skipped: Drops;
    readonly failed: number;
    readonly failures: readonly {
      readonly queryId: string;
      readonly detail: "full" | "compact";
      readonly outcome: CallOutcome;
      readonly message: string;
    }[];
  };
  /** Tokens of discovery responses (measured), over calls that returned text. */
  readonly responseCost: {
    readonly provenance: Provenance;
    readonly n: number;
    readonly p50: number | null;
    readonly p95: number | null;
    readonly max: number | null;
    readonly mean: number | null;
    /** Sum over responses, per component (tokens). */
    readonly components: ComponentTokens;
    /** Responses that were not JSON (count); their tokens are all `other`. */
    readonly nonJson: number;
    readonly perQuery: readonly PerQueryCost[];
  };
  /** Client-side latency of the discovery calls (measured; ms; nearest-rank percentiles). */
  readonly latencyMs: (LatencySummary & { readonly provenance: Provenance }) | null;
  /** One-shot cost of listing every upstream tool directly (measured). */
  readonly directListing: {
    readonly provenance: Provenance;
    readonly toolCount: number;
    readonly tokensNameDescription: number;
    readonly tokensWithSchemas: number;
    readonly latencyMs: number | null;
  } | null;
  /** The proxy's own menu (its `tools/list`, measured). */
  readonly proxyMenu: {
    readonly provenance: Provenance;
    readonly toolCount: number;
    readonly tokensNameDescription: number;
    readonly tokensWithSchemas: number;
  } | null;
  /** Break-even discovery calls (computed). */
  readonly breakEven: BreakEvenResult | { readonly withheld: true; readonly reason: string };
  /** Session estimates per response encoding (estimated). */
  readonly session: readonly SessionRow[];
  /** Mean response tokens per encoding (json = measured full responses; toon = the same responses re-encoded, computed; compact = measured). */
  readonly responseEncodings:
    readonly (EncodingResponse & { readonly provenance: Provenance; readonly n: number })[];
  /** Full vs compact, or `null` with the reason when not run. */
  readonly flipGate: FlipGateResult | { readonly skipped: string };
  /** IR metrics of the rankings read from the live responses, over the used queries. */
  readonly retrieval: {
    readonly provenance: Provenance;
    readonly queryCount: number;
    readonly metrics: MetricValues;
  } | null;
  /** Non-fatal findings (non-JSON responses, start-up failures, ...). */
  readonly warnings: readonly string[];
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;
const roundOrNull = (x: number | null): number | null => x === null ? null : round(x);

function roundDeep<T>(value: T): T {
  if (typeof value === "number") return round(value) as T;
  if (Array.isArray(value)) return value.map(roundDeep) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = roundDeep(v);
    return out as T;
  }
  return value;
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/**
 * Builds the `live` block.
 *
 * - responseCost: every call that returned text (`ok` and `tool_error` with
 *   text are both what an agent would read; only `ok` calls are counted),
 *   attributed by {@linkcode attributeResponse}; p50/p95 nearest-rank.
 * - latencyMs: over the `full` calls that got an answer (`ok`, `tool_error`,
 *   `no_text`); faults without an answer (timeouts, refused connections,
 *   dropped sessions) are failures, not latencies.
 * - breakEven: direct menu = `tokensWithSchemas` of `directMenu`, proxy menu =
 *   `tokensWithSchemas` of `proxyMenu` (both via lib/modes `catalogCost`),
 *   mean response = `responseCost.mean`; a menu "counted with schemas" means
 *   at least one of its tools has an `inputSchema`.
 * - session: for json (mean full response), compact (mean compact response,
 *   when measured) and toon (the parsed full responses re-encoded with
 *   `@toon-format/toon`, then counted).
 * - flipGate: over queries where both calls are `ok` and both rankings readable.
 * - retrieval: metrics over queries whose full call is `ok` with a readable
 *   ranking; a failed query is left out (and counted in `queries.failed`).
 *
 * @param input Measured calls, catalogs, golden set, tokenizer.
 * @returns The block, numbers rounded to 4 decimals (never NaN).
 * @throws {RangeError} When `counter` is not the `tokenizer` named.
 */
export function buildLiveBlock(input: LiveBlockInput): LiveBlock {
  const tokenizer = input.counter;
  if (tokenizer.name !== input.tokenizer) {
    throw new RangeError(
      `Cannot build the live block: counter "${tokenizer.name}" is not tokenizer "${input.tokenizer}"`,
    );
  }
  const warnings: string[] = [...(input.warnings ?? [])];
  const failures: LiveBlock["queries"]["failures"][number][] = [];
  const perQuery: PerQueryCost[] = [];
  const latencies: number[] = [];
  const flipPairs: FlipPair[] = [];
  const metricRows: MetricValues[] = [];
  const toonTokens: number[] = [];
  const compactTokens: number[] = [];
  let components = ZERO_COMPONENTS;
  let nonJson = 0;

  for (const q of input.calls) {
    const f = q.full;
    if (f.outcome === "ok" || f.outcome === "tool_error" || f.outcome === "no_text") {
      latencies.push(f.latencyMs);
    }
    if (f.outcome !== "ok") {
      failures.push({
        queryId: q.queryId,
        detail: "full",
        outcome: f.outcome,
        message: f.message ?? "",
      });
      continue;
    }
    const a = attributeResponse(f.text, input.tokenizer);
    if (!a.json) {
      nonJson++;
      warnings.push(`query "${q.queryId}": ${a.warnings[0]}`);
    }
    components = addComponents(components, a.components);
    const ids = rankedIds(f.text);
    perQuery.push({
      queryId: q.queryId,
      outcome: f.outcome,
      tokens: a.tokens,
      bytes: a.bytes,
      components: a.components,
      json: a.json,
      latencyMs: f.latencyMs,
      topIds: ids === undefined ? null : ids.slice(0, 10),
    });
    if (a.json) toonTokens.push(tokenizer.count(toonEncode(JSON.parse(f.text))));
    const labels = input.golden.qrels.get(q.queryId);
    if (ids !== undefined && labels !== undefined) metricRows.push(queryMetrics(ids, labels));
    if (q.compact !== undefined) {
      const c = q.compact;
      if (c.outcome !== "ok") {
        failures.push({
          queryId: q.queryId,
          detail: "compact",
          outcome: c.outcome,
          message: c.message ?? "",
        });
        continue;
      }
      const cTokens = tokenizer.count(c.text);
      compactTokens.push(cTokens);
      const cIds = rankedIds(c.text);
      if (ids !== undefined && cIds !== undefined) {
        flipPairs.push({
          queryId: q.queryId,
          fullIds: ids,
          compactIds: cIds,
          fullTokens: a.tokens,
          compactTokens: cTokens,
        });
      }
    }
  }

  const tokens = perQuery.map((r) => r.tokens);
  const p = (q: number) => tokens.length === 0 ? null : percentileNearestRank(tokens, q);
  const meanResponse = mean(tokens);

  const direct = input.directMenu === null ? null : catalogCost(input.directMenu, tokenizer);
  const proxy = input.proxyMenu === null ? null : catalogCost(input.proxyMenu, tokenizer);
  const be = direct === null || proxy === null || meanResponse === null
    ? {
      withheld: true as const,
      reason: direct === null
        ? "the direct menu is unknown (give the upstream catalog)"
        : proxy === null
        ? "the endpoint's tools/list failed, so its menu is unknown"
        : "no discovery response was measured",
    }
    : breakEven({
      directMenuTokens: direct.tokensWithSchemas,
      proxyMenuTokens: proxy.tokensWithSchemas,
      meanResponseTokens: meanResponse,
      directWithSchemas: direct.schemaCount > 0,
      proxyWithSchemas: proxy.schemaCount > 0,
    });

  const encodings: (EncodingResponse & { provenance: Provenance; n: number })[] = [];
  if (meanResponse !== null) {
    encodings.push({
      encoding: "json",
      meanResponseTokens: meanResponse,
      provenance: "measured",
      n: tokens.length,
    });
  }
  const meanCompact = mean(compactTokens);
  if (meanCompact !== null) {
    encodings.push({
      encoding: "compact",
      meanResponseTokens: meanCompact,
      provenance: "measured",
      n: compactTokens.length,
    });
  }
  const meanToon = mean(toonTokens);
  if (meanToon !== null) {
    encodings.push({
      encoding: "toon",
      meanResponseTokens: meanToon,
      provenance: "computed",
      n: toonTokens.length,
    });
  }
  const session = proxy === null ? [] : sessionEstimates({
    proxyMenuTokens: proxy.tokensWithSchemas,
    ...(direct === null ? {} : { directMenuTokens: direct.tokensWithSchemas }),
    responses: encodings,
    retryRates: DEFAULT_RETRY_RATES,
  });

  const hasCompact = input.calls.some((q) => q.compact !== undefined);
  const gate = hasCompact
    ? flipGate(flipPairs, { lookup: input.lookup, tokenizer })
    : { skipped: "no compact arguments were given for this target" };

  const latency = latencies.length === 0 ? null : {
    provenance: "measured" as const,
    ...summarizeLatency(latencies),
  };
  const failedQueries = new Set(failures.map((f) => f.queryId)).size;

  const block: LiveBlock = {
    version: LIVE_BLOCK_VERSION,
    tokenizer: input.tokenizer,
    target: input.target,
    queries: {
      goldenSetId: input.golden.id,
      total: input.goldenTotal,
      used: input.golden.queries.size,
      skipped: input.golden.dropped,
      failed: failedQueries,
      failures,
    },
    responseCost: {
      provenance: "measured",
      n: tokens.length,
      p50: p(50),
      p95: p(95),
      max: p(100),
      mean: roundOrNull(meanResponse),
      components,
      nonJson,
      perQuery,
    },
    latencyMs: latency === null ? null : roundDeep(latency),
    directListing: direct === null ? null : {
      provenance: "measured",
      toolCount: direct.toolCount,
      tokensNameDescription: direct.tokensNameDescription,
      tokensWithSchemas: direct.tokensWithSchemas,
      latencyMs: roundOrNull(input.directListingMs),
    },
    proxyMenu: proxy === null ? null : {
      provenance: "measured",
      toolCount: proxy.toolCount,
      tokensNameDescription: proxy.tokensNameDescription,
      tokensWithSchemas: proxy.tokensWithSchemas,
    },
    breakEven: roundDeep(be),
    session: roundDeep(session),
    responseEncodings: roundDeep(encodings),
    flipGate: roundDeep(gate),
    retrieval: metricRows.length === 0 ? null : {
      provenance: "measured",
      queryCount: metricRows.length,
      metrics: roundDeep(meanMetrics(metricRows)),
    },
    warnings,
  };
  // Components must add up; a mismatch is a bug, not data.
  const sum = RESPONSE_COMPONENTS.reduce((n, k) => n + components[k], 0);
  const total = tokens.reduce((n, t) => n + t, 0);
  if (sum !== total) {
    throw new Error(`live block: components sum to ${sum} tokens, responses to ${total}`);
  }
  return block;
}
