// The demo's runs (results/demo/runs) in the workbench over real HTTP: listed in Runs with
// their source, opened read-only, counted by dashboards, reports and Compare; a run that used
// a simulated model is labelled so beside every USD figure; sub-pages keep the navigation bar.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Workbench } from "../server.ts";
import { writeSyntheticRun } from "../../../testing/synthetic_runs.ts";
import { startBareWorkbench } from "../../../testing/workbench.ts";

const get = async (wb: Workbench, path: string) => {
  const res = await fetch(`${wb.url}${path}`);
  const text = await res.text();
  return { status: res.status, text };
};

const scripted = {
  id: "scripted",
  provider: "anthropic",
  model: "scripted-demo",
  simulated: true,
  pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
};

Deno.test("workbench: the demo's runs appear in Runs, dashboards, reports and Compare, read-only and labelled simulated; sub-pages keep the navigation", async () => {
  const wb = await startBareWorkbench({
    runner: { run: () => Promise.reject(new Error("no runs in this test")) },
  });
  try {
    const demo = join(wb.tmp, "results", "demo", "runs");
    const agent = (id: string, pass: (c: number, r: number) => boolean) => ({
      id,
      model: "scripted",
      outcome: (c: number, r: number) => ({ passed: pass(c, r), costUsd: 0.25 }),
    });
    await writeSyntheticRun(demo, {
      runId: "demo-s-1",
      suiteId: "s",
      startedAt: "2026-01-01T00:00:00.000Z",
      cases: ["a", "b"],
      repetitions: 2,
      agents: [agent("good", () => true), agent("flaky", (c, r) => c === 0 || r === 0)],
      models: [scripted],
    });
    // The same id in the runs folder hides the demo's; an ordinary run is not simulated.
    await writeSyntheticRun(demo, {
      runId: "mine",
      startedAt: "2026-01-03T00:00:00.000Z",
      cases: ["a"],
      repetitions: 1,
      agents: [agent("good", () => true)],
      models: [scripted],
    });
    await writeSyntheticRun(join(wb.tmp, "results", "runs"), {
      runId: "mine",
      suiteId: "s",
      startedAt: "2026-01-02T00:00:00.000Z",
      cases: ["a"],
      repetitions: 1,
      agents: [{ id: "good", outcome: () => ({ passed: false }) }],
      models: [{ ...scripted, id: "m", simulated: undefined }],
    });

    const list = await (await fetch(`${wb.url}/api/runs`)).json();
    assert.deepEqual(
      list.map((r: Record<string, unknown>) => [r.runId, r.source, r.simulated, r.passed]),
      [["mine", null, false, 0], ["demo-s-1", "demo", true, 7]],
    );
    assert.equal(list[1].costUsd, 2); // 8 records × $0.25

    const runs = await get(wb, "/runs");
    // The page says where every row comes from, the demo's folder too.
    assert.ok(
      runs.text.includes(`the demo runs in ${demo}`),
      runs.text,
    );
    const row = runs.text.slice(runs.text.indexOf('data-run="demo-s-1"'));
    assert.match(
      row.slice(0, row.indexOf("</tr>")),
      /demo<\/span>[\s\S]*\$2\.000000[\s\S]*simulated/,
    );
    const mine = runs.text.slice(runs.text.indexOf('data-run="mine"'));
    assert.doesNotMatch(mine.slice(0, mine.indexOf("</tr>")), /simulated/);

    const run = await get(wb, "/runs/demo-s-1");
    assert.equal(run.status, 200);
    assert.match(run.text, /Simulated run\./);
    assert.match(run.text, /Read-only: from the demo runs/);
    assert.doesNotMatch(run.text, /id="resume"/);

    // Dashboards and reports count the demo run, with the notice and the navigation bar.
    const dash = await get(wb, "/reports/dashboards/agent-comparison");
    assert.match(dash.text, /<p class="subtitle">2 run\(s\), 9 case records/);
    assert.match(dash.text, /Simulated: 1 of 2 runs \(demo-s-1\) used a scripted model/);
    assert.match(dash.text, /<header class="wb-nav">[\s\S]*href="\/reports"\s+class="active"/);
    const saved = await fetch(`${wb.url}/api/reports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: "demo",
        title: "Demo",
        filter: { agentIds: ["flaky"] },
        dashboardId: "agent-comparison",
      }),
    });
    assert.equal(saved.status, 201);
    const report = await get(wb, "/reports/view/demo");
    assert.match(report.text, /<p class="subtitle">1 run\(s\), 4 case records/);
    assert.match(report.text, /Simulated: every run used a scripted model/);
    assert.match(report.text, /<header class="wb-nav">/);

    const compare = await get(wb, "/compare");
    assert.match(compare.text, /href="\/compare\?suite=s&amp;agent=flaky"/);
    const one = await get(wb, "/compare?suite=s&agent=flaky");
    assert.equal(one.status, 200);
    assert.match(one.text, /<header class="wb-nav">[\s\S]*href="\/compare"\s+class="active"/);
    assert.match(one.text, /Simulated: every run used a scripted model/);
    // "flaky" is the demo's, not an agent of the working config: no version of it can be cut.
    assert.match(one.text, /flaky is not an agent of the working config/);
    assert.doesNotMatch(one.text, /--cut-version flaky/);
  } finally {
    await wb.stop();
  }
});
