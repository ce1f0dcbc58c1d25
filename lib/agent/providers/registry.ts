/**
 * The model-provider registry: every `provider` a model registry entry can name, with the wire
 * format it speaks and the tool-schema dialect it needs. `createModelClient`, tool exposure, the
 * model registry's JSON Schema and the extension-points table read it instead of switching on names.
 *
 * Adding a provider: one module exporting a {@linkcode ProviderEntry} (with its test against a
 * local server speaking the wire format), and its entry appended to {@linkcode PROVIDER_ENTRIES}.
 *
 * @module
 */

import type { ProviderEntry } from "./_adapter.ts";
import { anthropicProvider } from "./anthropic.ts";
import { openAiProvider } from "./openai.ts";
import { openAiResponsesProvider } from "./openai_responses.ts";

/** Every registered provider, in documentation order. */
export const PROVIDER_ENTRIES: readonly ProviderEntry[] = [
  anthropicProvider,
  openAiProvider,
  openAiResponsesProvider,
];

/** The registered provider names (the `provider` values a model registry accepts). */
export const PROVIDER_NAMES: readonly string[] = PROVIDER_ENTRIES.map((p) => p.name);

/**
 * Looks a provider up by name.
 *
 * @param name A registered name, e.g. `openai`.
 * @returns Its entry.
 * @throws {RangeError} for an unknown name (quoted, with the known names).
 *
 * @example Usage
 * ```ts
 * import { providerEntry } from "./registry.ts";
 * if (providerEntry("openai").schemaDialect !== "openai") throw new Error();
 * ```
 */
export function providerEntry(name: string): ProviderEntry {
  const entry = PROVIDER_ENTRIES.find((p) => p.name === name);
  if (entry === undefined) {
    throw new RangeError(
      `Unknown provider "${name}": expected one of ${PROVIDER_NAMES.join(", ")}`,
    );
  }
  return entry;
}
