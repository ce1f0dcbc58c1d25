/**
 * Path confinement for the workbench's config and run folders: ids are checked against one
 * pattern, relative paths may not climb out (`..`, absolute paths, NUL), and a path whose real
 * location (symlinks followed) is outside the folder is refused.
 *
 * @module
 */

import { isAbsolute, join, relative, resolve, sep } from "node:path";

import { ID_PATTERN } from "../core/ids.ts";

/** A request the workbench refuses: `status` is the HTTP status, `field` the offending field. */
export class WorkbenchError extends Error {
  /** HTTP status to answer with (400, 403, 404, 409, 413). */
  readonly status: number;
  /** Dotted field path of the offending input, when one field is to blame. */
  readonly field: string | undefined;
  /**
   * Builds the error.
   *
   * @param status HTTP status.
   * @param message One line, no secret.
   * @param field Offending field, if any.
   */
  constructor(status: number, message: string, field?: string) {
    super(message);
    this.name = "WorkbenchError";
    this.status = status;
    this.field = field;
  }
}

/**
 * Checks an id (no path separators, no `..`, at most 128 characters).
 *
 * @param id Candidate id.
 * @param field Field name for the error.
 * @returns The id.
 * @throws {WorkbenchError} 400 when it does not match {@linkcode ID_PATTERN} or contains `..`.
 */
export function checkId(id: unknown, field: string): string {
  if (typeof id !== "string" || !ID_PATTERN.test(id) || id.includes("..")) {
    throw new WorkbenchError(
      400,
      `${field} must match ${ID_PATTERN.source} without "..", got ${JSON.stringify(id)}`,
      field,
    );
  }
  return id;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.realPath(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/**
 * Resolves `rel` inside `root`, refusing anything that could leave it: an absolute path, a `..`
 * segment, a NUL, or an existing path (or its nearest existing parent) whose real location is
 * outside the real `root`.
 *
 * @param root Folder the path must stay in.
 * @param rel Relative path as written (e.g. `prompts/terse.md`).
 * @param field Field name for the error.
 * @param folder What `root` is, in the error's words. @default {"the config folder"}
 * @returns The absolute path.
 * @throws {WorkbenchError} 400 for a path that leaves `root`.
 */
export async function confinedPath(
  root: string,
  rel: string,
  field: string,
  folder = "the config folder",
): Promise<string> {
  const bad = () =>
    new WorkbenchError(
      400,
      `${field} must be a relative path inside ${folder}, got ${JSON.stringify(rel)}`,
      field,
    );
  if (
    typeof rel !== "string" || rel === "" || rel.includes("\0") || isAbsolute(rel) ||
    rel.split(/[\\/]/).includes("..")
  ) throw bad();
  const absRoot = resolve(root);
  const path = resolve(join(absRoot, rel));
  if (!inside(absRoot, path)) throw bad();
  const realRoot = await realOrNull(absRoot) ?? absRoot;
  // The path itself, or its nearest existing ancestor, must really be inside.
  let probe = path;
  while (true) {
    const real = await realOrNull(probe);
    if (real !== null) {
      if (!inside(realRoot, real)) throw bad();
      break;
    }
    const parent = resolve(probe, "..");
    if (parent === probe || !inside(absRoot, parent)) break;
    probe = parent;
  }
  return path;
}

/**
 * A path typed in a form field (Catalog, Audit), absolute: a leading `~` is the home folder when
 * one is known (as a shell reads it; the field reaches no shell), a relative path starts in
 * `from`.
 *
 * @param path The path as typed.
 * @param home The home folder, if known.
 * @param from Where a relative path starts. @default {Deno.cwd()}
 * @returns The absolute path.
 *
 * @example Usage
 * ```ts
 * import { typedPath } from "./_paths.ts";
 * if (typedPath("~/a.json", "/home/u", "/w") !== "/home/u/a.json") throw new Error();
 * if (typedPath("~", "/home/u", "/w") !== "/home/u") throw new Error();
 * if (typedPath("a/b", undefined, "/w") !== "/w/a/b") throw new Error();
 * ```
 */
export function typedPath(path: string, home: string | undefined, from = Deno.cwd()): string {
  const tilde = path === "~" || path.startsWith("~/");
  return resolve(from, tilde && home ? join(home, path.slice(2)) : path);
}

/**
 * Reads a JSON file under the results folder, as a page or API route names it.
 *
 * @param resultsDir The results folder.
 * @param rel Path relative to it, as the request wrote it (named in errors).
 * @returns The parsed JSON, unchecked (the caller checks its shape).
 * @throws {WorkbenchError} 400 for a path outside the results folder, or a file that cannot be
 *   read or is not JSON.
 */
export async function readResultsJson(resultsDir: string, rel: string): Promise<unknown> {
  const path = await confinedPath(resultsDir, rel, "path", "the results folder");
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    throw new WorkbenchError(400, `cannot read ${rel}: ${(e as Error).message}`, "path");
  }
}
