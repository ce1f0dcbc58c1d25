import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BUILTIN_DASHBOARDS,
  DashboardError,
  validateDashboard,
  validateReport,
} from "./dashboards.ts";
import { loadDashboards, saveDashboard, saveReport } from "./load_dashboards.ts";
import { createRegistry } from "./viz/registry.ts";

const registry = createRegistry();
const good = {
  id: "weekly",
  title: "Weekly",
  sections: [{ title: "S", visualizations: [{ ref: "agent-average-correctness", title: "Pass" }] }],
};

Deno.test("the three built-in dashboards exist and every ref resolves", () => {
  assert.deepEqual(BUILTIN_DASHBOARDS.map((d) => d.id), [
    "agent-comparison",
    "trends-over-time",
    "reliability-diagnostics",
  ]);
  for (const d of BUILTIN_DASHBOARDS) validateDashboard(d, registry, d.id);
});

Deno.test("validateDashboard() refuses an unknown ref and names the field", () => {
  const bad = structuredClone(good);
  bad.sections[0].visualizations.push({ ref: "agent-average-corectness", title: "typo" });
  assert.throws(() => validateDashboard(bad, registry), (e: unknown) => {
    assert.ok(e instanceof DashboardError);
    assert.equal(e.field, "sections[0].visualizations[1].ref");
    assert.match(e.message, /unknown visualization "agent-average-corectness"/);
    return true;
  });
});

Deno.test("validateDashboard() refuses unknown keys and empty sections", () => {
  assert.throws(() => validateDashboard({ ...good, extra: 1 }, registry), /Unrecognized key/);
  assert.throws(() => validateDashboard({ ...good, sections: [] }, registry), /sections/);
  assert.throws(() => validateDashboard({ ...good, id: "Bad Id" }, registry), /^.*id /);
});

Deno.test("saveDashboard() refuses an unknown ref and leaves the saved file unchanged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-dash-" });
  try {
    await saveDashboard(dir, good, registry);
    const path = join(dir, "weekly.json");
    const before = await Deno.readTextFile(path);
    assert.deepEqual(JSON.parse(before), good);
    const edited = structuredClone(good);
    edited.title = "Changed";
    edited.sections[0].visualizations[0].ref = "no-such-chart";
    await assert.rejects(() => saveDashboard(dir, edited, registry), DashboardError);
    assert.equal(await Deno.readTextFile(path), before);
    // Nothing else was left in the folder (no temporary file).
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assert.deepEqual(names, ["weekly.json"]);
    // A built-in id cannot be overwritten.
    await assert.rejects(
      () => saveDashboard(dir, { ...good, id: "agent-comparison" }, registry),
      /built-in/,
    );
    const all = await loadDashboards(dir, registry);
    assert.deepEqual(all.map((d) => d.id), [...BUILTIN_DASHBOARDS.map((d) => d.id), "weekly"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validateReport() checks the filter dates and the dashboard id", async () => {
  const r = {
    id: "r1",
    title: "R",
    filter: { suiteIds: ["fs_basics"], from: "2025-01-01" },
    dashboardId: "weekly",
  };
  assert.deepEqual(validateReport(r, ["weekly"]), r);
  assert.throws(
    () => validateReport({ ...r, filter: { from: "yesterday" } }, ["weekly"]),
    /filter\.from/,
  );
  assert.throws(() => validateReport(r, ["agent-comparison"]), /unknown dashboard "weekly"/);
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-rep-" });
  try {
    await assert.rejects(() => saveReport(dir, r, ["agent-comparison"]), DashboardError);
    assert.equal([...Deno.readDirSync(dir)].length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
