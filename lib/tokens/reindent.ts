/**
 * Counting a re-indented copy of a counted text: `prefix + text.replaceAll("\n", "\n" + indent)`
 * (how TOON nests a tool's own text as a list item of the listing) from the tokens of `text`,
 * without counting its lines again.
 *
 * Each line of `text` is cut at its first hard cut (both characters inside the line) and at its
 * last (its last character and the line break count as inside: the indent comes after the
 * break). What lies between two such cuts is the same in both texts, so the two counts differ
 * only by the junctions from one line's last cut to the next cut line's first, e.g.
 * `\n      description` against `\n          description`; the difference of each junction
 * is counted once and memoized. Exact for tokenizers `joins.ts` marks piecewise; any other
 * counts the re-indented text whole.
 *
 * @module
 */
import { isHardCutBetween, piecewiseEncoding } from "./joins.ts";
import type { Tokenizer } from "./types.ts";

/** Junctions memoized per counter before the memo starts over (bounds memory). */
const MAX_JUNCTIONS = 1 << 16;

/** Junctions longer than this (code units) are counted, not memoized. */
const MAX_JUNCTION_LENGTH = 256;

/**
 * A copy of `s` that does not keep a larger string alive (V8 may make a slice a view of its
 * parent; a memo key must not pin a whole text).
 */
function detached(s: string): string {
  return (" " + s).slice(1);
}

/** Counts re-indented copies of texts for one tokenizer, prefix and indent. */
export class ReindentedCounts {
  readonly #tokenizer: Tokenizer;
  readonly #prefix: string;
  readonly #indent: string;
  readonly #piecewise: boolean;
  readonly #first = new Map<string, number>();
  readonly #inner = new Map<string, number>();

  /**
   * @param tokenizer Counts tokens.
   * @param prefix Text before the copy (e.g. TOON's `\n  - `).
   * @param indent Text after each line break of the copy (e.g. four spaces).
   */
  constructor(tokenizer: Tokenizer, prefix: string, indent: string) {
    this.#tokenizer = tokenizer;
    this.#prefix = prefix;
    this.#indent = indent;
    this.#piecewise = piecewiseEncoding(tokenizer) !== undefined;
  }

  /**
   * Tokens of `prefix + text.replaceAll("\n", "\n" + indent)`.
   *
   * @param text Any text.
   * @param tokens Its tokens, exactly `tokenizer.count(text)`.
   * @returns Tokens of the re-indented copy.
   *
   * @example Usage
   * ```ts
   * import { ReindentedCounts } from "./reindent.ts";
   * import { createTokenizer } from "./tokenizers.ts";
   * const tok = createTokenizer("o200k_base");
   * const text = "name: read\ninputSchema:\n  type: object";
   * const listed = new ReindentedCounts(tok, "\n  - ", "    ").count(text, tok.count(text));
   * if (listed !== tok.count("\n  - " + text.replaceAll("\n", "\n    "))) throw new Error();
   * ```
   */
  count(text: string, tokens: number): number {
    if (!this.#piecewise) {
      return this.#tokenizer.count(this.#prefix + text.replaceAll("\n", "\n" + this.#indent));
    }
    let total = tokens;
    let open = 0; // start of the junction not yet priced
    let lineStart = 0;
    for (;;) {
      const nl = text.indexOf("\n", lineStart);
      const lineEnd = nl < 0 ? text.length : nl;
      let first = -1;
      for (let k = lineStart + 1; k < lineEnd; k++) {
        if (isHardCutBetween(text.charCodeAt(k - 1), text.charCodeAt(k))) {
          first = k;
          break;
        }
      }
      if (first > 0) {
        // The last cut: before the line break too (its two characters are the same in the copy).
        let last = first;
        for (let k = nl < 0 ? lineEnd - 1 : lineEnd; k > first; k--) {
          if (isHardCutBetween(text.charCodeAt(k - 1), text.charCodeAt(k))) {
            last = k;
            break;
          }
        }
        total += this.#delta(text, open, first);
        open = last;
      }
      if (nl < 0) break;
      lineStart = nl + 1;
    }
    return total + this.#delta(text, open, text.length);
  }

  /** Tokens of the copy's junction for `text[from, to)` less the junction's own tokens. */
  #delta(text: string, from: number, to: number): number {
    const own = text.slice(from, to);
    const memo = from === 0 ? this.#first : this.#inner;
    const known = memo.get(own);
    if (known !== undefined) return known;
    const copy = (from === 0 ? this.#prefix : "") + own.replaceAll("\n", "\n" + this.#indent);
    const count = (s: string) => (s === "" ? 0 : this.#tokenizer.count(s));
    const delta = count(copy) - count(own);
    if (own.length <= MAX_JUNCTION_LENGTH) {
      if (memo.size >= MAX_JUNCTIONS) memo.clear();
      memo.set(detached(own), delta);
    }
    return delta;
  }
}
