// test:quick skips this file: its tests start processes (deno task test runs them).
// The capture flow (runCapture + writeCapture) on real stdio servers: the fixture servers of
// fixtures/mcp and, where npm answers, a pasted Claude Desktop config with npx -y launches.
// Progress lines are collected from the injected sink. The CLI (flags, exit codes, the
// "nothing written" rule) is tested in tasks/capture_test.ts.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCapture, writeCapture } from "./capture.ts";
import { denoFlowIo } from "./io.ts";
import { sha256Hex } from "../catalog/load.ts";

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/mcp/${name}`, import.meta.url));

/** Writes `mcpServers` as a config in a fresh folder and captures it without npm. */
async function capture(servers: Record<string, unknown>, options: { install?: boolean } = {}) {
  const dir = await Deno.makeTempDir();
  const config = `${dir}/servers.json`;
  await Deno.writeTextFile(config, JSON.stringify({ mcpServers: servers }));
  const lines: string[] = [];
  const io = { ...denoFlowIo(), progress: (_task: string, line: string) => lines.push(line) };
  const installDir = fileURLToPath(new URL("../../.scratch/servers", import.meta.url));
  const run = await runCapture({
    config,
    out: `${dir}/out`,
    id: "tiny",
    install: options.install ?? false,
    ...(options.install ? { installDir } : {}),
  }, io);
  return { dir, run, lines, close: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("runCapture + writeCapture: the corpus and the manifest, whose sha256 matches the bytes", async () => {
  const { dir, run, lines, close } = await capture({
    junk: { command: "node", args: [fixture("junk_then_serve.mjs")] },
    broken: { command: "node", args: [fixture("exit_at_start.mjs")] },
  });
  try {
    assert.ok(lines.some((l) => /\[\d\/2\] junk: ok, 2 tools/.test(l)), lines.join("\n"));
    assert.ok(lines.some((l) => /\[\d\/2\] broken: EXITED/.test(l)), lines.join("\n"));
    // The fixture prints two lines that are not JSON-RPC before it serves: two warnings, counted
    // on its line and each printed under it as the manifest holds it.
    const at = lines.findIndex((l) => /\[\d\/2\] junk: /.test(l));
    assert.match(lines[at], /junk: ok, 2 tools, \d+\.\d s, 2 warning\(s\)$/);
    const junk = (run.manifest.servers as { server: string; warnings: string[] }[])
      .find((s) => s.server === "junk")!;
    assert.equal(junk.warnings.length, 2);
    assert.deepEqual(lines.slice(at + 1, at + 3), junk.warnings.map((w) => `      warning: ${w}`));
    assert.match(lines[at + 1], /not valid JSON$/);
    assert.doesNotMatch(lines[at + 3] ?? "", /^ {6}/);
    const path = await writeCapture(run);
    assert.equal(path, `${dir}/out/tiny.tools.json`);
    const bytes = await Deno.readFile(path);
    const corpus = JSON.parse(new TextDecoder().decode(bytes));
    assert.equal(corpus.format, "mcpmeter-capture");
    assert.equal(corpus.id, "tiny");
    assert.equal(corpus.serverCount, 1);
    assert.equal(corpus.toolCount, 2);
    assert.deepEqual(corpus.servers[0].tools.map((t: { name: string }) => t.name), ["add", "echo"]);
    // The client that spoke to the servers is the v2 SDK's (deno.json pins 2.4.0); the stdio
    // transport under it is the v1 line's (1.32.2).
    const sdk = {
      client: "@modelcontextprotocol/client@2.4.0",
      stdio: "@modelcontextprotocol/sdk@1.32.2",
    };
    assert.equal(corpus.source.sdk, sdk.client);
    assert.equal(corpus.source.sdkStdioTransport, sdk.stdio);
    assert.equal(corpus.source.instructionsRecorded, true);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/tiny.manifest.json`));
    assert.equal(manifest.environment.sdk, sdk.client);
    assert.equal(manifest.environment.sdkStdioTransport, sdk.stdio);
    assert.equal(manifest.corpus.sha256, await sha256Hex(bytes));
    assert.equal(manifest.corpus.file, "tiny.tools.json");
    assert.deepEqual(manifest.totals.byOutcome, {
      ok: 1,
      timeout: 0,
      exited: 1,
      spawn_failed: 0,
      protocol_error: 0,
    });
    const broken = manifest.servers.find((s: { server: string }) => s.server === "broken");
    assert.equal(
      broken.cause,
      "the server exited with code 3 during initialize; its stderr: fatal: EXAMPLE_API_KEY is not set",
    );
    assert.equal(broken.stderrTail, "fatal: EXAMPLE_API_KEY is not set\n");
  } finally {
    await close();
  }
});

Deno.test("runCapture: an undefined ${VAR} fails its own server, named; the others are captured", async () => {
  const { run, close } = await capture({
    junk: { command: "node", args: [fixture("junk_then_serve.mjs")] },
    needsKey: { command: "node", env: { K: "${MCPMETER_UNSET_7F3A}" } },
  });
  try {
    const manifest = run.manifest as { servers: { server: string; status: string }[] };
    const failed = manifest.servers.find((s) => s.server === "needsKey") as Record<string, string>;
    assert.equal(failed.status, "spawn_failed");
    assert.match(failed.cause, /variable "MCPMETER_UNSET_7F3A" is not defined/);
    assert.equal((run.manifest.totals as { byOutcome: { ok: number } }).byOutcome.ok, 1);
    assert.equal(run.serverCount, 1);
  } finally {
    await close();
  }
});

Deno.test("runCapture: a server set off in its client's config is not captured; a tool filter is kept and said", async () => {
  const { run, lines, close } = await capture({
    junk: {
      command: "node",
      args: [fixture("junk_then_serve.mjs")],
      disabledTools: ["echo"],
    },
    broken: { command: "node", args: [fixture("exit_at_start.mjs")], disabled: true },
  });
  try {
    const manifest = run.manifest as { servers: { server: string }[] };
    assert.deepEqual(manifest.servers.map((s) => s.server), ["junk"]);
    assert.equal(run.serverCount, 1);
    assert.ok(
      lines.includes(
        '  broken: not captured: "disabled": true in its entry (--only broken captures it)',
      ),
      lines.join("\n"),
    );
    assert.ok(
      lines.includes(
        "  note: junk: its disabledTools is not applied: the capture keeps every tool the server " +
          "lists (deno task audit counts what the client sends)",
      ),
      lines.join("\n"),
    );
  } finally {
    await close();
  }
});

/** Whether the npm registry answers here (the pasted-config test needs it to install). */
async function npmReachable(): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("npm", {
      args: ["view", "@modelcontextprotocol/server-memory@2026.8.31", "version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success ? undefined : "npm view failed (registry unreachable?)";
  } catch (error) {
    return `npm cannot be run: ${(error as Error).message}`;
  }
}
const npmProblem = await npmReachable();
if (npmProblem !== undefined) console.warn(`ignored pasted-config capture test: ${npmProblem}`);

Deno.test({
  name: "runCapture: a pasted Claude Desktop config with npx -y launches is captured unchanged",
  ignore: npmProblem !== undefined,
  fn: async () => {
    const npx = (spec: string) => ({ command: "npx", args: ["-y", spec] });
    // The repo's install folder: already holds the package after `deno task capture`.
    const { run, lines, close } = await capture({
      memory: npx("@modelcontextprotocol/server-memory@2026.8.31"),
      memoryRange: npx("@modelcontextprotocol/server-memory@~2026.8.31"),
    }, { install: true });
    try {
      type Row = { server: string; status: string; package: string; version: string };
      const [memory, range] = run.manifest.servers as (Row & { warnings: string[] })[];
      assert.deepEqual([memory.server, memory.status, memory.package, memory.version], [
        "memory",
        "ok",
        "@modelcontextprotocol/server-memory",
        "2026.8.31",
      ]);
      assert.deepEqual(memory.warnings, []);
      assert.equal(range.status, "ok");
      assert.match(range.version, /^2026\.8\.\d+$/);
      assert.match(
        range.warnings[0],
        /^unpinned launch "npx @modelcontextprotocol\/server-memory@~2026\.8\.31": installed /,
      );
      // Its line counts that warning, as the manifest does, and says it under it; the pinned
      // launch has none.
      const at = lines.findIndex((l) => /\] memoryRange: /.test(l));
      assert.match(lines[at], /memoryRange: ok, 9 tools, \d+\.\d s, 1 warning\(s\)$/);
      assert.equal(
        lines[at + 1],
        "      warning: launched without an exact version, captured at the version npx picks " +
          `with this Node.js: @modelcontextprotocol/server-memory@${range.version} (pin it in the ` +
          "config for a repeatable capture)",
      );
      const pinned = lines.findIndex((l) => /\] memory: /.test(l));
      assert.match(lines[pinned], /memory: ok, 9 tools, \d+\.\d s$/);
      assert.doesNotMatch(lines[pinned + 1] ?? "", /^ {6}/);
      // The server's own README lists 9 tools (see lib/mcp/npm_server_test.ts).
      const corpus = JSON.parse(new TextDecoder().decode(run.corpusBytes));
      assert.equal(corpus.servers[0].tools.length, 9);
    } finally {
      await close();
    }
  },
});
