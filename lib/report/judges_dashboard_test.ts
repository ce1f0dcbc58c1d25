import assert from "node:assert/strict";
import * as aq from "arquero";
import { join } from "node:path";
import { runPanelSuite } from "../../testing/judge.ts";
import { loadRuns } from "./load_runs.ts";
import { renderCompareDashboard, tablesToCsv } from "./compare_dashboard.ts";

Deno.test("the comparison dashboard shows judge agreement, kappa and the cases judges disagree on", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-judges-" });
  try {
    await runPanelSuite({ runDir: join(root, "panel") });
    const runs = await loadRuns([root]);
    const { html, tables } = renderCompareDashboard({ runs, csvBase: "dashboard" });
    assert.ok(html.includes('<h2 id="judges">Judge agreement</h2>'));
    const csv = tablesToCsv(tables);
    // By hand (see testing/judge.ts): agreement 3/5, kappa (0.6 − 0.52) / 0.48 = 1/6.
    const judges = aq.fromCSV(csv.judges);
    assert.deepEqual(
      [judges.get("panel_items", 0), judges.get("agreement", 0), judges.get("kappa", 0)],
      [5, 0.6, 0.1667],
    );
    assert.equal(aq.fromCSV(csv.agents).get("judge_kappa", 0), 0.1667);
    const d = aq.fromCSV(csv.disagreements);
    assert.deepEqual(d.array("case"), ["c2", "c5"]);
    assert.equal(d.get("judges", 0), "j1 pass (1/1), j2 fail (0/1)");
    assert.equal(d.get("final_answer", 1), "answer for c5");
    assert.ok(html.includes("j2 pass (1/1)"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
