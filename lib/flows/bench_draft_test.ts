// runBench's onDraft: the report before the paired tests, which the task's dashboard worker
// renders while they run. It is the final report without what comes after the draft.
import assert from "node:assert/strict";
import type { BenchReport } from "../report/bench_report.ts";
import { RANK_TABLES_WAIT_MS, runBench } from "./bench.ts";
import { hasRankTable } from "../tokens/piecewise.ts";
import { denoFlowIo } from "./io.ts";
import { deriveSeed } from "../stats/mod.ts";

const root = new URL("../../", import.meta.url);
const at = (path: string) => new URL(path, root).pathname;

Deno.test("runBench gives onDraft, once and before the paired tests, the report without them", async () => {
  const drafts: BenchReport[] = [];
  const asked: { seed: number; n: number; resamples: number }[][] = [];
  const said: string[] = [];
  const report = await runBench({
    corpora: [at("fixtures/corpora/reference_v1.tools.json")],
    golden: [at("fixtures/golden/reference_v1.test.json")],
    tokenizers: ["cl100k_base"],
    arms: "baseline_json,compact_sig",
    retrievers: ["bm25", "random"],
    pairedTables: (tests) => {
      asked.push([...tests]);
      said.push("tables");
    },
    onDraft: (draft) => {
      drafts.push(draft);
      said.push("draft");
    },
  }, { ...denoFlowIo(), progress: (_, message) => said.push(message) });
  assert.equal(drafts.length, 1);
  const [draft] = drafts;
  const paired = said.findIndex((m) => m.includes("paired tests"));
  assert.ok(paired > said.indexOf("draft") && said.indexOf("draft") > 0, said.join(" | "));
  assert.ok((report.retrievalComparisons ?? []).length > 0 && report.toolResults !== undefined);
  // Every part but the paired tests, the tool results (priced after them) and the run's facts.
  const later = ["retrievalComparisons", "toolResults", "run", "dependencies"];
  assert.deepEqual(
    Object.keys(draft).sort(),
    Object.keys(report).filter((k) => !later.includes(k) || k === "run" || k === "dependencies")
      .sort(),
  );
  for (const key of Object.keys(draft) as (keyof BenchReport)[]) {
    if (later.includes(key)) continue;
    assert.deepEqual(draft[key], report[key], key);
  }
  assert.deepEqual(draft.run.git, { commit: null, dirty: null });
  // The paired tables asked before any measurement: the tests run (their seed per metric, as
  // compareRetrievals derives it, and the queries they pair), 10,000 permutations each.
  assert.ok(said.indexOf("tables") < said.findIndex((m) => m.includes("counting")));
  const ran = report.retrievalComparisons!.map((c) => ({
    seed: deriveSeed(report.seed, c.metric),
    n: c.n,
    resamples: 10000,
  }));
  assert.deepEqual(asked, [ran]);
});

Deno.test("runBench asks rankTables, before reading any input, for the encodings this thread lacks, and does not wait on it past RANK_TABLES_WAIT_MS", async () => {
  const said: string[] = [];
  const asked: string[][] = [];
  const lacked = ["cl100k_base", "o200k_base"].filter((n) =>
    !hasRankTable(n as "cl100k_base" | "o200k_base")
  );
  const started = performance.now();
  const report = await runBench({
    corpora: [at("fixtures/corpora/reference_v1.tools.json")],
    golden: ["none"],
    toolResults: "none",
    arms: "baseline_json",
    retrievers: ["bm25"],
    // Never settles: the bench makes its tokenizers anyway, RANK_TABLES_WAIT_MS after loading.
    rankTables: (names) => {
      asked.push([...names]);
      said.push("rank tables");
      return new Promise(() => {});
    },
  }, { ...denoFlowIo(), progress: (_, message) => said.push(message) });
  assert.ok(performance.now() - started >= RANK_TABLES_WAIT_MS);
  assert.deepEqual(asked, [lacked]);
  assert.equal(said[0], "rank tables", said.join(" | "));
  assert.ok(said.some((m) => m.startsWith("loading")));
  assert.deepEqual(report.tokenizers, ["cl100k_base", "o200k_base"]);
  assert.ok(report.modes.length > 0 && (report.arms ?? []).length > 0);
});
