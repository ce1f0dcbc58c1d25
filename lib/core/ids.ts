/**
 * The one shape of ids that name files and folders: agents, suites and runs. An id that matches
 * cannot climb out of the folder it names something in (no separator, no `..`, no leading dot).
 *
 * @module
 */

/** Ids of agents, suites and runs: a letter or digit, then letters, digits, `.`, `_`, `-`. */
export const ID_PATTERN: RegExp = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Why a string is not a usable id, or `undefined` when it is one.
 *
 * @param id Candidate id.
 * @returns One phrase (e.g. `it contains "/"`), or `undefined`.
 * @example Usage
 * ```ts
 * import { idProblem } from "./ids.ts";
 * if (idProblem("nightly-1") !== undefined) throw new Error("should be fine");
 * if (idProblem("../x") === undefined) throw new Error("should be refused");
 * ```
 */
export function idProblem(id: string): string | undefined {
  if (id === "") return "it is empty";
  const sep = /[\/\\]/.exec(id);
  if (sep) return `it contains "${sep[0]}"`;
  if (id.includes("..")) return `it contains ".."`;
  if (id.length > 128) return `it is ${id.length} characters long (at most 128)`;
  if (!ID_PATTERN.test(id)) {
    return "it must start with a letter or digit and hold only letters, digits, '.', '_' and '-'";
  }
  return undefined;
}
