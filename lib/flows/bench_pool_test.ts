// The bench on workers: the same report bytes as the single-threaded run, on the real reference
// corpus; the arms split in groups equals one call over every arm; chains keep a retriever's
// jobs together; failures propagate.
import assert from "node:assert/strict";
import { runBench, type RunBenchOptions } from "./bench.ts";
import { denoFlowIo } from "./io.ts";
import { workerBenchPool } from "./bench_pool.ts";
import { type BenchJob, type BenchJobContext, mergeArmRows } from "./bench_jobs.ts";
import {
  armGroups,
  claimChain,
  mainClaimEnd,
  makespan,
  newClaim,
  planChains,
} from "./bench_plan.ts";
import { stableJson } from "../report/json.ts";
import { loadCatalog } from "../catalog/load.ts";
import { loadArms, measureArms } from "../encodings/mod.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";

const ROOT = new URL("../../", import.meta.url);
const at = (p: string) => new URL(p, ROOT).pathname;
const REFERENCE = at("fixtures/corpora/reference_v1.tools.json");

/** The report without its run block (clock, wall time, git), as the bytes written. */
function bytesOutsideRun(report: Awaited<ReturnType<typeof runBench>>): string {
  const { run: _run, ...rest } = report;
  return stableJson(rest);
}

Deno.test("bench on 1, 2 and 3 lanes: the same report bytes on the reference corpus", async () => {
  const lines: string[] = [];
  const io = { ...denoFlowIo(), progress: (_: string, m: string) => lines.push(m) };
  const options: RunBenchOptions = {
    corpora: [REFERENCE],
    golden: [
      at("fixtures/golden/reference_v1.test.json"),
      at("fixtures/golden/reference_v2.test.json"),
    ],
    retrievers: ["bm25", "tfidf_classic", "random", "oracle"],
    resamples: 20,
  };
  // No pool: the calling thread alone (inProcessBenchPool), today's single-threaded run.
  const one = bytesOutsideRun(await runBench(options, io));
  lines.length = 0;
  // waitForWorkers: with jobs this quick the calling thread could otherwise take them all while
  // the worker starts, and the bytes below would not include a worker's results.
  // minTools: the reference corpus's 1,389 tools are just enough for every lane.
  const pool = workerBenchPool(2, { waitForWorkers: true, minTools: 1389 });
  const two = bytesOutsideRun(await runBench({ ...options, pool }, io));
  assert.ok(lines.includes("2 lanes (this thread and 1 worker)"), lines.join("\n"));
  assert.ok(
    lines.some((l) => l.endsWith("(worker 1)")),
    `a worker ran some job:\n${lines.join("\n")}`,
  );
  // One tool short of minTools: the worker, started at prefetch (the file's 5.4 MB could hold
  // 1,390 tools of PREFETCH_BYTES_PER_TOOL), is stopped at load, every job runs here.
  lines.length = 0;
  const small = workerBenchPool(2, { waitForWorkers: true, minTools: 1390 });
  const alone = bytesOutsideRun(await runBench({ ...options, pool: small }, io));
  assert.ok(lines.includes("1 lane (this thread)"), lines.join("\n"));
  assert.ok(!lines.some((l) => l.includes("(worker")), lines.join("\n"));
  assert.equal(alone, one);
  const report = JSON.parse(one);
  // Every section the jobs fill is there: 3 modes × 2 tokenizers; 6 arms × 2 tokenizers; per
  // golden set bm25 (1) +
  // tfidf_classic (plain, compact_sig, markdown) + random + oracle.
  assert.equal(report.modes.length, 6);
  assert.deepEqual(
    report.arms.map((a: { arm: string; tokenizer?: string }) => `${a.arm}/${a.tokenizer ?? "-"}`),
    ["baseline_json", "compact_sig", "toon_listing", "tron_dedup", "minified_json", "markdown"]
      .flatMap((a) => [`${a}/cl100k_base`, `${a}/o200k_base`]),
  );
  assert.equal(report.retrieval.length, 2 * 6);
  assert.equal(report.frontier.length, 2 * 3);
  // tfidf_classic, random and oracle against bm25, recall@5 and ndcg@10, per golden set.
  assert.equal(report.retrievalComparisons.length, 2 * 3 * 2);
  assert.equal(two, one);
  // Three lanes on one golden set: the arms split in two groups (toon_listing's apart: 6 and
  // 4.4 with the modes, against 7.4 together, beside retrieval's 2.52 and 1.7) and every lane
  // claims from the front; the same bytes as one lane.
  const v1 = { ...options, golden: [at("fixtures/golden/reference_v1.test.json")] };
  const oneV1 = bytesOutsideRun(await runBench(v1, io));
  lines.length = 0;
  const three = workerBenchPool(3, { waitForWorkers: true });
  assert.equal(bytesOutsideRun(await runBench({ ...v1, pool: three }, io)), oneV1);
  assert.ok(lines.includes("3 lanes (this thread and 2 workers)"), lines.join("\n"));
  assert.ok(
    lines.some((l) => l.startsWith("reference_v1: encoding arms toon_listing with")),
    lines.join("\n"),
  );
});

Deno.test("arms measured in groups merge into the rows of one call over every arm", async () => {
  const full = await loadCatalog(REFERENCE);
  // The first 150 tools: every arm, both tokenizers, in seconds.
  const corpus = { ...full, tools: full.tools.slice(0, 150) };
  const tokenizers = [createTokenizer("cl100k_base"), createTokenizer("o200k_base")];
  const arms = await loadArms();
  const names = arms.map((a) => a.name);
  const whole = measureArms({ corpus, arms, tokenizers });
  // Two lanes: toon_listing (the heaviest) alone, the rest together; the baseline's group
  // first, as its first arm comes first.
  const groups = armGroups(names, 2);
  assert.deepEqual(groups.map((g) => g.map((a) => names[a])), [
    names.filter((n) => n !== "toon_listing"),
    ["toon_listing"],
  ]);
  // Any grouping, even one that splits the arms every way and lists the groups out of order.
  for (const split of [groups, names.map((_, i) => [i]).reverse(), [[1, 2], [0, 3, 4, 5, 6]]]) {
    const parts = split.map((g) =>
      measureArms({ corpus, arms: g.map((a) => arms[a]), tokenizers })
    );
    assert.equal(stableJson(mergeArmRows(names, parts)), stableJson(whole));
  }
});

Deno.test("armGroups: one group on one lane, no more groups than the baseline pays for", () => {
  const names = ["baseline_json", "compact_sig", "toon_listing", "markdown"];
  assert.deepEqual(armGroups(names, 1), [[0, 1, 2, 3]]);
  // Arms alone (no other job): toon_listing 3 alone against 0.3 (+3 baseline each): 6 against
  // 6.3 in one group.
  assert.deepEqual(armGroups(names, 2), [[0, 1, 3], [2]]);
  // A third lane would not shorten the heaviest group (toon_listing's).
  assert.deepEqual(armGroups(names, 3), [[0, 1, 3], [2]]);
  // Two light arms: 3 + 0.1 + 0.2 = 3.3 in one group, 3.2 apart.
  assert.deepEqual(armGroups(["compact_sig", "markdown"], 2), [[0], [1]]);
  assert.deepEqual(armGroups(["compact_sig"], 2), [[0]]);
});

Deno.test("armGroups beside the bench's other jobs: a split only where a lane would wait", () => {
  const names = ["baseline_json", "compact_sig", "toon_listing", "markdown"];
  const common = { local: false, label: "", golden: 0, corpus: 0 };
  // The default bench's jobs at 10,000 tools: modes, bm25 (1.5 + 0.2 frontier), tfidf_classic
  // (1.05 + 0.65 on an index arm + 0.17 frontier), random (0.03).
  const others: BenchJob[] = [
    { ...common, kind: "modes", tokenizers: [0, 1] },
    { ...common, kind: "retrieval", retriever: "bm25", arm: null },
    { ...common, kind: "frontier", retriever: "bm25" },
    { ...common, kind: "retrieval", retriever: "tfidf_classic", arm: null },
    { ...common, kind: "retrieval", retriever: "tfidf_classic", arm: "compact_sig" },
    { ...common, kind: "frontier", retriever: "tfidf_classic" },
    { ...common, kind: "retrieval", retriever: "random", arm: null },
  ];
  // Two lanes: one group (modes 0.4 before it + 3 + 3.3 = 6.7 on one lane, retrieval 3.6 on the
  // other) against two (toon_listing 6, the rest 3.7 with modes; then tfidf_classic 1.87 and
  // bm25 1.7 go one to each lane: 7.27 at best).
  assert.deepEqual(armGroups(names, 2, others, [10_000]), [[0, 1, 2, 3]]);
  // Three lanes: apart, toon_listing's 6 is the longest chain, against 6.7 together.
  assert.deepEqual(armGroups(names, 3, others, [10_000]), [[0, 1, 3], [2]]);
  // The size scales every job alike: the same choice at 40,000 tools.
  assert.deepEqual(armGroups(names, 2, others, [40_000]), [[0, 1, 2, 3]]);
});

Deno.test("mergeArmRows keeps a skipped arm once and rejects a missing or twice-measured arm", () => {
  const skip = { corpusId: "c", arm: "tscg", skipped: true as const, reason: "not installed" };
  const row = (tokenizer: string, totalTokens: number) => ({
    corpusId: "c",
    arm: "compact_sig",
    tokenizer,
    skipped: false as const,
    toolCount: 1,
    totalTokens,
    meanTokens: totalTokens,
    p95Tokens: totalTokens,
    heaviest: [],
    skippedTools: { count: 0, examples: [] },
    alteredTools: { count: 0, examples: [] },
    savings: null,
    savingsToolCount: 1,
    lowerBound: false,
    altersIndex: false,
  });
  const merged = mergeArmRows(["compact_sig", "tscg"], [[skip], [row("a", 1), row("b", 2)]]);
  assert.deepEqual(merged.map((r) => [r.arm, r.skipped ? "-" : r.tokenizer]), [
    ["compact_sig", "a"],
    ["compact_sig", "b"],
    ["tscg", "-"],
  ]);
  assert.throws(
    () => mergeArmRows(["compact_sig", "tscg"], [[row("a", 1)], [skip, row("b", 2)]]),
    /two arms jobs measured arm compact_sig/,
  );
  assert.throws(
    () => mergeArmRows(["compact_sig", "tscg"], [[row("a", 1)], [row("b", 2)]]),
    /two arms jobs measured arm compact_sig/,
  );
  assert.throws(
    () => mergeArmRows(["compact_sig", "tscg"], [[row("a", 1)], []]),
    /no arms job measured arm tscg/,
  );
});

Deno.test("planChains: a retriever's jobs on one lane in order, modes with the first arms, the costliest first", () => {
  const common = { local: false, label: "" };
  const jobs: BenchJob[] = [
    { ...common, kind: "modes", corpus: 0, tokenizers: [0, 1] },
    { ...common, kind: "arms", corpus: 0, tokenizers: [0, 1], arms: [0, 1] },
    { ...common, kind: "arms", corpus: 0, tokenizers: [0, 1], arms: [2] },
    { ...common, kind: "retrieval", golden: 0, corpus: 0, retriever: "bm25", arm: null },
    { ...common, kind: "frontier", golden: 0, corpus: 0, retriever: "bm25" },
    { ...common, kind: "retrieval", golden: 0, corpus: 0, retriever: "tfidf_classic", arm: null },
    { ...common, kind: "retrieval", golden: 0, corpus: 0, retriever: "tfidf_classic", arm: "x" },
    { ...common, kind: "frontier", golden: 0, corpus: 0, retriever: "tfidf_classic" },
    {
      ...common,
      kind: "retrieval",
      golden: 0,
      corpus: 0,
      retriever: "dense",
      arm: null,
      local: true,
    },
    { ...common, kind: "frontier", golden: 0, corpus: 0, retriever: "dense", local: true },
    { ...common, kind: "retrieval", golden: 1, corpus: 0, retriever: "bm25", arm: null },
    { ...common, kind: "frontier", golden: 1, corpus: 0, retriever: "bm25" },
  ];
  const { local, shared, weights } = planChains(jobs, [10_000], [
    "baseline_json",
    "compact_sig",
    "toon_listing",
  ]);
  assert.deepEqual(local, [[8, 9]]);
  // The costliest chain first: toon_listing's group (3 + 3), the modes with the first arms
  // group (0.4 + 3 + 0.1), bm25's two golden sets (2 × (1.5 + 0.2)), tfidf_classic (1.05 +
  // 0.65 + 0.17); each in list order.
  assert.deepEqual(shared, [[2], [0, 1], [3, 4, 10, 11], [5, 6, 7]]);
  assert.deepEqual(weights.map((w) => Math.round(w * 100) / 100), [6, 3.5, 3.4, 1.87]);
  // Every job once.
  assert.deepEqual([...local, ...shared].flat().sort((a, b) => a - b), jobs.map((_, i) => i));
  // Costs scale with the corpus: the same order at 1,000 tools, a tenth of the weights.
  const small = planChains(jobs, [1_000], ["baseline_json", "compact_sig", "toon_listing"]);
  assert.deepEqual(small.shared, shared);
  assert.deepEqual(small.weights.map((w) => Math.round(w * 1000) / 1000), [0.6, 0.35, 0.34, 0.187]);
});

Deno.test("makespan and mainClaimEnd: lanes claim as the pool does, from the front or the back", () => {
  // Front: the calling thread 6 then 1.87, the worker 3.5 then 3.4 (free first at 3.5).
  assert.equal(makespan([6, 3.5, 3.4, 1.87], 2, "front"), 7.87);
  // Back: the calling thread 1.87, 3.4, 3.5 (8.77); the worker 6.
  assert.equal(Math.round(makespan([6, 3.5, 3.4, 1.87], 2, "back") * 100) / 100, 8.77);
  assert.deepEqual(mainClaimEnd([6, 3.5, 3.4, 1.87], 2), { end: "front", span: 7.87 });
  // One long chain: either end gives 7.4; the back on a tie (the calling thread then has the
  // report to assemble, and the long chain goes to the worker).
  assert.equal(mainClaimEnd([7.4, 2.52, 1.7, 0.03], 2).end, "back");
  assert.equal(makespan([7.4, 2.52, 1.7, 0.03], 2, "back"), 7.4);
  // One lane: the sum; more lanes than chains: the longest chain.
  assert.equal(makespan([1, 2, 3], 1), 6);
  assert.equal(makespan([3, 2, 1], 5, "back"), 3);
  assert.equal(makespan([], 2), 0);
});

Deno.test("claimChain: every chain once from either end, none after the stop flag", () => {
  const chains = ["a", "b", "c", "d", "e"];
  const batch = { chains, claim: newClaim() };
  const ends = ["back", "front", "back", "back", "front", "front", "back"] as const;
  assert.deepEqual(ends.map((end) => claimChain(batch, end)), [
    "e",
    "a",
    "d",
    "c",
    "b",
    undefined,
    undefined,
  ]);
  const stopped = { chains, claim: newClaim() };
  assert.equal(claimChain(stopped, "front"), "a");
  Atomics.store(stopped.claim, 1, 1);
  assert.equal(claimChain(stopped, "back"), undefined);
  assert.equal(claimChain(stopped, "front"), undefined);
});

Deno.test("a job failing in a worker rejects the run with its message", async () => {
  const context: BenchJobContext = {
    corpora: [{
      id: "c",
      version: "1",
      provenance: { format: "mcp-tools-list" },
      tools: [{ id: "s:a", server: "s", name: "a", description: "one two" }],
      warnings: [],
    }],
    goldenSets: [],
    tokenizerNames: ["cl100k_base"],
    armNames: [],
    proxyTools: [],
    codeTools: [],
    seed: 1,
    resamples: 1,
  };
  // Three chains (one per retriever), so the worker claims the two the calling thread leaves.
  const bad = (retriever: string): BenchJob => ({
    kind: "retrieval",
    golden: 0,
    corpus: 0,
    retriever,
    arm: "no_such_arm",
    local: false,
    label: "bad",
  });
  for (const waitForWorkers of [false, true]) {
    const pool = workerBenchPool(2, { waitForWorkers })();
    pool.load(context);
    try {
      // The calling thread's lane never finishes its job, so the worker gets the bad ones.
      await assert.rejects(
        pool.run(
          [bad("bm25"), bad("tfidf_classic"), bad("oracle")],
          () => new Promise(() => {}),
          () => {},
        ),
        /no index arm "no_such_arm"/,
      );
    } finally {
      pool.close();
    }
  }
  assert.throws(() => workerBenchPool(0), RangeError);
});

Deno.test("a worker loads a corpus from its file and fails the run when the bytes changed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/c.tools.json`;
    const tools = {
      tools: [{ name: "a", description: "one two", inputSchema: { type: "object" } }],
    };
    await Deno.writeTextFile(path, JSON.stringify(tools));
    const corpus = await loadCatalog(path);
    const context: BenchJobContext = {
      corpora: [corpus],
      goldenSets: [],
      tokenizerNames: ["cl100k_base"],
      armNames: ["compact_sig"],
      proxyTools: [],
      codeTools: [],
      seed: 1,
      resamples: 1,
    };
    const job: BenchJob = {
      kind: "arms",
      corpus: 0,
      tokenizers: [0],
      local: false,
      label: "arms",
    };
    const expected = measureArms({
      corpus,
      arms: await loadArms(["compact_sig"]),
      tokenizers: [createTokenizer("cl100k_base")],
    });
    const runs = async (sha256: string, prefetch: boolean) => {
      const pool = workerBenchPool(2, { waitForWorkers: true })();
      try {
        if (prefetch) pool.prefetch?.([{ path }]);
        pool.load(context, [{ path, sha256 }]);
        // Two chains: the calling thread answers one it claims with no rows, after a while, so
        // the worker runs the other; a second job here would mean the worker ran none.
        let calls = 0;
        return await pool.run([job, job], async () => {
          if (++calls > 1) throw new Error("the calling thread ran both jobs");
          await new Promise((r) => setTimeout(r, 1500));
          return [];
        }, () => {});
      } finally {
        pool.close();
      }
    };
    for (const prefetch of [true, false]) {
      const results = await runs(corpus.provenance.sha256!, prefetch);
      // The worker ran one job or both (it may claim both before this thread claims).
      const worker = results.filter((r) => !(Array.isArray(r) && r.length === 0));
      assert.ok(worker.length >= 1, "the worker ran a job");
      for (const rows of worker) assert.equal(stableJson(rows), stableJson(expected));
      await assert.rejects(
        runs("0".repeat(64), prefetch),
        /c\.tools\.json changed while the bench read it/,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corpus renamed after loading reaches a worker as it is measured, not as its file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Two files that both give the id "x": the bench names them "a/x" and "b/x" after loading,
    // so a worker loading them from their files would measure "x".
    const tool = (name: string, description: string) =>
      JSON.stringify({ tools: [{ name, description, inputSchema: { type: "object" } }] });
    for (const [sub, name] of [["a", "read"], ["b", "write"]]) {
      await Deno.mkdir(`${dir}/${sub}/x`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${sub}/x/tools.json`, tool(name, `${name} a file.`));
    }
    const lines: string[] = [];
    const io = { ...denoFlowIo(), progress: (_: string, m: string) => lines.push(m) };
    const options: RunBenchOptions = {
      corpora: [`${dir}/a/x/tools.json`, `${dir}/b/x/tools.json`],
      golden: ["none"],
      tokenizers: ["cl100k_base"],
    };
    const one = bytesOutsideRun(await runBench(options, io));
    lines.length = 0;
    const pool = workerBenchPool(2, { waitForWorkers: true });
    const two = bytesOutsideRun(await runBench({ ...options, pool }, io));
    assert.ok(lines.some((l) => l.endsWith("(worker 1)")), lines.join("\n"));
    assert.equal(two, one);
    assert.deepEqual(JSON.parse(two).corpora.map((c: { id: string }) => c.id), ["a/x", "b/x"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
