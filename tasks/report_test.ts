// deno task report as a CLI. The flow's pages in a real browser are tested in
// lib/flows/report_test.ts (the comparison page) and lib/flows/report_pdf_test.ts (the PDF
// export); tasks/permissions_test.ts runs the task's page and --pdf under its own permissions.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeSyntheticRun } from "../lib/report/_synthetic_runs.ts";
import { fromRoot } from "./_cli.ts";

Deno.test("report --pdf when Chromium is missing: one line saying how to install it, exit 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-pdf-" });
  try {
    const runs = join(dir, "runs");
    await writeSyntheticRun(runs, {
      runId: "r1",
      startedAt: "2025-03-01T10:00:00Z",
      cases: ["c1", "c2"],
      repetitions: 1,
      agents: [{ id: "alpha", outcome: (c) => ({ passed: c !== 1, costUsd: 0.001 }) }],
    });
    const args = ["--runs", runs, "--dashboard", "agent-comparison", "--out", join(dir, "o")];
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", fromRoot("tasks/report.ts"), ...args, "--pdf", join(dir, "x.pdf")],
      env: { CHROMIUM_PATH: "/nonexistent/chromium", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, err);
    const errors = err.split("\n").filter((l) => l.includes("error"));
    assert.equal(errors.length, 1, err);
    assert.match(errors[0], /no Chromium at \/nonexistent\/chromium .*apt-get install -y chromium/);
    // The page itself was written before the PDF step.
    assert.ok((await Deno.stat(join(dir, "o", "index.html"))).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
