/**
 * Joining the runs of shards (`deno task agents --shard i/n`) into one run: the checks that they
 * are shards of the same run, the cases in plan order, and the merged `run.json` document. Pure:
 * the caller reads the folders and writes the result.
 *
 * @module
 */
import { InputFileError } from "../core/errors.ts";
import { planWork, RUN_SCHEMA_VERSION, workKey } from "./run.ts";
import { summarizeRecords, summaryToCsv } from "./summary.ts";
import type { CaseRecord, Suite } from "./types.ts";

/** One shard's run folder as read from disk. */
export interface ShardRun {
  /** The folder, as the user named it (used in messages and in `mergedFrom`). */
  readonly dir: string;
  /** Its parsed `run.json`. */
  readonly doc: Readonly<Record<string, unknown>>;
  /** Its `cases.jsonl` records. */
  readonly records: readonly CaseRecord[];
}

/** What {@linkcode mergeShardRuns} produced. */
export interface MergedRun {
  /** The cases of every shard, in plan order (agents × cases × repetitions). */
  readonly records: readonly CaseRecord[];
  /** Work items in the plan (every shard together). */
  readonly planned: number;
  /** Planned items no shard recorded. */
  readonly missing: number;
  /** `summary.csv` text of the merged cases. */
  readonly summaryCsv: string;
  /**
   * The merged `run.json` document: the first shard's fields, with `runId`, `shard: null`,
   * `status` (`complete` when nothing is missing, else `incomplete`), `mergedFrom` (dir, runId,
   * shard, status of each input), the union of `catalogs`, and `missingCases`.
   */
  readonly doc: Record<string, unknown>;
}

/**
 * Joins shard runs into one run.
 *
 * @param runs The shards, at least one, in the order given by the user.
 * @param runId Id of the merged run (its folder name).
 * @param task What to record as the run's `task` (e.g. `tasks/merge.ts`).
 * @returns The merged cases, counts, summary CSV and run document.
 * @throws {InputFileError} When a shard ran another suite, another repetition count or other agent
 *   configurations than the first, or when a case is recorded in two shards (never counted twice).
 * @throws {RangeError} When `runs` is empty.
 */
export function mergeShardRuns(runs: readonly ShardRun[], runId: string, task: string): MergedRun {
  if (runs.length === 0) throw new RangeError("Cannot merge runs: no run given");
  const first = runs[0].doc;
  const suite = first.suite as Suite;
  const agents = first.agents as { id: string }[];
  for (const r of runs.slice(1)) {
    const s = r.doc.suite as Suite;
    const fail = (why: string) => new InputFileError(r.dir, `"${r.dir}" ${why}`);
    if (s.id !== suite.id || JSON.stringify(s) !== JSON.stringify(suite)) {
      throw fail(`ran suite "${s.id}", not the same "${suite.id}"`);
    }
    if (r.doc.repetitions !== first.repetitions) {
      throw fail(`has ${r.doc.repetitions} repetitions, "${runs[0].dir}" has ${first.repetitions}`);
    }
    if (JSON.stringify(r.doc.agents) !== JSON.stringify(first.agents)) {
      throw fail(`ran different agent configurations than "${runs[0].dir}"`);
    }
  }
  const byKey = new Map<string, { record: CaseRecord; dir: string }>();
  for (const r of runs) {
    for (const record of r.records) {
      const k = workKey(record);
      const prior = byKey.get(k);
      if (prior) {
        throw new InputFileError(
          r.dir,
          `case ${record.agentId}/${record.caseId}#${record.repetition} is recorded twice (in "${prior.dir}" and "${r.dir}")`,
        );
      }
      byKey.set(k, { record, dir: r.dir });
    }
  }
  const plan = planWork(agents.map((a) => a.id), suite, first.repetitions as number);
  const records = plan.flatMap((w) => byKey.get(workKey(w))?.record ?? []);
  const missing = plan.length - records.length;
  const doc = {
    ...first,
    schemaVersion: RUN_SCHEMA_VERSION,
    task,
    runId,
    shard: null,
    status: missing === 0 ? "complete" : "incomplete",
    mergedFrom: runs.map((r) => ({
      dir: r.dir,
      runId: r.doc.runId,
      shard: r.doc.shard,
      status: r.doc.status,
    })),
    catalogs: Object.assign({}, ...runs.map((r) => r.doc.catalogs)),
    missingCases: missing,
  };
  return {
    records,
    planned: plan.length,
    missing,
    summaryCsv: summaryToCsv(summarizeRecords(records)),
    doc,
  };
}
