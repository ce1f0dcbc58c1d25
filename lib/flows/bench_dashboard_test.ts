import assert from "node:assert/strict";
import { tinyBenchReport } from "../report/_testing.ts";
import { workerDashboardRenderer } from "./bench_dashboard.ts";

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
