/**
 * `--hosted-search PROVIDER:ID` and `--hosted-search-variant`, parsed apart from the client
 * (hosted_search.ts), which loads the model SDKs only when the flag is given.
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";

/** What `--hosted-search` asks for. */
export interface HostedSearchSpec {
  /** Provider of the search (only `anthropic` today). */
  readonly provider: "anthropic";
  /** Model registry id (or a model name an `anthropic` entry of the registry sends). */
  readonly model: string;
  /** Search variant. */
  readonly variant: "bm25" | "regex";
}

/**
 * Parses `--hosted-search PROVIDER:ID`.
 *
 * @param spec The flag's value.
 * @param variant `--hosted-search-variant` (default `bm25`).
 * @returns The spec.
 * @throws {UsageError} On another provider, a missing id or an unknown variant.
 */
export function parseHostedSearch(spec: string, variant = "bm25"): HostedSearchSpec {
  const i = spec.indexOf(":");
  const provider = i < 0 ? spec : spec.slice(0, i);
  const model = i < 0 ? "" : spec.slice(i + 1).trim();
  if (provider !== "anthropic" || model === "") {
    throw new UsageError(
      `--hosted-search: "${spec}" is not anthropic:ID (a chat model of the registry, e.g. anthropic:claude); ` +
        "OpenAI's hosted tool_search is scored through its emulation openai_search",
    );
  }
  if (variant !== "bm25" && variant !== "regex") {
    throw new UsageError(`--hosted-search-variant must be bm25 or regex, got "${variant}"`);
  }
  return { provider, model, variant };
}
