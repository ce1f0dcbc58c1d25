// deno task merge: joins the run folders of shards (deno task agents --shard i/n) into one run.
import { basename, join, resolve } from "node:path";
import { ensureWritable, parseFlags, runMain, UsageError } from "./_cli.ts";
import {
  type CaseRecord,
  planWork,
  RUN_SCHEMA_VERSION,
  type Suite,
  summarizeRecords,
  summaryToCsv,
  workKey,
} from "../lib/agent/mod.ts";
import { readCaseRecords } from "../lib/agent/io.ts";

const HELP = `Usage: deno task merge --out DIR RUN_DIR RUN_DIR...

Joins the run folders of shards of one suite (same suite, agents and repetitions)
into DIR: cases.jsonl in plan order, run.json listing the inputs, summary.csv.
A case present in two inputs is an error (exit 2), never counted twice.`;

async function main(): Promise<number> {
  const { values, positionals } = parseFlags(Deno.args, {
    out: { type: "string" },
    help: { type: "boolean", default: false },
  }, true);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.out || positionals.length === 0) {
    throw new UsageError("--out DIR and at least one RUN_DIR are required (see --help)");
  }
  // Never write over a run: --out must be new (or empty) and not one of the inputs.
  if (positionals.some((dir) => resolve(dir) === resolve(values.out!))) {
    throw new UsageError(
      `--out ${values.out} is one of the runs being merged; choose a new folder`,
    );
  }
  const existing = await Array.fromAsync(Deno.readDir(values.out)).catch(() => []);
  if (existing.length > 0) {
    throw new UsageError(`--out ${values.out} is not empty; merge into a new folder`);
  }
  await ensureWritable(join(values.out, "run.json"), "--out");
  const runs: { dir: string; doc: Record<string, unknown>; records: CaseRecord[] }[] = [];
  for (const dir of positionals) {
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(await Deno.readTextFile(join(dir, "run.json")));
    } catch {
      throw new UsageError(`"${dir}" has no readable run.json`);
    }
    runs.push({ dir, doc, records: await readCaseRecords(join(dir, "cases.jsonl")) });
  }
  const first = runs[0].doc;
  const suite = first.suite as Suite;
  const agents = first.agents as { id: string }[];
  for (const r of runs.slice(1)) {
    const s = r.doc.suite as Suite;
    if (s.id !== suite.id || JSON.stringify(s) !== JSON.stringify(suite)) {
      throw new UsageError(`"${r.dir}" ran suite "${s.id}", not the same "${suite.id}"`);
    }
    if (r.doc.repetitions !== first.repetitions) {
      throw new UsageError(
        `"${r.dir}" has ${r.doc.repetitions} repetitions, "${
          runs[0].dir
        }" has ${first.repetitions}`,
      );
    }
    if (JSON.stringify(r.doc.agents) !== JSON.stringify(first.agents)) {
      throw new UsageError(`"${r.dir}" ran different agent configurations than "${runs[0].dir}"`);
    }
  }
  const byKey = new Map<string, { record: CaseRecord; dir: string }>();
  for (const r of runs) {
    for (const record of r.records) {
      const k = workKey(record);
      const prior = byKey.get(k);
      if (prior) {
        throw new UsageError(
          `case ${record.agentId}/${record.caseId}#${record.repetition} is recorded twice (in "${prior.dir}" and "${r.dir}")`,
        );
      }
      byKey.set(k, { record, dir: r.dir });
    }
  }
  const plan = planWork(agents.map((a) => a.id), suite, first.repetitions as number);
  const ordered = plan.map((w) => byKey.get(workKey(w))?.record).filter((r): r is CaseRecord =>
    r !== undefined
  );
  const missing = plan.length - ordered.length;
  await Deno.mkdir(values.out, { recursive: true });
  const lines = ordered.map((r) => JSON.stringify(r)).join("\n");
  await Deno.writeTextFile(join(values.out, "cases.jsonl"), lines === "" ? "" : lines + "\n");
  const summary = summarizeRecords(ordered);
  await Deno.writeTextFile(join(values.out, "summary.csv"), summaryToCsv(summary));
  const doc = {
    ...first,
    schemaVersion: RUN_SCHEMA_VERSION,
    task: "tasks/merge.ts",
    runId: basename(values.out),
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
  await Deno.writeTextFile(join(values.out, "run.json"), JSON.stringify(doc, null, 2) + "\n");
  console.error(
    `[merge] ${ordered.length} of ${plan.length} cases from ${runs.length} run(s) → ${values.out}${
      missing ? ` (${missing} missing)` : ""
    }`,
  );
  return 0;
}

if (import.meta.main) runMain("merge", main);
