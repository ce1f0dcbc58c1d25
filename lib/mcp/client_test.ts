// test:quick skips this file: its tests start MCP servers (node, deno) and install one from npm.
// Both protocol eras, against real servers: one built on the v2 TypeScript SDK
// (@modelcontextprotocol/server 2.4.0, from npm) serving both eras or the 2026-07-28 revision
// alone, over stdio and streamable HTTP; 2025-era servers built on the v1 SDK or by hand,
// including one that closes the connection on any request before initialize.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseServersConfig } from "./config.ts";
import type { JsonValue } from "../catalog/types.ts";
import { captureRemoteServer } from "./http.ts";
import { captureStdioServer } from "./stdio.ts";
import { openSession } from "./session.ts";
import type { McpClient } from "./client.ts";
import type { RemoteServerEntry, StdioServerEntry } from "./config.ts";
import {
  MODERN,
  startV2HttpServer,
  V2_INSTRUCTIONS,
  type V2Mode,
  v2ServerScript,
  v2StdioEntry,
} from "../../testing/mcp_v2.ts";

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/mcp/${name}`, import.meta.url));

const entry = (name: string, value: Record<string, unknown>) =>
  parseServersConfig({ mcpServers: { [name]: value } } as JsonValue).servers[0];

const installed = await v2ServerScript();
const skip = "skip" in installed ? installed.skip : undefined;
if (skip) console.warn(`v2 SDK tests skipped: ${skip}`);
const script = "script" in installed ? installed.script : "";

Deno.test({
  name:
    "captures of a v2 SDK server, both eras and the 2026-07-28 revision alone, over stdio and HTTP, record the negotiated version and its instructions",
  ignore: skip !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  for (const mode of ["both", "modern-only"] as V2Mode[]) {
    const stdio = await captureStdioServer(
      entry(`v2-${mode}`, v2StdioEntry(script, mode)) as StdioServerEntry,
      { timeoutMs: 20_000 },
    );
    const http = await startV2HttpServer(script, mode);
    let remote;
    try {
      remote = await captureRemoteServer(
        entry(`v2-http-${mode}`, { url: http.url, type: "http" }) as RemoteServerEntry,
        { timeoutMs: 20_000 },
      );
    } finally {
      await http.close();
    }
    for (const record of [stdio, remote]) {
      const where = `${record.transport} ${mode}`;
      assert.equal(record.outcome, "ok", `${where}: ${record.message}`);
      assert.equal(record.protocolVersion, MODERN, where);
      assert.equal(record.instructions, V2_INSTRUCTIONS, where);
      assert.deepEqual(record.serverInfo, { name: "v2-sdk-server", version: "2.4.0" }, where);
      assert.deepEqual(record.tools.map((t) => t.name).sort(), ["add", "echo"], where);
    }
  }
});

Deno.test({
  name: "sessions to a v2 SDK server in either mode call its tools and say the era they speak",
  ignore: skip !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  for (const mode of ["both", "modern-only"] as V2Mode[]) {
    const http = await startV2HttpServer(script, mode);
    try {
      for (
        const e of [
          entry("stdio", v2StdioEntry(script, mode)),
          entry("http", { url: http.url, type: "http" }),
        ]
      ) {
        const session = await openSession(e, { timeoutMs: 20_000 });
        try {
          const result = await session.client.callTool(
            { name: "echo", arguments: { message: "hi" } },
            undefined,
            { timeout: 10_000 },
          );
          assert.deepEqual(result.content, [{ type: "text", text: "echo: hi" }], e.name);
          const client = session.client as { protocolVersion?: () => string | undefined };
          assert.equal(client.protocolVersion?.(), MODERN, `${e.name} ${mode}`);
        } finally {
          await session.close();
        }
      }
    } finally {
      await http.close();
    }
  }
});

Deno.test({
  name:
    "a 2025-era server is spoken to in its era, also one that closes the connection on any request before initialize",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-eras-" });
  try {
    // By hand: it exits on any first request but initialize (the 2025 rules let it).
    const strict = join(dir, "strict.mjs");
    await Deno.writeTextFile(
      strict,
      `import { createInterface } from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
let ready = false;
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") {
    ready = true;
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18",
      capabilities: { tools: {} }, serverInfo: { name: "strict", version: "1" } } });
  } else if (!ready && m.id !== undefined) {
    process.exit(3);
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "t", inputSchema: { type: "object" } }] } });
  }
});
`,
    );
    const handMade = await captureStdioServer(
      entry("strict", { command: "node", args: [strict] }) as StdioServerEntry,
      { timeoutMs: 20_000 },
    );
    assert.equal(handMade.outcome, "ok", handMade.message);
    assert.equal(handMade.protocolVersion, "2025-06-18");
    assert.deepEqual(handMade.tools.map((t) => t.name), ["t"]);
    const session = await openSession(entry("strict", { command: "node", args: [strict] }), {
      timeoutMs: 20_000,
    });
    await session.close();
    // Built on the v1 SDK: it answers server/discover with -32601 and goes on.
    const v1 = await captureStdioServer(
      entry("v1", {
        command: Deno.execPath(),
        args: ["run", "--quiet", "-A", fixture("output_schema_server.ts")],
      }) as StdioServerEntry,
      { timeoutMs: 30_000 },
    );
    assert.equal(v1.outcome, "ok", v1.message);
    assert.match(v1.protocolVersion ?? "", /^2025-/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "watchToolList(): a 2026-07-28-only v2 server's list_changed arrives on a subscriptions/listen stream, over stdio and HTTP; a 2025 server's unprompted",
  ignore: skip !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const http = await startV2HttpServer(script, "modern-only", true);
  try {
    const cases = [
      { e: entry("stdio", v2StdioEntry(script, "modern-only", "grow")), way: "listening" },
      { e: entry("http", { url: http.url, type: "http" }), way: "listening" },
      {
        e: entry("v1", {
          command: Deno.execPath(),
          args: ["run", "--quiet", "-A", fixture("growing_server.ts")],
        }),
        way: "unprompted",
      },
    ];
    for (const { e, way } of cases) {
      const session = await openSession(e, { timeoutMs: 20_000 });
      try {
        const client = session.client as unknown as McpClient;
        let told = 0;
        client.setNotificationHandler("notifications/tools/list_changed", () => told++);
        assert.equal(await client.watchToolList({ timeout: 10_000 }), way, e.name);
        assert.equal(told, 0, e.name);
        await client.callTool({ name: "grow", arguments: {} }, undefined, { timeout: 10_000 });
        for (let i = 0; i < 100 && told === 0; i++) await new Promise((r) => setTimeout(r, 50));
        assert.equal(told, 1, e.name);
      } finally {
        await session.close();
      }
    }
  } finally {
    await http.close();
  }
});

Deno.test({
  name:
    "a capture of a 2026-07-28-only v2 server that adds a tool after start-up is told on its listen stream and lists again",
  ignore: skip !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // The server adds `late` 1.5 s after the connection opened; the settle window (5 s after each
  // listing) catches the notification only if the capture asked for it.
  const record = await captureStdioServer(
    entry("later", v2StdioEntry(script, "modern-only", "later")) as StdioServerEntry,
    { timeoutMs: 20_000, settleMs: 5_000 },
  );
  assert.equal(record.outcome, "ok", record.message);
  assert.equal(record.protocolVersion, MODERN);
  assert.deepEqual(record.tools.map((t) => t.name).sort(), ["add", "echo", "late"]);
  assert.ok(
    record.warnings.some((w) => /tools\/list_changed received 1 time\(s\)/.test(w)),
    record.warnings.join("\n"),
  );
});
