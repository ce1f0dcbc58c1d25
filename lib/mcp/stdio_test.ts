// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { join } from "node:path";
import { liveProcessesWith } from "../../testing/mcp.ts";
import { fileURLToPath } from "node:url";
import { parseServersConfig, type StdioServerEntry } from "./config.ts";
import { detectIsolation, type IsolationMode } from "./_sandbox.ts";
import { writeDeclaredFiles } from "./_scratch.ts";
import { captureStdioServer, NO_NETWORK } from "./stdio.ts";

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/mcp/${name}`, import.meta.url));

function entry(name: string, spec: Record<string, unknown>): StdioServerEntry {
  return parseServersConfig({ mcpServers: { [name]: spec } } as never)
    .servers[0] as StdioServerEntry;
}

async function waitUntilGone(marker: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = liveProcessesWith(marker);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = liveProcessesWith(marker);
  }
  return alive;
}

async function hangingServerLeavesNoProcess(isolation: IsolationMode): Promise<void> {
  const marker = `mcpmeter-hang-child-${crypto.randomUUID()}`;
  const markerFile = await Deno.makeTempFile({ prefix: "mcpmeter-marker-" });
  try {
    const record = await captureStdioServer(
      entry("hang", {
        command: "node",
        args: [fixture("hang.mjs"), marker],
        env: { MARKER_FILE: markerFile },
      }),
      { timeoutMs: 3_000, isolation },
    );
    assert.equal(record.outcome, "timeout");
    assert.equal(record.phase, "initialize");
    assert.equal(record.message, "no complete answer within 3000 ms (waiting for initialize)");
    assert.ok(record.captureMs >= 2_900, `captureMs ${record.captureMs}`);
    assert.deepEqual(record.tools, []);
    // The grandchild really ran (it wrote the marker file)...
    assert.equal(await Deno.readTextFile(markerFile), "started");
    // ...and no process of the tree survives the capture.
    assert.deepEqual(await waitUntilGone(marker, 2_000), []);
    // The throwaway HOME is gone too.
    for (const { path } of record.runPaths) {
      assert.throws(() => Deno.statSync(path), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(markerFile);
  }
}

Deno.test("a server that never answers initialize times out; its whole process tree is killed", async () => {
  await hangingServerLeavesNoProcess(await detectIsolation());
});

Deno.test("the process-group fallback also kills the whole tree", async () => {
  await hangingServerLeavesNoProcess("process-group");
});

Deno.test("a server that exits at start is recorded as exited, with exit code and stderr", async () => {
  const record = await captureStdioServer(
    entry("broken", { command: "node", args: [fixture("exit_at_start.mjs")] }),
    { timeoutMs: 10_000 },
  );
  assert.equal(record.outcome, "exited");
  assert.equal(record.phase, "initialize");
  assert.deepEqual(record.exit, { code: 3, signal: null });
  assert.equal(
    record.message,
    "the server exited with code 3 during initialize; its stderr: fatal: EXAMPLE_API_KEY is not set",
  );
  assert.equal(record.stderrTail, "fatal: EXAMPLE_API_KEY is not set\n");
});

Deno.test("secrets the server prints to stderr are redacted in the record", async () => {
  const record = await captureStdioServer(
    entry("leaky", {
      command: "node",
      args: [
        "-e",
        "console.error(`key=${process.env.EXAMPLE_API_KEY} arg=${process.argv[1]} mode=${process.env.MODE}`); process.exit(3)",
        "${GH_TOKEN}",
      ],
      env: { EXAMPLE_API_KEY: "${EXAMPLE_API_KEY}", MODE: "${MODE}" },
    }),
    {
      timeoutMs: 10_000,
      env: { EXAMPLE_API_KEY: "sk-test-0123456789", GH_TOKEN: "ghp_abcdef", MODE: "verbose" },
    },
  );
  assert.equal(record.outcome, "exited");
  // The API key (server env) and the token (referenced in args) are gone; MODE is no secret.
  assert.equal(record.stderrTail, "key=[REDACTED] arg=[REDACTED] mode=verbose\n");
  // The cause quotes that line, redacted the same way.
  assert.equal(
    record.message,
    "the server exited with code 3 during initialize; its stderr: key=[REDACTED] arg=[REDACTED] mode=verbose",
  );
});

Deno.test("junk lines on stdout become warnings; the server is still captured", async () => {
  const record = await captureStdioServer(
    entry("junk", { command: "node", args: [fixture("junk_then_serve.mjs")] }),
    { timeoutMs: 10_000 },
  );
  assert.equal(record.outcome, "ok", record.message);
  assert.deepEqual(record.tools.map((t) => t.name), ["add", "echo"]);
  assert.deepEqual(record.tools[0].inputSchema, {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  });
  assert.deepEqual(record.serverInfo, { name: "junk-then-serve", version: "1.0.0" });
  assert.equal(typeof record.protocolVersion, "string");
  // One warning for the banner (not JSON), one for the log record (JSON, not JSON-RPC).
  assert.equal(record.warnings.length, 2, record.warnings.join("\n"));
  assert.match(record.warnings[0], /^transport: .*"Junk serve"\.\.\. is not valid JSON/);
  assert.match(record.warnings[1], /^transport: /);
  assert.equal(record.stderrTail, undefined);
  assert.deepEqual(record.pages, { "tools/list": 1 });
});

Deno.test("a late answer to the era probe is a note of the capture, not a warning against the server", async () => {
  // Timeout 5,000 ms: the probe waits 2,500 ms; the server reads nothing for 3,000 ms, then
  // answers the probe ("Method not found") before initialize.
  const record = await captureStdioServer(
    entry("late", { command: "node", args: [fixture("late_probe_answer.mjs"), "3000"] }),
    { timeoutMs: 5_000 },
  );
  assert.equal(record.outcome, "ok", record.message);
  assert.deepEqual(record.tools.map((t) => t.name), ["ping_tool"]);
  assert.deepEqual(record.warnings, []);
  assert.deepEqual(record.notes, [
    "server/discover was answered after the probe's wait (at most 5000 ms) ran out, with method " +
    "not found (a 2025-era server); the client had gone on with initialize",
  ]);
});

Deno.test("a command that does not exist is spawn_failed", async () => {
  const record = await captureStdioServer(
    entry("ghost", { command: "mcpmeter-no-such-command-7f3a" }),
    { timeoutMs: 5_000 },
  );
  assert.equal(record.outcome, "spawn_failed");
  assert.equal(
    record.message,
    'command "mcpmeter-no-such-command-7f3a" not found or not executable',
  );
});

Deno.test("HOME, SCRATCH and vars are expanded per run; an undefined one is spawn_failed", async () => {
  const record = await captureStdioServer(
    entry("junk", { command: "node", args: ["${JUNK}"], env: { X: "${UNSET_VAR_7f3a}" } }),
    { timeoutMs: 5_000, vars: { JUNK: fixture("junk_then_serve.mjs") } },
  );
  assert.equal(record.outcome, "spawn_failed");
  assert.match(record.message ?? "", /field "env.X": variable "UNSET_VAR_7f3a" is not defined/);
  const ok = await captureStdioServer(
    entry("junk", { command: "node", args: ["${JUNK}"], env: { WHERE: "${HOME}:${SCRATCH}" } }),
    { timeoutMs: 10_000, vars: { JUNK: fixture("junk_then_serve.mjs") } },
  );
  assert.equal(ok.outcome, "ok", ok.message);
  assert.deepEqual(ok.runPaths.map((p) => p.placeholder), [
    "<home>",
    "<scratch>",
    "<tmpdir>",
    "<run>",
  ]);
});

Deno.test("declared files land under the scratch folder and ~/", async () => {
  const root = await Deno.makeTempDir();
  try {
    const home = `${root}/home`;
    const work = `${root}/work`;
    await writeDeclaredFiles(
      { "fsroot": null, "a/b.txt": "text", "~/.cfg/k.json": { k: [1, 2] } },
      { home, work },
    );
    assert.ok(Deno.statSync(`${work}/fsroot`).isDirectory);
    assert.equal(Deno.readTextFileSync(`${work}/a/b.txt`), "text");
    assert.equal(
      Deno.readTextFileSync(`${home}/.cfg/k.json`),
      '{\n  "k": [\n    1,\n    2\n  ]\n}\n',
    );
    await assert.rejects(writeDeclaredFiles({ "../x": "no" }, { home, work }), TypeError);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("captureStdioServer records the instructions a server sends in initialize", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-instructions-" });
  try {
    // A bare JSON-RPC server: initialize with instructions, then one tool.
    const script = join(dir, "server.mjs");
    await Deno.writeTextFile(
      script,
      `import { createInterface } from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} },
      serverInfo: { name: "i", version: "1" }, instructions: "Search the notes before you write one." } });
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "t", inputSchema: { type: "object" } }] } });
  }
});
`,
    );
    const record = await captureStdioServer(entry("i", { command: "node", args: [script] }), {
      timeoutMs: 10_000,
    });
    assert.equal(record.outcome, "ok", record.message);
    assert.equal(record.instructions, "Search the notes before you write one.");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a server that refuses initialize with error -32000 is recorded with its answer, not as an exit", async () => {
  // -32000 is the generic server error real servers send; the v1 SDK's local "connection closed"
  // has the same number, which made this an "exited with code 0" (the exit after stdin closed).
  const record = await captureStdioServer(
    entry("refuses", { command: "node", args: [fixture("refuse_initialize.mjs")] }),
    { timeoutMs: 10_000 },
  );
  assert.equal(record.outcome, "protocol_error");
  assert.equal(record.phase, "initialize");
  assert.equal(record.message, "initialize: EXAMPLE_API_KEY is not set");
  assert.equal(record.exit, undefined);
});

Deno.test("a server that cannot reach a service at start: the cause says the namespace has no network", async () => {
  // As a database server's MCP does when its database does not answer (port 9: nothing listens).
  const server = "require('node:net').connect(9, '127.0.0.1').on('error', (e) => " +
    "{ console.error('Fatal error: Error: connect ' + e.code + ' 127.0.0.1:9'); process.exit(1); });";
  const spec = { command: "node", args: ["-e", server] };
  const plain = await captureStdioServer(entry("db", spec), {
    timeoutMs: 10_000,
    isolation: "process-group",
  });
  assert.equal(
    plain.message,
    "the server exited with code 1 during initialize; its stderr: Fatal error: Error: connect ECONNREFUSED 127.0.0.1:9",
  );
  if (await detectIsolation() !== "namespace") return; // no unshare here: nothing more to see
  const isolated = await captureStdioServer(entry("db", spec), {
    timeoutMs: 10_000,
    isolation: "namespace",
  });
  assert.match(
    isolated.message!,
    /^the server exited with code 1 during initialize; its stderr: Fatal error: Error: connect E[A-Z]+ 127\.0\.0\.1:9; /,
  );
  assert.ok(isolated.message!.endsWith(`; ${NO_NETWORK}`), isolated.message);
});
