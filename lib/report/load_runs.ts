/**
 * Reads agent run folders (`results/runs/<runId>/`: `run.json`, `cases.jsonl`, optional
 * `sweep.json`) for comparisons and gates, without writing anything (a torn last line of
 * `cases.jsonl` is skipped with a warning, not truncated).
 *
 * @module
 */
import { badNumberIn } from "../core/numbers.ts";
import { join } from "node:path";
import { InputFileError } from "../core/errors.ts";
import type { CaseRecord } from "../agent/types.ts";
import type { LoadedRun, SweepInfo } from "./runs.ts";
import { parseSweepDescription } from "../sweep/expand.ts";

/** A run folder that cannot be used: missing, unreadable or malformed. `path` names the file. */
export class RunInputError extends InputFileError {
  /**
   * Builds the error; the message reads `Cannot use run "<path>": <message>`.
   *
   * @param path File or folder at fault.
   * @param message What is wrong, quoting the offending value.
   */
  constructor(path: string, message: string) {
    super(path, `Cannot use run "${path}": ${message}`);
    this.name = "RunInputError";
  }
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new RunInputError(
      path,
      e instanceof Deno.errors.NotFound ? "file not found" : (e as Error).message,
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new RunInputError(path, `not JSON (${(e as Error).message})`);
  }
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

function checkRecord(v: unknown, path: string, line: number): CaseRecord {
  const bad = (field: string, want: string) =>
    new RunInputError(path, `line ${line}: field "${field}" is not ${want}`);
  if (!isObj(v)) throw new RunInputError(path, `line ${line} is not a JSON object`);
  if (typeof v.agentId !== "string") throw bad("agentId", "a string");
  if (typeof v.caseId !== "string") throw bad("caseId", "a string");
  if (!Number.isInteger(v.repetition)) throw bad("repetition", "an integer");
  if (!(v.passed === null || typeof v.passed === "boolean")) throw bad("passed", "true/false/null");
  if (typeof v.wallMs !== "number") throw bad("wallMs", "a number");
  if (!Array.isArray(v.toolCalls)) throw bad("toolCalls", "an array");
  if (!(v.costUsd === null || typeof v.costUsd === "number")) throw bad("costUsd", "number/null");
  // The number rule (lib/core/numbers.ts): a figure past 2^53 − 1 overflows the sums it enters.
  const n = badNumberIn(v);
  if (n !== undefined) {
    throw new RunInputError(path, `line ${line}: field "${n.field}" ${n.problem} (${n.value})`);
  }
  return v as unknown as CaseRecord;
}

/**
 * Reads one run folder.
 *
 * @param dir Folder holding `run.json` and `cases.jsonl`.
 * @returns The run; `records` is empty when `cases.jsonl` is missing (a run that never finished a
 *   case), with a warning.
 * @throws {RunInputError} when `run.json` is missing or malformed, or a complete line of
 *   `cases.jsonl` is not a case record (the message gives the line).
 */
export async function loadRun(dir: string): Promise<LoadedRun> {
  const runPath = join(dir, "run.json");
  const doc = await readJson(runPath);
  if (!isObj(doc)) throw new RunInputError(runPath, "is not a JSON object");
  const suite = doc.suite;
  if (!isObj(suite) || typeof suite.id !== "string") {
    throw new RunInputError(runPath, `field "suite.id" is missing`);
  }
  if (typeof doc.startedAt !== "string" || !Number.isFinite(Date.parse(doc.startedAt))) {
    throw new RunInputError(runPath, `field "startedAt" is not an ISO time: ${doc.startedAt}`);
  }
  const warnings: string[] = [];
  const casesPath = join(dir, "cases.jsonl");
  let text = "";
  try {
    text = await Deno.readTextFile(casesPath);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      throw new RunInputError(casesPath, (e as Error).message);
    }
    warnings.push(`${casesPath} is missing: no case finished`);
  }
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] !== "") {
    warnings.push(`${casesPath}: torn last line skipped`);
  }
  lines.pop();
  const records = lines.flatMap((line, i) => {
    if (line.trim() === "") return [];
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      throw new RunInputError(casesPath, `line ${i + 1} is not JSON (${(e as Error).message})`);
    }
    return [checkRecord(v, casesPath, i + 1)];
  });
  let sweep: SweepInfo | null = null;
  try {
    await Deno.stat(join(dir, "sweep.json"));
    sweep = await readJson(join(dir, "sweep.json")) as SweepInfo;
  } catch (e) {
    if (e instanceof RunInputError) throw e;
  }
  if (sweep === null && Array.isArray(doc.agents)) {
    // A merged sweep has no sweep.json; the generated agents' descriptions carry the values.
    const agents: Record<string, Record<string, string>> = {};
    let base = "";
    let parameters: string[] = [];
    for (const a of doc.agents) {
      const s = isObj(a) && typeof a.description === "string" && typeof a.id === "string"
        ? parseSweepDescription(a.description)
        : null;
      if (s === null) continue;
      agents[a.id as string] = s.params;
      base = s.base;
      if (parameters.length === 0) parameters = Object.keys(s.params);
    }
    if (parameters.length > 0) sweep = { base, parameters, agents };
  }
  const shard = isObj(doc.shard) ? `${doc.shard.index}/${doc.shard.count}` : null;
  return {
    dir,
    runId: typeof doc.runId === "string" ? doc.runId : dir,
    status: typeof doc.status === "string" ? doc.status : "unknown",
    startedAt: doc.startedAt,
    endedAt: typeof doc.endedAt === "string" ? doc.endedAt : null,
    suiteId: suite.id,
    agents: Array.isArray(doc.agents) ? doc.agents : [],
    catalogs: isObj(doc.catalogs) ? doc.catalogs as LoadedRun["catalogs"] : {},
    repetitions: typeof doc.repetitions === "number" ? doc.repetitions : 1,
    plannedCases: typeof doc.plannedCases === "number" ? doc.plannedCases : records.length,
    shard,
    records,
    caseTags: Object.fromEntries(
      (Array.isArray(suite.cases) ? suite.cases : []).filter((c) =>
        isObj(c) && typeof c.id === "string" && Array.isArray(c.tags) && c.tags.length > 0
      ).map((c) => [c.id, c.tags]),
    ),
    sweep,
    ...(isObj(doc.toolPrices) ? { toolPrices: doc.toolPrices as Record<string, number> } : {}),
    ...(Array.isArray(doc.models)
      ? {
        models: doc.models.filter((m) => isObj(m) && typeof m.id === "string" && isObj(m.pricing))
          .map((m) => ({
            id: m.id,
            pricing: m.pricing,
            ...(m.simulated === true ? { simulated: true } : {}),
          })) as
            & LoadedRun["models"]
            & object,
      }
      : {}),
    ...(Array.isArray(suite.cases)
      ? {
        criteria: Object.fromEntries(
          suite.cases.filter((c) => isObj(c) && typeof c.id === "string" && isObj(c.criterion))
            .map((c) => [c.id, c.criterion]),
        ) as LoadedRun["criteria"] & object,
      }
      : {}),
    ...(Array.isArray(suite.cases)
      ? {
        questions: Object.fromEntries(
          suite.cases.filter((c) =>
            isObj(c) && typeof c.id === "string" && typeof c.question === "string"
          ).map((c) => [c.id, c.question]),
        ) as LoadedRun["questions"] & object,
      }
      : {}),
    ...(isObj(doc.agentVersions)
      ? { agentVersions: doc.agentVersions as LoadedRun["agentVersions"] & object }
      : {}),
    warnings,
  };
}

/** Options of {@linkcode loadRuns}. */
export interface LoadRunsOptions {
  /**
   * Called with each run folder that cannot be used (malformed `run.json` or `cases.jsonl`),
   * which is then left out instead of failing the whole read; absent: the first one throws.
   * Paths that do not exist or hold no run still throw, and so does a read where every run
   * found is unusable.
   */
  readonly onSkip?: (error: RunInputError) => void;
}

/**
 * Reads runs from paths that are run folders (holding `run.json`) or folders of run folders
 * (e.g. `results/runs`, one level deep, subfolders without `run.json` skipped).
 *
 * @param paths Folders, in any order.
 * @param options `onSkip` to leave unusable runs out (see {@linkcode LoadRunsOptions}).
 * @returns Runs sorted by start time then run id.
 * @throws {RunInputError} when a path does not exist or holds no run, when a run is malformed
 *   (without `onSkip`), or when every run found is (with it: the first one's error, with how many
 *   others failed).
 */
export async function loadRuns(
  paths: readonly string[],
  options: LoadRunsOptions = {},
): Promise<LoadedRun[]> {
  const out: LoadedRun[] = [];
  const failed: RunInputError[] = [];
  const load = async (dir: string) => {
    try {
      out.push(await loadRun(dir));
    } catch (e) {
      if (!(e instanceof RunInputError) || options.onSkip === undefined) throw e;
      failed.push(e);
    }
  };
  for (const path of paths) {
    const stat = await Deno.stat(path).catch(() => null);
    if (stat === null) {
      // An unexpanded pattern reaches us when nothing matched it (the shell passes it as is).
      throw new RunInputError(
        path,
        /[*?[]/.test(path) ? "no such folder (no folder matches this pattern)" : "no such folder",
      );
    }
    if (!stat.isDirectory) throw new RunInputError(path, "not a folder");
    if (await Deno.stat(join(path, "run.json")).catch(() => null)) {
      await load(path);
      continue;
    }
    const subs: string[] = [];
    for await (const e of Deno.readDir(path)) {
      if (e.isDirectory && await Deno.stat(join(path, e.name, "run.json")).catch(() => null)) {
        subs.push(join(path, e.name));
      }
    }
    if (subs.length === 0) throw new RunInputError(path, "holds no run.json, nor run folders");
    for (const s of subs.sort()) await load(s);
  }
  if (out.length === 0 && failed.length > 0) {
    const [first] = failed;
    if (failed.length === 1) throw first;
    throw new RunInputError(
      first.path,
      `${first.message.replace(/^Cannot use run "[^"]*": /, "")} (and ${
        failed.length - 1
      } other run${failed.length === 2 ? "" : "s"} could not be used either: no run left)`,
    );
  }
  for (const e of failed) options.onSkip?.(e);
  return out.sort((a, b) =>
    a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.runId < b.runId ? -1 : 1
  );
}
