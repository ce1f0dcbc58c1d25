/**
 * Token boundaries: where each token of a text starts, in UTF-8 bytes.
 *
 * Counting says how many tokens a text costs; attribution (which part of a
 * response the tokens pay for) also needs to know where each token lies. A
 * BPE token is a run of bytes that need not end on a character boundary (an
 * emoji can be split over two tokens), so boundaries are given as UTF-8 byte
 * offsets, not string indices.
 *
 * The token ids come from the same encoder as the default tokenizer
 * (`gpt-tokenizer`, special-token text encoded as plain text), so the number
 * of offsets always equals `createTokenizer(name).count(text)`. Each token's
 * byte length is read from the encoder's public rank table
 * (`gpt-tokenizer/bpeRanks/<name>`: index = token id, value = the token's text
 * or, for tokens that are not valid UTF-8 on their own, its bytes).
 *
 * @module
 */
import * as gptCl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as gptO200k from "gpt-tokenizer/encoding/o200k_base";
import cl100kRanks from "gpt-tokenizer/bpeRanks/cl100k_base";
import o200kRanks from "gpt-tokenizer/bpeRanks/o200k_base";
import { isTokenizerName, TOKENIZER_NAMES } from "./tokenizers.ts";
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

const NO_SPECIAL = new Set<string>();
const encoder = new TextEncoder();
const byteLengthCache = new Map<TokenizerName, Int32Array>();

/** Byte length of every token id of an encoding (computed once per encoding). */
function tokenByteLengths(name: TokenizerName): Int32Array {
  let lengths = byteLengthCache.get(name);
  if (lengths === undefined) {
    const ranks = (name === "cl100k_base" ? cl100kRanks : o200kRanks) as readonly (
      | string
      | readonly number[]
      | undefined
    )[];
    lengths = new Int32Array(ranks.length);
    for (let id = 0; id < ranks.length; id++) {
      const piece = ranks[id];
      lengths[id] = piece === undefined
        ? -1
        : typeof piece === "string"
        ? encoder.encode(piece).length
        : piece.length;
    }
    byteLengthCache.set(name, lengths);
  }
  return lengths;
}

/**
 * Tokenizes `text` once and returns the UTF-8 byte offset at which each token starts.
 *
 * Special-token text such as `<|endoftext|>` is encoded as plain text, as in
 * `createTokenizer`. The offsets are exact: the token byte lengths sum to the
 * UTF-8 length of `text` (checked; a mismatch throws).
 *
 * @param text Any string (lone surrogates are encoded as U+FFFD, as TextEncoder does).
 * @param name Encoding: `cl100k_base` or `o200k_base`.
 * @returns `{name, starts, byteLength}`; `starts.length` is the token count.
 * @throws {RangeError} When `name` is not a known encoding.
 * @throws {Error} When the encoder emits a token id missing from its rank table,
 *   or the token lengths do not add up to the text's byte length (an encoder bug).
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
  const enc = name === "cl100k_base" ? gptCl100k : gptO200k;
  const ids = enc.encode(text, { disallowedSpecial: NO_SPECIAL });
  const lengths = tokenByteLengths(name);
  const starts = new Array<number>(ids.length);
  let offset = 0;
  for (let i = 0; i < ids.length; i++) {
    const length = lengths[ids[i]];
    if (length === undefined || length < 0) {
      throw new Error(`Cannot split tokens: token id ${ids[i]} is not in the ${name} rank table`);
    }
    starts[i] = offset;
    offset += length;
  }
  const byteLength = encoder.encode(text).length;
  if (offset !== byteLength) {
    throw new Error(
      `Cannot split tokens: ${name} token lengths sum to ${offset} bytes, the text has ${byteLength}`,
    );
  }
  return { name, starts, byteLength };
}
