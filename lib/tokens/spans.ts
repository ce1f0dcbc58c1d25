/**
 * Token boundaries: where each token of a text starts, in UTF-8 bytes.
 *
 * Counting says how many tokens a text costs; attribution (which part of a
 * response the tokens pay for) also needs to know where each token lies. A
 * BPE token is a run of bytes that need not end on a character boundary (an
 * emoji can be split over two tokens), so boundaries are given as UTF-8 byte
 * offsets, not string indices.
 *
 * The boundaries come from the default counter (`piecewise.ts`: the same
 * pieces and merges that `createTokenizer(name).count(text)` counts,
 * special-token text encoded as plain text), so the number of offsets always
 * equals the count, and a long piece costs O(n log n), not O(n²).
 *
 * @module
 */
import { createPiecewiseTokenizer, type PiecewiseTokenizer } from "./piecewise.ts";
import { isTokenizerName, TOKENIZER_NAMES } from "./default_tokenizer.ts";
import type { TokenizerName } from "./types.ts";

/** Where the tokens of one text start. */
export interface TokenSpans {
  /** Encoding name, e.g. `cl100k_base`. */
  readonly name: TokenizerName;
  /**
   * UTF-8 byte offset of the first byte of each token, in text order; strictly
   * increasing, first value 0 (when the text is not empty). Length = token count.
   */
  readonly starts: readonly number[];
  /** UTF-8 byte length of the whole text (bytes); the end of the last token. */
  readonly byteLength: number;
}

const encoder = new TextEncoder();
const counters = new Map<TokenizerName, PiecewiseTokenizer>();

/**
 * Tokenizes `text` once and returns the UTF-8 byte offset at which each token starts.
 *
 * Special-token text such as `<|endoftext|>` is encoded as plain text, as in
 * `createTokenizer`. The offsets are exact: they start at 0, increase, and the
 * last one lies inside the text's UTF-8 bytes (checked; a violation throws).
 *
 * @param text Any string (lone surrogates are encoded as U+FFFD, as TextEncoder does).
 * @param name Encoding: `cl100k_base` or `o200k_base`.
 * @returns `{name, starts, byteLength}`; `starts.length` is the token count.
 * @throws {RangeError} When `name` is not a known encoding.
 * @throws {Error} When the token starts do not cover the text's bytes (an
 *   encoder bug).
 *
 * @example Usage
 * ```ts
 * import { tokenByteOffsets } from "./spans.ts";
 * // "hello world" is two cl100k_base tokens: "hello" (bytes 0-4) and " world" (5-10).
 * const spans = tokenByteOffsets("hello world", "cl100k_base");
 * if (spans.starts.join(",") !== "0,5" || spans.byteLength !== 11) throw new Error("unexpected");
 * ```
 */
export function tokenByteOffsets(text: string, name: TokenizerName): TokenSpans {
  if (!isTokenizerName(name)) {
    throw new RangeError(
      `Cannot split tokens as the encoding is not known: current value is "${name}" (expected one of ${
        TOKENIZER_NAMES.join(", ")
      })`,
    );
  }
  let counter = counters.get(name);
  if (counter === undefined) counters.set(name, counter = createPiecewiseTokenizer(name));
  const starts = counter.tokenStarts(text);
  const byteLength = encoder.encode(text).length;
  const last = starts.length === 0 ? 0 : starts[starts.length - 1];
  if (starts.length > 0 ? (starts[0] !== 0 || last >= byteLength) : byteLength !== 0) {
    throw new Error(
      `Cannot split tokens: ${name} token starts do not cover the text's ${byteLength} bytes`,
    );
  }
  return { name, starts, byteLength };
}
