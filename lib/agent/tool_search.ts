/**
 * Which providers and models have the tool search a search exposure needs, checked before a
 * run starts so an agent that cannot search fails with the reason instead of mid-run.
 *
 * - `anthropic_search`: the Anthropic Messages API (`provider: "anthropic"`); Anthropic's
 *   tool-search page lists Sonnet 4.0+, Opus 4.0+ and Haiku 4.5+ (and later families), so a
 *   Claude 3 (or older) model, or a Haiku 4 before 4.5, is refused.
 * - `openai_search`: the Responses API (`provider: "openai-responses"`); OpenAI's guide says
 *   "only gpt-5.4 and later models support tool_search", so an older GPT (in any spelling:
 *   `chatgpt-4o-latest`, Azure's `gpt-35-turbo`) or an o-series model is refused.
 *
 * A model name the rules do not recognize (a gateway alias, a local test model) is let through:
 * the provider then answers for it.
 *
 * @module
 */

import type { AgentConfig, Exposure, ModelConfig } from "./types.ts";
import { expandVars } from "./config.ts";

/** The provider each search exposure needs. */
export const SEARCH_PROVIDER: Readonly<Partial<Record<Exposure, string>>> = {
  anthropic_search: "anthropic",
  openai_search: "openai-responses",
};

/**
 * Why an agent's model cannot run its search exposure, or `null` when it can (or the exposure
 * needs no tool search).
 *
 * @param exposure The agent's exposure.
 * @param provider The model registry entry's provider.
 * @param model The model name sent on the wire (variables expanded).
 * @returns One sentence, or `null`.
 *
 * @example Usage
 * ```ts
 * import { toolSearchProblem } from "./tool_search.ts";
 * if (toolSearchProblem("anthropic_search", "anthropic", "claude-sonnet-4-5") !== null) throw new Error();
 * if (toolSearchProblem("anthropic_search", "anthropic", "claude-3-5-haiku-latest") === null) throw new Error();
 * ```
 */
export function toolSearchProblem(
  exposure: Exposure,
  provider: string,
  model: string,
): string | null {
  const needed = SEARCH_PROVIDER[exposure];
  if (needed === undefined) return null;
  if (provider !== needed) {
    return `exposure ${exposure} needs a model of provider "${needed}" (${
      exposure === "anthropic_search"
        ? "the Anthropic Messages API's tool search tool"
        : "OpenAI's hosted tool_search exists in the Responses API only"
    }), not "${provider}"`;
  }
  const name = model.toLowerCase();
  if (exposure === "anthropic_search") {
    if (/(^|[^a-z0-9])claude-(2|3|instant)([^0-9]|$)/.test(name)) {
      return `model "${model}" has no tool search: Anthropic lists Sonnet 4.0+, Opus 4.0+ and Haiku 4.5+`;
    }
    const haiku = /(^|[^a-z0-9])claude-haiku-4(?:[-.]([0-9]))?(?:[^0-9]|$)/.exec(name);
    if (haiku !== null && (haiku[2] === undefined || Number(haiku[2]) < 5)) {
      return `model "${model}" has no tool search: Anthropic lists Haiku 4.5 and later`;
    }
    return null;
  }
  if (/(^|[^a-z0-9])o[1-9](-|$)/.test(name)) {
    return `model "${model}" has no tool_search: OpenAI supports gpt-5.4 and later only`;
  }
  const version = gptVersion(name);
  if (version !== null) {
    const [major, minor] = version;
    if (major < 5 || (major === 5 && minor < 4)) {
      return `model "${model}" has no tool_search: OpenAI supports gpt-5.4 and later only`;
    }
  }
  return null;
}

/**
 * The GPT version a model name carries, as `[major, minor]`, or `null` when it names none. Read
 * in every spelling the name reaches us in: behind a gateway prefix or a fine-tune's `ft:`;
 * `chatgpt-` (OpenAI's ChatGPT snapshots, e.g. `chatgpt-4o-latest`, are GPT models); and
 * Azure's names without the dot, which its character rules forbid (`gpt-35-turbo` is
 * GPT-3.5 Turbo: the first digit is the major version, the rest the minor). Only a first digit
 * of 3 or more is read that way (no API serves GPT-1 or GPT-2), so `gpt-10` is GPT-10.
 */
function gptVersion(name: string): [number, number] | null {
  const gpt = /(^|[^a-z0-9])(?:chat)?gpt-(\d+)(?:\.(\d+))?/.exec(name);
  if (gpt === null) return null;
  const [, , digits, minor] = gpt;
  if (minor !== undefined) return [Number(digits), Number(minor)];
  return digits.length > 1 && digits[0] >= "3"
    ? [Number(digits[0]), Number(digits.slice(1))]
    : [Number(digits), 0];
}

/**
 * The agents whose model cannot run their search exposure, one line each (agent, model and why):
 * the check a run, a chat or the workbench makes before anything starts. A model whose name
 * uses a variable that is not set is left to the model client's own error.
 *
 * @param agents The agents about to run.
 * @param models The model registry.
 * @param env Variables for `${VAR}` in model names.
 * @returns The problems, in agent order (empty: every agent can run).
 */
export function toolSearchProblems(
  agents: readonly Pick<AgentConfig, "id" | "model" | "exposure">[],
  models: readonly ModelConfig[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const out: string[] = [];
  for (const a of agents) {
    if (SEARCH_PROVIDER[a.exposure] === undefined) continue;
    const config = models.find((m) => m.id === a.model);
    if (config === undefined) continue;
    let name: string;
    try {
      name = expandVars(config.model, env, { file: "models", field: `${config.id}.model` });
    } catch {
      continue;
    }
    const problem = toolSearchProblem(a.exposure, config.provider, name);
    if (problem !== null) out.push(`agent "${a.id}" (model "${a.model}"): ${problem}`);
  }
  return out;
}
