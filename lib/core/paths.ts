/**
 * Where a path typed on the command line points. `deno task` runs every task in the
 * repository and sets `INIT_CWD` to the folder it was run from, so a relative path the user
 * typed means that folder, not the repository (defaults that name repository files stay
 * relative to the repository, the tasks' working folder).
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";

/**
 * The folder the user ran the command from: `INIT_CWD` when set (deno task sets it, and keeps
 * one set before), else this process's working folder.
 *
 * @returns An absolute folder path.
 */
export function userFolder(): string {
  return Deno.env.get("INIT_CWD") || Deno.cwd();
}

/**
 * A path the user typed, made to mean the same from this process's working folder: unchanged
 * when absolute or when the user's folder is the working folder; else the file it names in the
 * user's folder, written relative to the working folder when inside it (so what a report
 * records of a repository file does not depend on where the checkout lives), absolute when not;
 * a trailing `/` is kept.
 *
 * @param path The path as typed.
 * @param from The user's folder. @default {userFolder()}
 * @param cwd This process's working folder. @default {Deno.cwd()}
 * @returns The path to open.
 *
 * @example Usage
 * ```ts
 * import { userPath } from "./paths.ts";
 * if (userPath("my.json", "/home/u/work", "/repo") !== "/home/u/work/my.json") throw new Error();
 * if (userPath("./my.json", "/repo/sub", "/repo") !== "sub/my.json") throw new Error();
 * if (userPath("my.json", "/repo", "/repo") !== "my.json") throw new Error();
 * ```
 */
export function userPath(path: string, from = userFolder(), cwd = Deno.cwd()): string {
  if (path === "" || isAbsolute(path) || resolve(from) === resolve(cwd)) return path;
  const target = resolve(from, path);
  const inside = relative(cwd, target);
  const out = inside === ""
    ? "."
    : inside === ".." || inside.startsWith("../") || isAbsolute(inside)
    ? target
    : inside;
  // A trailing slash can mean "a folder" (deno task report --out DIR/): keep it.
  return path.endsWith("/") && !out.endsWith("/") ? `${out}/` : out;
}
