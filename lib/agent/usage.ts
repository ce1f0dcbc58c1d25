/**
 * Token usage arithmetic and cost: sums that keep "not reported" (`null`) apart from 0, and
 * USD from per-million prices.
 *
 * @module
 */

import {
  type AgentConfig,
  type ModelPricing,
  ONE_HOUR_CACHE_WRITE_MULTIPLIER,
  type Usage,
} from "./types.ts";

/** Usage of nothing: every field 0. */
export const ZERO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

const add = (a: number | null, b: number | null) => a === null || b === null ? null : a + b;

/**
 * Sums two usages field by field; a field is `null` when either side is `null` (an unknown
 * part makes the total unknown).
 *
 * @param a First usage.
 * @param b Second usage.
 * @returns The field-wise sum.
 *
 * @example Usage
 * ```ts
 * import { addUsage } from "./usage.ts";
 * const u = addUsage(
 *   { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: null },
 *   { inputTokens: 10, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 40 },
 * );
 * if (u.inputTokens !== 11 || u.cacheWriteTokens !== null) throw new Error("unexpected");
 * ```
 */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
    cacheReadTokens: add(a.cacheReadTokens, b.cacheReadTokens),
    cacheWriteTokens: add(a.cacheWriteTokens, b.cacheWriteTokens),
  };
}

/**
 * Context size of one request: input + cache-read + cache-write tokens (all the prompt the
 * model saw). Unreported cache fields count as 0; unreported input makes it `null`.
 *
 * @param u Usage of one model turn.
 * @returns Tokens, or `null`.
 */
export function contextTokens(u: Usage): number | null {
  if (u.inputTokens === null) return null;
  return u.inputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0);
}

/**
 * Cost of a usage in USD: Σ tokens × price / 10⁶ over input, output, cache read and cache
 * write. Unreported cache fields contribute 0 (the caller's notes say they were unreported);
 * unreported input or output makes the cost `null`.
 *
 * @param u Usage (tokens).
 * @param p Prices (USD per million tokens).
 * @returns USD, or `null`.
 *
 * @example Usage
 * ```ts
 * import { usageCostUsd } from "./usage.ts";
 * // 1,000 in at $3/M + 500 out at $15/M + 2,000 cache read at $0.30/M = 0.003 + 0.0075 + 0.0006
 * const c = usageCostUsd(
 *   { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 2000, cacheWriteTokens: 0 },
 *   { inputUsdPerMTok: 3, outputUsdPerMTok: 15, cacheReadUsdPerMTok: 0.3, cacheWriteUsdPerMTok: 3.75 },
 * );
 * if (Math.abs(c! - 0.0111) > 1e-12) throw new Error("unexpected");
 * ```
 */
export function usageCostUsd(u: Usage, p: ModelPricing): number | null {
  if (u.inputTokens === null || u.outputTokens === null) return null;
  return (
    u.inputTokens * p.inputUsdPerMTok +
    u.outputTokens * p.outputUsdPerMTok +
    (u.cacheReadTokens ?? 0) * p.cacheReadUsdPerMTok +
    (u.cacheWriteTokens ?? 0) * p.cacheWriteUsdPerMTok
  ) / 1_000_000;
}

/**
 * The prices an agent's tokens are charged at: its model's, with cache writes at the one-hour
 * price when the agent asks for the one-hour cache (`cacheWrite1hUsdPerMTok`, else the
 * five-minute price × {@linkcode ONE_HOUR_CACHE_WRITE_MULTIPLIER}).
 *
 * @param agent The agent (its `promptCaching`).
 * @param pricing Its model's prices; `undefined` when unknown.
 * @returns The prices to charge, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { agentPricing } from "./usage.ts";
 * const p = { inputUsdPerMTok: 3, outputUsdPerMTok: 15, cacheReadUsdPerMTok: 0.3, cacheWriteUsdPerMTok: 3.75 };
 * const hour = agentPricing({ promptCaching: { enabled: true, ttl: "1h" } }, p);
 * if (hour?.cacheWriteUsdPerMTok !== 6) throw new Error(String(hour?.cacheWriteUsdPerMTok));
 * ```
 */
export function agentPricing(
  agent: Pick<AgentConfig, "promptCaching">,
  pricing: ModelPricing | undefined,
): ModelPricing | undefined {
  if (pricing === undefined) return undefined;
  const c = agent.promptCaching;
  if (!c?.enabled || c.ttl !== "1h") return pricing;
  return {
    ...pricing,
    cacheWriteUsdPerMTok: pricing.cacheWrite1hUsdPerMTok ??
      pricing.cacheWriteUsdPerMTok * ONE_HOUR_CACHE_WRITE_MULTIPLIER,
  };
}
