// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task report as a CLI. The flow's pages in a real browser are tested in
// lib/flows/report_test.ts (the comparison page) and lib/flows/report_pdf_test.ts (the PDF
// export); tasks/permissions_test.ts runs the task's page and --pdf under its own permissions.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeSyntheticRun } from "../testing/synthetic_runs.ts";
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

Deno.test("report over a folder of runs: an unusable run is left out with a warning naming it, the rest reported (exit 0)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-report-skip-" });
  try {
    const runs = join(dir, "runs");
    for (const [id, agent] of [["r1", "alpha"], ["r2", "beta"]]) {
      await writeSyntheticRun(runs, {
        runId: id,
        startedAt: "2025-03-01T10:00:00Z",
        cases: ["c1"],
        repetitions: 1,
        agents: [{ id: agent, outcome: () => ({ passed: true, costUsd: 0.001 }) }],
      });
    }
    await Deno.mkdir(join(runs, "r3"));
    await Deno.writeTextFile(join(runs, "r3", "run.json"), '{"suite": {"id": "s"}}');
    const page = join(dir, "page.html");
    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", fromRoot("tasks/report.ts"), ...args],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const out = await run(["--runs", join(runs, "*"), "--out", page]);
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, err);
    assert.match(
      err,
      /^mcpmeter report: warning: left out: Cannot use run ".*r3\/run\.json": field "startedAt" is missing$/m,
    );
    const html = await Deno.readTextFile(page);
    assert.ok(html.includes("alpha") && html.includes("beta"), "both good runs on the page");
    // Named alone, the broken run is still an error (exit 2): nothing would be left to report.
    const alone = await run(["--runs", join(runs, "r3"), "--out", page]);
    assert.equal(alone.code, 2);
    assert.match(new TextDecoder().decode(alone.stderr), /error: Cannot use run .*r3\/run\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report --out: a folder given to the single page gets dashboard.html inside; a .html name given to a folder mode is refused (exit 2)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-report-out-" });
  try {
    const runs = join(dir, "runs");
    await writeSyntheticRun(runs, {
      runId: "r1",
      startedAt: "2025-03-01T10:00:00Z",
      cases: ["c1"],
      repetitions: 1,
      agents: [{ id: "alpha", outcome: () => ({ passed: true, costUsd: 0.001 }) }],
    });
    const run = async (args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", fromRoot("tasks/report.ts"), "--runs", runs, ...args],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
    };
    // An existing folder, and a new one written with a trailing slash.
    await Deno.mkdir(join(dir, "site"));
    for (const out of [join(dir, "site"), join(dir, "fresh") + "/"]) {
      const r = await run(["--out", out]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok((await Deno.stat(join(out, "dashboard.html"))).isFile, out);
    }
    const bad = await run(["--dashboard", "agent-comparison", "--out", join(dir, "page.html")]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(
      bad.stderr,
      /error: --out .*page\.html: with --dashboard or --report --out is a folder .*give a folder, e\.g\. --out .*\/page$/m,
    );
    await assert.rejects(() => Deno.stat(join(dir, "page.html")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
