// test:quick skips this file: its tests start processes (deno task test runs them).
// Every workbench page in real headless Chromium (Debian chromium via puppeteer-core): each one
// loads with its navigation and without a script error, and the controllers the other browser
// test does not reach work: a chat answered by a scripted agent over its real MCP server, a
// report saved from the Reports form, and the dashboard editor's live preview. Skipped with the
// reason when Chromium is absent; with CI set, its absence fails.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "puppeteer-core";
import { api, serve, useScripted } from "../testing/serve.ts";
import { CHROMIUM, launchChromium } from "../testing/browser.ts";

if (CHROMIUM === undefined && !Deno.env.get("CI")) {
  console.warn("serve_pages_browser_test: skipped: chromium not found (apt-get install chromium)");
}

const text = (page: Page, sel: string) => page.$eval(sel, (el) => (el.textContent ?? "").trim());

Deno.test({
  name:
    "serve in Chromium: every page loads with its navigation and no script error; chat, the report form, the dashboard editor, an agent's page and a key-free judged run work",
  ignore: CHROMIUM === undefined && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  assert.ok(CHROMIUM, "chromium is required when CI is set");
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-serve-pages-" });
  const server = await serve(join(tmp, "config"), join(tmp, "results"));
  const browser = await launchChromium(join(tmp, "profile"));
  const errors: string[] = [];
  try {
    await useScripted(server, "fs-terse-sequential");
    const page = await browser.newPage();
    page.on("pageerror", (e) => errors.push(`${page.url()}: ${e}`));
    // A refusal the test provokes (a 4xx answer) is logged by Chromium too; anything else counts.
    page.on("console", (m) => {
      if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) {
        errors.push(`${page.url()}: ${m.text()}`);
      }
    });
    const pages = [
      "/plans",
      "/runs",
      "/chat",
      ...["agents", "models", "servers", "suites", "tool-prices", "prompts"].map((t) =>
        `/config?tab=${t}`
      ),
      "/catalog",
      "/audit",
      "/reports",
      "/reports/dashboards/agent-comparison",
      "/reports/dashboards/agent-comparison/edit",
      "/compare",
    ];
    for (const path of pages) {
      const res = await page.goto(`${server.url}${path}`, { waitUntil: "load" });
      assert.equal(res?.status(), 200, path);
      assert.ok((await page.$$("header nav a")).length >= 6, `${path}: navigation`);
    }

    // Chat without an API key: fs-careful-sequential's own model is claude (no key here); the
    // Model choice offers the scripted one, labelled simulated, as the run form does, and the
    // agent answers through it from the real filesystem server.
    await page.goto(`${server.url}/chat`, { waitUntil: "load" });
    await page.select("select[name=agentId]", "fs-careful-sequential");
    const modelOptions = await page.$$eval(
      "select[name=model] option",
      (os) => os.map((o) => o.textContent),
    );
    assert.equal(modelOptions[0], "the agent's own");
    assert.ok(modelOptions.includes("scripted (anthropic, simulated)"), String(modelOptions));
    assert.ok(!modelOptions.some((o) => /embed/.test(o ?? "")), String(modelOptions));
    await page.select("select[name=model]", "scripted");
    assert.deepEqual(
      await page.$$eval("#chat-log > *", (els) => els.map((e) => e.textContent)),
      ["New conversation with fs-careful-sequential through scripted."],
    );
    await page.type("input[name=message]", "How many lines does notes/todo.txt have?");
    await page.click("#chat-form button[type=submit]");
    await page.waitForSelector("#chat-log .msg.answer", { timeout: 120_000 });
    assert.equal(await text(page, "#chat-log .msg.answer pre"), "5");
    assert.ok((await page.$$("#chat-log .tool-call")).length >= 1, "tool calls shown");
    const chatLog = await text(page, "#chat-log");
    assert.match(chatLog, /model scripted \(simulated\)/);
    assert.match(chatLog, /\(simulated: a scripted model, not a bill\)/);
    assert.equal(await page.$("#chat-log .placeholder"), null);
    // The conversation scrolls in its box: the input stays below it, on screen, clear of the
    // sticky header, and the page itself does not scroll.
    const layout = await page.evaluate(() => {
      const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
      return {
        header: box("header").bottom,
        log: box("#chat-log").bottom,
        input: { top: box("input[name=message]").top, bottom: box("input[name=message]").bottom },
        viewport: innerHeight,
        scrolled: scrollY,
      };
    });
    assert.ok(layout.input.top >= layout.log, `input below the log: ${JSON.stringify(layout)}`);
    assert.ok(
      layout.input.top > layout.header,
      `input clear of the header: ${JSON.stringify(layout)}`,
    );
    assert.ok(layout.input.bottom <= layout.viewport, `input on screen: ${JSON.stringify(layout)}`);
    assert.equal(layout.scrolled, 0);
    // Another agent: the old conversation goes.
    await page.select("select[name=agentId]", "fs-terse-sequential");
    assert.deepEqual(
      await page.$$eval("#chat-log > *", (els) => els.map((e) => e.textContent)),
      ["New conversation with fs-terse-sequential through scripted."],
    );
    // A model that is not a registered chat model is refused on the field, in the stream.
    const refused = await (await fetch(`${server.url}/api/chat/x1`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ agentId: "fs-terse-sequential", message: "hi", model: "nope" }),
    })).text();
    assert.match(refused, /field \\"model\\": \\"nope\\" is not a registered chat model/);

    // Reports: the form saves a report and the list shows it.
    await page.goto(`${server.url}/reports`, { waitUntil: "load" });
    await page.type("#rep-form input[name=id]", "weekly");
    await page.type("#rep-form input[name=title]", "Weekly");
    await page.type("#rep-form input[name=suiteIds]", "fs-basics");
    await Promise.all([page.waitForNavigation(), page.click("#rep-form button")]);
    const saved = (await api(server, "GET", "/api/reports/weekly")).data;
    assert.deepEqual(saved.filter, { suiteIds: ["fs-basics"] });
    assert.ok((await page.$('a[href="/reports/view/weekly"]')) !== null);
    // A refused save says why beside the form.
    await page.type("#rep-form input[name=id]", "monthly");
    await page.type("#rep-form input[name=title]", "Monthly");
    await page.type("#rep-form input[name=from]", "last week");
    await page.click("#rep-form button");
    await page.waitForSelector("#rep-status.field-error");
    assert.match(await text(page, "#rep-status"), /from/);
    assert.equal((await api(server, "GET", "/api/reports/monthly")).status, 404);

    // The dashboard editor previews without saving, and saves a copy of a built-in one.
    await page.goto(`${server.url}/reports/dashboards/agent-comparison/edit`, {
      waitUntil: "load",
    });
    await page.waitForFunction(() =>
      document.querySelector("#dash-status")?.textContent === "preview up to date (not saved)"
    );
    const frame = await page.$eval("#dash-preview", (f) => (f as HTMLIFrameElement).srcdoc);
    assert.match(frame, /<html/);
    await page.click("#dash-form button");
    await page.waitForFunction(() =>
      document.querySelector("#dash-status")?.textContent === "saved as agent-comparison-copy"
    );
    assert.equal(
      (await api(server, "GET", "/api/dashboards/agent-comparison-copy")).status,
      200,
    );

    // Agents: a new (blank) agent opens on its page; saved, versioned, deleted there.
    await page.goto(`${server.url}/agents`, { waitUntil: "load" });
    await page.type("#new-agent input[name=id]", "my-agent");
    await Promise.all([page.waitForNavigation(), page.click("#new-agent button[type=submit]")]);
    assert.equal(new URL(page.url()).pathname, "/agents/my-agent");
    await page.select("form[data-save=agent] select[name=model]", "scripted");
    await page.click("form[data-save=agent] input[name=mcpServers][value=fs]");
    await page.click("form[data-save=agent] button[type=submit]");
    await page.waitForFunction(() =>
      document.querySelector("form[data-save=agent] .saved")?.textContent === "saved"
    );
    const written = (await api(server, "GET", "/api/config/agents")).data.agents.find((
      a: { id: string },
    ) => a.id === "my-agent");
    assert.deepEqual([written.model, written.mcpServers], ["scripted", ["fs"]]);
    await Promise.all([page.waitForNavigation(), page.click("#cut-version")]);
    assert.match(await text(page, "#versions"), /The live configuration equals v1/);
    page.once("dialog", (d) => d.accept());
    await Promise.all([page.waitForNavigation(), page.click("#delete-agent")]);
    assert.equal(new URL(page.url()).pathname, "/agents");
    assert.equal(await page.$('#agents tr[data-agent="my-agent"]'), null);

    // Servers: a Claude Desktop entry pasted on Config › Servers is added to servers.json.
    await page.goto(`${server.url}/config?tab=servers`, { waitUntil: "load" });
    await page.type(
      "#import-servers textarea[name=text]",
      `"notes": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }`,
    );
    await Promise.all([page.waitForNavigation(), page.click("#import-servers button")]);
    assert.match(await text(page, ".saved-note"), /^Added: notes\.$/);
    assert.ok((await page.$('.server[data-name="notes"]')) !== null);
    const servers = (await api(server, "GET", "/api/config/servers")).data.mcpServers;
    assert.deepEqual(servers.notes, {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-memory"],
    });

    // A judged suite runs without a key: the scripted model answers and the scripted judge judges.
    await page.goto(`${server.url}/plans`, { waitUntil: "load" });
    const judged = 'form.run-form[data-suite="memory-graph"]';
    await page.click(`${judged} input[name=agent][value="all-terse-parallel"]`);
    await page.select(`${judged} select[name=model]`, "scripted");
    await page.select(`${judged} select[name=judge]`, "scripted");
    await Promise.all([page.waitForNavigation(), page.click(`${judged} button[type=submit]`)]);
    await page.waitForSelector("#agent-comparison", { timeout: 120_000 });
    const runId = page.url().split("/").pop()!;
    const run = (await api(server, "GET", `/api/runs/${runId}`)).data;
    assert.equal(run.state, "completed");
    const bob = run.results.find((r: { caseId: string }) => r.caseId === "bob-role-judged");
    assert.deepEqual(
      [bob.error, bob.judgeVerdicts?.map((v: { model: string }) => v.model)],
      [null, ["scripted"]],
    );
    assert.equal(run.simulated, true);
    assert.match(await text(page, "#run-header .sim-note"), /^Simulated run\./);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
});
