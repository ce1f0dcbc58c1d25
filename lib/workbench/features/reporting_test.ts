// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CaseRecord } from "../../agent/types.ts";
import type { Runner } from "../queue.ts";
import { startWorkbench, type Workbench } from "../server.ts";
import { findChromium } from "../../report/io.ts";

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

// Version 1 fails the suite's first case; version 2 passes everything at half the cost.
const runner: Runner = {
  async run(job, onRecord) {
    const path = join(job.runDir, "cases.jsonl");
    await Deno.writeTextFile(
      join(job.runDir, "run.json"),
      JSON.stringify({
        status: "running",
        startedAt: job.sidecar.createdAt,
        agents: job.sidecar.agents,
        suite: job.sidecar.suite,
        plannedCases: job.sidecar.agents.length * job.sidecar.suite.cases.length,
      }),
    );
    for (const a of job.sidecar.agents) {
      job.sidecar.suite.cases.forEach((k, i) => {
        const v1 = a.id.endsWith("@1");
        const r = {
          agentId: a.id,
          caseId: k.id,
          repetition: 0,
          passed: !(v1 && i === 0),
          criterion: null,
          finalAnswer: "x",
          wallMs: 10,
          llmMs: 8,
          toolMs: 1,
          iterations: 1,
          inputTokens: v1 ? 200 : 100,
          outputTokens: 10,
          cacheReadTokens: null,
          cacheWriteTokens: null,
          peakContextTokens: 100,
          toolCalls: [],
          costUsd: v1 ? 0.002 : 0.001,
          judge: null,
          error: null,
          cachedModelCalls: 0,
          usageNotes: [],
        } satisfies CaseRecord;
        Deno.writeTextFileSync(path, JSON.stringify(r) + "\n", { append: true });
        onRecord(r);
      });
    }
    const doc = JSON.parse(await Deno.readTextFile(join(job.runDir, "run.json")));
    await Deno.writeTextFile(
      join(job.runDir, "run.json"),
      JSON.stringify({ ...doc, status: "complete" }),
    );
  },
};

async function start(): Promise<Workbench & { tmp: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-wb-reporting-" });
  const wb = await startWorkbench({
    hostname: "127.0.0.1",
    port: 0,
    configDir: join(tmp, "config"),
    resultsDir: join(tmp, "results"),
    agentsExamples: root("fixtures/agents"),
    suitesExamples: root("fixtures/suites"),
    schemasDir: root("lib/agent/schemas"),
    env: {},
    runner,
    prepareServers: () => Promise.reject(new Error("no MCP servers in this test")),
  });
  return Object.assign(wb, { tmp });
}

async function call(wb: Workbench, method: string, path: string, body?: unknown) {
  const res = await fetch(`${wb.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get("content-type") ?? "";
  const data = type.includes("json") ? await res.json() : await res.text();
  return { status: res.status, type, data };
}

Deno.test("workbench reporting: versions cut over the API, runs of @1 and @2, compare deltas by hand; dashboards refused on an unknown ref leave the file unchanged; a saved report renders and prints", async () => {
  const wb = await start();
  try {
    const agent = "fs-terse-sequential";
    const cut1 = await call(wb, "POST", `/api/agents/${agent}/versions`);
    assert.equal(cut1.status, 201);
    assert.equal(cut1.data.version, 1);
    const again = await call(wb, "POST", `/api/agents/${agent}/versions`);
    assert.equal(again.status, 200);
    assert.equal(again.data.created, false);
    const file = join(wb.context.config.dir, "agents", `${agent}.json`);
    const doc = JSON.parse(await Deno.readTextFile(file));
    await Deno.writeTextFile(
      file,
      JSON.stringify({ ...doc, maxIterations: doc.maxIterations + 1 }),
    );
    assert.equal((await call(wb, "POST", `/api/agents/${agent}/versions`)).data.version, 2);
    const list = await call(wb, "GET", `/api/agents/${agent}/versions`);
    assert.deepEqual(list.data.versions.map((v: { version: string }) => v.version), ["2", "1"]);

    for (const version of ["1", "2"]) {
      const r = await call(wb, "POST", "/api/runs", {
        suiteId: "fs-basics",
        agents: [{ agentId: agent, version }],
      });
      assert.equal(r.status, 201, JSON.stringify(r.data));
      await wb.context.queue.idle();
      await new Promise((res) => setTimeout(res, 20)); // distinct run start times
    }
    // fs-basics has three cases, one repetition: v1 passes 2/3 at $0.002, v2 3/3 at $0.001.
    const cmp = await call(wb, "GET", `/api/compare?agent=${agent}&suite=fs-basics`);
    assert.equal(cmp.status, 200, JSON.stringify(cmp.data));
    assert.equal(cmp.data.baseline, "v1");
    const d = Object.fromEntries(
      cmp.data.deltas.v2.map((x: { kpi: string }) => [x.kpi, x]),
    );
    assert.ok(Math.abs(d.passRate.delta - 1 / 3) < 1e-12);
    assert.ok(Math.abs(d.passRate.deltaPct - 0.5) < 1e-12);
    assert.equal(d.passRate.direction, "better");
    assert.equal(d.passRate.underpowered, true); // 3 cases: p ≥ 2^(1−3) = 0.25
    assert.ok(Math.abs(d.costPerCaseUsd.deltaPct - -0.5) < 1e-12);
    assert.equal(d.toolCalls.direction, "neutral");
    assert.deepEqual(cmp.data.matrix.filter((r: { regressed: boolean }) => r.regressed), []);
    const csv = await call(wb, "GET", `/api/compare?agent=${agent}&suite=fs-basics&format=csv`);
    assert.match(csv.type, /text\/csv/);
    assert.equal(String(csv.data).trim().split("\n").length, 3);
    assert.equal((await call(wb, "GET", `/compare?agent=${agent}&suite=fs-basics`)).status, 200);

    const dash = {
      id: "weekly",
      title: "Weekly",
      sections: [{ title: "S", visualizations: [{ ref: "agent-average-correctness" }] }],
    };
    const unknown = structuredClone(dash);
    unknown.sections[0].visualizations[0].ref = "agent-average-corectness";
    const refused = await call(wb, "POST", "/api/dashboards", unknown);
    assert.equal(refused.status, 400);
    assert.equal(refused.data.field, "sections[0].visualizations[0].ref");
    const path = join(wb.context.config.dir, "reporting", "dashboards", "weekly.json");
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
    assert.equal((await call(wb, "POST", "/api/dashboards", dash)).status, 201);
    const before = await Deno.readTextFile(path);
    assert.equal((await call(wb, "PUT", "/api/dashboards/weekly", unknown)).status, 400);
    assert.equal(await Deno.readTextFile(path), before);
    assert.equal(
      (await call(wb, "PUT", "/api/dashboards/agent-comparison", {
        ...dash,
        id: "agent-comparison",
      })).status,
      400,
    );

    const preview = await call(wb, "POST", "/api/dashboards/preview", { dashboard: dash });
    assert.equal(preview.status, 200);
    assert.match(String(preview.data), /preview, not saved/);
    const report = {
      id: "fs",
      title: "FS weekly",
      filter: { suiteIds: ["fs-basics"] },
      dashboardId: "weekly",
    };
    assert.equal((await call(wb, "POST", "/api/reports", report)).status, 201);
    const view = await call(wb, "GET", "/reports/view/fs");
    assert.equal(view.status, 200);
    assert.match(String(view.data), /FS weekly/);
    assert.match(String(view.data), /2 run\(s\)/);
    // A run folder someone broke by hand is left out, said so, and the report still renders.
    await Deno.mkdir(join(wb.context.runs.dir, "hand-edited"));
    await Deno.writeTextFile(join(wb.context.runs.dir, "hand-edited", "run.json"), "{");
    const still = await call(wb, "GET", "/reports/view/fs");
    assert.equal(still.status, 200, String(still.data));
    assert.match(
      String(still.data),
      /2 run\(s\), .*; 1 run folder\(s\) left out, unusable: Cannot use run &#34;.*hand-edited\/run\.json&#34;: not JSON/,
    );
    if (findChromium() !== null) {
      const res = await fetch(`${wb.url}/api/reports/fs/pdf`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
    } else if (Deno.env.get("CI")) {
      throw new Error("CI: chromium missing for the PDF export check");
    }
  } finally {
    await wb.context.queue.idle();
    await wb.close();
    await Deno.remove(wb.tmp, { recursive: true });
  }
});
