// The Audit page's card of one client config, rendered without a server: what the console
// prints below a config's table (server warnings, unpinned launches, notes) shows here too.
import assert from "node:assert/strict";
import { buildConfigReport, readServerEntry } from "../../audit/mod.ts";
import type { ClientConfig, ServerCaptureRecord } from "../../audit/mod.ts";
import { configCard } from "./audit_page.ts";

/** The report of `config` whose one server, kv, lists one tool `get` with this description. */
function cardReport(config: ClientConfig, description: string, warnings: string[]) {
  const kv: ServerCaptureRecord = {
    server: "kv",
    transport: "stdio",
    outcome: "ok",
    warnings,
    tools: [{ name: "get", description, inputSchema: { type: "object" } }],
    pages: {},
    captureMs: 1,
    runPaths: [],
  };
  return buildConfigReport(config, () => kv, {
    count: (t) => t.length,
    home: "/h",
    contextWindow: 1000,
  });
}

Deno.test("configCard() shows the servers' warnings and the unpinned launches the console prints", () => {
  const folders = { home: "/h" };
  const config: ClientConfig = {
    id: "windsurf ~/.codeium/windsurf/mcp_config.json",
    client: "windsurf",
    label: "Windsurf",
    files: ["/h/.codeium/windsurf/mcp_config.json"],
    servers: [
      readServerEntry("kv", { command: "npx", args: ["-y", "kv-mcp"] }, {
        scope: "user",
        source: "/h/.codeium/windsurf/mcp_config.json",
        folders,
      }),
    ],
    notes: ["a config note"],
    deferral: { kind: "none", client: "Windsurf" },
  };
  const report = cardReport(config, "Get", [
    "tools/list_changed received 1 time(s)",
    'unpinned launch "npx -y kv-mcp": installed kv-mcp@1.2.3; write kv-mcp@1.2.3 in the config for a reproducible capture',
  ]);
  const shown = [...String(configCard(report)).matchAll(/<p class="muted">([^<]*)<\/p>/g)]
    .map((m) => m[1]);
  assert.deepEqual(shown.slice(-3), [
    "warning: kv: tools/list_changed received 1 time(s)",
    "note: launched without a version, measured at the version npx picks with this " +
    "Node.js: kv as kv-mcp@1.2.3 " +
    "(pin NAME@VERSION in the config for a repeatable audit)",
    "note: a config note",
  ]);
});

Deno.test("configCard() of a deferring client puts its session start, billed, before the table", () => {
  const config: ClientConfig = {
    id: "claude-code ~/app",
    client: "claude-code",
    label: "Claude Code",
    folder: "/h/app",
    files: ["/h/.claude.json"],
    servers: [
      readServerEntry("kv", { command: "kv-mcp" }, {
        scope: "user",
        source: "/h/.claude.json",
        folders: { home: "/h" },
      }),
    ],
    notes: [],
    // ENABLE_TOOL_SEARCH unset: Claude Code defers every MCP tool.
    deferral: { kind: "claude-code", layers: [], consulted: [] },
  };
  const report = cardReport(config, "Get a value by its key", []);
  const b = report.sessionStart!.billed!;
  const card = String(configCard(report));
  const headline = card.indexOf(
    `pays at session start (deferred): <strong>${b.tokens} billed</strong> (${b.low}-${b.high}), ` +
      `<strong>${(b.tokens / 10).toFixed(1)}%</strong> of the window`,
  );
  assert.ok(headline > 0 && headline < card.indexOf("<table>"));
  assert.ok(card.includes("total if sent up front (1 of 1 servers measured)"));
  assert.equal(card.includes("with tool search on"), false);

  // Tool search turned off: the card says, after the table, what turning it on would start with.
  const off = cardReport(
    {
      ...config,
      deferral: {
        kind: "claude-code",
        layers: [{ where: "s", env: { ENABLE_TOOL_SEARCH: "false" } }],
        consulted: ["s"],
      },
    },
    "Get a value by its key",
    [],
  );
  const upCard = String(configCard(off));
  const line = upCard.indexOf(
    `with tool search on (ENABLE_TOOL_SEARCH=true) the session would start at ${b.tokens} billed ` +
      `(${b.low}-${b.high}) instead of ${off.totals.billed.tokens}, plus each search`,
  );
  assert.ok(line > upCard.indexOf("</table>"), upCard);
});
