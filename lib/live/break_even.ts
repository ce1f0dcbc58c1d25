/**
 * Break-even of a discovery proxy: after how many discovery calls its menu
 * savings are spent on discovery responses.
 *
 * @module
 */
import type { Provenance } from "../core/provenance.ts";

/** Inputs of {@linkcode breakEven}, all in tokens of one tokenizer. */
export interface BreakEvenInput {
  /** Tokens of listing every upstream tool directly (the `direct` menu). */
  readonly directMenuTokens: number;
  /** Tokens of the proxy's own menu (its `tools/list`). */
  readonly proxyMenuTokens: number;
  /** Mean tokens of one discovery response. */
  readonly meanResponseTokens: number;
  /** Whether the direct menu was counted with input schemas. */
  readonly directWithSchemas: boolean;
  /** Whether the proxy menu was counted with input schemas. */
  readonly proxyWithSchemas: boolean;
}

/** The break-even row; inputs are echoed. Exactly one of `calls`, `noBreakEven`, `withheld` is set. */
export interface BreakEvenResult {
  /** Always `computed`: arithmetic over measured counts. */
  readonly provenance: Provenance;
  /** Echoed input (tokens). */
  readonly directMenuTokens: number;
  /** Echoed input (tokens). */
  readonly proxyMenuTokens: number;
  /** Echoed input (tokens). */
  readonly meanResponseTokens: number;
  /** Discovery calls at which the proxy has spent its menu savings (calls, not rounded); `null` otherwise. */
  readonly calls: number | null;
  /** True when the proxy menu costs at least as much as the direct menu: it never pays off. */
  readonly noBreakEven: boolean;
  /** True when the figure is withheld (see `reason`). */
  readonly withheld: boolean;
  /** Why there is no `calls` figure, when there is none. */
  readonly reason: string | null;
}

/**
 * Break-even calls = (direct menu tokens − proxy menu tokens) ÷ mean response tokens.
 *
 * Below that many discovery calls the proxy costs less context than listing
 * every tool directly; above it, more. Cases:
 * - either menu counted without schemas: withheld (a menu without schemas
 *   understates its cost, so the difference is not comparable);
 * - numerator ≤ 0: `noBreakEven` (the proxy's menu alone costs as much or more);
 * - mean response ≤ 0: withheld (no response was measured);
 * - otherwise `calls`.
 *
 * @param input Menu and response token counts, and whether schemas were counted.
 * @returns The row with the three inputs echoed; provenance `computed`.
 * @throws {RangeError} When a count is negative or not finite.
 *
 * @example Usage
 * ```ts
 * import { breakEven } from "./break_even.ts";
 * const r = breakEven({ directMenuTokens: 10_000, proxyMenuTokens: 1_000, meanResponseTokens: 1_500,
 *   directWithSchemas: true, proxyWithSchemas: true });
 * if (r.calls !== 6) throw new Error(`(10000 - 1000) / 1500 = 6, got ${r.calls}`);
 * ```
 */
export function breakEven(input: BreakEvenInput): BreakEvenResult {
  for (const key of ["directMenuTokens", "proxyMenuTokens", "meanResponseTokens"] as const) {
    const v = input[key];
    if (!Number.isFinite(v) || v < 0) {
      throw new RangeError(
        `Cannot compute break-even: ${key} must be a finite count ≥ 0, got ${v}`,
      );
    }
  }
  const base = {
    provenance: "computed" as const,
    directMenuTokens: input.directMenuTokens,
    proxyMenuTokens: input.proxyMenuTokens,
    meanResponseTokens: input.meanResponseTokens,
  };
  if (!input.directWithSchemas || !input.proxyWithSchemas) {
    const which = [
      ...(input.directWithSchemas ? [] : ["direct"]),
      ...(input.proxyWithSchemas ? [] : ["proxy"]),
    ].join(" and ");
    return {
      ...base,
      calls: null,
      noBreakEven: false,
      withheld: true,
      reason:
        `the ${which} menu was counted without input schemas, so the menus are not comparable`,
    };
  }
  const saved = input.directMenuTokens - input.proxyMenuTokens;
  if (saved <= 0) {
    return {
      ...base,
      calls: null,
      noBreakEven: true,
      withheld: false,
      reason:
        `the proxy menu (${input.proxyMenuTokens} tokens) costs at least the direct menu (${input.directMenuTokens}): no discovery call can pay it back`,
    };
  }
  if (input.meanResponseTokens <= 0) {
    return {
      ...base,
      calls: null,
      noBreakEven: false,
      withheld: true,
      reason: "no discovery response was measured (mean response tokens is 0)",
    };
  }
  return {
    ...base,
    calls: saved / input.meanResponseTokens,
    noBreakEven: false,
    withheld: false,
    reason: null,
  };
}
