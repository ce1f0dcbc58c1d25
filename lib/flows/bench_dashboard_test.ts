import assert from "node:assert/strict";
import { corpus, proxy, words } from "../modes/_testing.ts";
import { measureCatalogCost } from "../modes/catalog_cost.ts";
import {
  type BenchReport,
  REPORT_SCHEMA_VERSION,
  summarizeCorpus,
  TOKENIZER_CAVEAT,
} from "../report/bench_report.ts";
import { workerDashboardRenderer } from "./bench_dashboard.ts";

function report(seed: number, warnings: string[]): BenchReport {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    task: "test",
    run: { createdAt: "2026-01-01T00:00:00.000Z", git: { commit: null, dirty: null }, wallMs: 0 },
    seed,
    tokenizers: ["cl100k_base"],
    dependencies: {},
    inputs: [],
    caveats: { tokenizer: TOKENIZER_CAVEAT },
    degenerateRules: [],
    corpora: [summarizeCorpus(corpus, "tiny.json", { count: 0, byRule: {} })],
    ...measureCatalogCost({
      corpora: [corpus],
      proxyTools: proxy,
      codeTools: proxy,
      tokenizers: [words],
      seed,
      sizes: [5, 20, 50],
    }),
    warnings,
  };
}

Deno.test("workerDashboardRenderer() renders on its worker the page renderDashboard() renders here, each report in turn", async () => {
  const a = report(7, []);
  const b = report(8, ["tiny: a warning <b>escaped</b>"]);
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
