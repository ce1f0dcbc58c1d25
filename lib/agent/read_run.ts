/**
 * The one reader of run folders (`results/runs/<runId>/`): `run.json`, `cases.jsonl` and an
 * optional `sweep.json`, each validated against `schemas/run.schema.json`. Reading never writes:
 * a torn last line of `cases.jsonl` (a write in progress, or a crash mid-write) is left out with
 * a warning; any other line that is not a valid case record is an error naming the file and line.
 *
 * @module
 */
import { join } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { InputFileError, readFailure } from "../core/errors.ts";
import { badNumberIn } from "../core/numbers.ts";
import type { CaseRecord, SweepFile } from "./types.ts";
import runSchema from "./schemas/run.schema.json" with { type: "json" };

/** A run file that cannot be used; the message reads `Cannot use run "<path>": <what>`. */
export class RunInputError extends InputFileError {
  /** 1-based line of `cases.jsonl` at fault, when the fault is one line. */
  readonly line?: number;

  /**
   * Builds the error.
   *
   * @param path File or folder at fault.
   * @param message What is wrong, quoting the offending value.
   * @param line The line at fault, if one.
   */
  constructor(path: string, message: string, line?: number) {
    super(path, `Cannot use run "${path}": ${message}`);
    this.name = "RunInputError";
    if (line !== undefined) this.line = line;
  }
}

/** `run.json` as validated: the fields readers use typed, the rest kept as written. */
export interface RunDoc extends Readonly<Record<string, unknown>> {
  /** The suite snapshot (its id at least). */
  readonly suite: { readonly id: string; readonly cases?: readonly Record<string, unknown>[] };
  /** ISO 8601 time the run's first session started. */
  readonly startedAt: string;
}

export type { SweepFile };

/** A run folder as read. */
export interface RunFiles {
  /** The folder. */
  readonly dir: string;
  /** `run.json`. */
  readonly doc: RunDoc;
  /** The records of `cases.jsonl`, file order (`[]` when the file is missing). */
  readonly records: CaseRecord[];
  /** `sweep.json`, or null when absent. */
  readonly sweep: SweepFile | null;
  /** What was left out: a missing `cases.jsonl`, a torn last line. */
  readonly warnings: string[];
}

let validators: { doc: ValidateFunction; record: ValidateFunction; sweep: ValidateFunction };

/** The schema's validators, compiled on first use (ajv's compile is not free at import). */
function validator(name: keyof typeof validators): ValidateFunction {
  if (validators === undefined) {
    const ajv = new Ajv({ allErrors: false, strict: false });
    ajv.addSchema(runSchema);
    const ref = (def: string) => ajv.getSchema(`${runSchema.$id}${def}`)!;
    validators = {
      doc: ref(""),
      record: ref("#/$defs/caseRecord"),
      sweep: ref("#/$defs/sweep"),
    };
  }
  return validators[name];
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true/false",
  array: "an array",
  object: "an object",
  null: "null",
};

/** One ajv error in the reader's words: `field "a.b" is not a string`. */
function problem(e: ErrorObject): string {
  const path = e.instancePath.split("/").slice(1).join(".");
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "required") {
    const field = [path, params.missingProperty].filter((p) => p !== "").join(".");
    return `field "${field}" is missing`;
  }
  const what = path === "" ? "it" : `field "${path}"`;
  if (e.keyword === "type") {
    const types = ([] as string[]).concat(params.type as string | string[]);
    return `${what} is not ${types.map((t) => TYPE_WORDS[t] ?? t).join(" or ")}`;
  }
  return `${what} ${e.message ?? "is invalid"}`;
}

/** Validates `value` or throws a {@linkcode RunInputError} naming the file (and line). */
function check<T>(
  name: keyof typeof validators,
  value: unknown,
  path: string,
  line?: number,
): T {
  const fn = validator(name);
  if (fn(value)) return value as T;
  // The deepest error is the most specific (oneOf reports its branches first).
  const best =
    [...fn.errors ?? []].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
  const what = !isObject ? "is not a JSON object" : best ? problem(best) : "is invalid";
  const where = line === undefined ? "" : isObject ? `line ${line}: ` : `line ${line} `;
  throw new RunInputError(path, where + what, line);
}

/**
 * Parses complete `cases.jsonl` lines: one case record per non-blank line, each validated.
 *
 * @param text Complete lines (a torn last line already cut off).
 * @param path Where the text came from, for messages.
 * @param firstLine Line number of the text's first line in the file. @default {1}
 * @returns The records, file order.
 * @throws {RunInputError} naming the file and line, when a line is not JSON, not a case record,
 *   or holds a number the number rule refuses (lib/core/numbers.ts: not finite, past 2^53 − 1).
 *
 * @example Usage
 * ```ts
 * import { parseCaseLines } from "./read_run.ts";
 * const line = JSON.stringify({
 *   agentId: "a", caseId: "c", repetition: 0, passed: true, wallMs: 1, toolCalls: [], costUsd: 0,
 * });
 * if (parseCaseLines(`${line}\n\n${line}\n`, "cases.jsonl").length !== 2) throw new Error();
 * try {
 *   parseCaseLines(`${line}\n{"agentId": 1}\n`, "cases.jsonl");
 *   throw new Error("accepted a bad line");
 * } catch (e) {
 *   if (!(e as Error).message.includes("line 2")) throw e;
 * }
 * ```
 */
export function parseCaseLines(text: string, path: string, firstLine = 1): CaseRecord[] {
  const out: CaseRecord[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const line = firstLine + i;
    let v: unknown;
    try {
      v = JSON.parse(lines[i]);
    } catch (e) {
      throw new RunInputError(
        path,
        `line ${line} is not JSON (${(e as Error).message}); a crash tears only the unfinished ` +
          "last line: remove or restore this one (a removed case runs again on --resume)",
        line,
      );
    }
    const record = check<CaseRecord>("record", v, path, line);
    // The number rule (lib/core/numbers.ts): a figure past 2^53 − 1 overflows the sums it enters.
    const bad = badNumberIn(record);
    if (bad !== undefined) {
      throw new RunInputError(
        path,
        `line ${line}: field "${bad.field}" ${bad.problem} (${bad.value})`,
        line,
      );
    }
    out.push(record);
  }
  return out;
}

/**
 * Splits `cases.jsonl` text at its last newline: the complete lines, and a torn rest (text after
 * the last newline, a write in progress or cut by a crash).
 *
 * @param text The file's text.
 * @returns `complete` (ends with a newline, or empty) and `torn` (`""` when none).
 */
export function splitTorn(text: string): { complete: string; torn: string } {
  const end = text.lastIndexOf("\n") + 1;
  return { complete: text.slice(0, end), torn: text.slice(end) };
}

async function readJson(path: string, missing: "error" | "null"): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (missing === "null" && e instanceof Deno.errors.NotFound) return null;
    throw new RunInputError(path, readFailure(e));
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new RunInputError(path, `not JSON (${(e as Error).message})`);
  }
}

/**
 * Reads a run folder without writing to it.
 *
 * @param dir Folder holding `run.json` (and `cases.jsonl`, `sweep.json` when present).
 * @returns The validated files; a missing `cases.jsonl` (no case finished yet) gives no records
 *   and a warning, a torn last line is left out with a warning.
 * @throws {RunInputError} when `run.json` is missing, not JSON or not a run document (`startedAt`
 *   not a time included), when a complete line of `cases.jsonl` is not a case record (the message
 *   names the line), or when `sweep.json` is malformed.
 */
export async function readRun(dir: string): Promise<RunFiles> {
  const runPath = join(dir, "run.json");
  const doc = check<RunDoc>("doc", await readJson(runPath, "error"), runPath);
  if (!Number.isFinite(Date.parse(doc.startedAt))) {
    throw new RunInputError(runPath, `field "startedAt" is not an ISO time: ${doc.startedAt}`);
  }
  const warnings: string[] = [];
  const casesPath = join(dir, "cases.jsonl");
  let text = "";
  try {
    text = await Deno.readTextFile(casesPath);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw new RunInputError(casesPath, readFailure(e));
    warnings.push(`${casesPath} is missing: no case finished`);
  }
  const { complete, torn } = splitTorn(text);
  if (torn !== "") warnings.push(`${casesPath}: torn last line skipped`);
  const records = parseCaseLines(complete, casesPath);
  const sweepPath = join(dir, "sweep.json");
  const sweepDoc = await readJson(sweepPath, "null");
  const sweep = sweepDoc === null ? null : check<SweepFile>("sweep", sweepDoc, sweepPath);
  return { dir, doc, records, sweep, warnings };
}
