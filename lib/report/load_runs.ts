/**
 * Agent run folders as comparisons and gates read them: {@linkcode readRun} (lib/agent, the one
 * run reader) turned into a {@linkcode LoadedRun}, one folder or a folder of them.
 *
 * @module
 */
import { join } from "node:path";
import { readRun, RunInputError } from "../agent/read_run.ts";
import type { LoadedRun, SweepInfo } from "./runs.ts";
import { parseSweepDescription } from "../sweep/expand.ts";

export { RunInputError };

const isObj = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** A merged sweep has no sweep.json; the generated agents' descriptions carry the values. */
function sweepFromDescriptions(agents: readonly Record<string, unknown>[]): SweepInfo | null {
  const byAgent: Record<string, Record<string, string>> = {};
  let base = "";
  let parameters: string[] = [];
  for (const a of agents) {
    const s = typeof a.description === "string" && typeof a.id === "string"
      ? parseSweepDescription(a.description)
      : null;
    if (s === null) continue;
    byAgent[a.id as string] = s.params;
    base = s.base;
    if (parameters.length === 0) parameters = Object.keys(s.params);
  }
  return parameters.length > 0 ? { base, parameters, agents: byAgent } : null;
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
  const { doc, records, sweep, warnings } = await readRun(dir);
  const suite = doc.suite;
  const agents = Array.isArray(doc.agents) ? doc.agents : [];
  const cases = suite.cases ?? [];
  return {
    dir,
    runId: typeof doc.runId === "string" ? doc.runId : dir,
    status: typeof doc.status === "string" ? doc.status : "unknown",
    startedAt: doc.startedAt,
    endedAt: typeof doc.endedAt === "string" ? doc.endedAt : null,
    suiteId: suite.id,
    agents,
    catalogs: isObj(doc.catalogs) ? doc.catalogs as LoadedRun["catalogs"] : {},
    repetitions: typeof doc.repetitions === "number" ? doc.repetitions : 1,
    plannedCases: typeof doc.plannedCases === "number" ? doc.plannedCases : records.length,
    shard: isObj(doc.shard) ? `${doc.shard.index}/${doc.shard.count}` : null,
    records,
    caseTags: Object.fromEntries(
      cases.filter((c) => typeof c.id === "string" && Array.isArray(c.tags) && c.tags.length > 0)
        .map((c) => [c.id, c.tags]),
    ),
    sweep: sweep ?? sweepFromDescriptions(agents),
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
          cases.filter((c) => typeof c.id === "string" && isObj(c.criterion))
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
