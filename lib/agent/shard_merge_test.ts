import assert from "node:assert/strict";
import { InputFileError } from "../core/errors.ts";
import { mergeShardRuns, type ShardRun } from "./shard_merge.ts";
import type { Suite } from "./types.ts";
import { caseRecord } from "../../testing/records.ts";

const suite: Suite = {
  id: "s",
  description: "two cases",
  cases: [
    { id: "c1", question: "q1", criterion: { type: "exact", value: "1" } },
    { id: "c2", question: "q2", criterion: { type: "exact", value: "2" } },
  ],
};
const record = (agentId: string, caseId: string, passed: boolean) =>
  caseRecord({ agentId, caseId, passed });
const doc = (runId: string, shard: string, catalogs: Record<string, string>) => ({
  runId,
  shard,
  status: "complete",
  suite,
  agents: [{ id: "a" }, { id: "b" }],
  repetitions: 1,
  catalogs,
});
// Plan order is agent, then case: a/c1, a/c2, b/c1, b/c2. Shard 1/2 holds items 1 and 3, 2/2
// items 2 and 4; here shard 2 lost b/c2 (a crash before it was written).
const s1: ShardRun = {
  dir: "runs/s1",
  doc: doc("s1", "1/2", { a: "h1" }),
  records: [record("b", "c1", false), record("a", "c1", true)],
};
const s2: ShardRun = {
  dir: "runs/s2",
  doc: doc("s2", "2/2", { b: "h2" }),
  records: [record("a", "c2", true)],
};

Deno.test("mergeShardRuns() orders cases by plan, counts what is missing and records its inputs", () => {
  const m = mergeShardRuns([s2, s1], "merged", "tasks/merge.ts");
  assert.deepEqual(m.records.map((r) => `${r.agentId}/${r.caseId}`), ["a/c1", "a/c2", "b/c1"]);
  assert.equal(m.planned, 4);
  assert.equal(m.missing, 1);
  assert.equal(m.doc.status, "incomplete");
  assert.equal(m.doc.missingCases, 1);
  assert.equal(m.doc.runId, "merged");
  assert.equal(m.doc.shard, null);
  assert.deepEqual(m.doc.catalogs, { a: "h1", b: "h2" });
  assert.deepEqual(
    (m.doc.mergedFrom as { dir: string; shard: string }[]).map((x) => `${x.dir} ${x.shard}`),
    ["runs/s2 2/2", "runs/s1 1/2"],
  );
  // Agent a passed 2 of 2, agent b 0 of 1: the summary rows say so.
  const rows = m.summaryCsv.trim().split("\n");
  assert.equal(rows.length, 3);
  const header = rows[0].split(",");
  const passRate = header.indexOf("pass_rate");
  assert.ok(passRate >= 0, rows[0]);
  assert.deepEqual(rows.slice(1).map((r) => r.split(",")[passRate]), ["1", "0"]);
});

Deno.test("mergeShardRuns() refuses a case recorded twice and shards of another run", () => {
  assert.throws(
    () => mergeShardRuns([s1, s1], "m", "t"),
    (e) =>
      e instanceof InputFileError &&
      e.message === 'case b/c1#0 is recorded twice (in "runs/s1" and "runs/s1")',
  );
  const other = { ...s2, doc: { ...s2.doc, repetitions: 3 } };
  assert.throws(
    () => mergeShardRuns([s1, other], "m", "t"),
    (e) => e instanceof InputFileError && /"runs\/s2" has 3 repetitions/.test(e.message),
  );
  const agents = { ...s2, doc: { ...s2.doc, agents: [{ id: "a" }] } };
  assert.throws(() => mergeShardRuns([s1, agents], "m", "t"), /different agent configurations/);
  assert.throws(() => mergeShardRuns([], "m", "t"), RangeError);
});
