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
import {
  firstHardCut,
  isHardCutBetween,
  lastHardCut,
  piecewiseEncoding,
  SHORT_MAX,
  shortCounts,
} from "./joins.ts";
import { hashRange, RangeTable } from "./_range_table.ts";
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
  /**
   * Tokens of `parts.join("")`, exactly `tokenizer.count` of it, without joining or searching:
   * each part that is a known string (`known[i]`) has its middle's memoized count added where
   * it has one (as {@linkcode SharedCounts.count} does where it finds the string), and the
   * text between middles is counted as usual.
   *
   * @param parts The text's parts, in order.
   * @param known Per part, whether it is a known string (a description, a schema text).
   * @returns Tokens of the joined text.
   */
  countJoin(parts: readonly string[], known: readonly boolean[]): number;
  /** Known strings memoized (for tests and memory bounds). */
  readonly size: number;
}

const byTokenizer = new WeakMap<Tokenizer, SharedCounts>();

/**
 * The {@linkcode SharedCounts} of `tokenizer`: one per tokenizer object, made on first
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
      ? {
        tokenizer,
        count: (text) => tokenizer.count(text),
        countJoin: (parts) => tokenizer.count(parts.join("")),
        size: 0,
      }
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

  /** The memoized middle of `s` (null: no middle), counted on first use (module-internal). */
  middleOf(s: string): Middle | null {
    return this.#middle(s);
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

  countJoin(parts: readonly string[], known: readonly boolean[]): number {
    const short = this.#short;
    let total = 0;
    let open = ""; // the text since the last middle, not yet counted
    for (let i = 0; i < parts.length; i++) {
      const s = parts[i];
      const middle = known[i] && s.length >= MIN_KNOWN ? this.#middle(s) : null;
      if (middle === null) {
        open += s;
        continue;
      }
      total += short(open + s.slice(0, middle.first)) + middle.tokens;
      open = s.slice(middle.last);
    }
    return open === "" ? total : total + short(open);
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

/**
 * A known string of a {@linkcode GroupCounts}: its text and its middle, `[first, last)` between
 * its first and last hard cut, with the middle's tokens per tokenizer of the group.
 */
export interface KnownString {
  /** The string. */
  readonly text: string;
  /** Start of its middle (code units). */
  readonly first: number;
  /** End of its middle (code units, exclusive). */
  readonly last: number;
  /** Tokens of `text.slice(first, last)`, per tokenizer of the group, in its order. */
  readonly tokens: readonly number[];
}

/** Short texts the range memo of a group holds before it starts over (bounds memory). */
const MAX_RANGES = 1 << 17;
/** Slots the range memo starts with (a power of two; it doubles when three quarters full). */
const RANGE_BITS = 12;

/**
 * Counts for several tokenizers at once (every one marked piecewise, see `joins.ts`): what does
 * not depend on the tokenizer (finding a known string, the hard cuts, hashing a short text) is
 * done once for all of them, and short texts are memoized with the counts of every tokenizer
 * in one entry, looked up in place (no substring is cut for a lookup). Every figure is exactly
 * the tokenizer's `count` of the text it stands for (see {@linkcode sharedCounts} and
 * `countSpans`). Get one with {@linkcode groupCounts}.
 */
export class GroupCounts {
  /** The tokenizers counted with, in order. */
  readonly tokenizers: readonly Tokenizer[];
  readonly #shared: readonly Memoized[];
  readonly #known = new Map<string, KnownString | null>();
  /** The range memo: texts of up to SHORT_MAX code units, the counts of every tokenizer each. */
  readonly #ranges: RangeTable;
  /** @param tokenizers Count tokens; each must be marked piecewise (see {@linkcode groupCounts}). */
  constructor(tokenizers: readonly Tokenizer[]) {
    this.tokenizers = tokenizers;
    this.#shared = tokenizers.map((tok) => {
      const shared = sharedCounts(tok);
      if (!(shared instanceof Memoized)) {
        throw new TypeError(`Cannot group tokenizer ${tok.name}: it is not marked piecewise`);
      }
      return shared;
    });
    this.#ranges = new RangeTable(tokenizers.length, MAX_RANGES, RANGE_BITS);
  }

  /**
   * The known string `s` with its middle's tokens (from each tokenizer's `sharedCounts` memo,
   * so the modes and the arms share them), or null when it is too short or has no middle.
   *
   * @param s Any string, or undefined (then null).
   * @returns Its {@linkcode KnownString}, or null.
   */
  known(s: string | undefined): KnownString | null {
    if (s === undefined || s.length < MIN_KNOWN) return null;
    let out = this.#known.get(s);
    if (out !== undefined) return out;
    out = null;
    const tokens: number[] = [];
    for (const shared of this.#shared) {
      const middle = shared.middleOf(s);
      if (middle === null) break;
      out = { text: s, first: middle.first, last: middle.last, tokens };
      tokens.push(middle.tokens);
    }
    if (this.#known.size >= MAX_ENTRIES) this.#known.clear();
    this.#known.set(s, out);
    return out;
  }

  /**
   * The known string of `s` as the body of a JSON string (`JSON.stringify(s)` without its
   * quotes: how `minified_json` holds a description, and TOON a quoted one), or null when that
   * is `s` itself (nothing to escape), too short or without a middle. Its middle is counted
   * once and shared by every text that holds it, as {@linkcode GroupCounts.known}'s.
   *
   * @param s Any string, or undefined (then null).
   * @returns The escaped text's {@linkcode KnownString}, or null.
   */
  knownEscaped(s: string | undefined): KnownString | null {
    if (s === undefined || s.length < MIN_KNOWN) return null;
    let escaped = false;
    for (let i = 0; i < s.length && !escaped; i++) escaped = escapes(s.charCodeAt(i));
    if (!escaped) return null;
    const e = JSON.stringify(s).slice(1, -1);
    return e === s ? null : this.known(e); // only surrogate pairs: kept as they are
  }

  /**
   * Adds the tokens of `text.slice(from, to)` to `out[k]` for each tokenizer `k`.
   *
   * @param text Any text.
   * @param from Start (code units).
   * @param to End (exclusive, `>= from`).
   * @param out Per tokenizer, added to.
   */
  addRange(text: string, from: number, to: number, out: number[]): void {
    const len = to - from;
    if (len <= 0) return;
    const n = this.tokenizers.length;
    if (len > SHORT_MAX) {
      const s = from === 0 && to === text.length ? text : text.slice(from, to);
      for (let k = 0; k < n; k++) out[k] += this.tokenizers[k].count(s);
      return;
    }
    const ranges = this.#ranges;
    const h = hashRange(text, from, to);
    let at = ranges.find(text, from, to, h);
    if (at >= 0) {
      const counts = ranges.values;
      for (let k = 0; k < n; k++) out[k] += counts[at + k];
      return;
    }
    const s = text.slice(from, to);
    at = ranges.insert(text, from, to, h);
    const counts = ranges.values;
    for (let k = 0; k < n; k++) {
      const c = this.tokenizers[k].count(s);
      counts[at + k] = c;
      out[k] += c;
    }
  }

  /**
   * Tokens of `text` per tokenizer, as {@linkcode SharedCounts.count} gives them: each of
   * `known` (in order) is looked for after the previous one found, and where found its middle's
   * tokens are added instead of counting it again.
   *
   * @param text Any text.
   * @param known Known strings that may occur in `text`, in the order they would occur.
   * @param out Per tokenizer: set to the tokens of `text`.
   */
  countKnown(text: string, known: readonly (KnownString | null)[], out: number[]): void {
    out.fill(0);
    let from = 0;
    let after = 0;
    for (const s of known) {
      if (s === null) continue;
      const at = text.indexOf(s.text, after);
      if (at < 0) continue;
      const cut = at + s.first;
      if (cut > from) this.addRange(text, from, cut, out);
      for (let k = 0; k < out.length; k++) out[k] += s.tokens[k];
      from = at + s.last;
      after = at + s.text.length;
    }
    this.addRange(text, from, text.length, out);
  }

  /**
   * Tokens of each span of `text` and of the whole `text`, per tokenizer, as `countSpans` gives
   * them for each tokenizer: each span's middle (from its first to its last hard cut within 64
   * code units of its ends) serves both the span and the text; a span of known tokens is not
   * counted again.
   *
   * @param text The whole text.
   * @param starts Start of each span (ascending, not overlapping, inside the text: unchecked).
   * @param ends End (exclusive) of each span.
   * @param known Per span, its tokens per tokenizer when known, else undefined.
   * @param spans Set: the tokens of span `i` for tokenizer `k` at `i * n + k`.
   * @param total Per tokenizer, added to: the tokens of `text`.
   */
  countSpans(
    text: string,
    starts: readonly number[],
    ends: readonly number[],
    known: readonly (readonly number[] | undefined)[],
    spans: number[],
    total: number[],
  ): void {
    const n = this.tokenizers.length;
    const edges = this.#edges;
    edges.length = n;
    let open = 0;
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i];
      const end = ends[i];
      const given = known[i];
      const first = firstHardCut(text, start, end);
      const at = i * n;
      if (first < 0) {
        if (given !== undefined) { for (let k = 0; k < n; k++) spans[at + k] = given[k]; }
        else {
          edges.fill(0);
          this.addRange(text, start, end, edges);
          for (let k = 0; k < n; k++) spans[at + k] = edges[k];
        }
        continue;
      }
      const last = lastHardCut(text, first, end);
      edges.fill(0);
      this.addRange(text, start, first, edges);
      this.addRange(text, last, end, edges);
      if (given !== undefined) {
        for (let k = 0; k < n; k++) {
          spans[at + k] = given[k];
          total[k] += given[k] - edges[k];
        }
      } else {
        const middle = this.#middleOf(text, first, last);
        for (let k = 0; k < n; k++) {
          spans[at + k] = edges[k] + middle[k];
          total[k] += middle[k];
        }
      }
      this.addRange(text, open, first, total);
      open = last;
    }
    this.addRange(text, open, text.length, total);
  }

  readonly #edges: number[] = [];
  readonly #middle: number[] = [];

  /** Tokens of `text[first, last)` per tokenizer (a scratch array, valid until the next call). */
  #middleOf(text: string, first: number, last: number): number[] {
    const out = this.#middle;
    out.length = this.tokenizers.length;
    out.fill(0);
    this.addRange(text, first, last, out);
    return out;
  }
}

/**
 * Whether `JSON.stringify` may escape the code unit `c`: `"`, `\\`, a control character, or a
 * surrogate (escaped when lone).
 */
function escapes(c: number): boolean {
  return c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff);
}

const groups = new WeakMap<Tokenizer, GroupCounts[]>();

/**
 * The {@linkcode GroupCounts} of `tokenizers` (the same tokenizer objects in the same
 * order give the same group, kept as long as its first tokenizer is), or undefined when one of
 * them is not marked piecewise (see `joins.ts` `piecewiseEncoding`) or there are none.
 *
 * @param tokenizers Count tokens.
 * @returns Their group, or undefined.
 *
 * @example Usage
 * ```ts
 * import { groupCounts } from "./shared_counts.ts";
 * import { createTokenizer } from "./tokenizers.ts";
 * const toks = [createTokenizer("cl100k_base"), createTokenizer("o200k_base")];
 * const group = groupCounts(toks)!;
 * const description = "Reads the file at the given path and returns its contents as text.";
 * const text = `read_file\n${description}`;
 * const out = [0, 0];
 * group.countKnown(text, [group.known(description)], out);
 * if (out[0] !== toks[0].count(text) || out[1] !== toks[1].count(text)) throw new Error();
 * ```
 */
export function groupCounts(tokenizers: readonly Tokenizer[]): GroupCounts | undefined {
  if (tokenizers.length === 0) return undefined;
  if (!tokenizers.every((tok) => piecewiseEncoding(tok) !== undefined)) return undefined;
  let list = groups.get(tokenizers[0]);
  if (list === undefined) groups.set(tokenizers[0], list = []);
  for (const g of list) {
    if (
      g.tokenizers.length === tokenizers.length && g.tokenizers.every((t, k) => t === tokenizers[k])
    ) {
      return g;
    }
  }
  const group = new GroupCounts([...tokenizers]);
  list.push(group);
  return group;
}
