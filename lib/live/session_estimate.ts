/**
 * Session estimates: what a session that makes a few discovery calls costs in
 * context tokens through a proxy, per response encoding.
 *
 * @module
 */
import type { Provenance } from "../core/provenance.ts";

/** Response encodings a session estimate is made for. */
export type ResponseEncoding = "json" | "compact" | "toon";

/**
 * Assumed retry rate per response encoding: the share of discovery responses
 * an agent has to ask for again because it misread the format.
 *
 * These are mcpmeter's stated assumptions, not measurements: 0 for JSON (the
 * format models are trained on) and for compact signatures (one plain line per
 * tool), and 0.05 for TOON. The TOON project's own benchmark
 * (github.com/toon-format/toon, README "Benchmarks") reports model
 * comprehension accuracy per format rather than a retry rate; no published
 * retry rate for TOON was found, so 0.05 is an assumption chosen to make the
 * estimate sensitive to a less familiar format. Each session row echoes the
 * rate it used.
 */
export const DEFAULT_RETRY_RATES: Readonly<Record<ResponseEncoding, number>> = {
  json: 0,
  compact: 0,
  toon: 0.05,
};

/** Discovery call counts a session is estimated for. */
export const DEFAULT_SESSION_CALLS: readonly number[] = [1, 3, 5, 10];

/** Mean response tokens of one encoding. */
export interface EncodingResponse {
  /** Encoding name. */
  readonly encoding: ResponseEncoding;
  /** Mean tokens of one discovery response in this encoding (tokens). */
  readonly meanResponseTokens: number;
}

/** Options of {@linkcode sessionEstimates}. */
export interface SessionOptions {
  /** Tokens of the proxy's menu (its `tools/list`). */
  readonly proxyMenuTokens: number;
  /** Tokens of the direct menu, echoed for comparison (not used in the formula). */
  readonly directMenuTokens?: number;
  /** Mean response per encoding. */
  readonly responses: readonly EncodingResponse[];
  /**
   * Discovery calls per session.
   * @default {DEFAULT_SESSION_CALLS}
   */
  readonly calls?: readonly number[];
  /**
   * Retry rate per encoding (fraction, 0 ≤ r < 1).
   * @default {DEFAULT_RETRY_RATES}
   */
  readonly retryRates?: Readonly<Record<ResponseEncoding, number>>;
}

/** One session estimate. */
export interface SessionRow {
  /** Always `estimated`: the retry rate is an assumption. */
  readonly provenance: Provenance;
  /** Response encoding. */
  readonly encoding: ResponseEncoding;
  /** Discovery calls in the session. */
  readonly calls: number;
  /** Echoed: proxy menu tokens. */
  readonly proxyMenuTokens: number;
  /** Echoed: mean response tokens of this encoding. */
  readonly meanResponseTokens: number;
  /** Echoed: the assumed retry rate (fraction). */
  readonly retryRate: number;
  /** proxyMenu + calls × meanResponse × (1 + retryRate) (tokens). */
  readonly tokens: number;
  /** Echoed direct menu tokens (for comparison), or `null` when not given. */
  readonly directMenuTokens: number | null;
}

/**
 * Estimated context cost of sessions:
 * cost(calls) = proxy menu + calls × mean response × (1 + retry rate),
 * for each call count and each encoding, rows ordered by encoding (as given)
 * then calls.
 *
 * @param options Proxy menu, per-encoding mean responses, call counts, retry rates.
 * @returns One row per (encoding, calls), provenance `estimated`.
 * @throws {RangeError} On a negative or non-finite count, a call count that is
 *   not a positive integer, or a retry rate outside [0, 1).
 *
 * @example Usage
 * ```ts
 * import { sessionEstimates } from "./session_estimate.ts";
 * const rows = sessionEstimates({ proxyMenuTokens: 500, calls: [3],
 *   responses: [{ encoding: "toon", meanResponseTokens: 1000 }] });
 * // 500 + 3 × 1000 × 1.05 = 3650
 * if (rows[0].tokens !== 3650) throw new Error(String(rows[0].tokens));
 * ```
 */
export function sessionEstimates(options: SessionOptions): SessionRow[] {
  const rates = options.retryRates ?? DEFAULT_RETRY_RATES;
  const calls = options.calls ?? DEFAULT_SESSION_CALLS;
  const count = (name: string, v: number) => {
    if (!Number.isFinite(v) || v < 0) {
      throw new RangeError(
        `Cannot estimate sessions: ${name} must be a finite count ≥ 0, got ${v}`,
      );
    }
  };
  count("proxyMenuTokens", options.proxyMenuTokens);
  for (const c of calls) {
    if (!Number.isInteger(c) || c < 1) {
      throw new RangeError(`Cannot estimate sessions: calls must be positive integers, got ${c}`);
    }
  }
  const rows: SessionRow[] = [];
  for (const r of options.responses) {
    count(`meanResponseTokens of ${r.encoding}`, r.meanResponseTokens);
    const rate = rates[r.encoding];
    if (!(rate >= 0 && rate < 1)) {
      throw new RangeError(
        `Cannot estimate sessions: retry rate of ${r.encoding} must be in [0, 1), got ${rate}`,
      );
    }
    for (const c of calls) {
      rows.push({
        provenance: "estimated",
        encoding: r.encoding,
        calls: c,
        proxyMenuTokens: options.proxyMenuTokens,
        meanResponseTokens: r.meanResponseTokens,
        retryRate: rate,
        tokens: options.proxyMenuTokens + c * r.meanResponseTokens * (1 + rate),
        directMenuTokens: options.directMenuTokens ?? null,
      });
    }
  }
  return rows;
}
