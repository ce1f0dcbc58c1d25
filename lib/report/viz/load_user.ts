/**
 * Loads user visualization modules from a folder: every `<id>.ts` file (files starting with `_`
 * and `*_test.ts` skipped) is type-checked with `deno check`, imported, and its default export
 * checked against the {@linkcode Visualization} contract; its id must equal the file name.
 * File and process edge of the registry.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { toFileUrl } from "./_url.ts";
import { checkVisualization } from "./registry.ts";
import type { Visualization } from "./types.ts";

/** A user visualization module that cannot be used: `path` names the file. */
export class VizModuleError extends Error {
  /** The module file. */
  readonly path: string;
  /**
   * Builds the error; the message reads `Cannot use visualization "<path>": <message>`.
   *
   * @param path Module file.
   * @param message What is wrong.
   */
  constructor(path: string, message: string) {
    super(`Cannot use visualization "${path}": ${message}`);
    this.name = "VizModuleError";
    this.path = path;
  }
}

/** Options of {@linkcode loadUserVisualizations}. */
export interface LoadUserOptions {
  /** Type-check each module with `deno check` before importing it. @default {true} */
  readonly check?: boolean;
}

/**
 * Loads the visualization modules of a folder; a missing folder gives `[]`.
 *
 * @param dir Folder of `<id>.ts` modules.
 * @param options Whether to type-check.
 * @returns The visualizations, sorted by id.
 * @throws {VizModuleError} when a module fails the type check (the first diagnostic is quoted),
 *   cannot be imported, or does not default-export a visualization named like its file.
 */
export async function loadUserVisualizations(
  dir: string,
  options: LoadUserOptions = {},
): Promise<Visualization[]> {
  const files: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (
        e.isFile && e.name.endsWith(".ts") && !e.name.startsWith("_") &&
        !e.name.endsWith("_test.ts")
      ) {
        files.push(join(dir, e.name));
      }
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  files.sort();
  if (files.length === 0) return [];
  if (options.check ?? true) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", ...files.map((f) => resolve(f))],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      // deno check's diagnostics name the file and line; quote the first error.
      // deno-lint-ignore no-control-regex
      const text = new TextDecoder().decode(out.stderr).replace(/\x1b\[[0-9;]*m/g, "");
      const first = text.split("\n").find((l) => /error/i.test(l)) ?? text.trim().split("\n")[0];
      const where = text.match(/at (file:\/\/[^\s]+)/)?.[1] ?? dir;
      throw new VizModuleError(
        where.replace(/^file:\/\//, ""),
        `type check failed: ${first.trim()}`,
      );
    }
  }
  const list: Visualization[] = [];
  for (const file of files) {
    let mod: Record<string, unknown>;
    try {
      mod = await import(toFileUrl(resolve(file)));
    } catch (e) {
      throw new VizModuleError(file, `cannot be imported (${(e as Error).message.split("\n")[0]})`);
    }
    let viz: Visualization;
    try {
      viz = checkVisualization(mod.default, `"${file}"`);
    } catch (e) {
      throw new VizModuleError(
        file,
        (e as Error).message.replace(/^Cannot use visualization "[^"]*": /, ""),
      );
    }
    const id = basename(file, ".ts");
    if (viz.id !== id) {
      throw new VizModuleError(file, `its id "${viz.id}" differs from the file name "${id}"`);
    }
    list.push(viz);
  }
  return list;
}
