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
import type { PiecewiseTokenizer, TokenRegions } from "./piecewise.ts";
import { isTokenizerName, sharedDefaultTokenizer, TOKENIZER_NAMES } from "./default_tokenizer.ts";
import { type GroupCounts, groupCounts } from "./shared_counts.ts";
import { isHardCutBetween } from "./joins.ts";
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

/** The counter of an encoding (the thread's shared default tokenizer). */
function counterOf(name: TokenizerName): PiecewiseTokenizer {
  if (!isTokenizerName(name)) {
    throw new RangeError(
      `Cannot split tokens as the encoding is not known: current value is "${name}" (expected one of ${
        TOKENIZER_NAMES.join(", ")
      })`,
    );
  }
  return sharedDefaultTokenizer(name);
}

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
  const starts = counterOf(name).tokenStarts(text);
  const byteLength = encoder.encode(text).length;
  const last = starts.length === 0 ? 0 : starts[starts.length - 1];
  if (starts.length > 0 ? (starts[0] !== 0 || last >= byteLength) : byteLength !== 0) {
    throw new Error(
      `Cannot split tokens: ${name} token starts do not cover the text's ${byteLength} bytes`,
    );
  }
  return { name, starts, byteLength };
}

/** A string known to occur at a position of a text ({@linkcode tokenRegions}). */
export interface KnownAt {
  /** Where it starts (UTF-16 code units). */
  readonly at: number;
  /** The string. */
  readonly text: string;
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Tokens of `text` per region, each token credited to the region holding its first UTF-8 byte:
 * what {@linkcode tokenByteOffsets} gives when only the count per region is wanted, at the speed
 * of counting. Pieces inside one region come from the counter's memo, only those crossing a cut
 * are merged token by token; and the middle of each `known` string (from its first to its last
 * hard cut, `joins.ts`) is counted once per thread (`groupCounts`, shared with every other
 * caller of the shared default tokenizer) and skipped wherever it occurs again. Region `r` is
 * `[cuts[r - 1], cuts[r])`, from the start for the first and to the end for the last.
 *
 * @param text Any string.
 * @param name Encoding: `cl100k_base` or `o200k_base`.
 * @param cuts Positions in `text` (UTF-16 code units), ascending; `cuts.length + 1` regions.
 * @param options `nonAscii`: also count, per region, the tokens holding a byte from 0x80.
 *   `known`: strings occurring in `text` (ascending, not overlapping; each must be there: a
 *   string that is not changes the counts), typically the value texts of JSON members. A string
 *   shorter than 32 code units, without two hard cuts, or (with `nonAscii`) holding non-ASCII
 *   text is counted as usual.
 * @returns `{tokens, nonAscii?, byteLength}`; `tokens` sums to the text's token count.
 * @throws {RangeError} When `name` is not a known encoding or the cuts are not ascending.
 *
 * @example Usage
 * ```ts
 * import { tokenRegions } from "./spans.ts";
 * // "hello world": "hello" starts at byte 0, " world" at byte 5.
 * const r = tokenRegions("hello world", "cl100k_base", [3, 5]);
 * if (r.tokens.join(",") !== "1,0,1" || r.byteLength !== 11) throw new Error("unexpected");
 * ```
 */
export function tokenRegions(
  text: string,
  name: TokenizerName,
  cuts: ArrayLike<number>,
  options: { readonly nonAscii?: boolean; readonly known?: readonly KnownAt[] } = {},
): TokenRegions {
  for (let k = 1; k < cuts.length; k++) {
    if (!(cuts[k] >= cuts[k - 1])) {
      throw new RangeError(`Cannot count regions: cut ${k} (${cuts[k]}) is before cut ${k - 1}`);
    }
  }
  const counter = counterOf(name);
  const triples: number[] = [];
  if (options.known !== undefined && options.known.length > 0) {
    const group = groupCounts([counter])!;
    for (const { at, text: s } of options.known) {
      const k = group.known(s);
      if (k === null || (options.nonAscii && NON_ASCII.test(s))) continue;
      triples.push(at + k.first, at + k.last, k.tokens[0]);
    }
  }
  return counter.countRegions(text, cuts, {
    ...(options.nonAscii ? { nonAscii: true } : {}),
    ...(triples.length > 0 ? { known: triples } : {}),
  });
}

/** Receives the tokens of one region of a {@linkcode RegionTally} (`nonAscii`: 0 unless asked). */
export type RegionSink = (label: number, tokens: number, nonAscii: number) => void;

/**
 * {@linkcode tokenRegions} of a text written part by part, without the whole text ever being
 * held: each region carries a label and its tokens go to `sink` by label. The text is counted
 * in chunks, each cut at the first hard cut (`joins.ts`: a piece boundary in every context)
 * after a {@linkcode RegionTally.mayCut} call; the tokens of a text are those of its chunks cut
 * there, token for token at the same places, so every figure equals the whole text's. A writer
 * that calls `mayCut` once per tool keeps one tool's text at a time, however large the catalog.
 */
export class RegionTally {
  readonly #counter: PiecewiseTokenizer;
  readonly #group: GroupCounts | null;
  readonly #sink: RegionSink;
  readonly #nonAscii: boolean;
  #parts: string[] = [];
  /** Length of the chunk written so far (UTF-16 code units). */
  #length = 0;
  /** Last code unit of the chunk, or -1 when it is empty. */
  #last = -1;
  /** Label of the region the chunk starts in, and the chunk's region starts with their labels. */
  #startLabel: number;
  #label: number;
  #cuts: number[] = [];
  #labels: number[] = [];
  /** Known strings of the chunk: where they start (negative: before the chunk) and their text. */
  #known: KnownAt[] = [];
  /** Whether the chunk may be cut at its next hard cut. */
  #mayCut = false;
  /** Tokens and UTF-8 bytes counted so far. */
  tokens = 0;
  byteLength = 0;

  /**
   * @param name Encoding.
   * @param sink Receives each region's tokens (regions with no token are not reported).
   * @param label Label of the region the text starts in.
   * @param options `nonAscii`: also count the tokens holding a byte from 0x80.
   */
  constructor(
    name: TokenizerName,
    sink: RegionSink,
    label: number,
    options: { readonly nonAscii?: boolean } = {},
  ) {
    this.#counter = counterOf(name);
    this.#group = groupCounts([this.#counter]) ?? null;
    this.#sink = sink;
    this.#nonAscii = options.nonAscii ?? false;
    this.#startLabel = this.#label = label;
  }

  /** Starts a region labelled `label` at the end of the text written so far. */
  region(label: number): void {
    this.#cuts.push(this.#length);
    this.#labels.push(label);
    this.#label = label;
  }

  /** Lets the text be cut at its next hard cut from here on. */
  mayCut(): void {
    this.#mayCut = true;
  }

  /**
   * Appends `s`.
   *
   * @param s Text.
   * @param known Whether `s` is a value that recurs (a member's JSON, a description): its middle
   *   is counted once per thread and skipped wherever it occurs again (see {@linkcode tokenRegions}).
   */
  put(s: string, known = false): void {
    if (s.length === 0) return;
    if (known) this.#known.push({ at: this.#length, text: s });
    let from = 0;
    if (this.#mayCut) {
      let prev = this.#last;
      for (let j = 0; j < s.length; j++) {
        const c = s.charCodeAt(j);
        if (prev >= 0 && isHardCutBetween(prev, c)) {
          if (j > 0) this.#append(s.slice(0, j), prev);
          this.#flush();
          from = j;
          break;
        }
        prev = c;
      }
    }
    this.#append(from === 0 ? s : s.slice(from), s.charCodeAt(s.length - 1));
  }

  #append(s: string, last: number): void {
    this.#parts.push(s);
    this.#length += s.length;
    this.#last = last;
  }

  /** Counts the chunk written so far; what follows starts a new one. */
  #flush(): void {
    const text = this.#parts.length === 1 ? this.#parts[0] : this.#parts.join("");
    const n = text.length;
    const triples: number[] = [];
    const carried: KnownAt[] = [];
    for (const k of this.#known) {
      if (k.at + k.text.length > n) {
        carried.push({ at: k.at - n, text: k.text });
        continue;
      }
      const m = this.#group?.known(k.text) ?? null;
      if (m === null || (this.#nonAscii && NON_ASCII.test(k.text))) continue;
      // Only a middle wholly inside the chunk (a string begun in the chunk before holds its
      // middle after its cut: the cut is its first hard cut at the latest).
      if (k.at + m.first >= 0) triples.push(k.at + m.first, k.at + m.last, m.tokens[0]);
    }
    const r = this.#counter.countRegions(text, this.#cuts, {
      ...(this.#nonAscii ? { nonAscii: true } : {}),
      ...(triples.length > 0 ? { known: triples } : {}),
    });
    for (let k = 0; k < r.tokens.length; k++) {
      const t = r.tokens[k];
      if (t === 0) continue;
      this.tokens += t;
      this.#sink(k === 0 ? this.#startLabel : this.#labels[k - 1], t, r.nonAscii?.[k] ?? 0);
    }
    this.byteLength += r.byteLength;
    this.#parts = [];
    this.#length = 0;
    this.#last = -1;
    this.#startLabel = this.#label;
    this.#cuts = [];
    this.#labels = [];
    this.#known = carried;
    this.#mayCut = false;
  }

  /**
   * Counts what is left of the text.
   *
   * @returns The text's tokens and UTF-8 bytes.
   */
  finish(): { tokens: number; byteLength: number } {
    if (this.#length > 0 || this.#cuts.length > 0) this.#flush();
    return { tokens: this.tokens, byteLength: this.byteLength };
  }
}
