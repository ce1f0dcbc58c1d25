/**
 * The default tokenizer alone: the encoding names and mcpmeter's own counter
 * (`piecewise.ts`), without the reference backends (`js-tiktoken`'s encoder and
 * `gpt-tokenizer`), which only tests and benchmarks use. `tokenizers.ts` adds
 * them; a flow that counts with the default imports this module, so its start
 * does not load and evaluate their modules.
 *
 * @module
 */
import { markPiecewise } from "./joins.ts";
import { createPiecewiseTokenizer, type PiecewiseTokenizer } from "./piecewise.ts";
import type { TokenizerName } from "./types.ts";

/** Tokenizer names mcpmeter ships, in report order. */
export const TOKENIZER_NAMES: readonly TokenizerName[] = ["cl100k_base", "o200k_base"];

/**
 * Returns true when `name` is a tokenizer mcpmeter ships.
 *
 * @param name Candidate name, e.g. from a `--tokenizers` flag.
 * @returns Whether `name` is `cl100k_base` or `o200k_base`.
 */
export function isTokenizerName(name: string): name is TokenizerName {
  return (TOKENIZER_NAMES as readonly string[]).includes(name);
}

/**
 * Creates the default tokenizer of an encoding: what `createTokenizer(name)` (`tokenizers.ts`)
 * returns, mcpmeter's piecewise counter, marked as counting piece by piece (`joins.ts`).
 *
 * @param name Encoding name: `cl100k_base` or `o200k_base`.
 * @returns The tokenizer; its `count` returns tokens.
 * @throws {RangeError} When `name` is not known (the message lists the known names).
 *
 * @example Usage
 * ```ts
 * import { createDefaultTokenizer } from "./default_tokenizer.ts";
 * if (createDefaultTokenizer("cl100k_base").count("hello world") !== 2) throw new Error("count");
 * ```
 */
export function createDefaultTokenizer(name: TokenizerName): PiecewiseTokenizer {
  if (!isTokenizerName(name)) {
    throw new RangeError(
      `Cannot create tokenizer as the name is not known: current value is "${name}" (expected one of ${
        TOKENIZER_NAMES.join(", ")
      })`,
    );
  }
  return markPiecewise(createPiecewiseTokenizer(name));
}

const shared = new Map<TokenizerName, PiecewiseTokenizer>();

/**
 * The default tokenizer of an encoding shared by its callers in this thread (one object per
 * encoding, made on first use): texts that repeat across callers (a catalog's descriptions and
 * schemas, counted in several layouts) are then merged and their middles counted once
 * (its memos, `sharedCounts`). Bounded as every memo of the counter is.
 *
 * @param name Encoding name: `cl100k_base` or `o200k_base`.
 * @returns The shared tokenizer.
 * @throws {RangeError} When `name` is not known.
 */
export function sharedDefaultTokenizer(name: TokenizerName): PiecewiseTokenizer {
  let out = shared.get(name);
  if (out === undefined) shared.set(name, out = createDefaultTokenizer(name));
  return out;
}
