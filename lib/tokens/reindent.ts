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
import { hashRange, RangeTable } from "./_range_table.ts";

/** Junctions memoized per counter before the memo starts over (bounds memory). */
const MAX_JUNCTIONS = 1 << 16;

/** Junctions longer than this (code units) are counted, not memoized. */
const MAX_JUNCTION_LENGTH = 256;

/**
 * Counts re-indented copies of texts for some tokenizers, one prefix and indent: the junctions
 * of a text are found once for every tokenizer, and each junction's difference is memoized for
 * all of them together.
 */
export class ReindentedCounts {
  readonly #tokenizers: readonly Tokenizer[];
  readonly #prefix: string;
  readonly #indent: string;
  /** Whether every tokenizer is marked piecewise (else each copy is counted whole). */
  readonly #piecewise: boolean;
  /** Deltas of the junctions at a text's start (the prefix goes before them), by junction. */
  readonly #first: RangeTable;
  /** Deltas of the other junctions, by junction. */
  readonly #inner: RangeTable;
  /** Deltas of an empty text (the prefix alone), counted on first use. */
  #empty: readonly number[] | undefined;

  /**
   * @param tokenizers Count tokens (one tokenizer, or several counted together).
   * @param prefix Text before the copy (e.g. TOON's `\n  - `).
   * @param indent Text after each line break of the copy (e.g. four spaces).
   */
  constructor(tokenizers: Tokenizer | readonly Tokenizer[], prefix: string, indent: string) {
    this.#tokenizers = Array.isArray(tokenizers) ? tokenizers : [tokenizers as Tokenizer];
    this.#prefix = prefix;
    this.#indent = indent;
    this.#piecewise = this.#tokenizers.every((tok) => piecewiseEncoding(tok) !== undefined);
    this.#first = new RangeTable(this.#tokenizers.length, MAX_JUNCTIONS, 8);
    this.#inner = new RangeTable(this.#tokenizers.length, MAX_JUNCTIONS, 8);
  }

  /**
   * Tokens of `prefix + text.replaceAll("\n", "\n" + indent)` for the one tokenizer given (see
   * {@linkcode ReindentedCounts.counts} for several).
   *
   * @param text Any text.
   * @param tokens Its tokens, exactly `tokenizer.count(text)`.
   * @returns Tokens of the re-indented copy.
   * @throws {RangeError} When the counter was made for more than one tokenizer.
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
    if (this.#tokenizers.length !== 1) {
      throw new RangeError(
        `Cannot count for one tokenizer as this counter has ${this.#tokenizers.length}: call counts`,
      );
    }
    return this.counts(text, [tokens])[0];
  }

  /**
   * Tokens of `prefix + text.replaceAll("\n", "\n" + indent)` per tokenizer, in the order given.
   *
   * @param text Any text.
   * @param tokens Its tokens per tokenizer, exactly `tokenizers[k].count(text)`.
   * @returns Tokens of the re-indented copy per tokenizer.
   */
  counts(text: string, tokens: readonly number[]): number[] {
    if (!this.#piecewise) {
      const copy = this.#prefix + text.replaceAll("\n", "\n" + this.#indent);
      return this.#tokenizers.map((tok) => tok.count(copy));
    }
    const total = [...tokens];
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
        this.#addDelta(text, open, first, total);
        open = last;
      }
      if (nl < 0) break;
      lineStart = nl + 1;
    }
    this.#addDelta(text, open, text.length, total);
    return total;
  }

  /**
   * Adds to `total`, per tokenizer, the tokens of the copy's junction for `text[from, to)` less
   * the junction's own; a junction's deltas are memoized in place (no substring is cut for a
   * lookup), up to {@linkcode MAX_JUNCTION_LENGTH} code units.
   */
  #addDelta(text: string, from: number, to: number, total: number[]): void {
    const n = total.length;
    if (from === to) {
      // Between two cuts at the same place: nothing; a text's start: the prefix alone.
      if (from !== 0) return;
      this.#empty ??= this.#deltas("", true);
      for (let k = 0; k < n; k++) total[k] += this.#empty[k];
      return;
    }
    const table = from === 0 ? this.#first : this.#inner;
    const memo = to - from <= MAX_JUNCTION_LENGTH;
    const h = memo ? hashRange(text, from, to) : 0;
    if (memo) {
      const at = table.find(text, from, to, h);
      if (at >= 0) {
        const values = table.values;
        for (let k = 0; k < n; k++) total[k] += values[at + k];
        return;
      }
    }
    const deltas = this.#deltas(text.slice(from, to), from === 0);
    if (memo) {
      const at = table.insert(text, from, to, h);
      const values = table.values;
      for (let k = 0; k < n; k++) values[at + k] = deltas[k];
    }
    for (let k = 0; k < n; k++) total[k] += deltas[k];
  }

  /** Per tokenizer: tokens of the copy of junction `own` (after the prefix when `first`) less its own. */
  #deltas(own: string, first: boolean): number[] {
    const copy = (first ? this.#prefix : "") + own.replaceAll("\n", "\n" + this.#indent);
    return this.#tokenizers.map((tok) =>
      (copy === "" ? 0 : tok.count(copy)) - (own === "" ? 0 : tok.count(own))
    );
  }
}
