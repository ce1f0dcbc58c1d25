/**
 * Percent text that never rounds a fraction onto 0% or 100% it does not equal: one decimal, two
 * where one would read 0.0% or 100.0% for a value strictly between, and `<0.01%` / `>99.99%`
 * beyond that.
 *
 * @example Usage
 * ```ts
 * import { percentText } from "./_percent.ts";
 * if (percentText(0.9996) !== "99.96%" || percentText(0.5) !== "50.0%") throw new Error();
 * ```
 *
 * @param v A fraction (1 = 100%).
 * @returns The text, e.g. `42.3%`.
 */
export function percentText(v: number): string {
  const one = (v * 100).toFixed(1);
  const inside = v > 0 && v < 1;
  if (!inside || (one !== "0.0" && one !== "100.0")) return `${one}%`;
  const two = (v * 100).toFixed(2);
  if (two === "100.00") return ">99.99%";
  if (two === "0.00") return "<0.01%";
  return `${two}%`;
}
