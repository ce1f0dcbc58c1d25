/**
 * How savings are worded on the console, the dashboard and in notebooks: a negative saving reads
 * "costs N% more", never "saves -N%".
 *
 * @module
 */
import { percentText } from "./_percent.ts";

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
