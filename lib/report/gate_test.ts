import assert from "node:assert/strict";
import { writeSyntheticRun } from "../../testing/synthetic_runs.ts";
import { loadRun } from "./load_runs.ts";
import { type GateCheck, gateExitCode, GateInputError } from "./gate.ts";
import { detectableDrop, gateRuns } from "./gate_runs.ts";
import { gateBenchReports } from "./gate_bench.ts";
import { gateJunit } from "./gate_junit.ts";
import { gateMarkdown } from "./gate_markdown.ts";
import type { LoadedRun } from "./runs.ts";

const CASES = Array.from({ length: 10 }, (_, i) => `c${i}`);

async function withRoot<T>(fn: (root: string) => Promise<T>): Promise<T> {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-gate-" });
  try {
    return await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** One agent "a" whose case i passes the first passes(i) of `reps` repetitions. */
function run(
  root: string,
  runId: string,
  reps: number,
  passes: (c: number) => number,
  extra: { costUsd?: number; wallMs?: number; status?: string } = {},
): Promise<LoadedRun> {
  return writeSyntheticRun(root, {
    runId,
    startedAt: "2025-01-01T00:00:00Z",
    cases: CASES,
    repetitions: reps,
    ...(extra.status ? { status: extra.status } : {}),
    agents: [{
      id: "a",
      outcome: (c, r) => ({
        passed: r < passes(c),
        costUsd: extra.costUsd ?? 0.001,
        wallMs: extra.wallMs ?? 1000,
      }),
    }],
  }).then(loadRun);
}

const find = (checks: GateCheck[], name: string, group = "suite/a") =>
  checks.find((c) => c.name === name && c.group === group)!;

Deno.test("gate: a real pass-rate drop fails", async () => {
  await withRoot(async (root) => {
    const base = await run(root, "base", 5, () => 5);
    // Cases 0–6 fall from 5/5 to 1/5 (d = −0.8); cases 7–9 unchanged (d = 0).
    const cand = await run(root, "cand", 5, (c) => c < 7 ? 1 : 5);
    const checks = gateRuns(base, cand);
    const pr = find(checks, "pass rate");
    // Exact one-sided p: only sign vectors with all seven non-zero terms negative reach
    // T = −5.6; the three zero terms give 2³ of them: 8 / 2¹⁰ = 0.0078125.
    assert.match(pr.message, /p = 0\.00781/);
    assert.match(pr.message, /1\.000 → 0\.440/);
    assert.equal(pr.verdict, "fail");
    assert.equal(gateExitCode(checks), 1);
  });
});

Deno.test("gate: a drop within noise passes, and --max-pass-drop catches it", async () => {
  await withRoot(async (root) => {
    const base = await run(root, "base", 5, () => 3);
    // Cases 0 and 1 lose one pass, case 2 gains one: d = (−0.2, −0.2, +0.2, 0, …).
    const cand = await run(root, "cand", 5, (c) => c < 2 ? 2 : c === 2 ? 4 : 3);
    const checks = gateRuns(base, cand);
    const pr = find(checks, "pass rate");
    // Sums of ±0.2 over three terms: −0.6, −0.2 ×3, +0.2 ×3, +0.6 → P(T ≤ −0.2) = 4/8.
    assert.match(pr.message, /p = 0\.500/);
    assert.match(pr.message, /0\.600 → 0\.580 \(−0\.020\)/);
    assert.equal(pr.verdict, "pass");
    assert.equal(gateExitCode(checks), 0);
    assert.equal(find(gateRuns(base, cand, { maxPassDrop: 0.01 }), "pass rate").verdict, "fail");
    assert.equal(find(gateRuns(base, cand, { maxPassDrop: 0.02 }), "pass rate").verdict, "pass");
  });
});

Deno.test("gate: doubled repetitions do not change the cost verdict", async () => {
  await withRoot(async (root) => {
    const base = await run(root, "base", 5, () => 5, { costUsd: 0.001 });
    for (const [cost, verdict] of [[0.00110, "pass"], [0.00120, "fail"]] as const) {
      const five = await run(root, `c5-${cost}`, 5, () => 5, { costUsd: cost });
      const ten = await run(root, `c10-${cost}`, 10, () => 5, { costUsd: cost });
      const a = find(gateRuns(base, five), "cost per case");
      const b = find(gateRuns(base, ten), "cost per case");
      assert.equal(a.verdict, verdict);
      assert.equal(b.verdict, verdict);
      assert.equal(a.message, b.message);
      // +10% and +20% of $0.001 per case.
      assert.match(a.message, cost === 0.0011 ? /\+10\.0%/ : /\+20\.0%/);
    }
  });
});

Deno.test("gate: latency p95 is reported, and gated when a limit is given", async () => {
  await withRoot(async (root) => {
    const base = await run(root, "base", 2, () => 2, { wallMs: 1000 });
    const cand = await run(root, "cand", 2, () => 2, { wallMs: 1600 });
    assert.equal(find(gateRuns(base, cand), "latency p95").verdict, "skip");
    assert.equal(
      find(gateRuns(base, cand, { maxLatencyIncrease: 0.5 }), "latency p95").verdict,
      "fail",
    );
    assert.equal(
      find(gateRuns(base, cand, { maxLatencyIncrease: 0.6 }), "latency p95").verdict,
      "pass",
    );
  });
});

Deno.test("gate: a failed or incomplete candidate cannot pass, and says why", async () => {
  await withRoot(async (root) => {
    const base = await run(root, "base", 2, () => 2);
    const crashed = await run(root, "crashed", 2, () => 2, { status: "running" });
    const c1 = gateRuns(base, crashed)[0];
    assert.equal(c1.verdict, "fail");
    assert.match(c1.message, /status "running": it crashed or is still running/);
    const partial = await writeSyntheticRun(root, {
      runId: "partial",
      startedAt: "2025-01-01T00:00:00Z",
      cases: CASES,
      repetitions: 2,
      agents: [{ id: "a", outcome: () => ({ passed: true }) }],
      drop: ["a|c3|1", "a|c4|0"],
    }).then(loadRun);
    assert.match(gateRuns(base, partial)[0].message, /has 18 of 20 planned case records/);
    const allErr = await writeSyntheticRun(root, {
      runId: "errors",
      startedAt: "2025-01-01T00:00:00Z",
      cases: CASES,
      repetitions: 2,
      agents: [{ id: "a", outcome: () => ({ passed: null, error: "model" }) }],
    }).then(loadRun);
    const checks = gateRuns(base, allErr);
    assert.match(checks[0].message, /all 20 cases are infrastructure errors \(model\)/);
    assert.equal(find(checks, "pass rate").verdict, "fail");
    const shard = await writeSyntheticRun(root, {
      runId: "shard",
      startedAt: "2025-01-01T00:00:00Z",
      cases: CASES,
      repetitions: 2,
      shard: { index: 1, count: 2 },
      agents: [{ id: "a", outcome: () => ({ passed: true }) }],
    }).then(loadRun);
    assert.match(gateRuns(base, shard)[0].message, /is shard 1\/2: merge the shards first/);
  });
});

Deno.test("gate: catalog changes list added, removed and changed tools", async () => {
  await withRoot(async (root) => {
    const mk = (runId: string, catalog: LoadedRun["catalogs"][string]) =>
      writeSyntheticRun(root, {
        runId,
        startedAt: "2025-01-01T00:00:00Z",
        cases: ["c"],
        repetitions: 1,
        agents: [{ id: "a", outcome: () => ({ passed: true }), catalog }],
      }).then(loadRun);
    const base = await mk("base", {
      hash: "aaaa",
      tools: 3,
      mapping: { read: "fs:read", write: "fs:write", list: "fs:list" },
      toolHashes: { read: "1", write: "2", list: "3" },
    });
    const cand = await mk("cand", {
      hash: "bbbb",
      tools: 3,
      mapping: { read: "fs:read", list: "fs:list", search: "fs:search" },
      toolHashes: { read: "1", list: "3x", search: "4" },
    });
    const warn = find(gateRuns(base, cand), "catalog");
    assert.equal(warn.verdict, "warn");
    assert.deepEqual(warn.details, [
      "added (1): search",
      "removed (1): write",
      "changed (1): list",
    ]);
    assert.equal(
      find(gateRuns(base, cand, { failOnCatalogChange: true }), "catalog").verdict,
      "fail",
    );
    assert.equal(
      find(gateRuns(base, base, { failOnCatalogChange: true }), "catalog").verdict,
      "pass",
    );
  });
});

Deno.test("gate: unusable pairs throw GateInputError; bad thresholds RangeError", async () => {
  await withRoot(async (root) => {
    const base = await run(root, "base", 1, () => 1);
    const other = await writeSyntheticRun(root, {
      runId: "other",
      suiteId: "another",
      startedAt: "2025-01-01T00:00:00Z",
      cases: CASES,
      repetitions: 1,
      agents: [{ id: "a", outcome: () => ({ passed: true }) }],
    }).then(loadRun);
    assert.throws(() => gateRuns(base, other), GateInputError);
    assert.throws(() => gateRuns(base, base, { alpha: 1.5 }), RangeError);
  });
});

Deno.test("gateBenchReports(): recall@5 tolerance and mode savings", () => {
  const report = (recall: number, proxySavings: number) => ({
    modes: [
      {
        corpusId: "c",
        tokenizer: "cl100k_base",
        mode: "direct",
        savingsNameDescription: 0,
        savingsWithSchemas: 0,
        withSchemasAuthoritative: true,
      },
      {
        corpusId: "c",
        tokenizer: "cl100k_base",
        mode: "proxy",
        savingsNameDescription: 0.5,
        savingsWithSchemas: proxySavings,
        withSchemasAuthoritative: true,
      },
    ],
    retrieval: [{
      corpusId: "c",
      goldenSetId: "g",
      retriever: "bm25",
      arm: "baseline_json",
      metrics: { "recall@5": recall },
    }],
  });
  const ok = gateBenchReports(report(0.8, 0.9), report(0.795, 0.9));
  assert.deepEqual(ok.map((c) => [c.name, c.verdict]), [
    ["recall@5 c/g/bm25/baseline_json", "pass"],
    ["savings c/cl100k_base/proxy", "pass"],
  ]);
  const bad = gateBenchReports(report(0.8, 0.9), report(0.78, 0.89));
  assert.deepEqual(bad.map((c) => c.verdict), ["fail", "fail"]);
  assert.throws(() => gateBenchReports({}, report(1, 1)), GateInputError);
  // A mode that costs more than direct (a one-tool catalog) is worded so, not "-1829.41% saved".
  const worse = gateBenchReports(report(0.8, 1 - 328 / 17), report(0.8, 1 - 336 / 17));
  assert.equal(
    worse[1].message,
    "costs 1,829.41% more → costs 1,876.47% more against direct; the saving must not drop",
  );
  assert.equal(worse[1].verdict, "fail");
  assert.equal(
    ok[1].message,
    "saves 90.00% → saves 90.00% against direct; the saving must not drop",
  );
});

Deno.test("gateJunit() and gateMarkdown() count and escape", () => {
  const checks: GateCheck[] = [
    {
      group: "s/a",
      name: "pass rate",
      verdict: "fail",
      message: '0.9 → 0.5 <worse> & "odd"',
      details: [],
    },
    {
      group: "s/a",
      name: "catalog",
      verdict: "warn",
      message: "changed",
      details: ["added (1): x"],
    },
    { group: "s/a", name: "latency p95", verdict: "skip", message: "not gated", details: [] },
    { group: "run", name: "candidate run", verdict: "pass", message: "complete | ok", details: [] },
  ];
  const x = gateJunit(checks);
  assert.match(x, /<testsuites name="mcpmeter gate" tests="4" failures="1" errors="0" skipped="1"/);
  assert.match(
    x,
    /<failure message="0\.9 → 0\.5 &lt;worse&gt; &amp; &quot;odd&quot;" type="regression">/,
  );
  assert.match(x, /<skipped message="not gated"\/>/);
  const md = gateMarkdown(checks, { baseline: "b", candidate: "c" });
  assert.match(md, /^## mcpmeter gate: FAIL\n/);
  assert.match(md, /4 checks: 1 failed, 1 warned, 1 passed, 1 skipped\./);
  // Failures first; a pipe in a message is escaped.
  const rows = md.split("\n").filter((l) => l.startsWith("| "));
  assert.match(rows[1], /❌ fail \| s\/a \| pass rate/);
  assert.ok(md.includes("complete \\| ok"));
  assert.ok(md.includes("- added (1): x"));
});

Deno.test("gate: a collapse on a suite too small for the test fails on the default floor", async () => {
  await withRoot(async (root) => {
    const three = (runId: string, passed: boolean) =>
      writeSyntheticRun(root, {
        runId,
        startedAt: "2025-01-01T00:00:00Z",
        cases: ["c0", "c1", "c2"],
        repetitions: 1,
        agents: [{ id: "a", outcome: () => ({ passed, costUsd: 0.001, wallMs: 1000 }) }],
      }).then(loadRun);
    const base = await three("base", true);
    const cand = await three("cand", false);
    const pr = find(gateRuns(base, cand), "pass rate");
    // 100% → 0% over 3 cases: the exact one-sided p is 2⁻³ = 0.125 ≥ 0.05, so only the floor
    // (a drop of 1.0 > 0.2) fails it; 5 falling cases would be needed for p < 0.05.
    assert.match(pr.message, /p = 0\.125/);
    assert.equal(pr.verdict, "fail");
    assert.match(pr.message, /drop larger than --max-pass-drop 0\.2, whatever p/);
    assert.match(
      pr.message,
      /underpowered: 3 case\(s\) cannot reach p < α 0\.05 \(that needs 5 cases/,
    );
    // The floor is configurable; 1 turns it off (then the drop passes as noise, said so).
    const off = find(gateRuns(base, cand, { maxPassDrop: 1 }), "pass rate");
    assert.equal(off.verdict, "pass");
    assert.match(off.message, /within noise/);
  });
});

Deno.test("detectableDrop() is the fewest falling cases that can reach p < alpha", () => {
  // 2^-k < alpha: k = 5 at 0.05 (2^-5 = 0.03125), 7 at 0.01 (2^-7 = 0.0078), 2 at 0.3.
  assert.deepEqual(detectableDrop(20, 0.05), {
    casesNeeded: 5,
    smallestDetectableDrop: 0.25,
    underpowered: false,
  });
  assert.deepEqual(detectableDrop(4, 0.05), {
    casesNeeded: 5,
    smallestDetectableDrop: null,
    underpowered: true,
  });
  assert.equal(detectableDrop(100, 0.01).casesNeeded, 7);
  assert.equal(detectableDrop(10, 0.3).casesNeeded, 2);
  // Exactly 2^-k = alpha is not < alpha: k = 6 at alpha = 1/32.
  assert.equal(detectableDrop(10, 1 / 32).casesNeeded, 6);
});
