// test:quick skips this file: its tests start processes (deno task test runs them).
// The workbench in real headless Chromium (Debian chromium via puppeteer-core): open the test
// plans, start a run, watch its live progress reach completion, read the comparison, open a case
// transcript, and see the validation error of a bad agent edit on its field. Skipped with the
// reason when Chromium is absent; with CI set, its absence fails.
import assert from "node:assert/strict";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { api, serve, useScripted } from "../testing/serve.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = await Deno.stat(CHROMIUM).then(() => true, () => false);
if (!hasChromium && !Deno.env.get("CI")) {
  console.warn(`serve_browser_test: skipped: ${CHROMIUM} not found (apt-get install chromium)`);
}

async function launch(profile: string): Promise<Browser> {
  return await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      `--user-data-dir=${profile}`,
    ],
  });
}

const text = (page: Page, sel: string) => page.$eval(sel, (el) => (el.textContent ?? "").trim());

Deno.test({
  name:
    "serve in Chromium: plan, start a run, watch it complete, compare, open a transcript, refuse a bad agent edit",
  ignore: !hasChromium && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  assert.ok(hasChromium, `${CHROMIUM} is required when CI is set`);
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-serve-browser-" });
  const configDir = join(tmp, "config");
  const server = await serve(configDir, join(tmp, "results"));
  const browser = await launch(join(tmp, "profile"));
  const errors: string[] = [];
  try {
    await useScripted(server, "fs-terse-sequential");
    const page = await browser.newPage();
    page.on("pageerror", (e) => errors.push(String(e)));

    // Test plans: the suite, its cases and the run form.
    await page.goto(`${server.url}/plans`, { waitUntil: "load" });
    const suite = 'section[data-suite="fs-basics"]';
    assert.equal((await page.$$(`${suite} tbody tr`)).length, 3);
    await page.click(`${suite} input[name=agent][value="fs-terse-sequential"]`);
    await page.$eval(
      `${suite} input[name=repetitions]`,
      (el) => (el as HTMLInputElement).value = "3",
    );
    await page.$eval(
      `${suite} input[name=concurrency]`,
      (el) => (el as HTMLInputElement).value = "1",
    );
    await Promise.all([page.waitForNavigation(), page.click(`${suite} button[type=submit]`)]);
    assert.match(page.url(), /\/runs\/fs-basics-\d{8}T\d{6}Z$/);

    // The run page opens while the run is live, then reloads itself when it completes.
    const first = await page.$eval("#run-header", (el) => (el as HTMLElement).dataset.state);
    assert.ok(first === "queued" || first === "running", `state on arrival: ${first}`);
    await page.waitForSelector("#agent-comparison", { timeout: 120_000 });
    assert.equal(
      await page.$eval("#run-header", (el) => (el as HTMLElement).dataset.state),
      "completed",
    );
    assert.equal(await text(page, "#p-done"), "9");
    assert.equal(await text(page, "#p-planned"), "9");
    assert.equal((await page.$$("#case-log .case-line")).length, 9);

    // The comparison shows the API's figures.
    const runId = page.url().split("/").pop()!;
    const summary = (await api(server, "GET", `/api/runs/${runId}/summary`)).data;
    const run = (await api(server, "GET", `/api/runs/${runId}`)).data;
    const errored = run.results.filter((r: { error: unknown }) => r.error !== null);
    assert.deepEqual(errored.map((r: { error: unknown }) => r.error), [], "no case errored");
    const row = summary.comparison[0];
    assert.equal(
      await text(page, '#agent-comparison tr[data-agent="fs-terse-sequential"] .pass-rate'),
      `${(row.passRate * 100).toFixed(1)}%`,
    );
    assert.equal((await page.$$("#cases tbody tr")).length, 9);

    // One click to a case's transcript.
    await page.$eval("#cases .transcript-link", (el) => (el as HTMLElement).click());
    await page.waitForSelector("#transcript .msg.user");
    assert.ok((await page.$$("#transcript .msg.assistant")).length >= 1);
    assert.ok((await page.$$("#tool-calls tbody tr")).length >= 1);

    // Config: a bad value is refused on its field, and the file is left as it was.
    const file = join(configDir, "agents", "fs-terse-sequential.json");
    const before = await Deno.readTextFile(file);
    await page.goto(`${server.url}/config`, { waitUntil: "load" });
    const form = 'form[data-id="fs-terse-sequential"]';
    await page.$eval(
      `${form} input[name=maxIterations]`,
      (el) => (el as HTMLInputElement).value = "0",
    );
    await page.click(`${form} button[type=submit]`);
    await page.waitForSelector(`${form} .field[data-field="maxIterations"].invalid .field-error`);
    assert.match(
      await text(page, `${form} .field[data-field="maxIterations"] .field-error`),
      /maxIterations.*must be >= 1/,
    );
    assert.equal(await Deno.readTextFile(file), before);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
});
