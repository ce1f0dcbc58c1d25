/**
 * The run folder `results/runs/<runId>/`: `cases.jsonl` (one record per line, appended as cases
 * finish), `run.json` (rewritten at start and end) and `summary.csv`. {@linkcode runSuite} runs
 * cases and hands the bytes to a {@linkcode RunFolder}; {@linkcode runFolder} is the one on disk,
 * {@linkcode memoryRunFolder} one in memory (tests, previews).
 *
 * @module
 */
import { join } from "node:path";
import { parseCaseLines } from "./read_run.ts";
import { writeAtomic } from "../core/files.ts";
import type { Redactor } from "../core/secrets.ts";
import type { CaseRecord } from "./types.ts";

/** Where a run's files go. Texts arrive serialized (sorted keys, final newline). */
export interface RunFolder {
  /** Path of `cases.jsonl`, for messages. */
  readonly casesPath: string;
  /** Records already in `cases.jsonl` (a torn last line dropped), `[]` when none. */
  readRecords(): Promise<CaseRecord[]>;
  /** The parsed `run.json` of an earlier session, or null. */
  readRunDoc(): Promise<Record<string, unknown> | null>;
  /** Replaces `run.json`. */
  writeRunDoc(text: string): Promise<void>;
  /** Appends one line (a record and its newline) to `cases.jsonl`. */
  appendRecord(line: string): Promise<void>;
  /** Replaces `cases.jsonl` whole (a crash leaves the old or the new file, never half). */
  replaceRecords(text: string): Promise<void>;
  /** Replaces another file of the folder (`summary.csv`, `cases.csv`, `summary.json`). */
  writeFile(name: string, text: string): Promise<void>;
}

/**
 * Reads `cases.jsonl`, dropping a torn last line (a crash mid-write) from the file itself so
 * later appends start on a fresh line.
 *
 * @param path File path; a missing file gives `[]`.
 * @returns The records.
 * @throws {RunInputError} when a complete line is not a case record (the message names the line).
 */
export async function readCaseRecords(path: string): Promise<CaseRecord[]> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] !== 0x0a) {
    end = bytes.lastIndexOf(0x0a) + 1;
    await Deno.truncate(path, end);
  }
  return parseCaseLines(new TextDecoder().decode(bytes.subarray(0, end)), path);
}

/**
 * The run folder on disk (created when missing).
 *
 * @param runDir `results/runs/<runId>`.
 * @returns The {@linkcode RunFolder}.
 */
export function runFolder(runDir: string): RunFolder {
  const casesPath = join(runDir, "cases.jsonl");
  const runPath = join(runDir, "run.json");
  let made: Promise<void> | undefined;
  const ready = () => (made ??= Deno.mkdir(runDir, { recursive: true }));
  return {
    casesPath,
    readRecords: async () => {
      await ready();
      return await readCaseRecords(casesPath);
    },
    readRunDoc: async () => {
      try {
        return JSON.parse(await Deno.readTextFile(runPath));
      } catch {
        return null;
      }
    },
    writeRunDoc: async (text) => {
      await ready();
      // Whole or not at all: the workbench reads run.json while the run writes it.
      await writeAtomic(runPath, text);
    },
    appendRecord: async (line) => {
      await ready();
      await Deno.writeTextFile(casesPath, line, { append: true });
    },
    replaceRecords: async (text) => {
      await ready();
      const tmp = `${casesPath}.retry-errors.tmp`;
      await Deno.writeTextFile(tmp, text);
      await Deno.rename(tmp, casesPath);
    },
    writeFile: async (name, text) => {
      await ready();
      await Deno.writeTextFile(join(runDir, name), text);
    },
  };
}

/** A {@linkcode RunFolder} in memory, with what was written. */
export interface MemoryRunFolder extends RunFolder {
  /** `cases.jsonl` text. */
  readonly cases: () => string;
  /** Last `run.json` text written, or null. */
  readonly runDoc: () => string | null;
  /** Last text written to a file (`summary.csv`, ...), or null. */
  readonly file: (name: string) => string | null;
}

/**
 * A run folder in memory, optionally holding an earlier session's files.
 *
 * @param initial Earlier `cases.jsonl` text and `run.json` text.
 * @returns The folder.
 */
export function memoryRunFolder(
  initial: { readonly cases?: string; readonly runDoc?: string } = {},
): MemoryRunFolder {
  let cases = initial.cases ?? "";
  let runDoc: string | null = initial.runDoc ?? null;
  const files = new Map<string, string>();
  return {
    casesPath: "<memory>/cases.jsonl",
    readRecords: () => Promise.resolve(parseCaseLines(cases, "<memory>/cases.jsonl")),
    readRunDoc: () => Promise.resolve(runDoc === null ? null : JSON.parse(runDoc)),
    writeRunDoc: (text) => {
      runDoc = text;
      return Promise.resolve();
    },
    appendRecord: (line) => {
      cases += line;
      return Promise.resolve();
    },
    replaceRecords: (text) => {
      cases = text;
      return Promise.resolve();
    },
    writeFile: (name, text) => {
      files.set(name, text);
      return Promise.resolve();
    },
    cases: () => cases,
    runDoc: () => runDoc,
    file: (name) => files.get(name) ?? null,
  };
}

/**
 * Creates `out/runId` if no folder has that name, atomically: of any number of processes or
 * requests claiming the same id at once, exactly one gets `true` (the folder is made with one
 * `mkdir`, which fails when it exists; a check followed by a create would let two through).
 *
 * @param out The runs folder (created when missing).
 * @param runId The id (a checked run id).
 * @returns `true` when this call created the folder, `false` when it existed.
 */
export async function claimRunDir(out: string, runId: string): Promise<boolean> {
  await Deno.mkdir(out, { recursive: true });
  try {
    await Deno.mkdir(join(out, runId));
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw e;
  }
}

/**
 * A new run id from `base`, its folder claimed ({@linkcode claimRunDir}): `base`, else `base`
 * with `x` appended until a folder of that name could be created.
 *
 * @param out The runs folder.
 * @param base The id wanted (e.g. `<suite>-<UTC time>`).
 * @returns The id whose folder this call created.
 */
export async function claimNewRunId(out: string, base: string): Promise<string> {
  let id = base;
  while (!(await claimRunDir(out, id))) id += "x";
  return id;
}

/**
 * A run folder that writes every byte through `redactor` (lib/core/secrets.ts): JSON and JSON
 * Lines string by string (numbers and shape kept), other files (CSV) as text. The one door of a
 * run's files: whatever a case, a tool or a model echoed, no secret the run resolved reaches the
 * disk.
 *
 * @param folder The folder to write into.
 * @param redactor The run's secrets.
 * @returns The same folder, redacting.
 */
export function redactingFolder(folder: RunFolder, redactor: Redactor): RunFolder {
  const json = (text: string) => redactor.jsonText(text);
  return {
    casesPath: folder.casesPath,
    readRecords: () => folder.readRecords(),
    readRunDoc: () => folder.readRunDoc(),
    writeRunDoc: (text) => folder.writeRunDoc(json(text)),
    appendRecord: (line) => folder.appendRecord(json(line)),
    replaceRecords: (text) => folder.replaceRecords(json(text)),
    writeFile: (name, text) =>
      folder.writeFile(name, /\.jsonl?$/.test(name) ? json(text) : redactor.text(text)),
  };
}
