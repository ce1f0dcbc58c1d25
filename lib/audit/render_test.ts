import assert from "node:assert/strict";
import { buildConfigReport } from "./report.ts";
import { renderAudit } from "./render.ts";
import { readServerEntry } from "./entries.ts";
import type { ClientConfig } from "./discover.ts";
import type { ServerCaptureRecord } from "../mcp/types.ts";

const count = (text: string) => text.length; // one token per character
const folders = { home: "/h" };

Deno.test("renderAudit() prints each config's posture, servers, totals, session start and savings", () => {
  const config: ClientConfig = {
    id: "claude-code ~/app",
    client: "claude-code",
    label: "Claude Code",
    folder: "/h/app",
    files: ["/h/.claude.json"],
    servers: [
      readServerEntry("kv", { command: "npx", args: ["-y", "kv-mcp@1.0.0", "--token", "s3cret"] }, {
        scope: "user",
        source: "/h/.claude.json",
        folders,
      }),
      readServerEntry("down", { command: "down-mcp" }, {
        scope: "user",
        source: "/h/.claude.json",
        folders,
      }),
    ],
    notes: [],
    deferral: { kind: "claude-code", layers: [], consulted: [] },
  };
  const kv: ServerCaptureRecord = {
    server: "kv",
    transport: "stdio",
    outcome: "ok",
    warnings: [],
    tools: [{ name: "get", description: "Get", inputSchema: { type: "object" } }],
    pages: {},
    captureMs: 1,
    runPaths: [],
  };
  const down: ServerCaptureRecord = {
    ...kv,
    server: "down",
    outcome: "timeout",
    message: "no complete answer within 30000 ms (waiting for initialize)",
    tools: [],
    warnings: ["transport: closed"],
  };
  const report = buildConfigReport(config, (s) => s.name === "kv" ? kv : down, {
    count,
    home: "/h",
    contextWindow: 1000,
  });
  const lines = renderAudit({
    schemaVersion: 1,
    kind: "mcpmeter-audit",
    createdAt: "2026-12-06T00:00:00.000Z",
    tokenizer: "o200k_base",
    counting: "c",
    home: "~",
    configs: [report],
    problems: ["/h/.cursor/mcp.json:2:3: not valid JSON: a comma is expected"],
    searched: 7,
  });
  const text = lines.join("\n");
  const sent =
    '[{"name":"mcp__kv__get","description":"Get","input_schema":{"type":"object"}}]'.length;
  assert.equal(
    lines[0],
    "MCP client configs under ~: 1 config found (7 places looked at). Tokens: c",
  );
  assert.equal(lines[2], "Claude Code · ~/app  [claude-code ~/app]");
  assert.equal(
    lines[4],
    "  deferral: deferred. ENABLE_TOOL_SEARCH is not set: Claude Code defers every MCP tool (its default)",
  );
  assert.match(
    text,
    new RegExp(`^  kv +user +npx kv-mcp +1 +[\\d,]+ +${sent} +\\d+ +[\\d.]+% +ok$`, "m"),
  );
  assert.match(
    text,
    /^ {2}down +user +down-mcp +- +- +- +- +- +timeout: no complete answer within 30000 ms \(waiting for initialize\)$/m,
  );
  assert.match(
    text,
    new RegExp(
      `^  total if sent up front \\(1 of 2 servers measured\\) +1 +[\\d,]+ +${sent} `,
      "m",
    ),
  );
  // A deferring client's headline is what it pays at session start, billed, before the table.
  const b = report.sessionStart!.billed!;
  const headline = lines.findIndex((l) => l.startsWith("  pays at session start (deferred): "));
  assert.ok(headline > 0 && headline < lines.findIndex((l) => l.startsWith("  server ")));
  assert.equal(
    lines[headline],
    `  pays at session start (deferred): ${b.tokens} billed (${b.low}-${b.high}), ${
      (b.tokens / 10).toFixed(1)
    }% of the window, plus each search's results; every tool up front would be ${report.totals.billed.tokens} billed (the total below)`,
  );
  assert.equal(
    lines[headline + 1],
    `    session start ${"mcp__kv__get".length} tokens instead of ${sent} sent up front (both o200k_base): ${
      report.sessionStart!.counted
    }; billed scales it by this config's billed/sent ratio and adds the request's tool overhead`,
  );
  assert.match(
    text,
    new RegExp(
      `^  removing those 1 tool saves ${sent} sent tokens per request up front \\(100\\.0% of this config's tools\\); deferred, ${"mcp__kv__get".length} at session start$`,
      "m",
    ),
  );
  assert.equal(lines.at(-1), "  /h/.cursor/mcp.json:2:3: not valid JSON: a comma is expected");
  // neither the arguments (a token among them) nor a failed server's repeated warning is printed
  assert.equal(text.includes("s3cret") || text.includes("transport: closed"), false);
  assert.equal(text.includes("with tool search on"), false);

  // With ENABLE_TOOL_SEARCH=false the tools load up front: the total is what a request pays, and
  // the line after the table says what tool search would start the session with instead.
  const upfront = buildConfigReport(
    {
      ...config,
      deferral: {
        kind: "claude-code",
        layers: [{ where: "s", env: { ENABLE_TOOL_SEARCH: "false" } }],
        consulted: ["s"],
      },
    },
    (s) => s.name === "kv" ? kv : down,
    { count, home: "/h", contextWindow: 1000 },
  );
  const up = renderAudit({
    schemaVersion: 1,
    kind: "mcpmeter-audit",
    createdAt: "2026-12-06T00:00:00.000Z",
    tokenizer: "o200k_base",
    counting: "c",
    home: "~",
    configs: [upfront],
    problems: [],
    searched: 7,
  });
  const total = up.findIndex((l) => l.startsWith("  total (1 of 2 servers measured)"));
  assert.ok(total > 0);
  // The same session start as the deferring report's, against the up-front total.
  assert.equal(
    up[total + 1],
    `  with tool search on (ENABLE_TOOL_SEARCH=true) the session would start at ${b.tokens} billed (${b.low}-${b.high}) instead of ${upfront.totals.billed.tokens}, plus each search's results (deno task bench on a capture of these servers prices a search)`,
  );
  assert.equal(up.some((l) => l.startsWith("  pays at session start")), false);
});

Deno.test("renderAudit() writes the control characters a server's tool names or a cause hold as \\xHH, so they cannot drive the terminal", () => {
  const config: ClientConfig = {
    id: "cursor ~/.cursor/mcp.json",
    client: "cursor",
    label: "Cursor",
    files: ["/h/.cursor/mcp.json"],
    servers: [
      readServerEntry("s", { command: "s-mcp" }, {
        scope: "global",
        source: "/h/.cursor/mcp.json",
        folders,
      }),
      readServerEntry("t", { command: "t-mcp" }, {
        scope: "global",
        source: "/h/.cursor/mcp.json",
        folders,
      }),
    ],
    notes: [],
    deferral: { kind: "cursor" },
  };
  const s: ServerCaptureRecord = {
    server: "s",
    transport: "stdio",
    outcome: "ok",
    warnings: [],
    // clear the screen, then a line break
    tools: [{ name: "find\u001b[2J\nnow", inputSchema: { type: "object" } }],
    pages: {},
    captureMs: 1,
    runPaths: [],
  };
  const t: ServerCaptureRecord = {
    ...s,
    server: "t",
    outcome: "exited",
    message: "bad \u009b31m input",
    tools: [],
  };
  const report = buildConfigReport(config, (x) => x.name === "s" ? s : t, { count, home: "/h" });
  const lines = renderAudit({
    schemaVersion: 2,
    kind: "mcpmeter-audit",
    createdAt: "2026-12-06T00:00:00.000Z",
    tokenizer: "o200k_base",
    counting: "c",
    home: "~",
    configs: [report],
    problems: [],
    searched: 1,
  });
  const text = lines.join("\n");
  // deno-lint-ignore no-control-regex
  assert.equal(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text), false);
  assert.match(text, /heaviest tools: s:find\\x1b\[2J\\x0anow \d+$/m);
  assert.match(text, /^ {2}t +global +t-mcp .* exited: bad \\x9b31m input$/m);
});
