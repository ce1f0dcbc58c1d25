/**
 * Counting texts that hold known strings: the same tool description or `inputSchema` text sits,
 * verbatim, in the text of every exposure mode and most encoding arms. A known string's middle,
 * from its first to its last hard cut (see `joins.ts`), is counted once per tokenizer and that
 * count added wherever the string occurs; only the text around the middles is counted again.
 *
 * Exact: a hard cut is judged on the two characters around it, both inside the known string, so
 * the cut is a piece boundary of every text holding the string, and the tokens of a text are
 * the sum of the tokens of its parts cut there.
 *
 * @module
 */
import { isHardCutBetween, piecewiseEncoding, shortCounts } from "./joins.ts";
import type { Tokenizer } from "./types.ts";

/** Known strings shorter than this (code units) are not looked for: their middle is short. */
const MIN_KNOWN = 32;

/** Known strings a tokenizer's memo holds before it starts over (bounds memory). */
const MAX_ENTRIES = 1 << 19;

/** A known string's middle: `[first, last)` between its first and last hard cut, and its tokens. */
interface Middle {
  readonly first: number;
  readonly last: number;
  readonly tokens: number;
}

/** Counts texts with known strings in them; one per tokenizer (see {@linkcode sharedCounts}). */
export interface SharedCounts {
  /** The tokenizer counted with. */
  readonly tokenizer: Tokenizer;
  /**
   * Tokens of `text`, exactly `tokenizer.count(text)`: each of `known` (in order) is looked for
   * after the previous one found, and where found its middle's memoized count is added instead
   * of counting it again. A string not found, too short or without two hard cuts is counted as
   * part of the text around it.
   *
   * @param text Any text.
   * @param known Strings that may occur in `text`, in the order they would occur.
   * @returns Tokens of `text`.
   */
  count(text: string, known: readonly (string | undefined)[]): number;
  /** Known strings memoized (for tests and memory bounds). */
  readonly size: number;
}

const byTokenizer = new WeakMap<Tokenizer, SharedCounts>();

/**
 * The lane-wide {@linkcode SharedCounts} of `tokenizer`: one per tokenizer object, made on first
 * use and kept as long as the tokenizer is, so every mode and arm counted with the same
 * tokenizer shares its memo. For a tokenizer that is not marked piecewise (see `joins.ts`
 * `piecewiseEncoding`), `count` is `tokenizer.count` and nothing is memoized.
 *
 * The memo holds the known strings themselves (a corpus's descriptions and schema texts, which
 * the corpus holds too) and three numbers each; it starts over past 2^19 strings.
 *
 * @param tokenizer Counts tokens.
 * @returns Its shared counts.
 *
 * @example Usage
 * ```ts
 * import { sharedCounts } from "./shared_counts.ts";
 * import { createTokenizer } from "./tokenizers.ts";
 * const tok = createTokenizer("cl100k_base");
 * const description = "Reads the file at the given path and returns its contents as text.";
 * const text = `read_file\n${description}`;
 * if (sharedCounts(tok).count(text, [description]) !== tok.count(text)) throw new Error();
 * ```
 */
export function sharedCounts(tokenizer: Tokenizer): SharedCounts {
  let out = byTokenizer.get(tokenizer);
  if (out === undefined) {
    out = piecewiseEncoding(tokenizer) === undefined
      ? { tokenizer, count: (text) => tokenizer.count(text), size: 0 }
      : new Memoized(tokenizer);
    byTokenizer.set(tokenizer, out);
  }
  return out;
}

class Memoized implements SharedCounts {
  readonly tokenizer: Tokenizer;
  readonly #memo = new Map<string, Middle | null>();
  readonly #short: (text: string) => number;

  constructor(tokenizer: Tokenizer) {
    this.tokenizer = tokenizer;
    this.#short = shortCounts(tokenizer);
  }

  get size(): number {
    return this.#memo.size;
  }

  count(text: string, known: readonly (string | undefined)[]): number {
    const tok = this.tokenizer;
    const short = this.#short;
    let total = 0;
    let from = 0; // start of the text not yet counted
    let after = 0; // where the next known string is looked for
    for (const s of known) {
      if (s === undefined || s.length < MIN_KNOWN) continue;
      const middle = this.#middle(s);
      if (middle === null) continue;
      const at = text.indexOf(s, after);
      if (at < 0) continue;
      const cut = at + middle.first;
      if (cut > from) total += short(text.slice(from, cut));
      total += middle.tokens;
      from = at + middle.last;
      after = at + s.length;
    }
    if (from === 0) return tok.count(text);
    return from < text.length ? total + short(text.slice(from)) : total;
  }

  #middle(s: string): Middle | null {
    let middle = this.#memo.get(s);
    if (middle !== undefined) return middle;
    middle = null;
    let first = -1;
    for (let k = 1; k < s.length; k++) {
      if (isHardCutBetween(s.charCodeAt(k - 1), s.charCodeAt(k))) {
        first = k;
        break;
      }
    }
    if (first > 0) {
      for (let k = s.length - 1; k > first; k--) {
        if (isHardCutBetween(s.charCodeAt(k - 1), s.charCodeAt(k))) {
          middle = { first, last: k, tokens: this.tokenizer.count(s.slice(first, k)) };
          break;
        }
      }
    }
    if (this.#memo.size >= MAX_ENTRIES) this.#memo.clear();
    this.#memo.set(s, middle);
    return middle;
  }
}
