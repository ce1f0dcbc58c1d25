/**
 * File edge of the MAVERIK import: reads a MAVERIK `config/` folder into a
 * {@linkcode MaverikFolder}, and writes an {@linkcode MaverikImport} with its
 * `import-report.json` into an output folder that is new, empty, or explicitly forced.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { InputFileError } from "../core/errors.ts";
import { MAVERIK_FILES, type MaverikFolder, type MaverikImport, maverikReport } from "./maverik.ts";

async function readIfFile(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.IsADirectory) return null;
    throw new InputFileError(path, `Cannot read "${path}": ${(e as Error).message}`);
  }
}

async function listDir(path: string, ext: string): Promise<string[]> {
  try {
    const out: string[] = [];
    for await (const e of Deno.readDir(path)) {
      if (e.isFile && e.name.endsWith(ext)) out.push(e.name);
    }
    return out.sort();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return [];
    throw new InputFileError(path, `Cannot read "${path}": ${(e as Error).message}`);
  }
}

async function listDirs(path: string): Promise<string[]> {
  try {
    const out: string[] = [];
    for await (const e of Deno.readDir(path)) if (e.isDirectory) out.push(e.name);
    return out.sort();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return [];
    throw new InputFileError(path, `Cannot read "${path}": ${(e as Error).message}`);
  }
}

/**
 * Reads a MAVERIK config folder: the single-file configs and their `*.example.json`
 * siblings, `prompts/agent/*.md`, `maverik-suites/*.json` and `agent-versions/<id>/<n>.json`. A folder that holds none of the
 * configs but has a `config/` subfolder (a MAVERIK checkout) is read from `config/`.
 *
 * @param dir The folder.
 * @returns The folder's texts and the folder actually read.
 * @throws {InputFileError} when `dir` is not a folder, holds none of MAVERIK's files (nor a
 *   `config/` folder that does), or a file cannot be read.
 */
export async function readMaverikFolder(
  dir: string,
): Promise<{ folder: MaverikFolder; dir: string }> {
  const stat = await Deno.stat(dir).catch(() => null);
  if (!stat?.isDirectory) {
    const why = stat === null ? "no such folder" : "not a folder";
    throw new InputFileError(dir, `Cannot import from "${dir}": ${why}`);
  }
  const read = async (d: string) => {
    const files: Record<string, string | null> = {};
    for (const name of MAVERIK_FILES) {
      files[name] = await readIfFile(join(d, name));
      const example = name.replace(/\.json$/, ".example.json");
      files[example] = await readIfFile(join(d, example));
    }
    return files;
  };
  let root = dir;
  let files = await read(root);
  const any = (f: Record<string, string | null>) => Object.values(f).some((v) => v !== null);
  if (!any(files) && (await Deno.stat(join(dir, "config")).catch(() => null))?.isDirectory) {
    root = join(dir, "config");
    files = await read(root);
  }
  const prompts: Record<string, string> = {};
  for (const name of await listDir(join(root, "prompts", "agent"), ".md")) {
    prompts[name.slice(0, -3)] = (await readIfFile(join(root, "prompts", "agent", name)))!;
  }
  const suites: Record<string, string> = {};
  for (const name of await listDir(join(root, "maverik-suites"), ".json")) {
    suites[name] = (await readIfFile(join(root, "maverik-suites", name)))!;
  }
  const versions: Record<string, string> = {};
  const vroot = join(root, "agent-versions");
  for (const agent of await listDirs(vroot)) {
    for (const name of await listDir(join(vroot, agent), ".json")) {
      versions[`${agent}/${name}`] = (await readIfFile(join(vroot, agent, name)))!;
    }
  }
  const found = any(files) || Object.keys(prompts).length > 0 || Object.keys(suites).length > 0 ||
    Object.keys(versions).length > 0;
  if (!found) {
    throw new InputFileError(
      dir,
      `Cannot import from "${dir}": it holds none of MAVERIK's config files (${
        MAVERIK_FILES.join(", ")
      }, or their .example.json), prompts/agent/, maverik-suites/ or agent-versions/, nor a config/ folder with them; give MAVERIK's config folder`,
    );
  }
  return { folder: { files, prompts, suites, versions }, dir: root };
}

/**
 * Writes the imported files and `import-report.json` under `out`. Refuses an `out` that exists
 * and is not empty unless `force` (then files of the same name are replaced, others kept).
 *
 * @param out Output folder.
 * @param result The import.
 * @param options `from` (recorded in the report) and `force`.
 * @returns Paths written (relative to `out`), the report last.
 * @throws {InputFileError} when `out` is not empty and `force` is not set, or is a file.
 */
export async function writeMaverikImport(
  out: string,
  result: MaverikImport,
  options: { readonly from: string; readonly force?: boolean },
): Promise<string[]> {
  const stat = await Deno.stat(out).catch(() => null);
  if (stat && !stat.isDirectory) {
    throw new InputFileError(out, `Cannot write to "${out}": it is a file, not a folder`);
  }
  if (stat && !options.force) {
    for await (const _ of Deno.readDir(out)) {
      throw new InputFileError(
        out,
        `Cannot write to "${out}": the folder is not empty (use --force to write over it)`,
      );
    }
  }
  const written: string[] = [];
  for (const rel of Object.keys(result.files).sort()) {
    const path = join(out, rel);
    if (!resolve(path).startsWith(resolve(out) + "/")) continue; // never outside --out
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, result.files[rel]);
    written.push(rel);
  }
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(
    join(out, "import-report.json"),
    JSON.stringify(maverikReport(result, options.from), null, 2) + "\n",
  );
  written.push("import-report.json");
  return written;
}
