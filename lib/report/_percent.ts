/**
 * Percent text that never rounds a fraction onto 0% or 100% it does not equal: `decimals`
 * decimals, two where one would read 0.0% or 100.0% for a value strictly between, and `<0.01%` /
 * `>99.99%` beyond that.
 *
 * @example Usage
 * ```ts
 * import { percentText } from "./_percent.ts";
 * if (percentText(0.9996) !== "99.96%" || percentText(0.5) !== "50.0%") throw new Error();
 * if (percentText(0.5, 2) !== "50.00%" || percentText(0.99999, 2) !== ">99.99%") throw new Error();
 * ```
 *
 * @param v A fraction (1 = 100%).
 * @param decimals Decimals of the percentage, 1 or 2. @default {1}
 * @returns The text, e.g. `42.3%`.
 */
export function percentText(v: number, decimals: 1 | 2 = 1): string {
  const first = (v * 100).toFixed(decimals);
  const inside = v > 0 && v < 1;
  const onEdge = (text: string) => Number(text) === 0 || Number(text) === 100;
  if (!inside || !onEdge(first)) return `${first}%`;
  const two = (v * 100).toFixed(2);
  if (two === "100.00") return ">99.99%";
  if (two === "0.00") return "<0.01%";
  return `${two}%`;
}

/**
 * A formatter for one table column of fractions: every value with the same number of decimals,
 * the most that {@linkcode percentText} needs for any value of the column (so `0.0%` and `99.96%`
 * in one column read `0.00%` and `99.96%`); `<0.01%` and `>99.99%` stay as they are.
 *
 * @example Usage
 * ```ts
 * import { percentColumn } from "./_percent.ts";
 * const f = percentColumn([0, 0.9996, 0.745]);
 * if (f(0) !== "0.00%" || f(0.745) !== "74.50%" || f(0.9996) !== "99.96%") throw new Error();
 * ```
 *
 * @param values The column's fractions (non-numbers are ignored).
 * @returns `format(v)`: the text of a fraction of the column; a non-number as `String(v)`.
 */
export function percentColumn(values: readonly unknown[]): (v: unknown) => string {
  const decimals = (v: number) => /\.(\d+)%$/.exec(percentText(v))?.[1].length ?? 0;
  const digits = Math.max(
    1,
    ...values.filter((v): v is number => typeof v === "number" && Number.isFinite(v)).map(decimals),
  );
  return (v) => {
    if (typeof v !== "number") return String(v);
    const text = percentText(v);
    return text.startsWith("<") || text.startsWith(">") ? text : `${(v * 100).toFixed(digits)}%`;
  };
}
