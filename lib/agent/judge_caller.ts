/**
 * A {@linkcode JudgeCaller} over model clients: one fresh two-message request (system prompt and
 * the judge prompt, no tools, at most 512 output tokens, temperature 0 unless the criterion asks
 * otherwise), priced with the judge model's registry prices. Used by runs and by calibration.
 *
 * @module
 */
import type { JudgeCaller } from "./criteria.ts";
import type { ModelClient } from "./providers/types.ts";
import type { ModelPricing } from "./types.ts";
import { usageCostUsd } from "./usage.ts";

/** Output token cap of a judge call. */
export const JUDGE_MAX_OUTPUT_TOKENS = 512;

/**
 * Builds a judge caller.
 *
 * @param clients Model clients by registry id.
 * @param pricingOf The registry prices of a model id, `undefined` when unknown.
 * @param signal Aborts the calls (e.g. the case timeout).
 * @returns The caller; it throws a `RangeError` for a model without a client or prices, and
 *   whatever the client throws when the endpoint fails.
 *
 * @example Usage
 * ```ts
 * import { clientJudgeCaller } from "./judge_caller.ts";
 * const judge = clientJudgeCaller(new Map(), () => undefined);
 * const e = await judge("j", "s", "u").catch((e) => e);
 * if (!(e instanceof RangeError)) throw new Error("unexpected");
 * ```
 */
export function clientJudgeCaller(
  clients: ReadonlyMap<string, ModelClient>,
  pricingOf: (modelId: string) => ModelPricing | undefined,
  signal?: AbortSignal,
): JudgeCaller {
  return async (modelId, system, user, call) => {
    const client = clients.get(modelId);
    const pricing = pricingOf(modelId);
    if (!client || !pricing) throw new RangeError(`no judge model "${modelId}" in the registry`);
    const turn = await client.complete(
      {
        system,
        messages: [{ role: "user", text: user }],
        tools: [],
        maxOutputTokens: JUDGE_MAX_OUTPUT_TOKENS,
        temperature: call?.temperature ?? 0,
      },
      signal === undefined ? {} : { signal },
    );
    return { text: turn.text, usage: turn.usage, costUsd: usageCostUsd(turn.usage, pricing) };
  };
}
