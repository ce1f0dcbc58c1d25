/**
 * The I/O edge of lib/encodings: reading captured tool results from disk (`parseToolResults` is pure, in `mod.ts`).
 *
 * @module
 */
export { loadToolResults } from "./load_tool_results.ts";
