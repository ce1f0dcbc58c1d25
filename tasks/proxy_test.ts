// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task proxy as a user runs it (deno task, its declared permissions): --help, the
// loopback rule (exit 2 before anything starts), the end of a stdio session, and an upstream
// whose tool list changes. The proxy flow itself, reached by the official
// MCP Inspector CLI, is tested in lib/flows/proxy_test.ts; tasks/permissions_test.ts makes a real
// initialize call through deno task proxy --http.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { ensureAgentServers } from "../testing/agents.ts";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "../lib/core/sdk.ts";
import { NOTES_SERVER, sessionfulHttpServer } from "../testing/mcp.ts";
import { startV2HttpServer, v2ServerScript, v2StdioEntry } from "../testing/mcp_v2.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function runTask(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "proxy", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/**
 * Reads the proxy's stderr until `ready` matches it, then drains the rest in the background.
 *
 * @returns The match.
 * @throws {Error} `the proxy ended before WHAT: STDERR` when stderr ends first.
 */
async function stderrUntil(
  proc: Deno.ChildProcess,
  ready: RegExp,
  what: string,
): Promise<RegExpExecArray> {
  let err = "";
  const reader = proc.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let m: RegExpExecArray | null;
  while ((m = ready.exec(err)) === null) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the proxy ended before ${what}: ${err}`);
    err += value;
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  return m;
}

Deno.test("deno task proxy --help documents the HTTP safety flags", async () => {
  const r = await runTask(["--help"]);
  assert.equal(r.code, 0, r.stderr);
  for (const flag of ["--token", "--allow-host", "--allow-origin", "--max-result-bytes"]) {
    assert.ok(r.stdout.includes(flag), flag);
  }
});

Deno.test("deno task proxy refuses to bind off loopback without a token, before starting anything", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
  try {
    const config = join(dir, "servers.json");
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: {} }));
    const r = await runTask(["--servers", config, "--http", "0", "--host", "0.0.0.0"], {
      MCPMETER_PROXY_TOKEN: "",
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /Binding 0\.0\.0\.0 exposes the server beyond this machine: set --token or \$MCPMETER_PROXY_TOKEN/,
    );
    assert.doesNotMatch(r.stderr, /upstreams ready/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Pids of live processes whose environment holds `marker` (an upstream and its children). */
async function processesWith(marker: string): Promise<number[]> {
  const out: number[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const environ = await Deno.readTextFile(`/proc/${e.name}/environ`).catch(() => "");
    if (environ.includes(marker)) out.push(Number(e.name));
  }
  return out;
}

Deno.test({
  name: "deno task proxy on stdio exits, closing its upstreams, when its client closes stdin",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await ensureAgentServers();
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
  const marker = `MCPMETER_TEST_MARKER_${crypto.randomUUID()}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "proxy", "--servers", join(dir, "servers.json")],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const servers = JSON.parse(await Deno.readTextFile(join(ROOT, "fixtures/agents/servers.json")));
  const memory = { ...servers.mcpServers.memory, env: { [marker]: "1" } };
  memory.env.MEMORY_FILE_PATH = join(dir, "memory.jsonl");
  await Deno.writeTextFile(join(dir, "servers.json"), JSON.stringify({ mcpServers: { memory } }));
  const proc = child.spawn();
  try {
    await stderrUntil(proc, /serving MCP on stdio/, "serving");
    // It serves: an initialize is answered.
    const writer = proc.stdin.getWriter();
    await writer.write(new TextEncoder().encode(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      }) + "\n",
    ));
    const lines = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const first = await lines.read();
    assert.match(first.value ?? "", /"id":1/);
    (async () => {
      while (!(await lines.read()).done) { /* drain */ }
    })().catch(() => {});
    assert.ok((await processesWith(marker)).length > 0, "the upstream runs");
    // The client goes away.
    await writer.close();
    const status = await Promise.race([
      proc.status,
      new Promise<null>((r) => setTimeout(() => r(null), 60_000)),
    ]);
    assert.notEqual(status, null, "the proxy still runs 60 s after its client closed stdin");
    assert.equal(status!.code, 0);
    assert.deepEqual(await processesWith(marker), [], "an upstream outlived the proxy");
  } finally {
    try {
      proc.kill("SIGKILL");
    } catch { /* already gone */ }
    await proc.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task proxy lists an upstream again when it says its tool list changed: a tool added after start-up is found and called", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
  await Deno.writeTextFile(
    join(dir, "servers.json"),
    JSON.stringify({
      mcpServers: {
        growing: {
          command: Deno.execPath(),
          args: ["run", "--quiet", "-A", join(ROOT, "fixtures/mcp/growing_server.ts")],
        },
      },
    }),
  );
  const client = new Client({ name: "t", version: "1" }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["task", "--quiet", "proxy", "--servers", join(dir, "servers.json")],
      cwd: ROOT,
      env: { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
      stderr: "pipe",
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    return { text: (r.content as { text: string }[])[0].text, isError: r.isError === true };
  };
  try {
    const before = await call("call_tool", { name: "growing:late", arguments: {} });
    assert.equal(before.isError, true);
    assert.match(before.text, /Unknown tool "growing:late"/);
    assert.equal((await call("call_tool", { name: "growing:grow", arguments: {} })).text, "grown");
    // The notification is handled as it arrives; the listing behind it takes a moment.
    let late = before;
    for (let i = 0; i < 100 && late.isError; i++) {
      await new Promise((r) => setTimeout(r, 100));
      late = await call("call_tool", { name: "growing:late", arguments: {} });
    }
    assert.deepEqual(late, { text: "late and here", isError: false });
    const found = await call("retrieve_tools", { query: "arrived late after start-up" });
    assert.match(found.text, /growing:late/);
  } finally {
    await client.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task proxy reaches upstreams built on the v2 SDK, the 2026-07-28 revision alone too, over stdio and HTTP", async () => {
  const installed = await v2ServerScript();
  if ("skip" in installed) {
    console.warn(`skipped: ${installed.skip}`);
    return;
  }
  const http = await startV2HttpServer(installed.script, "modern-only");
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
  await Deno.writeTextFile(
    join(dir, "servers.json"),
    JSON.stringify({
      mcpServers: {
        both: v2StdioEntry(installed.script, "both"),
        modern: v2StdioEntry(installed.script, "modern-only"),
        remote: { url: http.url, type: "http" },
      },
    }),
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["task", "--quiet", "proxy", "--servers", join(dir, "servers.json")],
    cwd: ROOT,
    env: { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => err += new TextDecoder().decode(chunk));
  const client = new Client({ name: "t", version: "1" }, { capabilities: {} });
  await client.connect(transport);
  try {
    for (const server of ["both", "modern", "remote"]) {
      const r = await client.callTool({
        name: "call_tool",
        arguments: { name: `${server}:echo`, arguments: { message: server } },
      });
      assert.deepEqual(r.content, [{ type: "text", text: `echo: ${server}` }], err);
    }
    // The era each upstream speaks is said on stderr.
    for (const server of ["both", "modern", "remote"]) {
      assert.match(err, new RegExp(`${server}: ready \\(protocol 2026-07-28\\)`));
    }
  } finally {
    await client.close();
    await http.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task proxy lists a 2026-07-28-only upstream again when its tool list changes (subscriptions/listen), over stdio and HTTP", async () => {
  const installed = await v2ServerScript();
  if ("skip" in installed) {
    console.warn(`skipped: ${installed.skip}`);
    return;
  }
  const http = await startV2HttpServer(installed.script, "modern-only", true);
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
  await Deno.writeTextFile(
    join(dir, "servers.json"),
    JSON.stringify({
      mcpServers: {
        local: v2StdioEntry(installed.script, "modern-only", "grow"),
        remote: { url: http.url, type: "http" },
      },
    }),
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["task", "--quiet", "proxy", "--servers", join(dir, "servers.json")],
    cwd: ROOT,
    env: { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => err += new TextDecoder().decode(chunk));
  const client = new Client({ name: "t", version: "1" }, { capabilities: {} });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    return { text: (r.content as { text: string }[])[0].text, isError: r.isError === true };
  };
  try {
    for (const server of ["local", "remote"]) {
      assert.match(err, new RegExp(`${server}: ready \\(protocol 2026-07-28\\)`));
      const before = await call("call_tool", { name: `${server}:late`, arguments: {} });
      assert.equal(before.isError, true, server);
      assert.match(before.text, new RegExp(`Unknown tool "${server}:late"`));
      assert.equal(
        (await call("call_tool", { name: `${server}:grow`, arguments: {} })).text,
        "grown",
      );
      // The notification arrives on the listen stream; the listing behind it takes a moment.
      let late = before;
      for (let i = 0; i < 100 && late.isError; i++) {
        await new Promise((r) => setTimeout(r, 100));
        late = await call("call_tool", { name: `${server}:late`, arguments: {} });
      }
      assert.deepEqual(late, { text: "late and here", isError: false }, `${server}\n${err}`);
      const found = await call("retrieve_tools", { query: "a tool that arrived late" });
      assert.match(found.text, new RegExp(`${server}:late`));
    }
  } finally {
    await client.close();
    await http.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task proxy --http: a client's DELETE ends its session; on SIGTERM it exits and ends its own sessions with its HTTP upstreams", async () => {
  const upstream = sessionfulHttpServer(NOTES_SERVER);
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
  await Deno.writeTextFile(
    join(dir, "servers.json"),
    JSON.stringify({ mcpServers: { notes: { url: upstream.url, type: "http" } } }),
  );
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "proxy", "--servers", join(dir, "servers.json"), "--http", "0"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    const url = new URL((await stderrUntil(proc, /listening on (\S+)/, "listening"))[1]);
    assert.equal(upstream.opened.length, 1, "the proxy opened one session upstream");
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: "t", version: "1" }, { capabilities: {} });
    await client.connect(transport);
    const listed = await client.listTools();
    assert.ok(listed.tools.some((t) => t.name === "retrieve_tools"));
    const session = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    // The ended session is gone: a request naming it is 404.
    const after = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    await after.body?.cancel();
    assert.equal(after.status, 404);
    proc.kill("SIGTERM");
    const status = await Promise.race([
      proc.status,
      new Promise<null>((r) => setTimeout(() => r(null), 30_000)),
    ]);
    assert.notEqual(status, null, "the proxy still runs 30 s after SIGTERM");
    assert.deepEqual(upstream.deleted, upstream.opened, "its upstream session was left open");
  } finally {
    try {
      proc.kill("SIGKILL");
    } catch { /* already gone */ }
    await proc.status;
    await upstream.close();
    await Deno.remove(dir, { recursive: true });
  }
});
