// test:quick skips this file: its tests start processes (deno task test runs them).
// The bench dashboard in real headless Chromium (Debian chromium via puppeteer-core) on a narrow
// screen: the page keeps the screen's width, and a table wider than it scrolls in its own box.
import assert from "node:assert/strict";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { renderDashboard } from "./dashboard.ts";
import { tinyBenchReport, tinyCostLayers } from "../../testing/report.ts";
import { findChromium } from "./pdf.ts";

Deno.test({
  name: "the bench dashboard fits a 480 px screen: wide tables scroll sideways inside the page",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const chromium = findChromium();
    if (chromium === null) {
      if (Deno.env.get("CI")) throw new Error("CI: chromium missing for the dashboard check");
      return;
    }
    const tmp = await Deno.makeTempDir();
    const browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", `--user-data-dir=${join(tmp, "p")}`],
    });
    try {
      const file = join(tmp, "dashboard.html");
      await Deno.writeTextFile(file, renderDashboard(tinyBenchReport()));
      const page = await browser.newPage();
      await page.setViewport({ width: 480, height: 800 });
      await page.goto(`file://${file}`);
      const seen = await page.evaluate(() => {
        const tables = [...document.querySelectorAll("table")];
        return {
          pageWidth: document.documentElement.scrollWidth,
          tables: tables.length,
          // Tables wider than the screen, and whether each scrolls in a box of the page's width.
          wide: tables.filter((t) => t.scrollWidth > 480).map((t) => {
            const box = t.parentElement!;
            return {
              scrolls: getComputedStyle(box).overflowX === "auto",
              boxRight: Math.round(box.getBoundingClientRect().right),
            };
          }),
        };
      });
      assert.ok(seen.tables > 0, JSON.stringify(seen));
      assert.ok(seen.wide.length > 0, `no table is wider than 480 px: ${JSON.stringify(seen)}`);
      assert.equal(seen.pageWidth, 480, JSON.stringify(seen));
      for (const w of seen.wide) assert.ok(w.scrolls && w.boxRight <= 480, JSON.stringify(seen));
    } finally {
      await browser.close();
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test({
  name: "the bench dashboard in Chromium: the first number a reader meets is the billed figure",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const chromium = findChromium();
    if (chromium === null) {
      if (Deno.env.get("CI")) throw new Error("CI: chromium missing for the dashboard check");
      return;
    }
    const tmp = await Deno.makeTempDir();
    const browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", `--user-data-dir=${join(tmp, "p")}`],
    });
    try {
      const file = join(tmp, "dashboard.html");
      const report = { ...tinyBenchReport(), costLayers: tinyCostLayers() };
      await Deno.writeTextFile(file, renderDashboard(report));
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.setViewport({ width: 480, height: 800 });
      await page.goto(`file://${file}`);
      const seen = await page.evaluate(() => {
        const text = document.body.innerText;
        const section = [...document.querySelectorAll("h2")][0];
        // Charts right after the headline: the layers' bars, then the field shares.
        const charts = [...document.querySelectorAll("svg")].filter((s) =>
          s.getBoundingClientRect().width > 100
        ).length;
        return {
          firstNumber: text.match(/\d[\d,]*/)?.[0],
          firstLine: text.split("\n").find((l) => /\d/.test(l)),
          firstHeading: section?.textContent,
          charts,
          pageWidth: document.documentElement.scrollWidth,
        };
      });
      // tinyCostLayers: Anthropic's count of corpus c is 1,500 tokens (claude-x).
      assert.equal(seen.firstNumber, "1,500", JSON.stringify(seen));
      assert.match(seen.firstLine ?? "", /^1,500 tokens billed by Anthropic .* measured/);
      assert.equal(seen.firstHeading, "What a request carrying the catalog costs");
      assert.ok(seen.charts >= 2, JSON.stringify(seen));
      assert.equal(seen.pageWidth, 480, JSON.stringify(seen));
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await Deno.remove(tmp, { recursive: true });
    }
  },
});
