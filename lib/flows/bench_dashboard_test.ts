import assert from "node:assert/strict";
import { tinyBenchReport } from "../../testing/report.ts";
import type { BenchReport } from "../report/bench_report.ts";
import { dashboardView, workerDashboardRenderer } from "./bench_dashboard.ts";
import { createRng, deriveSeed, pairedTestTables } from "../stats/mod.ts";
import { Tiktoken } from "js-tiktoken/lite";
import o200kData from "js-tiktoken/ranks/o200k_base";
import { createDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import { hasRankTable } from "../tokens/piecewise.ts";

Deno.test("workerDashboardRenderer() renders on its worker the page renderDashboard() renders here, each report in turn", async () => {
  const a = tinyBenchReport(7, []);
  const b = tinyBenchReport(8, ["tiny: a warning <b>escaped</b>"]);
  const dashboard = workerDashboardRenderer();
  try {
    // Both asked at once: each answer goes to its own report.
    const [pageA, pageB] = await Promise.all([dashboard.render(a), dashboard.render(b)]);
    assert.equal(dashboard.inWorker, true);
    // The plain path, in this thread (imported only now, after the worker answered).
    const { renderDashboard } = await import("../report/dashboard.ts");
    assert.equal(pageA, renderDashboard(a));
    assert.equal(pageB, renderDashboard(b));
    assert.notEqual(pageA, pageB);
    assert.match(pageA, /seed 7;/);
    assert.match(pageB, /seed 8;/);
  } finally {
    dashboard.close();
  }
  await assert.rejects(dashboard.render(a), /renderer is closed/);
  dashboard.close();
});

Deno.test("workerDashboardRenderer() sends the worker the report without per-query records, and its page is the full report's", async () => {
  const tiny = tinyBenchReport(9, []);
  const metrics = { "recall@5": 0.5, "mrr@10": 0.75, "ndcg@10": 0.625 };
  const row = (retriever: string, topIds: string[]) => ({
    corpusId: "tiny",
    goldenSetId: "tiny.test",
    retriever,
    arm: null,
    queryCount: 2,
    metrics,
    ci95: { "recall@5": [0.25, 0.75], "mrr@10": [0.5, 1], "ndcg@10": [0.5, 0.75] },
    perQuery: [
      { queryId: "q1", query: "find <b>files</b>", topIds, metrics },
      { queryId: "q2", query: "send mail", topIds: [...topIds].reverse(), metrics },
    ],
  });
  const report = {
    ...tiny,
    retrieval: [row("bm25", ["fs:read", "fs:write"]), row("tfidf_classic", ["mail:send"])],
  } as unknown as BenchReport;
  const view = dashboardView(report);
  assert.deepEqual(view.retrieval!.map((r) => r.perQuery), [[], []]);
  assert.equal(report.retrieval![0].perQuery.length, 2, "the report itself is left whole");
  assert.equal(dashboardView(tiny), tiny);
  const dashboard = workerDashboardRenderer();
  try {
    const page = await dashboard.render(report);
    assert.equal(dashboard.inWorker, true);
    const { renderDashboard } = await import("../report/dashboard.ts");
    assert.equal(page, renderDashboard(report));
    assert.match(page, /Discovery quality/);
  } finally {
    dashboard.close();
  }
});

Deno.test("workerDashboardRenderer().warm(draft) answers nothing: the next page is its own report's", async () => {
  const draft = tinyBenchReport(5, ["draft only"]);
  const report = tinyBenchReport(6, []);
  const dashboard = workerDashboardRenderer();
  try {
    dashboard.warm(draft);
    dashboard.warm({ ...draft, modes: null } as unknown as BenchReport); // fails there, unsaid
    const page = await dashboard.render(report);
    assert.equal(dashboard.inWorker, true);
    const { renderDashboard } = await import("../report/dashboard.ts");
    assert.equal(page, renderDashboard(report));
    assert.doesNotMatch(page, /draft only/);
  } finally {
    dashboard.close();
  }
  dashboard.warm(draft); // after close: nothing
});

Deno.test("workerDashboardRenderer().drawTables() keeps here the worker's paired-test tables", async () => {
  const dashboard = workerDashboardRenderer();
  try {
    await dashboard.tables(); // none asked: settled
    dashboard.drawTables([{ seed: 777, n: 11, resamples: 60 }, {
      seed: 1,
      n: 70_000,
      resamples: 300,
    }]);
    await dashboard.tables();
    // The kept tables (pairedTestTables returns a kept one) are the draws by definition.
    const kept = pairedTestTables(777, 11, 60)!;
    const flips = createRng(deriveSeed(777, "sign-flip"));
    const boot = createRng(deriveSeed(777, "bootstrap"));
    assert.deepEqual(kept.signs, Uint8Array.from({ length: 660 }, () => flips.nextUint32() >>> 31));
    assert.deepEqual(kept.indices, Uint16Array.from({ length: 660 }, () => boot.int(11)));
  } finally {
    dashboard.close();
  }
  await dashboard.tables();
});

Deno.test("workerDashboardRenderer().rankTables() keeps here the rank tables its worker builds, before any page", async () => {
  const dashboard = workerDashboardRenderer();
  try {
    await dashboard.rankTables([]); // none asked: settled
    assert.equal(hasRankTable("o200k_base"), false, "no counter of this thread built one");
    // Asked at once, answered before the dashboard's modules are needed (no page asked).
    await dashboard.rankTables(["o200k_base"]);
    assert.equal(hasRankTable("o200k_base"), true);
    assert.equal(dashboard.inWorker, true);
    // Kept, and the counter made now takes it: counts are js-tiktoken's.
    const reference = new Tiktoken(o200kData);
    const text = "List every open pull request of a repository, newest first (max 100).";
    assert.equal(createDefaultTokenizer("o200k_base").count(text), reference.encode(text).length);
    // The worker still renders afterwards.
    const report = tinyBenchReport(4, []);
    const { renderDashboard } = await import("../report/dashboard.ts");
    assert.equal(await dashboard.render(report), renderDashboard(report));
  } finally {
    dashboard.close();
  }
  await dashboard.rankTables(["cl100k_base"]); // after close: settled, nothing asked
});
