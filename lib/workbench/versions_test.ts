// Ids over the real workbench: an agent id in the URL is checked before it names a folder (the
// versions, then every route taking an id or a path), and no answer says which files exist.
import assert from "node:assert/strict";
import { join } from "node:path";
import { raw, startBareWorkbench } from "../../testing/workbench.ts";

Deno.test("workbench: an agent id that is not one is refused with 400 on versions, never listed nor answered with a path", async () => {
  const wb = await startBareWorkbench();
  try {
    // A folder outside the config holding what looks like a version of agent "x".
    const outside = join(wb.tmp, "outside", "x");
    await Deno.mkdir(outside, { recursive: true });
    const version = { agentId: "x", version: 1, sha256: "0", createdAt: "t", config: {} };
    await Deno.writeTextFile(join(outside, "1.json"), JSON.stringify(version));
    // versions/ is <config>/agents/versions: ../../../outside/x climbs to it.
    for (
      const id of [
        "..%2F..%2F..%2Foutside%2Fx",
        "..%2F..%2F..%2Fnowhere",
        "%2Ftmp",
        "a%2F..%2F..%2Fb",
      ]
    ) {
      for (const method of ["GET", "POST"]) {
        const r = await raw(wb, method, `/api/agents/${id}/versions`);
        assert.equal(r.status, 400, `${method} ${id}: ${r.text}`);
        assert.ok(!r.text.includes(wb.tmp), r.text);
        assert.match(JSON.parse(r.text).error, /^agentId must match/);
      }
    }
    // A valid id still answers.
    const ok = await raw(wb, "GET", "/api/agents/fs-terse-sequential/versions");
    assert.equal(ok.status, 200, ok.text);
  } finally {
    await wb.stop();
  }
});

Deno.test("workbench: every route that takes an id or a path refuses one that climbs out, never with a 5xx, a listing or a path", async () => {
  const wb = await startBareWorkbench({ runner: { run: () => Promise.resolve() } });
  try {
    const outside = join(wb.tmp, "outside", "x");
    await Deno.mkdir(outside, { recursive: true });
    await Deno.writeTextFile(join(outside, "run.json"), '{"marker": "OUTSIDE-7731"}');
    const ids = ["..%2F..%2Foutside", "..%2F..%2F..%2Fnowhere", "%2Ftmp", "a%2F..%2F..%2Fb"];
    const routes = [
      "GET /api/runs/ID",
      "GET /api/runs/ID/events",
      "GET /api/runs/ID/summary",
      "GET /api/runs/ID/cases/ID/ID/1",
      "POST /api/runs/ID/resume",
      "GET /api/suites/ID",
      "PUT /api/suites/ID",
      "DELETE /api/suites/ID",
      "PUT /api/config/agents/ID",
      "DELETE /api/config/agents/ID",
      "GET /api/config/prompts/ID",
      "PUT /api/config/prompts/ID",
      "GET /api/config/ID",
      "PUT /api/config/ID",
      "GET /api/dashboards/ID",
      "PUT /api/dashboards/ID",
      "DELETE /api/dashboards/ID",
      "GET /api/reports/ID",
      "PUT /api/reports/ID",
      "DELETE /api/reports/ID",
      "GET /api/reports/ID/pdf",
      "GET /agents/ID",
      "GET /runs/ID",
      "GET /runs/ID/cases/ID/ID/1",
      "GET /reports/dashboards/ID",
      "GET /reports/dashboards/ID/edit",
      "GET /reports/view/ID",
      "GET /api/agents/ID/versions",
      "POST /api/agents/ID/versions",
      "GET /api/audit?path=ID",
      "GET /audit?path=ID",
      "GET /catalog/report?path=ID",
      "GET /api/compare?agent=ID&suite=ID",
    ];
    for (const route of routes) {
      for (const id of ids) {
        const [method, template] = route.split(" ");
        const path = template.replaceAll("ID", id);
        const r = await raw(
          wb,
          method,
          path,
          method === "PUT" || method === "POST" ? {} : undefined,
        );
        const where = `${method} ${path}: ${r.status} ${r.text.slice(0, 200)}`;
        assert.ok(r.status >= 400 && r.status < 500, where);
        assert.ok(!r.text.includes(wb.tmp), where);
        assert.ok(!r.text.includes("OUTSIDE-7731"), where);
      }
    }
  } finally {
    await wb.stop();
  }
});
