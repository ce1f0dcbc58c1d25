/**
 * What a flow hands back to its task for the console: the lines for stdout (the result a user
 * may pipe), the lines for stderr (progress, issues, hints) and the exit code (0 ok, 1 measured
 * failure; bad input is thrown, not returned). A task prints it with one helper
 * (`tasks/_cli.ts` `printOutcome`): stderr first, then stdout, then exits with the code.
 *
 * @module
 */

/** A flow's console result: stdout lines, stderr lines and the exit code. */
export interface FlowOutcome {
  /** Lines for stdout (the result: a version number, a list, verdicts, a summary). */
  readonly stdout: readonly string[];
  /** Lines for stderr (progress, issues, hints), printed before `stdout`. */
  readonly stderr: readonly string[];
  /** 0 ok, 1 measured failure (nothing measured, a threshold failed, nothing imported). */
  readonly exitCode: number;
}
