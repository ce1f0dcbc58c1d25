/**
 * The tokenizer contract: anything that can count the tokens of a text.
 *
 * @module
 */

/** Names of the BPE encodings mcpmeter ships. */
export type TokenizerName = "cl100k_base" | "o200k_base";

/**
 * Counts tokens. Implementations must treat special-token text such as
 * `<|endoftext|>` as plain text, and must be deterministic.
 */
export interface Tokenizer {
  /** Encoding name, e.g. `cl100k_base`. Recorded in every result row. */
  readonly name: string;
  /** Number of tokens in `text` (tokens). */
  count(text: string): number;
}
