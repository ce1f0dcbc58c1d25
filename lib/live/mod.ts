/**
 * Live discovery cost: what discovery responses really cost over MCP.
 *
 * - {@linkcode attributeResponse}: tokens of one exact response text,
 *   attributed to `input_schemas`, `descriptions`, `usage_instructions`,
 *   `metadata` and `other` by byte spans (summing exactly to the total).
 * - {@linkcode summarizeLatency}: nearest-rank p50/p95/p99/max.
 * - {@linkcode breakEven}: (direct menu − proxy menu) ÷ mean response.
 * - {@linkcode sessionEstimates}: proxy menu + calls × mean × (1 + retry rate).
 * - {@linkcode flipGate}: full vs compact rankings, token reduction, lossy signatures.
 * - {@linkcode restrictGolden}, {@linkcode rankedIds}: golden queries a live
 *   catalog can answer, ranked ids read back from responses.
 * - {@linkcode buildLiveBlock}: the report's `live` block.
 * - `openDiscoverySession` (`io.ts`): the I/O edge (streamable HTTP client, clock).
 *
 * @example Usage
 * ```ts
 * import { breakEven } from "./mod.ts";
 * const r = breakEven({ directMenuTokens: 5_000, proxyMenuTokens: 500, meanResponseTokens: 1_500,
 *   directWithSchemas: true, proxyWithSchemas: true });
 * if (r.calls !== 3) throw new Error(String(r.calls));
 * ```
 *
 * @module
 */
export type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
export type { Provenance } from "../core/provenance.ts";
export type { Drops, GoldenFormat, GoldenSet, Grade, Qrels, Queries } from "../retrieval/types.ts";
export { METRIC_KEYS, type MetricKey, type MetricValues } from "../retrieval/metrics.ts";
export type { Tokenizer, TokenizerName } from "../tokens/types.ts";
export {
  addComponents,
  attributeResponse,
  type Attribution,
  type ComponentSpan,
  componentSpans,
  type ComponentTokens,
  encodingBoundaries,
  RESPONSE_COMPONENTS,
  type ResponseComponent,
  type ResponseSpans,
  type TokenBoundaries,
  ZERO_COMPONENTS,
} from "./attribution.ts";
export { type LatencySummary, summarizeLatency } from "./latency.ts";
export { breakEven, type BreakEvenInput, type BreakEvenResult } from "./break_even.ts";
export {
  DEFAULT_RETRY_RATES,
  DEFAULT_SESSION_CALLS,
  type EncodingResponse,
  type ResponseEncoding,
  sessionEstimates,
  type SessionOptions,
  type SessionRow,
} from "./session_estimate.ts";
export {
  flipGate,
  type FlipGateOptions,
  type FlipGateResult,
  type FlipPair,
  type LossySignature,
  SIGNATURE_LOSSES,
  type SignatureLoss,
  signatureLosses,
} from "./flip_gate.ts";
export { MISSING_BEST_TOOL, rankedIds, restrictGolden } from "./golden_filter.ts";
export {
  buildLiveBlock,
  LIVE_BLOCK_VERSION,
  type LiveBlock,
  type LiveBlockInput,
  type LiveTarget,
  type PerQueryCost,
  type QueryCalls,
} from "./live_block.ts";
export { type CallOutcome, type DiscoveryCall } from "./discovery_calls.ts";
export {
  FRONTIER_MAX_K,
  type FrontierOptions,
  type FrontierPoint,
  type FrontierRow,
  measureFrontier,
  type UnreachableTools,
  unreachableTools,
} from "./frontier.ts";
