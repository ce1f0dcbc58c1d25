/**
 * The I/O edge of lib/catalog: reading catalog files from disk (the pure parsers are in `mod.ts`).
 *
 * @module
 */
export { loadCatalog, type LoadCatalogOptions } from "./load.ts";
