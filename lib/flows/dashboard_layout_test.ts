// test:quick skips this file: its tests start processes (deno task test runs them).
// Dashboards as a reader sees them in real headless Chromium (Debian chromium through
// puppeteer-core): the bench dashboard of a bench with retrieval leaves no table cut at a
// 1,400 px screen, and the agent-comparison dashboard printed (A4, print styles) breaks no
// header inside a word. Skipped with a reason when chromium is missing; a failure when CI is set.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "puppeteer-core";
import { runBench } from "./bench.ts";
import { denoFlowIo } from "./io.ts";
import { renderDashboard } from "../report/dashboard.ts";
import { renderDashboardPage } from "../report/dashboard_page.ts";
import { BUILTIN_DASHBOARDS } from "../report/dashboards.ts";
import { createRegistry } from "../report/viz/registry.ts";
import { agentRunRecords } from "../report/viz/records.ts";
import { loadRuns } from "../report/load_runs.ts";
import { CHROMIUM, launchChromium } from "../../testing/browser.ts";
import { writeMiniCatalog, writeMiniGolden } from "../../testing/catalogs.ts";
import { writeSyntheticRun } from "../../testing/synthetic_runs.ts";

if (CHROMIUM === undefined) {
  if (Deno.env.get("CI")) throw new Error("CI: chromium missing (apt-get install -y chromium)");
  console.warn("dashboard_layout_test: skipped: chromium not found");
}

/** Tables wider than the box they sit in, with their first header. */
const cutTables = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("table")].filter((t) =>
      t.scrollWidth > t.parentElement!.clientWidth + 1
    ).map((t) => `${t.querySelector("th")?.textContent}: ${t.scrollWidth} px`)
  );

Deno.test({
  name: "the bench dashboard of a bench with retrieval cuts no table at 1,400 px",
  ignore: CHROMIUM === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-dash-layout-" });
  const browser = await launchChromium(join(tmp, "profile"));
  try {
    const corpus = await writeMiniCatalog(tmp, "mine");
    await writeMiniGolden(join(tmp, "mine.test.json"), "mine");
    const report = await runBench(
      { corpora: [corpus], golden: [join(tmp, "mine.test.json")], resamples: 50 },
      { ...denoFlowIo(), progress: () => {} },
    );
    assert.ok((report.retrieval ?? []).length > 0);
    const html = renderDashboard(report);
    // One corpus: named once, not in a column of every retrieval row.
    assert.match(html, /<p class="note">Corpus: mine\.<\/p>/);
    await Deno.writeTextFile(join(tmp, "dashboard.html"), html);
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(`file://${join(tmp, "dashboard.html")}`, { waitUntil: "load" });
    assert.deepEqual(await cutTables(page), []);
  } finally {
    await browser.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test({
  name: "the agent-comparison dashboard printed breaks no table header inside a word",
  ignore: CHROMIUM === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-dash-print-" });
  const browser = await launchChromium(join(tmp, "profile"));
  try {
    const agent = (id: string, costUsd: number) => ({
      id,
      outcome: (c: number, r: number) => ({ passed: (c + r) % 3 !== 0, costUsd }),
    });
    await writeSyntheticRun(tmp, {
      runId: "r1",
      startedAt: "2026-01-01T00:00:00.000Z",
      cases: ["a", "b", "c"],
      repetitions: 3,
      agents: [agent("all-terse-parallel__tools-all", 0.0348), agent("cheaper-model", 0.0049)],
    });
    const records = agentRunRecords(await loadRuns([tmp]));
    const dashboard = BUILTIN_DASHBOARDS.find((d) => d.id === "agent-comparison")!;
    const { html } = renderDashboardPage({
      dashboard,
      records,
      registry: createRegistry([]),
      print: true,
    });
    await Deno.writeTextFile(join(tmp, "print.html"), html);
    const page = await browser.newPage();
    // The A4 text width at 96 px an inch: 210 mm less two 12 mm margins.
    await page.setViewport({ width: Math.round((186 / 25.4) * 96), height: 1100 });
    await page.emulateMediaType("print");
    await page.goto(`file://${join(tmp, "print.html")}`, { waitUntil: "load" });
    const split = await page.evaluate(() => {
      const out: string[] = [];
      for (const th of document.querySelectorAll("th")) {
        const node = th.firstChild;
        if (node === null || node.nodeType !== Node.TEXT_NODE) continue;
        const text = node.textContent ?? "";
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index!);
          range.setEnd(node, m.index! + m[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(`${text} (${m[0]})`);
        }
      }
      return out;
    });
    const headers = await page.$$eval("th", (ths) => ths.length);
    assert.ok(headers > 10, `${headers} headers`);
    assert.deepEqual(split, []);
  } finally {
    await browser.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test({
  name:
    "the comparison dashboard cuts neither the agent nor the forecast table at 1,400 px; the forecast writes wall time as the CLI does",
  ignore: CHROMIUM === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const { renderCompareDashboard } = await import("../report/compare_dashboard.ts");
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-dash-compare-" });
  const browser = await launchChromium(join(tmp, "profile"));
  try {
    // A sweep agent's long id, and agents that differ (as the demo's do).
    const agent = (id: string, costUsd: number, wallMs: number) => ({
      id,
      outcome: (c: number, r: number) => ({ passed: (c + r) % 4 !== 0, costUsd, wallMs }),
    });
    for (const suiteId of ["fs-basics", "memory-graph"]) {
      await writeSyntheticRun(tmp, {
        runId: `r-${suiteId}`,
        suiteId,
        startedAt: "2026-01-01T00:00:00.000Z",
        cases: ["a", "b", "c"],
        repetitions: 3,
        agents: [
          agent("baseline", 0.0349, 1200),
          agent("baseline__tools-fs-list_-fs-read_text_file", 0.0071, 900),
          agent("cheaper-model", 0.005, 1500),
          agent("via-proxy", 0.0209, 12),
        ],
      });
    }
    const { html } = renderCompareDashboard({ runs: await loadRuns([tmp]) });
    // 10,000 questions one at a time: at 12 ms each 2.0 min (it said 0.0 h), at 1.2 s 3.3 h.
    assert.match(html, />2\.0 min \[2\.0 min–2\.0 min\]</);
    assert.match(html, />3\.3 h \[3\.3 h–3\.3 h\]</);
    assert.doesNotMatch(html, />0\.0 h/);
    await Deno.writeTextFile(join(tmp, "dashboard.html"), html);
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(`file://${join(tmp, "dashboard.html")}`, { waitUntil: "load" });
    const cut = await cutTables(page);
    assert.deepEqual(cut.filter((t) => !t.startsWith("parameter")), []);
  } finally {
    await browser.close();
    await Deno.remove(tmp, { recursive: true });
  }
});
