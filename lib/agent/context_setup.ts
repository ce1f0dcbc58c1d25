/**
 * What the loop needs for an agent's `contextStrategy` in a chat session: the tokenizer
 * ({@linkcode DEFAULT_CONTEXT_TOKENIZER}) and, for `summarize`, a client of the summarizer model.
 * Benchmark runs pass the same to `runSuite` (a tokenizer) and build the summarizer's client with
 * the other model clients.
 *
 * @module
 */

import type { AgentConfig, ModelConfig } from "./types.ts";
import type { ModelClient } from "./providers/types.ts";
import { DEFAULT_CONTEXT_TOKENIZER, needsContextTokenizer, type TokenCounter } from "./context.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";

/**
 * The tokenizer and summarizer client an agent's context strategy needs (none for `none`).
 *
 * @param agent The agent.
 * @param models The model registry.
 * @param makeClient Builds a client for a registry entry (as the caller builds the agent's).
 * @returns `tokenizer` and `summarizer`, each present only when needed.
 * @throws {RangeError} when the `summarize` model is not in the registry.
 */
export function contextCollaborators(
  agent: Pick<AgentConfig, "id" | "contextStrategy"> & Partial<Pick<AgentConfig, "exposure">>,
  models: readonly ModelConfig[],
  makeClient: (config: ModelConfig) => ModelClient,
): { tokenizer?: TokenCounter; summarizer?: ModelClient } {
  if (!needsContextTokenizer([agent])) return {};
  const tokenizer = createTokenizer(DEFAULT_CONTEXT_TOKENIZER);
  const cs = agent.contextStrategy;
  if (cs?.type !== "summarize") return { tokenizer };
  const config = models.find((m) => m.id === cs.model);
  if (config === undefined) {
    throw new RangeError(
      `Cannot run agent "${agent.id}": its summarizer model "${cs.model}" is not in the registry`,
    );
  }
  return { tokenizer, summarizer: makeClient(config) };
}
