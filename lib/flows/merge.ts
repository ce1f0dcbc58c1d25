/**
 * The flow behind `deno task merge`: reads the run folders of shards, joins them with
 * {@linkcode mergeShardRuns}, and writes the merged run (cases.jsonl, summary.csv, run.json) into a
 * new folder.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { mergeShardRuns } from "../agent/mod.ts";
import { readRun } from "../agent/io.ts";
import { stableJson } from "../core/json.ts";
import { UsageError } from "../core/errors.ts";
import { ensureWritable } from "./_write.ts";
import type { FlowOutcome } from "./outcome.ts";

/** What `deno task merge` was asked for. */
export interface RunMergeOptions {
  /** The merged run's folder: new or empty, and none of `dirs`. Its name becomes the run id. */
  readonly out: string;
  /** The shards' run folders, at least one. */
  readonly dirs: readonly string[];
}

/**
 * What {@linkcode runMerge} wrote; for the console one progress line on stderr, e.g.
 * `[merge] 8 of 8 cases from 2 run(s) → out` (stdout stays empty), and exit code 0.
 */
export interface MergeOutcome extends FlowOutcome {
  /** Cases written (in plan order). */
  readonly written: number;
  /** Cases in the plan. */
  readonly planned: number;
  /** Planned cases no shard recorded (the run's status is then `incomplete`). */
  readonly missing: number;
}

/**
 * Merges shard runs into `options.out`.
 *
 * @param options Output folder and input folders.
 * @returns Counts and the summary line.
 * @throws {UsageError} When no input is given, or `out` is one of the inputs or is not empty.
 * @throws {RunInputError} When an input's run.json is missing or malformed, or a line of its
 *   cases.jsonl is not a case record (from {@linkcode readRun}).
 * @throws {InputFileError} When the shards are not of one run or a case is recorded twice (from
 *   {@linkcode mergeShardRuns}); nothing is written then.
 */
export async function runMerge(options: RunMergeOptions): Promise<MergeOutcome> {
  const { out, dirs } = options;
  if (dirs.length === 0) throw new UsageError("at least one RUN_DIR is required (see --help)");
  // Never write over a run: out must be new (or empty) and not one of the inputs.
  if (dirs.some((dir) => resolve(dir) === resolve(out))) {
    throw new UsageError(`--out ${out} is one of the runs being merged; choose a new folder`);
  }
  const existing = await Array.fromAsync(Deno.readDir(out)).catch(() => []);
  if (existing.length > 0) {
    throw new UsageError(`--out ${out} is not empty; merge into a new folder`);
  }
  await ensureWritable(join(out, "run.json"), "--out");
  const runs = [];
  for (const dir of dirs) runs.push(await readRun(dir));
  const merged = mergeShardRuns(runs, basename(out), "tasks/merge.ts");
  await Deno.mkdir(out, { recursive: true });
  const lines = merged.records.map((r) => stableJson(r, { indent: 0 })).join("\n");
  await Deno.writeTextFile(join(out, "cases.jsonl"), lines === "" ? "" : lines + "\n");
  await Deno.writeTextFile(join(out, "summary.csv"), merged.summaryCsv);
  await Deno.writeTextFile(join(out, "run.json"), stableJson(merged.doc));
  const { planned, missing } = merged;
  const written = merged.records.length;
  return {
    written,
    planned,
    missing,
    stdout: [],
    stderr: [
      ...runs.flatMap((r) => r.warnings.map((w) => `[merge] warning: ${w}`)),
      `[merge] ${written} of ${planned} cases from ${runs.length} run(s) → ${out}${
        missing ? ` (${missing} missing)` : ""
      }`,
    ],
    exitCode: 0,
  };
}
