/**
 * The I/O edge of lib/catalog: reading catalog and tool-overrides files from disk (the pure parsers are in `mod.ts`).
 *
 * @module
 */
export { loadCatalog, type LoadCatalogOptions } from "./load.ts";
export { loadSynthReference } from "./load_synth.ts";
export { loadToolOverrides } from "./load_overrides.ts";
