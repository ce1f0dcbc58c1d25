/**
 * What a finished (or stopped) run says about its infrastructure: whether anything was scored,
 * and whether the model endpoint was never reached or went down part way. The agents task turns
 * this into its exit code and its help text.
 *
 * @module
 */
import type { CaseRecord } from "./types.ts";

/** The infrastructure picture of a run's records. */
export interface RunHealth {
  /** Records in all. */
  readonly records: number;
  /** Records with a verdict (`passed` true or false). */
  readonly scored: number;
  /** Records that are infrastructure errors (`passed: null`), by error kind. */
  readonly infraErrors: Readonly<Record<string, number>>;
  /** Records whose model call could not connect (`code: "unreachable"`). */
  readonly unreachable: number;
  /** Records in which the model answered at least once (a verdict, or tokens were reported). */
  readonly reachedModel: number;
  /**
   * `ok`; `never_reached` (every model failure was a connection failure and no case got an
   * answer); `went_down` (some cases got answers, others could not connect).
   */
  readonly endpoint: "ok" | "never_reached" | "went_down";
}

/**
 * Reads the infrastructure picture of a run's records.
 *
 * @param records Every record of the run.
 * @returns Counts and the endpoint verdict.
 *
 * @example Usage
 * ```ts
 * import { runHealth } from "./health.ts";
 * const h = runHealth([]);
 * if (h.scored !== 0 || h.endpoint !== "ok") throw new Error();
 * ```
 */
export function runHealth(records: readonly CaseRecord[]): RunHealth {
  const infraErrors: Record<string, number> = {};
  let scored = 0;
  let unreachable = 0;
  let reachedModel = 0;
  for (const r of records) {
    if (r.passed !== null) scored += 1;
    else if (r.error !== null) infraErrors[r.error.kind] = (infraErrors[r.error.kind] ?? 0) + 1;
    if (r.error?.code === "unreachable") unreachable += 1;
    if (r.passed !== null || (r.inputTokens ?? 0) > 0 || (r.outputTokens ?? 0) > 0) {
      reachedModel += 1;
    }
  }
  const endpoint = unreachable === 0 ? "ok" : reachedModel === 0 ? "never_reached" : "went_down";
  return { records: records.length, scored, infraErrors, unreachable, reachedModel, endpoint };
}

/**
 * The one-line reason a run measured nothing, or `null` when at least one case was scored.
 *
 * @param health What {@linkcode runHealth} returned.
 * @returns e.g. `no case was scored: 6 infrastructure error(s) (model 4, mcp 2)`.
 */
export function nothingScored(health: RunHealth): string | null {
  if (health.scored > 0) return null;
  const kinds = Object.entries(health.infraErrors).sort(([a], [b]) => a < b ? -1 : 1)
    .map(([k, n]) => `${k} ${n}`).join(", ");
  const errors = Object.values(health.infraErrors).reduce((a, b) => a + b, 0);
  return health.records === 0
    ? "no case was run"
    : `no case was scored: ${errors} infrastructure error(s) (${kinds})`;
}
