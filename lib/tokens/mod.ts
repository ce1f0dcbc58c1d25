/**
 * Token counting: the {@linkcode Tokenizer} contract and the `cl100k_base` and
 * `o200k_base` encodings.
 *
 * cl100k_base and o200k_base are OpenAI's encodings. For other vendors' models
 * they are estimators that can undercount substantially; compare modes and arms
 * by ratio, not by absolute count.
 *
 * @example Usage
 * ```ts
 * import { createTokenizer } from "./mod.ts";
 * const tokens = createTokenizer("o200k_base").count("tools/list");
 * if (tokens < 1) throw new Error("expected at least one token");
 * ```
 *
 * @module
 */
export type { Tokenizer, TokenizerName } from "./types.ts";
export {
  createTokenizer,
  DEFAULT_TOKENIZER_BACKEND,
  isTokenizerName,
  TOKENIZER_NAMES,
  type TokenizerBackend,
} from "./tokenizers.ts";
export { type KnownAt, tokenByteOffsets, tokenRegions, type TokenSpans } from "./spans.ts";
export {
  createPiecewiseTokenizer,
  type PiecewiseTokenizer,
  type RegionOptions,
  type TokenRegions,
} from "./piecewise.ts";
export {
  countSpans,
  isHardCut,
  isHardCutBetween,
  markPiecewise,
  piecewiseEncoding,
  type SpanCounts,
} from "./joins.ts";
