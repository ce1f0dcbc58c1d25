/**
 * The arm runner: token cost of every arm over a corpus, per tokenizer.
 *
 * @module
 */
import { schemaText } from "../catalog/canonical.ts";
import type { Tool } from "../catalog/types.ts";
import { percentileNearestRank } from "../stats/percentile.ts";
import { countSpans, firstHardCut, isHardCutBetween, lastHardCut } from "../tokens/joins.ts";
import { type GroupCounts, groupCounts, type KnownString } from "../tokens/shared_counts.ts";
import { ReindentedCounts } from "../tokens/reindent.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { errorMessage, heaviestFirst, SkipCollector } from "./_private.ts";
import { fragileNumberLiterals, literalLoss } from "./literals.ts";
import { baselineJson } from "./baseline_json.ts";
import type { EncodedTool, EncodingArm, JoinedListing, Listing, SkipSummary } from "./types.ts";

/** One of the heaviest tools under an arm. */
export interface HeavyTool {
  /** `server:name`. */
  readonly toolId: string;
  /** Tokens of the tool's standalone rendering (`encodeTool`). */
  readonly tokens: number;
}

/** Cost of one arm over one corpus with one tokenizer. */
export interface ArmMeasurement {
  /** Id of the measured corpus. */
  readonly corpusId: string;
  /** Arm name, e.g. `compact_sig`. */
  readonly arm: string;
  /** Tokenizer name, e.g. `o200k_base`. */
  readonly tokenizer: string;
  /** Always false: this arm ran. */
  readonly skipped: false;
  /** Tools the arm encoded (tools); corpus size minus `skippedTools.count`. */
  readonly toolCount: number;
  /** Tokens of the whole listing (`encodeListing`), preambles and headers included. Measured. */
  readonly totalTokens: number;
  /**
   * Mean tokens per encoded tool (`encodeTool`, no preamble); `null` when no
   * tool was encoded. Computed.
   */
  readonly meanTokens: number | null;
  /**
   * 95th percentile of per-tool tokens, nearest-rank method: the value at
   * rank `ceil(0.95 n)` of the ascending counts (Hyndman & Fan definition 1 /
   * NIST "nearest rank"); `null` when no tool was encoded. Computed.
   */
  readonly p95Tokens: number | null;
  /** Up to 10 heaviest tools, tokens descending, ties by id ascending. Measured. */
  readonly heaviest: readonly HeavyTool[];
  /** Tools the arm could not encode, with the first 5 examples. */
  readonly skippedTools: SkipSummary;
  /**
   * Encoded tools whose rendering changes content: a number literal of the
   * `inputSchema` (`0.10`, `1e400`, `9007199254740993`) that the arm's text does
   * not hold as written (see `fragileNumberLiterals`). Their tokens are in the
   * totals, so the saving compares different content for these tools; the
   * reason names the literals. Measured.
   */
  readonly alteredTools: SkipSummary;
  /**
   * Savings against `baseline_json` as a fraction: `1 − arm / baseline`
   * (0.25 = 25% fewer tokens; the same unit as the exposure modes' savings) where both are listing tokens over the tools that both arms encoded, so
   * skips never inflate savings. `null` when the baseline listing is empty.
   * Computed.
   */
  readonly savings: number | null;
  /** Tools both this arm and the baseline encoded (the savings denominator set). */
  readonly savingsToolCount: number;
  /** The arm's `lowerBound` flag: it drops or rewrites description text. */
  readonly lowerBound: boolean;
  /** The arm's `altersIndex` flag. */
  readonly altersIndex: boolean;
}

/** An arm that produced no measurement: its listing failed. */
export interface ArmSkipRow {
  /** Id of the corpus. */
  readonly corpusId: string;
  /** Arm name. */
  readonly arm: string;
  /** Always true. */
  readonly skipped: true;
  /** Why: `encodeListing failed: <error>`. */
  readonly reason: string;
}

/** A row of {@linkcode measureArms}. */
export type ArmRow = ArmMeasurement | ArmSkipRow;

/** Options of {@linkcode measureArms}. */
export interface MeasureArmsOptions {
  /** The corpus: its id and tools (a `Corpus` fits). */
  readonly corpus: { readonly id: string; readonly tools: readonly Tool[] };
  /** Arms to measure (e.g. `armsNamed`). */
  readonly arms: readonly EncodingArm[];
  /** Tokenizers; one row per arm and tokenizer. */
  readonly tokenizers: readonly Tokenizer[];
  /**
   * How many heaviest tools to keep.
   * @default {10}
   */
  readonly heaviestCount?: number;
}

interface Encoded {
  readonly listing: Listing;
  readonly tools: readonly { readonly id: string; readonly text: string }[];
  /**
   * Where each of `tools`' texts lies in the listing text, in order, when the listing holds
   * them all verbatim (a joined listing); undefined otherwise.
   */
  readonly spans?: { readonly starts: number[]; readonly ends: number[] };
}

/** How far past the previous tool's text the next one is looked for in a listing (code units). */
const GAP_WINDOW = 256;

/**
 * The spans of `texts` in `listing`, each found after the previous one: the first anywhere
 * within its first {@linkcode GAP_WINDOW} × 64 code units (a header), each next one within
 * {@linkcode GAP_WINDOW} of the previous end (a separator); undefined as soon as one is not
 * found there (the listing renders the tools differently, e.g. TOON list items).
 */
function locate(
  listing: string,
  texts: readonly string[],
): { starts: number[]; ends: number[] } | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const [i, text] of texts.entries()) {
    const window = i === 0 ? GAP_WINDOW * 64 : GAP_WINDOW;
    let found = -1;
    for (let k = at; k <= Math.min(at + window, listing.length - text.length); k++) {
      if (listing.startsWith(text, k)) {
        found = k;
        break;
      }
    }
    if (found < 0) return undefined;
    starts.push(found);
    ends.push(found + text.length);
    at = found + text.length;
  }
  return { starts, ends };
}

/** Fragile number literals per tool id, for the tools that have any. */
function fragileLiterals(tools: readonly Tool[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const tool of tools) {
    const text = schemaText(tool);
    if (text === undefined) continue;
    const literals = fragileNumberLiterals(text);
    if (literals.length > 0) out.set(tool.id, literals);
  }
  return out;
}

/** The encoded tools whose text loses one of their fragile literals. */
function alteredTools(encoded: Encoded, fragile: Map<string, string[]>): SkipSummary {
  const altered = new SkipCollector();
  if (fragile.size === 0) return altered.summary();
  for (const tool of encoded.tools) {
    const literals = fragile.get(tool.id);
    const reason = literals === undefined ? undefined : literalLoss(literals, tool.text);
    if (reason !== undefined) altered.add(tool.id, reason);
  }
  return altered.summary();
}

/**
 * `arm` with `encodeTool` memoized per tool object: a listing built from `this.encodeTool`
 * renders each tool once, and the per-tool pass reuses those renderings. Exact, as an arm's
 * `encodeTool` is a pure function of the tool.
 */
function memoized(arm: EncodingArm): EncodingArm {
  const rendered = new Map<Tool, EncodedTool>();
  return Object.create(arm, {
    encodeTool: {
      value(tool: Tool): EncodedTool {
        let out = rendered.get(tool);
        if (out === undefined) rendered.set(tool, out = arm.encodeTool(tool));
        return out;
      },
    },
  });
}

function encodeAll(arm: EncodingArm, tools: readonly Tool[]): Encoded {
  const once = memoized(arm);
  const listing = once.encodeListing(tools);
  const kept = new Set(listing.encodedIds);
  const perTool: { id: string; text: string }[] = [];
  for (const tool of tools) {
    if (!kept.has(tool.id)) continue;
    const out = once.encodeTool(tool);
    if (out.ok) perTool.push({ id: tool.id, text: out.text });
  }
  const spans = locate(listing.text, perTool.map((t) => t.text));
  return spans === undefined ? { listing, tools: perTool } : { listing, tools: perTool, spans };
}

/**
 * Tokens of an encoding's listing and of each of its tools' texts. Where the listing holds the
 * tools' texts verbatim, `countSpans` counts each text once for both (exact: it adds counts
 * only across cuts the tokenizer's pre-tokenizer always makes); else each text and the listing
 * are counted directly.
 */
function countEncoded(encoded: Encoded, tok: Tokenizer): { total: number; perTool: number[] } {
  if (encoded.spans === undefined) {
    return {
      total: tok.count(encoded.listing.text),
      perTool: encoded.tools.map((t) => tok.count(t.text)),
    };
  }
  const out = countSpans(tok, encoded.listing.text, encoded.spans.starts, encoded.spans.ends);
  return { total: out.total, perTool: out.spans };
}

/** What the rows need of an arm's rendering: ids, skips, changed literals, counts per tokenizer. */
interface Counted {
  readonly encodedIds: readonly string[];
  readonly skipped: SkipSummary;
  readonly toolIds: readonly string[];
  readonly altered: SkipSummary;
  readonly counts: readonly { readonly total: number; readonly perTool: readonly number[] }[];
}

/**
 * The known strings of each tool (its description, the description as a JSON string's body
 * when that differs, and its schema text, in that order, as every arm renders them), found once
 * per tool for all arms and tokenizers of a measurement.
 */
class Knowns {
  readonly group: GroupCounts;
  readonly #byTool = new Map<Tool, readonly (KnownString | null)[]>();

  constructor(group: GroupCounts) {
    this.group = group;
  }

  of(tool: Tool): readonly (KnownString | null)[] {
    let out = this.#byTool.get(tool);
    if (out === undefined) {
      let schema: string | undefined;
      try {
        schema = schemaText(tool);
      } catch {
        schema = undefined; // a schema JSON cannot hold: the arm rendered it some other way
      }
      out = [
        this.group.known(tool.description),
        this.group.knownEscaped(tool.description),
        this.group.known(schema),
      ];
      this.#byTool.set(tool, out);
    }
    return out;
  }

  /**
   * Tokens of `text`, a rendering of `tool`, per tokenizer, through the group's known strings:
   * the tool's description and schema text, counted once for every arm and mode.
   */
  count(tool: Tool, text: string): number[] {
    const out = new Array<number>(this.group.tokenizers.length);
    this.group.countKnown(text, this.of(tool), out);
    return out;
  }
}

/**
 * The counts of a joined listing (see `EncodingArm.joined`) without its text: each tool is
 * rendered once, its text counted through the tokenizers' group (`groupCounts`: its description
 * and schema text, wherever they sit verbatim, counted once for every arm and mode), and added
 * to a short run of the listing, which is counted (as `countSpans` does, the tool's text its
 * span of known count) as soon as the next part starts at a hard cut. The tokens of the listing
 * are the sum of its runs' tokens, as `countSpans` adds them across hard cuts, so every figure
 * equals the count of the whole listing and of each tool's text; only for tokenizers that
 * `countSpans` cuts that way (every tokenizer `piecewiseEncoding` names).
 */
function countJoined(
  arm: EncodingArm,
  join: JoinedListing,
  tools: readonly Tool[],
  knowns: Knowns,
  fragile: Map<string, string[]>,
): Counted {
  const skips = new SkipCollector();
  const altered = new SkipCollector();
  const ids: string[] = [];
  const runs = new Runs(knowns.group);
  for (const tool of tools) {
    const out = arm.encodeTool(tool);
    if (!out.ok) {
      skips.add(tool.id, out.reason);
      continue;
    }
    runs.add(ids.length === 0 ? join.header : join.separator, false);
    runs.add(out.text, true, knowns.count(tool, out.text));
    ids.push(tool.id);
    const literals = fragile.get(tool.id);
    const reason = literals === undefined ? undefined : literalLoss(literals, out.text);
    if (reason !== undefined) altered.add(tool.id, reason);
  }
  runs.add(ids.length === 0 ? join.empty : join.footer, false);
  const { totals, spans } = runs.finish();
  return {
    encodedIds: ids,
    skipped: skips.summary(),
    toolIds: ids,
    altered: altered.summary(),
    counts: knowns.group.tokenizers.map((_, k) => ({ total: totals[k], perTool: spans[k] })),
  };
}

/**
 * A listing counted in runs: parts are added in order and a run is counted (as `countSpans`
 * does, the parts marked as spans its spans, of known count when given) as soon as the next
 * part starts at a hard cut, so the listing's tokens are the sum of its runs' (see
 * {@linkcode countJoined}).
 */
class Runs {
  readonly #group: GroupCounts;
  readonly #n: number;
  readonly #totals: number[];
  readonly #spans: number[][];
  #parts: string[] = [];
  #length = 0;
  #last = 0;
  #starts: number[] = [];
  #ends: number[] = [];
  #reported: boolean[] = [];
  #known: (readonly number[] | undefined)[] = [];
  /** Span counts of the run being counted (scratch). */
  readonly #counted: number[] = [];
  /** Whether the first run waits for {@linkcode Runs.finish}'s header (then it is kept here). */
  #holdFirst: boolean;
  #held: {
    parts: string[];
    starts: number[];
    ends: number[];
    reported: boolean[];
    known: (readonly number[] | undefined)[];
  } | undefined;

  /**
   * @param group Counts tokens.
   * @param holdFirst Keep the first run until `finish`, which may put a header before it.
   */
  constructor(group: GroupCounts, holdFirst = false) {
    this.#group = group;
    this.#n = group.tokenizers.length;
    this.#holdFirst = holdFirst;
    this.#totals = group.tokenizers.map(() => 0);
    this.#spans = group.tokenizers.map((): number[] => []);
  }

  /**
   * Adds the next part of the listing; `span`: its count is wanted on its own too; `known`: its
   * tokens per tokenizer, when already counted (then only its short ends are counted again).
   */
  add(part: string, span: boolean, known?: readonly number[]): void {
    if (part !== "") {
      if (this.#length > 0 && isHardCutBetween(this.#last, part.charCodeAt(0))) this.#flush();
      this.#last = part.charCodeAt(part.length - 1);
    }
    const first = span || known !== undefined ? firstHardCut(part, 0, part.length) : -1;
    if (first >= 0) {
      this.#addCut(part, first, span, known);
      return;
    }
    if (span || known !== undefined) {
      this.#starts.push(this.#length);
      this.#ends.push(this.#length + part.length);
      this.#reported.push(span);
      this.#known.push(known);
    }
    this.#parts.push(part);
    this.#length += part.length;
  }

  /**
   * Counts the last run (and the first, held one, after `header`): the listing's tokens and
   * each span's, per tokenizer.
   */
  finish(header = ""): { totals: number[]; spans: number[][] } {
    this.#flush();
    const held = this.#held;
    if (held !== undefined) {
      const text = header + held.parts.join("");
      const shift = (at: number[]) => at.map((n) => n + header.length);
      const counted = this.#counted;
      counted.length = held.starts.length * this.#n;
      this.#group.countSpans(
        text,
        shift(held.starts),
        shift(held.ends),
        held.known,
        counted,
        this.#totals,
      );
      for (let k = 0; k < this.#n; k++) {
        const mine = held.starts.flatMap((_, i) =>
          held.reported[i] ? [counted[i * this.#n + k]] : []
        );
        this.#spans[k].unshift(...mine);
      }
    } else if (header !== "") {
      this.#group.addRange(header, 0, header.length, this.#totals);
    }
    return { totals: this.#totals, spans: this.#spans };
  }

  /**
   * Adds a part with a hard cut inside (`first`, its first; a cut depends only on the two code
   * units beside it, so it is one in any listing too): the run so far ends at that cut, the
   * part's middle (to its last cut) is counted on its own, or from its known tokens less its
   * two ends, and the next run starts with its end. No run then holds more than the ends of
   * the parts it joins, where a listing with no hard cut between parts (`},{` in a JSON array)
   * would otherwise be one run the size of the listing.
   */
  #addCut(part: string, first: number, span: boolean, known: readonly number[] | undefined): void {
    const last = lastHardCut(part, first, part.length);
    const n = this.#n;
    this.#parts.push(part.slice(0, first));
    this.#length += first;
    this.#flush();
    const edges = this.#edges;
    edges.length = n;
    edges.fill(0);
    this.#group.addRange(part, 0, first, edges);
    this.#group.addRange(part, last, part.length, edges);
    const middle = this.#middle;
    middle.length = n;
    middle.fill(0);
    if (known === undefined) this.#group.addRange(part, first, last, middle);
    else for (let k = 0; k < n; k++) middle[k] = known[k] - edges[k];
    for (let k = 0; k < n; k++) {
      this.#totals[k] += middle[k];
      if (span) this.#spans[k].push(edges[k] + middle[k]);
    }
    if (last < part.length) {
      this.#parts.push(part.slice(last));
      this.#length = part.length - last;
    }
  }

  /** Scratch: the two ends and the middle of the part {@linkcode Runs.#addCut} adds. */
  readonly #edges: number[] = [];
  readonly #middle: number[] = [];

  #flush(): void {
    if (this.#holdFirst && this.#held === undefined) {
      this.#held = {
        parts: this.#parts,
        starts: this.#starts,
        ends: this.#ends,
        reported: this.#reported,
        known: this.#known,
      };
      this.#parts = [];
      this.#starts = [];
      this.#ends = [];
      this.#reported = [];
      this.#known = [];
    } else {
      const parts = this.#parts;
      const text = parts.length === 1 ? parts[0] : parts.join("");
      const n = this.#n;
      const counted = this.#counted;
      const reported = this.#reported;
      counted.length = reported.length * n;
      this.#group.countSpans(text, this.#starts, this.#ends, this.#known, counted, this.#totals);
      for (let i = 0; i < reported.length; i++) {
        if (!reported[i]) continue;
        for (let k = 0; k < n; k++) this.#spans[k].push(counted[i * n + k]);
      }
      parts.length = 0;
      this.#starts.length = 0;
      this.#ends.length = 0;
      reported.length = 0;
      this.#known.length = 0;
    }
    this.#length = 0;
  }
}

/**
 * The counts of a listing the arm gives in parts (`EncodingArm.listingParts`), without its
 * text: the parts are counted in runs as they come (see {@linkcode Runs}), a part that renders
 * a tool (`ToolPart`) through the group's known strings (the tool's description and schema
 * text), or, when it is the tool's own text re-indented, from that text's tokens
 * (`ReindentedCounts`); each tool's text is counted (through the known strings too, as in
 * {@linkcode countJoined}) when the listing renders it through `encodeTool` (else after, tool by
 * tool), and only its counts are kept. Exact for the tokenizers {@linkcode countJoined} is.
 */
function countParts(
  arm: EncodingArm,
  tools: readonly Tool[],
  knowns: Knowns,
  fragile: Map<string, string[]>,
): Counted {
  const tokenizers = knowns.group.tokenizers;
  const seen = new Map<Tool, { counts: number[]; altered: string | undefined }>();
  const measured = (tool: Tool, text: string) => {
    const literals = fragile.get(tool.id);
    const entry = {
      counts: knowns.count(tool, text),
      altered: literals === undefined ? undefined : literalLoss(literals, text),
    };
    seen.set(tool, entry);
    return entry;
  };
  const counting: EncodingArm = Object.create(arm, {
    encodeTool: {
      value(tool: Tool): EncodedTool {
        const out = arm.encodeTool(tool);
        if (out.ok && !seen.has(tool)) measured(tool, out.text);
        return out;
      },
    },
  });
  const runs = new Runs(knowns.group, true);
  const parts = counting.listingParts!(tools);
  let next = parts.next();
  const reindents = new Map<string, ReindentedCounts>();
  for (; !next.done; next = parts.next()) {
    const part = next.value;
    if (typeof part === "string") {
      runs.add(part, false);
      continue;
    }
    const again = part.reindented;
    if (again === undefined) {
      runs.add(part.text, false, knowns.count(part.tool, part.text));
      continue;
    }
    // The part is the tool's own text re-indented: priced from the own text's tokens.
    const own = seen.get(part.tool) ?? measured(part.tool, again.own);
    const key = JSON.stringify([again.prefix, again.indent]);
    let counter = reindents.get(key);
    if (counter === undefined) {
      counter = new ReindentedCounts(tokenizers, again.prefix, again.indent);
      reindents.set(key, counter);
    }
    runs.add(part.text, false, counter.counts(again.own, own.counts));
  }
  const listing = next.value;
  const kept = new Set(listing.encodedIds);
  const altered = new SkipCollector();
  const toolIds: string[] = [];
  const perTool = tokenizers.map((): number[] => []);
  for (const tool of tools) {
    if (!kept.has(tool.id)) continue;
    let entry = seen.get(tool);
    if (entry === undefined) {
      const out = arm.encodeTool(tool);
      if (!out.ok) continue;
      entry = measured(tool, out.text);
    }
    toolIds.push(tool.id);
    entry.counts.forEach((n, k) => perTool[k].push(n));
    if (entry.altered !== undefined) altered.add(tool.id, entry.altered);
  }
  const { totals } = runs.finish(listing.header);
  return {
    encodedIds: listing.encodedIds,
    skipped: listing.skipped,
    toolIds,
    altered: altered.summary(),
    counts: tokenizers.map((_, k) => ({ total: totals[k], perTool: perTool[k] })),
  };
}

/**
 * Measures every arm over a corpus with every tokenizer.
 *
 * For each arm (in order) and tokenizer (in order) one {@linkcode ArmMeasurement};
 * for an arm whose `encodeListing` throws, one
 * {@linkcode ArmSkipRow} per corpus instead. `baseline_json` is used for
 * savings even when it is not among `arms`. Pure: the only work is encoding
 * and counting; no I/O, no clock.
 *
 * @param options Corpus, arms, tokenizers.
 * @returns Rows, arms outer, tokenizers inner.
 * @throws {RangeError} When `heaviestCount` is negative or not an integer.
 *
 * @example Usage
 * ```ts
 * import { measureArms } from "./measure.ts";
 * import { compactSig } from "./compact_sig.ts";
 * const words = { name: "words", count: (t: string) => t.split(/\s+/).filter(Boolean).length };
 * const tools = [{ id: "s:a", server: "s", name: "a", description: "one two" }];
 * const [row] = measureArms({ corpus: { id: "c", tools }, arms: [compactSig], tokenizers: [words] });
 * // "a()|one two" is 2 words; baseline "a\none two" is 3 words
 * if (row.skipped || row.totalTokens !== 2 || row.savings !== 1 - 2 / 3) throw new Error();
 * ```
 */
export function measureArms(options: MeasureArmsOptions): ArmRow[] {
  const { corpus, arms, tokenizers } = options;
  const heaviestCount = options.heaviestCount ?? 10;
  if (!Number.isInteger(heaviestCount) || heaviestCount < 0) {
    throw new RangeError(
      `Cannot measure arms as heaviestCount must be a non-negative integer: current value is ${heaviestCount}`,
    );
  }
  const baseArm = arms.find((a) => a.name === "baseline_json") ?? baselineJson;
  const fragile = fragileLiterals(corpus.tools);
  // A joined listing is counted tool by tool (no listing text); any other is rendered whole,
  // counted, and its texts dropped, so at most one arm's texts are held at a time.
  const group = groupCounts(tokenizers);
  const knowns = group === undefined ? undefined : new Knowns(group);
  const measure = (arm: EncodingArm): Counted => {
    if (arm.joined !== undefined && knowns !== undefined) {
      return countJoined(arm, arm.joined, corpus.tools, knowns, fragile);
    }
    if (arm.listingParts !== undefined && knowns !== undefined) {
      return countParts(arm, corpus.tools, knowns, fragile);
    }
    const encoded = encodeAll(arm, corpus.tools);
    return {
      encodedIds: encoded.listing.encodedIds,
      skipped: encoded.listing.skipped,
      toolIds: encoded.tools.map((t) => t.id),
      altered: alteredTools(encoded, fragile),
      counts: tokenizers.map((tok) => countEncoded(encoded, tok)),
    };
  };
  const base = measure(baseArm);
  const baseIds = new Set(base.encodedIds);

  const rows: ArmRow[] = [];
  for (const arm of arms) {
    let measured: Counted;
    try {
      measured = arm === baseArm ? base : measure(arm);
    } catch (error) {
      rows.push({
        corpusId: corpus.id,
        arm: arm.name,
        skipped: true,
        reason: `encodeListing failed: ${errorMessage(error)}`,
      });
      continue;
    }
    const armIds = new Set(measured.encodedIds);
    const common = corpus.tools.filter((t) => baseIds.has(t.id) && armIds.has(t.id));
    const sameSet = common.length === baseIds.size &&
      common.length === measured.encodedIds.length;
    const commonListings = sameSet
      ? undefined
      : { arm: arm.encodeListing(common).text, base: baseArm.encodeListing(common).text };

    for (const [k, tok] of tokenizers.entries()) {
      const counted = measured.counts[k];
      const totalTokens = counted.total;
      const tokens = counted.perTool;
      let sum = 0;
      for (const n of tokens) sum += n; // integers: exact in any order
      const heaviest = heaviestFirst(measured.toolIds, tokens, heaviestCount);
      const armCommon = commonListings === undefined ? totalTokens : tok.count(commonListings.arm);
      const baseCommon = commonListings === undefined
        ? base.counts[k].total
        : tok.count(commonListings.base);
      rows.push({
        corpusId: corpus.id,
        arm: arm.name,
        tokenizer: tok.name,
        skipped: false,
        toolCount: tokens.length,
        totalTokens,
        meanTokens: tokens.length === 0 ? null : sum / tokens.length,
        p95Tokens: tokens.length === 0 ? null : percentileNearestRank(tokens, 95),
        heaviest,
        skippedTools: measured.skipped,
        alteredTools: measured.altered,
        savings: baseCommon === 0 ? null : 1 - armCommon / baseCommon,
        savingsToolCount: common.length,
        lowerBound: arm.lowerBound,
        altersIndex: arm.altersIndex,
      });
    }
  }
  return rows;
}
