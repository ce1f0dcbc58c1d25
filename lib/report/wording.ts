/**
 * How savings and break-evens are worded on the console, the dashboard and in notebooks: a
 * negative saving reads "costs N% more", never "saves -N%", and a crossover at the smallest
 * sampled catalog size reads "at every sampled size", never as a break-even at that size.
 *
 * @module
 */
import { percentText } from "./_percent.ts";
import type { CrossoverRow } from "../modes/catalog_cost.ts";
import type { Crossing } from "../modes/deferred.ts";
import type { ScalingRow } from "../modes/scaling.ts";

/** `1829.41%` → `1,829.41%`: the integer part grouped by thousands. */
function grouped(text: string): string {
  return text.replace(/^\d+/, (d) => d.replace(/\B(?=(\d{3})+$)/g, ","));
}

/**
 * A saving (`1 − mode ÷ baseline`) in words: `saves 99.95%`, `costs 1,829.41% more` or
 * `costs the same`.
 *
 * @example Usage
 * ```ts
 * import { savingsPhrase } from "./wording.ts";
 * const two = (v: number) => `${(v * 100).toFixed(2)}%`;
 * if (savingsPhrase(-18.2941, two) !== "costs 1,829.41% more") throw new Error();
 * if (savingsPhrase(0.9995, two) !== "saves 99.95%") throw new Error();
 * ```
 *
 * @param saving The fraction saved (1 = everything; negative: the alternative costs more).
 * @param format Percent text of a non-negative fraction. @default {percentText}
 * @returns The phrase.
 */
export function savingsPhrase(
  saving: number,
  format: (fraction: number) => string = percentText,
): string {
  if (saving > 0) return `saves ${grouped(format(saving))}`;
  if (saving < 0) return `costs ${grouped(format(-saving))} more`;
  return "costs the same";
}

const tools = (n: number) => `${n.toLocaleString("en-US")} tool${n === 1 ? "" : "s"}`;

/**
 * Where a mode pays off over the sampled catalog sizes of its corpus and tokenizer, in words.
 * The sizes are samples, so the smallest one says nothing about a break-even below it:
 * - every sampled size pays off: `at every sampled size (5 to 1,389 tools)`;
 * - none does: `at no sampled size (5 to 1,389 tools)`;
 * - else the break-even lies between the last size that does not pay off and the first that
 *   does: `from 50 tools (break-even between 20 and 50 tools)`, with `; not at every larger
 *   size` added when a larger size does not pay off again (and when the smallest size pays off
 *   but a larger one does not: `at the smallest sampled size (5 tools) but not at every larger
 *   one (5 to 1,389 tools)`).
 *
 * "Pays off" is the report's `measuredSize` rule: the sample's mean direct cost (with schemas)
 * exceeds the mode's.
 *
 * @example Usage
 * ```ts
 * import { crossoverPhrase } from "./wording.ts";
 * const row = (targetSize: number, directTokens: number) => ({
 *   corpusId: "c", tokenizer: "t", targetSize, full: false, draws: 1, meanToolCount: targetSize,
 *   meanServerCount: 1, directTokens, proxyTokens: 300, codeTokens: 200, proxySavings: 0,
 *   codeSavings: 0, provenance: "computed" as const,
 * });
 * const crossover = {
 *   corpusId: "c", tokenizer: "t", mode: "proxy" as const, measuredSize: 20, estimatedSize: 15,
 *   provenance: { measuredSize: "computed" as const, estimatedSize: "estimated" as const },
 * };
 * const text = crossoverPhrase(crossover, [row(10, 250), row(20, 400), row(30, 600)]);
 * if (text !== "from 20 tools (break-even between 10 and 20 tools)") throw new Error(text);
 * ```
 *
 * @param crossover The report's crossover row.
 * @param scaling The report's scaling rows (any corpora and tokenizers; the crossover's are used).
 * @returns The phrase, or `not sampled` when the crossover's corpus and tokenizer have no rows.
 */
export function crossoverPhrase(
  crossover: CrossoverRow,
  scaling: readonly ScalingRow[],
): string {
  const rows = scaling
    .filter((r) => r.corpusId === crossover.corpusId && r.tokenizer === crossover.tokenizer)
    .toSorted((a, b) => a.targetSize - b.targetSize);
  if (rows.length === 0) return "not sampled";
  const pays = rows.map((r) =>
    r.directTokens > (crossover.mode === "code" ? r.codeTokens : r.proxyTokens)
  );
  const first = rows[0].targetSize;
  const last = rows[rows.length - 1].targetSize;
  const range = rows.length === 1
    ? tools(first)
    : `${first.toLocaleString("en-US")} to ${tools(last)}`;
  const from = pays.indexOf(true);
  if (from < 0) return `at no sampled size (${range})`;
  if (pays.every((p) => p)) {
    return rows.length === 1
      ? `at the one sampled size (${range})`
      : `at every sampled size (${range})`;
  }
  const then = pays.slice(from).every((p) => p) ? "" : "; not at every larger size";
  if (from === 0) {
    return `at the smallest sampled size (${tools(first)}) but not at every larger one (${range})`;
  }
  return `from ${tools(rows[from].targetSize)} (break-even between ${
    rows[from - 1].targetSize.toLocaleString("en-US")
  } and ${tools(rows[from].targetSize)}${then})`;
}

/**
 * How a deferred mode compares with another (`direct`, the reference proxy) as searches per
 * session grow, in words. A session makes whole searches, so the crossing is given as the last
 * or first whole number of searches on the mode's side: `cheaper up to 3 searches` (crossing at
 * 3.3), `cheaper only with no search` (crossing below 1), `cheaper from 3 searches` (crossing at
 * 2.25), `always cheaper`, `never cheaper`, or `as dear with no search` (equal starts; the per-search
 * costs beside the phrase say which grows faster). A crossing at a whole number is on neither side.
 *
 * @example Usage
 * ```ts
 * import { crossingPhrase } from "./wording.ts";
 * if (crossingPhrase({ searches: 3.5, cheaperAtStart: "mode" }) !== "cheaper up to 3 searches") {
 *   throw new Error();
 * }
 * ```
 *
 * @param c Where the two session costs cross (searches unrounded).
 * @returns The phrase.
 */
export function crossingPhrase(c: Crossing): string {
  const searches = (n: number) => `${n.toLocaleString("en-US")} search${n === 1 ? "" : "es"}`;
  if (c.cheaperAtStart === "mode") {
    if (c.searches === null) return "always cheaper";
    const last = Math.ceil(c.searches) - 1;
    return last < 1 ? "cheaper only with no search" : `cheaper up to ${searches(last)}`;
  }
  if (c.cheaperAtStart === "other") {
    return c.searches === null
      ? "never cheaper"
      : `cheaper from ${searches(Math.floor(c.searches) + 1)}`;
  }
  // Equal starts cross at 0 searches, which `crossing` records as null either way.
  return "as dear with no search";
}

/**
 * Says which sampled catalog sizes a corpus has no row for: sizes below its tool count whose
 * every draw of whole servers took all its tools (its servers are too large to leave one out),
 * so that the full row is not mistaken for them.
 *
 * @example Usage
 * ```ts
 * import { leftOutSizesNote } from "./wording.ts";
 * const note = leftOutSizesNote("mine", 14, [{ targetSize: 14 }], [5, 10, 20]);
 * if (note !== "mine: sizes 5 and 10 not sampled: every draw of whole servers took all 14 tools") {
 *   throw new Error(note ?? "null");
 * }
 * ```
 *
 * @param corpusId The corpus.
 * @param toolCount Its tools.
 * @param rows Its scaling rows (any tokenizer or mode).
 * @param sizes The sizes the bench samples (tools).
 * @returns The note, or null when every size below the tool count has a row.
 */
export function leftOutSizesNote(
  corpusId: string,
  toolCount: number,
  rows: readonly { readonly targetSize: number }[],
  sizes: readonly number[],
): string | null {
  const have = new Set(rows.map((r) => r.targetSize));
  const left = [...sizes].sort((a, b) => a - b).filter((s) => s < toolCount && !have.has(s));
  if (left.length === 0) return null;
  const list = left.length === 1
    ? `size ${left[0]}`
    : `sizes ${left.slice(0, -1).join(", ")} and ${left[left.length - 1]}`;
  return `${corpusId}: ${list} not sampled: every draw of whole servers took all ${
    tools(toolCount)
  }`;
}
