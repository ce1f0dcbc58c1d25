// test:quick skips this file: it starts the audit task as a child process (deno task test runs it).
// The Audit page over real HTTP: a POST starts a real `deno run tasks/audit.ts` child process
// (the task the page runs) on a config file; the job completes, the page shows the report's
// configs and servers, the Catalog page lists the audit, and paths outside the results folder
// are refused.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWorkbench } from "../server.ts";
import { createAuditService } from "../audit_jobs.ts";

const root = (p: string) => fileURLToPath(new URL(`../../../${p}`, import.meta.url));

Deno.test({
  name: "Audit page: a started audit completes and its report shows; Catalog lists it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-audit-page-" });
    const resultsDir = join(tmp, "results");
    const config = join(tmp, "servers.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({ mcpServers: { broken: { command: "/nonexistent/audit-page-server" } } }),
    );
    const wb = await startWorkbench({
      hostname: "127.0.0.1",
      port: 0,
      configDir: join(tmp, "config"),
      resultsDir,
      agentsExamples: root("fixtures/agents"),
      suitesExamples: root("fixtures/suites"),
      schemasDir: root("lib/agent/schemas"),
      env: {},
      prepareServers: () => Promise.reject(new Error("no MCP servers in this test")),
      audit: createAuditService({
        resultsDir,
        isoNow: () => "2026-12-06T10:00:00.000Z",
        runAudit: async (flags) => {
          const out = await new Deno.Command(Deno.execPath(), {
            args: ["run", "-A", root("tasks/audit.ts"), "--no-install", ...flags],
            cwd: root("."),
            stdout: "null",
            stderr: "piped",
          }).output();
          return { code: out.code, log: new TextDecoder().decode(out.stderr) };
        },
      }),
    });
    const get = async (path: string) => {
      const r = await fetch(`${wb.url}${path}`);
      return { status: r.status, text: await r.text() };
    };
    try {
      const empty = await get("/audit");
      assert.equal(empty.status, 200);
      assert.match(empty.text, /no audit yet/);

      const started = await fetch(`${wb.url}/api/audit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ config }),
      });
      assert.equal(started.status, 202, await started.clone().text());
      assert.deepEqual(await started.json(), {
        jobId: "audit-2026-12-06T10-00-00Z",
        out: join(resultsDir, "audits", "audit-2026-12-06T10-00-00Z.json"),
      });
      const busy = await fetch(`${wb.url}/api/audit`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      });
      assert.equal(busy.status, 409);
      await busy.body?.cancel();
      let jobs: { state: string; log: string }[] = [];
      for (let i = 0; i < 240; i++) {
        jobs = (await (await fetch(`${wb.url}/api/audits`)).json()).jobs;
        if (jobs[0].state !== "running") break;
        await new Promise((r) => setTimeout(r, 500));
      }
      assert.equal(jobs[0].state, "completed", jobs[0].log);

      const shown = await get("/audit");
      assert.equal(shown.status, 200);
      assert.match(shown.text, /Servers config/);
      // providers and formats by name, as the console prints them
      assert.match(shown.text, /billed: Anthropic's count, estimated/);
      assert.match(shown.text, /sent: the Anthropic Messages tools value/);
      assert.match(shown.text, /<td class="wrap">broken<\/td>/);
      // One header per column of a server row, billed (the headline figure) named as such.
      const head = [
        ...shown.text.match(/<thead>([\s\S]*?)<\/thead>/)![1].matchAll(/<th[^>]*>([^<]*)</g),
      ]
        .map((m) => m[1]);
      assert.deepEqual(head, [
        "server",
        "scope",
        "launch",
        "tools",
        "billed",
        "sent",
        "wire",
        "window",
        "status",
      ]);
      const row = shown.text.match(/<tr>\s*<td class="wrap">broken<\/td>([\s\S]*?)<\/tr>/)![0];
      assert.equal(row.match(/<td[ >]/g)!.length, head.length);
      assert.match(shown.text, /spawn_failed/);
      assert.match(shown.text, /href="\/audit\?path=audits%2Faudit-2026-12-06T10-00-00Z\.json"/);
      const catalog = await get("/catalog");
      assert.match(catalog.text, /href="\/audit\?path=audits%2Faudit-2026-12-06T10-00-00Z\.json"/);

      const outside = await get(`/audit?path=${encodeURIComponent("../servers.json")}`);
      assert.equal(outside.status, 400);
      const bad = await fetch(`${wb.url}/api/audit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ home: "--project" }),
      });
      assert.equal(bad.status, 400);
      await bad.body?.cancel();
    } finally {
      await wb.close();
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
