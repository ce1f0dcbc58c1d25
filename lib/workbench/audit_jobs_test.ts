// The Audit page's fields as typed: `~` is the home folder (the Catalog page's rule), a relative
// path starts in the workbench's folder, and a folder or file that is not there is the field's
// error before any audit starts. The audit child is the injected runner, recording its flags
// (audit_page_test.ts runs the real task).
import assert from "node:assert/strict";
import { join } from "node:path";
import { createAuditService } from "./audit_jobs.ts";
import { WorkbenchError } from "./_paths.ts";

Deno.test("audit service: ~ and relative fields become absolute paths; missing ones are field errors", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpmeter-audit-jobs-" }));
  try {
    const home = join(tmp, "home");
    const work = join(tmp, "work");
    await Deno.mkdir(join(home, "proj"), { recursive: true });
    await Deno.mkdir(join(work, "here"), { recursive: true });
    await Deno.writeTextFile(join(home, "mcp.json"), "{}");
    const started: (readonly string[])[] = [];
    const service = createAuditService({
      resultsDir: join(tmp, "results"),
      home,
      from: work,
      isoNow: () => "2026-12-07T03:00:00.000Z",
      runAudit: (flags) => {
        started.push(flags);
        return Promise.resolve({ code: 1, log: "" });
      },
    });
    const refused = async (request: Record<string, string>, field: string, message: string) => {
      const error = await service.start(request).then(() => null, (e) => e);
      assert.ok(error instanceof WorkbenchError, String(error));
      assert.deepEqual([error.status, error.field, error.message], [400, field, message]);
    };
    // The trial's case: a home under ~ that does not exist.
    await refused({ home: "~/trial6-home" }, "home", `field "home": no folder ${home}/trial6-home`);
    await refused({ project: "gone" }, "project", `field "project": no folder ${work}/gone`);
    await refused(
      { project: "~/mcp.json" },
      "project",
      `field "project": no folder ${home}/mcp.json (a file is there)`,
    );
    await refused({ config: "~" }, "config", `field "config": no file ${home} (a folder is there)`);
    // One bad field refuses the request even when the others are good.
    await refused(
      { project: "here", home: "~/nope" },
      "home",
      `field "home": no folder ${home}/nope`,
    );
    assert.deepEqual(started, []);
    assert.deepEqual(service.jobs(), []);

    const job = await service.start({ project: "here", config: "~/mcp.json", home: "~" });
    const out = join(tmp, "results", "audits", "audit-2026-12-07T03-00-00Z.json");
    assert.deepEqual(job, { jobId: "audit-2026-12-07T03-00-00Z", out });
    assert.deepEqual(started, [[
      "--project",
      join(work, "here"),
      "--config",
      join(home, "mcp.json"),
      "--home",
      home,
      "--out",
      out,
    ]]);
    assert.deepEqual(service.jobs()[0].request, {
      project: join(work, "here"),
      config: join(home, "mcp.json"),
      home,
    });
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
