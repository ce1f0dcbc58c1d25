/**
 * Domain errors of the retrieval module.
 *
 * @module
 */

import { InputFileError } from "../core/errors.ts";

/**
 * A golden set cannot be used: malformed file, empty query, duplicate id, invalid grade, or
 * label ids unknown to the corpus (in strict mode). `problems` lists every problem found; `path`
 * is the golden set id (the file it came from).
 */
export class GoldenSetError extends InputFileError {
  /** Every problem found, one sentence each. */
  readonly problems: readonly string[];
  /**
   * Build the error from every problem found.
   *
   * @param setId The golden set (or file) concerned.
   * @param problems One sentence per problem; the message quotes the first five.
   */
  constructor(setId: string, problems: readonly string[]) {
    const shown = problems.slice(0, 5).join("; ");
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : "";
    super(setId, `Cannot use golden set "${setId}": ${shown}${more}`);
    this.name = "GoldenSetError";
    this.problems = problems;
  }
}

/**
 * The ids an index returns are not the ids the labels use (e.g. index ids prefixed with a server
 * or config name while labels stay bare). Scoring would silently give 0, so it is an error.
 */
export class IdMismatchError extends Error {
  /** A diagnosis and a suggested mapping, when one was recognised. */
  readonly diagnosis: string;
  /**
   * Build the error from what does not match and the recognised pattern.
   *
   * @param message What does not match, quoting example ids.
   * @param diagnosis The recognised pattern, e.g. `index ids carry the prefix "github:"`.
   */
  constructor(message: string, diagnosis: string) {
    super(diagnosis ? `${message}; ${diagnosis}` : message);
    this.name = "IdMismatchError";
    this.diagnosis = diagnosis;
  }
}
