/**
 * A synthetic catalog as one text, for tests (`deno task synth` streams the same bytes from
 * lib/catalog's `synthCatalogChunks`).
 *
 * @module
 */
import {
  synthCatalogChunks,
  type SynthOptions,
  type SynthReference,
} from "../lib/catalog/synth.ts";

/**
 * The whole synthetic catalog as one text.
 *
 * @param ref Reference (lib/catalog `synthReference`).
 * @param options Size and seed.
 * @returns The `mcpmeter-capture` document's text.
 */
export function synthCatalogText(ref: SynthReference, options: SynthOptions): string {
  let text = "";
  for (const chunk of synthCatalogChunks(ref, options)) text += chunk.text;
  return text;
}
