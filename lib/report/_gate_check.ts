/**
 * Number formats and the check constructor shared by the gate's jobs (private to lib/report).
 *
 * @module
 */
import type { GateCheck, Verdict } from "./gate.ts";

export const f3 = (x: number) => x.toFixed(3);
export const signed = (x: number, digits = 3) =>
  `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
export const pctText = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}%`;
export const usd = (x: number) => `$${x.toPrecision(4)}`;
export const cmp = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

/** One check record. */
export function check(
  group: string,
  name: string,
  verdict: Verdict,
  message: string,
  details: readonly string[] = [],
): GateCheck {
  return { group, name, verdict, message, details };
}
