// test:quick skips this file: it starts Chromium (deno task test runs it).
// The Audit page's card of one config in real headless Chromium (Debian chromium through
// puppeteer-core): a server's long cause without spaces (a path from its stderr) and a long
// launch command wrap inside their cells; the table stays inside its card at 1,280 and 1,024 px.
// Skipped with the reason when Chromium is absent; with CI set, its absence fails.
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildConfigReport, readServerEntry } from "../../audit/mod.ts";
import type { ClientConfig, ServerCaptureRecord } from "../../audit/mod.ts";
import { configCard } from "./audit_page.ts";
import { STYLES } from "../html.ts";
import { CHROMIUM, launchChromium } from "../../../testing/browser.ts";

if (CHROMIUM === undefined && !Deno.env.get("CI")) {
  console.warn("audit_card_browser_test: skipped: chromium not found (apt-get install chromium)");
}

// The cause the fresh-user trial met (dbhub 0.21.2 without its native module), and a path of
// 150 characters with no break in it.
const PATH = "/work/wt/trial5/results/cache/servers/@bytebase+dbhub@0.21.2/node_modules/" +
  "better-sqlite3/lib/binding/node-v115-linux-x64/better_sqlite3.node";
const LONG = `/${"x".repeat(149)}`;

/** A Cursor config of two servers: `db` exited with a path in its cause, `kv` listed one tool. */
function longCauseCard(): string {
  const folders = { home: "/h" };
  const entry = (name: string, raw: Record<string, unknown>) =>
    readServerEntry(name, raw as never, {
      scope: "global",
      source: "/h/.cursor/mcp.json",
      folders,
      client: "cursor",
    });
  const config: ClientConfig = {
    id: "cursor ~/.cursor/mcp.json",
    client: "cursor",
    label: "Cursor",
    files: ["/h/.cursor/mcp.json"],
    servers: [
      entry("db", { command: "npx", args: ["-y", "@bytebase/dbhub@0.21.2", "--demo"] }),
      entry("kv", { command: `${LONG}/kv-mcp-server` }),
    ],
    notes: [],
    deferral: { kind: "cursor" },
  };
  const base = { transport: "stdio", warnings: [], pages: {}, captureMs: 1, runPaths: [] } as const;
  const records = (s: { name: string }): ServerCaptureRecord =>
    s.name === "db"
      ? {
        ...base,
        server: "db",
        outcome: "exited",
        message: "the server exited with code 1 during initialize; its stderr: Fatal error: " +
          `Error: Could not locate the bindings file. Tried: '${PATH}' and '${LONG}'`,
        tools: [],
      }
      : {
        ...base,
        server: "kv",
        outcome: "ok",
        tools: [{ name: "get", description: "Get a value.", inputSchema: { type: "object" } }],
      };
  const report = buildConfigReport(config, records, { count: (t) => t.length, home: "/h" });
  return `<!doctype html><html><head><meta charset="utf-8"><style>${STYLES}</style></head>` +
    `<body><main>${configCard(report)}</main></body></html>`;
}

Deno.test({
  name: "Audit card in Chromium: a long cause and launch wrap in their cells, inside the card",
  ignore: CHROMIUM === undefined && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  assert.ok(CHROMIUM, "chromium is required when CI is set");
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-audit-card-" });
  const browser = await launchChromium(join(tmp, "profile"));
  try {
    const page = await browser.newPage();
    for (const width of [1280, 1024]) {
      await page.setViewport({ width, height: 900 });
      await page.setContent(longCauseCard(), { waitUntil: "load" });
      const box = await page.evaluate(() => {
        const card = document.querySelector(".audit-config")!.getBoundingClientRect();
        const table = document.querySelector(".audit-config table")!.getBoundingClientRect();
        const cells = [...document.querySelectorAll(".audit-config td")].map((td) =>
          td.scrollWidth - td.clientWidth
        );
        return { card: card.right, table: table.right, overflow: Math.max(...cells) };
      });
      // The table ends inside the card (16 px padding), and no cell's text runs out of it.
      assert.ok(box.table <= box.card, `${width} px: ${JSON.stringify(box)}`);
      assert.equal(box.overflow, 0, `${width} px: ${JSON.stringify(box)}`);
      // The cause is shown whole.
      const status = await page.$eval(
        ".audit-config tbody tr td:last-child",
        (td) => td.textContent ?? "",
      );
      assert.ok(status.includes(PATH) && status.includes(LONG), status);
    }
  } finally {
    await browser.close();
    await Deno.remove(tmp, { recursive: true });
  }
});
