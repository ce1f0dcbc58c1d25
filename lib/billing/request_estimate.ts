/**
 * The static estimate of an agent's first request: what a provider should bill for the input of
 * the first model call of a case before anything has happened (its fixed tool-use overhead, the
 * agent's tools as sent, its system prompt and the case's question), from the same calibration
 * as the catalog's billed layer. Agent runs record the provider's own figure for that request
 * (`firstTurnInputTokens`), so every run checks the estimate for free.
 *
 * Text that is not a tool definition (the system prompt, the question) is counted as the
 * calibration counts tool text: `o200k_base` tokens, as prose (or structure, for text without
 * words) and non-ASCII for Anthropic, as the JSON and Cookbook features for OpenAI and Gemini.
 * Not included: the few tokens each provider adds to frame a message and its role.
 *
 * @module
 */
import type { SentFormat, SentTool } from "../catalog/sent.ts";
import { type Exposure, SEARCH_EXPOSURES } from "../agent/types.ts";
import { tokenRegions } from "../tokens/spans.ts";
import {
  addFeatures,
  type BillingProvider,
  type Calibration,
  type CalibrationEntry,
  calibrationEntry,
  DEFAULT_CALIBRATION,
  estimateTokens,
  type Features,
  providerFeatures,
} from "./estimate.ts";

/** Tokens with an interval. */
export interface TokenInterval {
  /** Central estimate, tokens. */
  readonly tokens: number;
  /** Lower end, tokens. */
  readonly low: number;
  /** Upper end, tokens. */
  readonly high: number;
}

/** The static estimate of an agent's first request, without the case's question. */
export interface AgentRequestEstimate extends TokenInterval {
  /** Provider whose bill is estimated. */
  readonly provider: BillingProvider;
  /** Model name, when known (it picks the calibration entry). */
  readonly model: string | null;
  /** The calibration and entry used (`name: label`). */
  readonly calibration: string;
  /** The fixed tool-use overhead included (the entry's intercept, mid), tokens. */
  readonly overhead: number;
  /** The tools' share (overhead excluded) and how many tools. */
  readonly tools: TokenInterval & { readonly count: number };
  /** The system prompt's share. */
  readonly systemPrompt: TokenInterval;
}

/**
 * Features of a text that is not a tool definition, for a provider's estimator (see the module
 * doc).
 *
 * @param provider Provider.
 * @param text The text.
 * @returns Its features.
 *
 * @example Usage
 * ```ts
 * import { textFeatures } from "./request_estimate.ts";
 * // "hello world": 2 o200k_base tokens, words, no non-ASCII byte.
 * const f = textFeatures("anthropic", "hello world");
 * if (f.prose !== 2 || f.structure !== 0 || f.nonAscii !== 0) throw new Error();
 * ```
 */
export function textFeatures(provider: BillingProvider, text: string): Features {
  const r = tokenRegions(text, "o200k_base", [], { nonAscii: true });
  const n = r.tokens[0];
  if (provider === "anthropic") {
    const wide = r.nonAscii![0];
    const prose = /\s/.test(text) && /\p{L}/u.test(text);
    return { prose: prose ? n - wide : 0, structure: prose ? 0 : n - wide, nonAscii: wide };
  }
  // OpenAI: the Cookbook's features (and a fitted entry's `cookbook`) are the text's tokens.
  if (provider === "openai") return { cookbook: n, cookbookTop: n, cookbookNested: 0, json: n };
  return { json: n };
}

const sum = (a: TokenInterval, b: TokenInterval): TokenInterval => ({
  tokens: a.tokens + b.tokens,
  low: a.low + b.low,
  high: a.high + b.high,
});

/**
 * The estimate of a text's tokens under a calibration entry (no overhead).
 *
 * @param entry Calibration entry.
 * @param text The text.
 * @returns Tokens with the entry's interval.
 */
export function estimateText(entry: CalibrationEntry, text: string): TokenInterval {
  return estimateTokens(entry, textFeatures(entry.provider, text), false);
}

/**
 * The static estimate of an agent's first request without its question: the tool-use overhead,
 * the tools as sent (shaped for the provider) and the system prompt.
 *
 * @param input Provider, model, calibration, the tools as sent and the system prompt.
 * @returns The estimate, or `undefined` when the calibration has no entry for the provider.
 */
export function estimateAgentRequest(input: {
  readonly provider: BillingProvider;
  readonly model: string | null;
  readonly calibration: Calibration;
  readonly tools: readonly SentTool[];
  readonly systemPrompt: string;
}): AgentRequestEstimate | undefined {
  const entry = calibrationEntry(input.calibration, input.provider, input.model);
  if (entry === undefined) return undefined;
  const f = providerFeatures(input.provider, input.tools);
  const tools = estimateTokens(entry, addFeatures(...f.perTool, f.wrapper), false);
  const system = input.systemPrompt === ""
    ? { tokens: 0, low: 0, high: 0 }
    : estimateText(entry, input.systemPrompt);
  // The overhead is paid by a request that carries tools.
  const overhead = input.tools.length === 0 ? { tokens: 0, low: 0, high: 0 } : {
    tokens: Math.round(entry.intercept.mid),
    low: Math.round(entry.intercept.low),
    high: Math.round(entry.intercept.high),
  };
  return {
    provider: input.provider,
    model: input.model,
    calibration: `${input.calibration.name}: ${entry.label}`,
    ...sum(sum(overhead, tools), system),
    overhead: overhead.tokens,
    tools: { ...tools, count: input.tools.length },
    systemPrompt: system,
  };
}

/** What `run.json` records as an agent's `catalogs[agent].estimate`. */
export type RecordedEstimate =
  | (AgentRequestEstimate & {
    /** The request format the agent's provider speaks. */
    readonly format: SentFormat;
    /** What the estimate counts, in words. */
    readonly includes: string;
  })
  | { readonly skipped: string };

/**
 * The static estimate of an agent's first request (question aside) as a run records it: the
 * agent's provider and model pick the calibration entry (the default calibration unless given),
 * its exposed tools and system prompt are estimated; an agent whose tools wait behind a
 * provider's tool search, or whose provider speaks a format the calibration does not know, gets
 * the reason instead.
 *
 * @param agent The agent: its exposure (`direct`, `proxy`, ..., `anthropic_search`) and system
 *   prompt.
 * @param model Its model: the name sent (it picks the calibration entry) and the request format
 *   its provider speaks (the provider registry's `wire`).
 * @param tools Its exposed tools (as sent).
 * @param calibration Calibration. @default DEFAULT_CALIBRATION
 * @returns The record.
 */
export function agentRequestEstimate(
  agent: { readonly exposure: string; readonly systemPrompt: string },
  model: { readonly model: string; readonly wire: string },
  tools: readonly { readonly spec: SentTool }[],
  calibration: Calibration = DEFAULT_CALIBRATION,
): RecordedEstimate {
  if (SEARCH_EXPOSURES.includes(agent.exposure as Exposure)) {
    return {
      skipped: `${agent.exposure}: the tools wait behind the provider's tool search, so what ` +
        "the first request is billed for them is the provider's to say",
    };
  }
  const format = model.wire as SentFormat;
  const provider: BillingProvider | undefined = format === "anthropic-messages"
    ? "anthropic"
    : format.startsWith("openai-")
    ? "openai"
    : format === "gemini"
    ? "gemini"
    : undefined;
  const estimate = provider === undefined ? undefined : estimateAgentRequest({
    provider,
    model: model.model,
    calibration,
    tools: tools.map((t) => t.spec),
    systemPrompt: agent.systemPrompt,
  });
  if (estimate === undefined) {
    return { skipped: `no calibration entry for ${format} ${model.model}` };
  }
  return {
    ...estimate,
    format,
    includes: `the tool-use overhead (${estimate.overhead}), ${estimate.tools.count} tool(s) as ` +
      `sent, the system prompt; the question is added per case; message framing is not counted`,
  };
}
