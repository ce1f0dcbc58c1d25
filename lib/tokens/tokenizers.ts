/**
 * BPE tokenizers for counting the context cost of text.
 *
 * Three backends produce identical counts (checked over the whole reference
 * corpus, LiveMCPBench and random adversarial strings by `tokenizers_test.ts`):
 * - `js-tiktoken`: the reference encoder, a pure-JS port of OpenAI's tiktoken;
 * - `gpt-tokenizer`: a faster pure-JS implementation;
 * - `piecewise`: mcpmeter's own counter (`piecewise.ts`), the default: memoizes
 *   pieces within an instance and merges long pieces in O(n log n), so no
 *   input (a million repeated characters, a 10 MB description) makes it hang.
 *
 * @module
 */
import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { GptEncoding } from "gpt-tokenizer/GptEncoding";
import { createDefaultTokenizer, isTokenizerName, TOKENIZER_NAMES } from "./default_tokenizer.ts";
import { markPiecewise } from "./joins.ts";
import type { Tokenizer, TokenizerName } from "./types.ts";

export { isTokenizerName, TOKENIZER_NAMES };

/** Implementations that can back a {@linkcode Tokenizer}. */
export type TokenizerBackend = "js-tiktoken" | "gpt-tokenizer" | "piecewise";

/** Backend used when none is named: the fastest one with proven parity. */
export const DEFAULT_TOKENIZER_BACKEND: TokenizerBackend = "piecewise";

/** Treat every special token (`<|endoftext|>`, ...) as plain text. */
const NO_SPECIAL = new Set<string>();

const gptEncodings = new Map<TokenizerName, GptEncoding>();

/**
 * gpt-tokenizer's rank array (index = rank; value = the token's text when its
 * bytes are UTF-8 that decodes and encodes back to them, else the bytes),
 * decoded from js-tiktoken's rank string (`bpe_ranks`): the array
 * `gpt-tokenizer/bpeRanks/<name>` ships (`tokenizers_test.ts` checks they are
 * equal), without evaluating that module's large literal in every process
 * that imports this one.
 *
 * @param bpeRanks js-tiktoken's `bpe_ranks` string.
 * @returns The rank array, index = rank.
 */
export function gptRankArray(bpeRanks: string): (string | number[])[] {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const encoder = new TextEncoder();
  const ranks: (string | number[])[] = [];
  for (const line of bpeRanks.split("\n")) {
    if (line === "") continue;
    const [, offset, ...tokens] = line.split(" ");
    const first = Number.parseInt(offset, 10);
    tokens.forEach((token, i) => {
      const bytes = Uint8Array.from(atob(token), (c) => c.charCodeAt(0));
      let value: string | number[] = Array.from(bytes);
      try {
        // Text only when it encodes back to the same bytes (a leading BOM is dropped by the
        // decoder, so such a token stays bytes, as gpt-tokenizer ships it).
        const text = utf8.decode(bytes);
        const again = encoder.encode(text);
        if (again.length === bytes.length && again.every((b, k) => b === bytes[k])) value = text;
      } catch {
        // Not UTF-8: the bytes.
      }
      ranks[first + i] = value;
    });
  }
  return ranks;
}

/**
 * gpt-tokenizer's encoding of `name`, built on first use from js-tiktoken's ranks (see
 * {@linkcode gptRankArray}).
 */
function gptEncoding(name: TokenizerName): GptEncoding {
  let enc = gptEncodings.get(name);
  if (enc === undefined) {
    const ranks = gptRankArray((name === "cl100k_base" ? cl100kRanks : o200kRanks).bpe_ranks);
    enc = GptEncoding.getEncodingApi(name, () => ranks);
    gptEncodings.set(name, enc);
  }
  return enc;
}

/**
 * Creates a tokenizer for a BPE encoding.
 *
 * Special-token text such as `<|endoftext|>` is counted as plain text in both
 * backends, because tool descriptions are data, not control tokens.
 *
 * @param name Encoding name: `cl100k_base` (GPT-4, GPT-3.5) or `o200k_base` (GPT-4o and later).
 * @param backend Implementation; defaults to {@linkcode DEFAULT_TOKENIZER_BACKEND}.
 * @returns A {@linkcode Tokenizer} whose `count` returns tokens, marked as counting piece by
 *   piece (`joins.ts`), since every backend splits with the encoding's own regex.
 * @throws {RangeError} When `name` or `backend` is not known.
 *
 * @example Usage
 * ```ts
 * import { createTokenizer } from "./tokenizers.ts";
 * const tok = createTokenizer("cl100k_base");
 * if (tok.count("hello world") !== 2) throw new Error("unexpected count");
 * ```
 */
export function createTokenizer(
  name: TokenizerName,
  backend: TokenizerBackend = DEFAULT_TOKENIZER_BACKEND,
): Tokenizer {
  if (!isTokenizerName(name)) {
    throw new RangeError(
      `Cannot create tokenizer as the name is not known: current value is "${name}" (expected one of ${
        TOKENIZER_NAMES.join(", ")
      })`,
    );
  }
  if (backend === "js-tiktoken") {
    const enc = new Tiktoken(name === "cl100k_base" ? cl100kRanks : o200kRanks);
    return markPiecewise({ name, count: (text) => enc.encode(text, [], []).length });
  }
  if (backend === "piecewise") return createDefaultTokenizer(name);
  if (backend === "gpt-tokenizer") {
    const enc = gptEncoding(name);
    return markPiecewise({
      name,
      count: (text) => enc.encode(text, { disallowedSpecial: NO_SPECIAL }).length,
    });
  }
  throw new RangeError(
    `Cannot create tokenizer as the backend is not known: current value is "${backend}"`,
  );
}
