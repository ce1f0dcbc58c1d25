/**
 * The I/O edge of lib/retrieval: reading golden sets (mcpproxy, BEIR, ToolRet) from disk; the parsers are pure, in `mod.ts`.
 *
 * @module
 */
export { loadGolden } from "./load_golden.ts";
