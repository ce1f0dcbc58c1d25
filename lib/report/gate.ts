/**
 * The regression gate's vocabulary (`deno task gate`): a check's verdict, the one-line check
 * record, the bad-input error, the exit code and the verdict line. The jobs live beside it:
 * `gate_runs.ts` (candidate run against baseline run), `gate_bench.ts` (two bench reports),
 * `gate_junit.ts` (JUnit XML) and `gate_markdown.ts` (the Markdown summary). Pure.
 *
 * @module
 */
import { InputFileError } from "../core/errors.ts";

/** Outcome of one check: `warn` and `skip` do not fail the gate. */
export type Verdict = "pass" | "fail" | "warn" | "skip";

/** One check of the gate. */
export interface GateCheck {
  /** What it compared: `run`, `<suite>/<agent>`, `<suite>/<agent>/tag:<tag>`, or `bench`. */
  readonly group: string;
  /** Check name, e.g. `pass rate`, `cost per case`, `latency p95`, `catalog`, `recall@5 …`. */
  readonly name: string;
  /** The verdict. */
  readonly verdict: Verdict;
  /** One line: the figures and why. */
  readonly message: string;
  /** Extra lines, e.g. the tools added, removed or changed. */
  readonly details: readonly string[];
}

/** A baseline or candidate that cannot be compared (maps to exit code 2). */
export class GateInputError extends InputFileError {
  /**
   * Builds the error.
   *
   * @param message What is unusable, quoting the value.
   * @param path The baseline or candidate at fault, when one file is (default `""`: the pair).
   */
  constructor(message: string, path = "") {
    super(path, message);
    this.name = "GateInputError";
  }
}

/**
 * The gate's exit code for a list of checks: 1 when any check fails, else 0 (2, unusable input,
 * is decided by the caller when loading fails).
 *
 * @param checks Checks.
 * @returns 0 or 1.
 */
export function gateExitCode(checks: readonly GateCheck[]): 0 | 1 {
  return checks.some((c) => c.verdict === "fail") ? 1 : 0;
}

/**
 * One line per check: `FAIL <group> · <name>: <message>`.
 *
 * @param c A check.
 * @returns The line (no newline).
 */
export function verdictLine(c: GateCheck): string {
  return `${c.verdict.toUpperCase().padEnd(4)} ${c.group} · ${c.name}: ${c.message}`;
}
