/**
 * The error a flow throws for bad input: a flag value out of range, a file that cannot be read or
 * holds nothing to measure. Its message is the whole story for the user (tasks print it on one
 * line without a stack trace and exit 2).
 *
 * @module
 */

/**
 * Bad input to a flow or a task. The message names the input (flag or file) and what is wrong
 * with it, e.g. `--resamples must be between 1 and 100000: current value is 0`.
 *
 * @example Usage
 * ```ts
 * import { UsageError } from "./_errors.ts";
 * const e = new UsageError("--seed must be a non-negative integer");
 * if (e.name !== "UsageError") throw new Error(e.name);
 * ```
 */
export class UsageError extends Error {
  /** Always `"UsageError"`. */
  override name = "UsageError";
}
