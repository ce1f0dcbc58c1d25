// The closing summary of deno task demo-agents over synthetic run folders: pass rates by hand,
// an agent with only infrastructure errors shown without one, the sweep left out, and the next
// steps pointing at the folders the workbench and the dashboard read.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeSyntheticRun } from "../../testing/synthetic_runs.ts";
import { demoSummary } from "./demo.ts";
import { denoFlowIo } from "./io.ts";

Deno.test("demoSummary(): each agent's pass rate in its latest run, none where nothing was scored, then the next steps", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-demo-summary-" });
  try {
    const runs = join(tmp, "demo", "runs");
    const dirs = [];
    for (const [n, day] of [[1, "01"], [2, "02"]] as const) {
      dirs.push(
        await writeSyntheticRun(runs, {
          runId: `demo-s-${n}`,
          suiteId: "s",
          startedAt: `2025-01-${day}T00:00:00Z`,
          cases: ["c0", "c1", "c2"],
          repetitions: 1,
          agents: [
            // Run 1: "ok" passes c0 only; run 2 (the latest): c0 and c1 pass, c2 errs.
            {
              id: "ok",
              outcome: (c) =>
                n === 1
                  ? { passed: c === 0 }
                  : c === 2
                  ? { passed: null, error: "timeout" }
                  : { passed: true },
            },
            { id: "down", outcome: () => ({ passed: null, error: "mcp" }) },
          ],
        }),
      );
    }
    const io = denoFlowIo();
    const lines = await demoSummary(dirs, join(tmp, "demo"), "http://127.0.0.1:5088", io);
    assert.deepEqual(lines.slice(2), [
      "  s (demo-s-2)",
      // 2 passed of the 2 scored (the timeout has no verdict): 100.0%.
      "    down       –  no scored case (3 infrastructure errors)",
      "    ok    100.0%  2 of 2 passed (1 infrastructure error not scored)",
      "Next:",
      `  deno task serve --results ${tmp}, then open http://127.0.0.1:5088/runs (the demo's runs are labelled demo)`,
      `  deno task report --runs '${runs}/*'   (the comparison dashboard, results/compare/dashboard.html)`,
    ]);
    assert.match(lines[0], /simulated: a scripted model answered/);

    // Runs kept outside a "demo" folder are not in the workbench: the line says where they are.
    const other = await demoSummary(dirs, join(tmp, "elsewhere"), "http://x", io);
    assert.match(
      other.join("\n"),
      /workbench lists RESULTS\/demo\/runs only \(deno task serve --results RESULTS\); these are in .*elsewhere\/runs/,
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
