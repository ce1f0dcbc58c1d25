// test:quick skips this file: its tests start processes (deno task test runs them).
// The report flow's comparison page (runReport over synthetic runs, in process) opened in headless
// Chromium (Debian's chromium): no console output, and its screenshot shows coloured chart marks.
// Skipped with a reason when chromium is not installed; a failure when CI is set (.ci/run
// installs it). The CLI (exit codes, the Chromium-missing line) is tested in tasks/report_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeSyntheticRun } from "../../testing/synthetic_runs.ts";
import { CHROMIUM, chromium, colouredPixels, consoleLines } from "../../testing/browser.ts";
import { runReport } from "./report.ts";

if (CHROMIUM === undefined) {
  if (Deno.env.get("CI")) {
    throw new Error("CI: /usr/bin/chromium missing (apt-get install chromium)");
  }
  console.warn("chromium not found (/usr/bin/chromium): dashboard browser test skipped");
}

Deno.test({
  name:
    "runReport: the comparison page opens in headless Chromium without console output and draws charts",
  ignore: CHROMIUM === undefined,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "mcpmeter-report-" });
    try {
      for (const [i, day] of ["2025-03-01", "2025-03-02"].entries()) {
        await writeSyntheticRun(join(root, "runs"), {
          runId: `r${i}`,
          startedAt: `${day}T00:00:00Z`,
          cases: ["c1", "c2", "c3"],
          repetitions: 3,
          agents: ["a", "b"].map((id, k) => ({
            id,
            outcome: (c: number, r: number) => ({
              passed: (c + r + k + i) % 3 !== 0,
              costUsd: 0.001 * (k + 1),
              wallMs: 500 + 100 * c,
              tools: ["fs:read"],
            }),
          })),
        });
      }
      const out = join(root, "out", "dashboard.html");
      const outcome = await runReport({ runs: [join(root, "runs")], filter: {}, out }, {
        progress: () => {},
      });
      assert.equal(outcome.written[0], out);

      // Control: the console scan does see errors, so a clean result below means something.
      const bad = join(root, "bad.html");
      await Deno.writeTextFile(bad, "<!doctype html><script>console.error('x')</script>");
      const control = await chromium(["--dump-dom", `file://${bad}`], join(root, "p0"));
      assert.equal(consoleLines(control.stderr).length, 1, control.stderr);

      const dom = await chromium(["--dump-dom", `file://${out}`], join(root, "p1"));
      assert.equal(dom.code, 0, dom.stderr);
      assert.deepEqual(consoleLines(dom.stderr), []);
      // Plot's marks as the browser parsed them: dots, cells, lines and bars.
      for (const mark of ["dot", "cell", "line", "bar"]) {
        assert.ok(dom.stdout.includes(`aria-label="${mark}"`), `no ${mark} mark`);
      }
      assert.ok((dom.stdout.match(/<svg/g) ?? []).length >= 9);

      const shot = join(root, "shot.png");
      const s = await chromium(
        ["--window-size=1280,5000", `--screenshot=${shot}`, `file://${out}`],
        join(root, "p2"),
      );
      assert.equal(s.code, 0, s.stderr);
      assert.deepEqual(consoleLines(s.stderr), []);
      const png = colouredPixels(await Deno.readFile(shot));
      assert.equal(png.width, 1280);
      // Tables and text are grey or black; charts bring the colour (steelblue, the heatmap's
      // red–green scale, series colours). Control: the same page without its charts keeps only
      // the blue links (about 4,600 pixels here against about 35,000 with charts).
      assert.ok(png.coloured > 5000, `only ${png.coloured} coloured pixels`);
      const plain = join(root, "plain.html");
      await Deno.writeTextFile(
        plain,
        (await Deno.readTextFile(out)).replace(/<figure class="chart">[\s\S]*?<\/figure>\n/g, ""),
      );
      const plainShot = join(root, "plain.png");
      await chromium(
        ["--window-size=1280,5000", `--screenshot=${plainShot}`, `file://${plain}`],
        join(root, "p3"),
      );
      const none = colouredPixels(await Deno.readFile(plainShot));
      assert.ok(
        none.coloured * 4 < png.coloured,
        `tables-only page: ${none.coloured} vs ${png.coloured} coloured`,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
