/**
 * Encoding arms: deterministic ways to render MCP tool definitions into the
 * text an agent's context receives, and the runner that measures what each
 * costs per tokenizer.
 *
 * Arms: `baseline_json`, `compact_sig`, `toon_listing`, `tron_dedup`,
 * `minified_json` and `markdown`. The `toon_results` pseudo-arm
 * ({@linkcode measureToolResults}) compares compact JSON with TOON over tool
 * OUTPUTS captured by `deno task capture-results`.
 *
 * @example Usage
 * ```ts
 * import { armsNamed, measureArms } from "./mod.ts";
 * const words = { name: "words", count: (t: string) => t.split(/\s+/).filter(Boolean).length };
 * const tools = [{ id: "s:a", server: "s", name: "a", description: "one two" }];
 * const rows = measureArms({ corpus: { id: "c", tools }, arms: armsNamed(), tokenizers: [words] });
 * if (rows.length !== 6) throw new Error(`expected a row per arm, got ${rows.length}`);
 * ```
 *
 * @module
 */
export type {
  ArmEntry,
  EncodedTool,
  EncodingArm,
  IndexFields,
  JoinedListing,
  Listing,
  ListingInfo,
  SkipSummary,
  ToolPart,
  ToolSkip,
} from "./types.ts";
export type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
export type { Tokenizer } from "../tokens/types.ts";
export type { Provenance } from "../core/provenance.ts";
export { MAX_SKIP_EXAMPLES } from "./types.ts";
export { baselineJson, baselineJsonEntry } from "./baseline_json.ts";
export { compactSig, compactSigEntry, signatureParams } from "./compact_sig.ts";
export { toonListing, toonListingEntry } from "./toon_listing.ts";
export {
  createTronDedupArm,
  SchemaClassCollisionError,
  schemaClassName,
  tronDedup,
  tronDedupEntry,
  type TronDedupOptions,
} from "./tron_dedup.ts";
export { minifiedJson, minifiedJsonEntry } from "./minified_json.ts";
export { markdown, markdownEntry } from "./markdown.ts";
export { ARM_NAMES, ARMS, armsNamed, parseArmList } from "./registry.ts";
export {
  type ArmMeasurement,
  type ArmRow,
  type ArmSkipRow,
  type HeavyTool,
  measureArms,
  type MeasureArmsOptions,
} from "./measure.ts";
export { type AltersIndexObservation, observeAltersIndex } from "./alters_index.ts";
export {
  extractPayloads,
  isTabular,
  measureToolResults,
  type ToolResultClass,
  type ToolResultClassSummary,
  type ToolResultPayload,
  type ToolResultRecord,
  type ToolResultRow,
  type ToolResultSkip,
  type ToolResultSkipReason,
  type ToolResultSkips,
  type ToolResultsMeasurement,
} from "./toon_results.ts";
export {
  parseToolResults,
  TOOL_RESULTS_FORMAT,
  type ToolResultsFile,
} from "./load_tool_results.ts";
