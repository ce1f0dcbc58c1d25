// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type CaptureProgress, captureServers } from "./capture.ts";
import { toCaptureFile } from "./capture_file.ts";
import { parseServersConfig } from "./config.ts";
import { toCaptureManifest } from "./manifest.ts";
import { normalizeRecord } from "./volatile_text.ts";
import type { ServerCaptureRecord } from "./types.ts";

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/mcp/${name}`, import.meta.url));

const config = parseServersConfig({
  mcpServers: {
    junk: { command: "node", args: [fixture("junk_then_serve.mjs")] },
    broken: { command: "node", args: [fixture("exit_at_start.mjs")] },
    hang: { command: "node", args: [fixture("hang.mjs")], timeoutMs: 1_500 },
    ghost: { command: "mcpmeter-no-such-command-7f3a" },
  },
}, { source: "test-servers.json" });

Deno.test("captureServers records every server, in name order; failures do not stop the others", async () => {
  const events: CaptureProgress[] = [];
  const records = await captureServers(config, {
    concurrency: 2,
    timeoutMs: 10_000,
    onProgress: (e) => events.push(e),
  });
  assert.deepEqual(
    records.map((r) => [r.server, r.outcome]),
    [["broken", "exited"], ["ghost", "spawn_failed"], ["hang", "timeout"], ["junk", "ok"]],
  );
  // The entry's own timeoutMs (1,500 ms) wins over the default passed in.
  assert.equal(records[2].message, "no complete answer within 1500 ms (waiting for initialize)");
  assert.equal(events.filter((e) => e.kind === "start").length, 4);
  const done = events.filter((e) => e.kind === "done");
  assert.deepEqual(done.map((e) => e.kind === "done" && e.done), [1, 2, 3, 4]);
  assert.deepEqual(done.map((e) => e.server).sort(), ["broken", "ghost", "hang", "junk"]);

  const file = toCaptureFile(records, { id: "t", version: "1", source: { test: true } });
  assert.equal(file.serverCount, 1);
  assert.equal(file.toolCount, 2);
  assert.deepEqual(file.servers.map((s) => s.server), ["junk"]);
});

Deno.test("captureServers rejects bad options", async () => {
  await assert.rejects(captureServers(config, { only: ["nope"] }), /no server named "nope"/);
  await assert.rejects(captureServers(config, { concurrency: 0 }), RangeError);
  await assert.rejects(captureServers(config, { timeoutMs: -1 }), RangeError);
});

Deno.test("a package that is not installed is spawn_failed, without spawning", async () => {
  const installDir = await Deno.makeTempDir();
  try {
    const pkgConfig = parseServersConfig({
      mcpServers: { m: { command: "node", args: ["${BIN}"], package: "@x/y", version: "1.0.0" } },
    });
    const [record] = await captureServers(pkgConfig, { installDir });
    assert.equal(record.outcome, "spawn_failed");
    assert.equal(record.message, `package @x/y@1.0.0 is not installed in ${installDir}`);
    assert.equal(record.package, "@x/y");
    assert.equal(record.version, "1.0.0");
  } finally {
    await Deno.remove(installDir, { recursive: true });
  }
});

const base = {
  transport: "stdio",
  warnings: [],
  pages: {},
  captureMs: 3,
  runPaths: [],
} as const;

Deno.test("normalizeRecord copies a schema 3,000 levels deep into plain objects JSON.stringify writes", () => {
  // Its copy was made of null-prototype objects, which JSON.stringify writes recursively: the
  // audit of a Gemini CLI config (which sends the schema as listed) stopped with "Maximum call
  // stack size exceeded" on a server whose schema nested 3,000 levels.
  const depth = 3000;
  const schema = `${'{"type":"object","properties":{"x":'.repeat(depth)}{"type":"string",` +
    `"description":"in /tmp/r/x"}${"}}".repeat(depth)}`;
  const tools = JSON.parse(`[{"name":"deep","__proto__":"kept","inputSchema":${schema}}]`);
  const { record, changes } = normalizeRecord({
    ...base,
    server: "s",
    outcome: "ok",
    runPaths: [{ path: "/tmp/r", placeholder: "<run>" }],
    tools,
  });
  const sent = JSON.stringify([{
    functionDeclarations: [{ parametersJsonSchema: record.tools[0].inputSchema }],
  }]);
  assert.equal(
    sent,
    JSON.stringify([{ functionDeclarations: [{ parametersJsonSchema: tools[0].inputSchema }] }])
      .replace("/tmp/r/x", "<run>/x"),
  );
  assert.equal(Object.getPrototypeOf(record.tools[0]), Object.prototype);
  assert.deepEqual(Object.keys(record.tools[0]), ["name", "__proto__", "inputSchema"]);
  assert.equal(changes.length, 1);
  assert.ok(changes[0].location.startsWith("tools[deep].inputSchema.properties.x."));
});

Deno.test("normalizeRecord replaces run paths (longest first) and capture-time stamps", () => {
  // Capture window: 2026-11-30 00:09:46 UTC to one minute later.
  const fromMs = Date.UTC(2026, 10, 30, 0, 9, 46);
  const record: ServerCaptureRecord = {
    ...base,
    server: "s",
    outcome: "ok",
    runPaths: [
      { path: "/tmp/r", placeholder: "<run>" },
      { path: "/tmp/r/home", placeholder: "<home>" },
    ],
    tools: [{
      name: "t",
      description: "Writes to /tmp/r/home/out and /tmp/r/x. Released 2026-11-30.",
      inputSchema: {
        type: "object",
        properties: {
          from: { default: "2026-10-31" }, // 30 days before 2026-11-30
          to: { default: "2026-11-30" },
          since: { default: "2026-10-31T00:09:46.000Z" }, // exactly 30 days before the start
          at: { default: "2026-11-30T00:10:00.000Z" }, // inside the window
          old: { default: "2019-01-01" }, // outside the 400-day lookback
          enum: { enum: ["2026-11-30"] },
        },
      },
    }],
  };
  const { record: out, changes } = normalizeRecord(record, {
    window: { fromMs, toMs: fromMs + 60_000 },
    paths: [{ path: "/srv/install", placeholder: "<install>" }],
  });
  const tool = out.tools[0] as {
    description: string;
    inputSchema: { properties: Record<string, Record<string, unknown>> };
  };
  assert.equal(tool.description, "Writes to <home>/out and <run>/x. Released 2026-11-30.");
  const p = tool.inputSchema.properties;
  assert.equal(p.from.default, "<capture-date-30d>");
  assert.equal(p.to.default, "<capture-date>");
  assert.equal(p.since.default, "<capture-time-30d>");
  assert.equal(p.at.default, "<capture-time>");
  assert.equal(p.old.default, "2019-01-01");
  assert.deepEqual(p.enum.enum, ["<capture-date>"]);
  assert.deepEqual(changes.map((c) => [c.location, c.rule, c.placeholder]), [
    ["tools[t].description", "run-path", "<home>"],
    ["tools[t].description", "run-path", "<run>"],
    ["tools[t].inputSchema.properties.from.default", "capture-time", "<capture-date-30d>"],
    ["tools[t].inputSchema.properties.to.default", "capture-time", "<capture-date>"],
    ["tools[t].inputSchema.properties.since.default", "capture-time", "<capture-time-30d>"],
    ["tools[t].inputSchema.properties.at.default", "capture-time", "<capture-time>"],
    ["tools[t].inputSchema.properties.enum.enum[0]", "capture-time", "<capture-date>"],
  ]);
  // The input is not modified.
  assert.equal((record.tools[0] as { description: string }).description.includes("/tmp/r"), true);
  // Without a window, timestamps are left alone.
  const noWindow = normalizeRecord(record).record.tools[0] as typeof tool;
  assert.equal(noWindow.inputSchema.properties.to.default, "2026-11-30");
});

Deno.test("toCaptureFile sorts servers, keeps prompts/resources, rejects duplicates", () => {
  const records: ServerCaptureRecord[] = [
    { ...base, server: "b", outcome: "ok", tools: [{ name: "z" }, { name: "a" }] },
    {
      ...base,
      server: "a",
      outcome: "ok",
      package: "p",
      version: "1.0.0",
      tools: [{ name: "x" }],
      prompts: [{ name: "pr" }],
      resources: [],
    },
    { ...base, server: "c", outcome: "exited", tools: [] },
  ];
  const file = toCaptureFile(records, { id: "demo", version: "2", source: { by: "test" } });
  assert.deepEqual(file, {
    format: "mcpmeter-capture",
    formatVersion: 1,
    id: "demo",
    version: "2",
    // Every record's instructions are written (none here: neither server sent any), so said.
    source: { by: "test", instructionsRecorded: true },
    serverCount: 2,
    toolCount: 3,
    servers: [
      {
        server: "a",
        package: "p",
        version: "1.0.0",
        toolCount: 1,
        tools: [{ name: "x" }],
        toolsWire: '[{"name":"x"}]',
        prompts: [{ name: "pr" }],
        resources: [],
      },
      // Tools stay in server order.
      {
        server: "b",
        toolCount: 2,
        tools: [{ name: "z" }, { name: "a" }],
        toolsWire: '[{"name":"z"},{"name":"a"}]',
      },
    ],
  });
  assert.throws(
    () => toCaptureFile([records[0], records[0]], { id: "d", version: "1", source: {} }),
    RangeError,
  );
});

Deno.test("toCaptureManifest counts outcomes and tools, keeps causes, licenses and package words", () => {
  const manifest = toCaptureManifest([
    {
      ...base,
      server: "z",
      outcome: "ok",
      tools: [{ name: "a" }, { name: "b" }],
      package: "p",
      version: "1",
      captureMs: 10,
      notes: ["server/discover was answered after the probe's wait ran out"],
    },
    {
      ...base,
      server: "y",
      outcome: "exited",
      message: "the server exited with code 1 during initialize",
      exit: { code: 1, signal: null },
      stderrTail: "boom",
      tools: [],
      captureMs: 5,
    },
  ], {
    id: "c",
    version: "1",
    corpusFile: "c.tools.json",
    corpusSha256: "ab",
    configFile: "s.json",
    configSha256: "cd",
    capturedAt: "2026-11-30T00:00:00.000Z",
    wallMs: 12,
    environment: { deno: "2.9.6" },
    settings: { concurrency: 2 },
    licenses: { "p@1": "MIT" },
    packageInfo: { "p@1": { description: "Tickets and boards", keywords: ["kanban"] } },
    normalizations: [{
      server: "z",
      location: "tools[a].description",
      rule: "run-path",
      placeholder: "<home>",
    }],
  });
  assert.deepEqual(manifest.totals, {
    servers: 2,
    serversOk: 1,
    serversFailed: 1,
    byOutcome: { ok: 1, timeout: 0, exited: 1, spawn_failed: 0, protocol_error: 0 },
    tools: 2,
    captureMsSum: 15,
    wallMs: 12,
  });
  const servers = manifest.servers as Record<string, unknown>[];
  assert.deepEqual(servers.map((s) => s.server), ["y", "z"]);
  assert.equal(servers[0].cause, "the server exited with code 1 during initialize");
  assert.deepEqual(servers[0].exit, { code: 1, signal: null });
  assert.equal(servers[0].stderrTail, "boom");
  assert.equal(servers[1].license, "MIT");
  assert.equal(servers[1].packageDescription, "Tickets and boards");
  assert.deepEqual(servers[1].packageKeywords, ["kanban"]);
  assert.equal(servers[0].packageDescription, undefined);
  assert.equal(servers[1].toolCount, 2);
  // A capture's notes are kept apart from its warnings; a server without notes has no key.
  assert.deepEqual(servers[1].notes, [
    "server/discover was answered after the probe's wait ran out",
  ]);
  assert.deepEqual(servers[1].warnings, []);
  assert.equal("notes" in servers[0], false);
  assert.deepEqual(Object.keys((manifest.normalizations as { rules: object }).rules), ["run-path"]);
});

Deno.test("a secret written as a stdout line is not kept by V8's 10-character excerpt of it", async () => {
  // JSON.parse's message quotes the line's first 10 characters ("sk-proj-AA"...), which no
  // longer match the whole key: the cause printed and saved held the key's start.
  const key = "sk-proj-AAAABBBBCCCCDDDDEEEEFFFF";
  const config = parseServersConfig({
    mcpServers: {
      "echo-key": {
        command: "node",
        args: [
          "-e",
          "process.stdout.write(process.env.API_KEY + '\\n'); setInterval(() => {}, 1000);",
        ],
        env: { API_KEY: key },
        timeoutMs: 1_500,
      },
    },
  }, { source: "test-servers.json" });
  const [record] = await captureServers(config, { concurrency: 1, timeoutMs: 10_000 });
  assert.equal(record.outcome, "timeout");
  assert.equal(
    record.message,
    "no complete answer within 1500 ms (waiting for initialize); meanwhile transport: " +
      `Unexpected token 's', "[REDACTED]"... is not valid JSON`,
  );
  assert.ok(!JSON.stringify(record).includes("sk-proj-A"), JSON.stringify(record));
});

Deno.test("a server that writes junk on stdout and then hangs times out with the junk named in its cause", async () => {
  const junkHang = parseServersConfig({
    mcpServers: {
      "junk-hang": {
        command: "node",
        args: ["-e", 'process.stdout.write("not json\\n"); setInterval(() => {}, 1000);'],
        timeoutMs: 1_500,
      },
    },
  }, { source: "test-servers.json" });
  const [record] = await captureServers(junkHang, { concurrency: 1, timeoutMs: 10_000 });
  assert.equal(record.outcome, "timeout");
  // The cause is what the audit and capture print for a failed server: the wait, then the line
  // the transport could not read (V8's JSON.parse message for "not json").
  assert.equal(
    record.message,
    "no complete answer within 1500 ms (waiting for initialize); meanwhile transport: " +
      `Unexpected token 'o', "not json" is not valid JSON`,
  );
});
