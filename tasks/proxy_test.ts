// deno task proxy end to end: the task as a user runs it (deno task, its declared permissions),
// over the real server-memory, reached by the official MCP Inspector CLI.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { INSPECTOR, installedBin, SERVER_MEMORY } from "../lib/_npm_testing.ts";

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

/** Reads stderr lines until one matches; returns the match. */
async function waitFor(
  lines: AsyncIterator<string>,
  pattern: RegExp,
  seen: string[],
): Promise<RegExpExecArray> {
  while (true) {
    const next = await lines.next();
    if (next.done) throw new Error(`the proxy exited before ${pattern}:\n${seen.join("\n")}`);
    seen.push(next.value);
    const m = pattern.exec(next.value);
    if (m) return m;
  }
}

async function* splitLines(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<string> {
  let buf = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, i);
      buf = buf.slice(i + 1);
    }
  }
  if (buf !== "") yield buf;
}

Deno.test({
  name:
    "MCP Inspector CLI lists and calls tools through deno task proxy --http; secrets stay out of its log",
  async fn(t) {
    const memory = await installedBin(SERVER_MEMORY);
    const inspector = await installedBin(INSPECTOR, "mcp-inspector");
    if ("skip" in memory || "skip" in inspector) {
      console.warn(
        `skipped: ${"skip" in memory ? memory.skip : (inspector as { skip: string }).skip}`,
      );
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
    const token = "proxy-token-5c1e9a";
    const upstreamKey = "upstream-key-77d0b3";
    const config = join(dir, "servers.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: "node",
            args: ["${BIN}"],
            env: { MEMORY_FILE_PATH: "${SCRATCH}/memory.jsonl", MEMORY_API_KEY: "${UPSTREAM_KEY}" },
            ...SERVER_MEMORY,
          },
          // Fails at start with a message naming its command, which holds the key (a path the
          // task may read, so the lookup can tell it is missing).
          broken: { command: "/tmp/mcpmeter-missing-${UPSTREAM_KEY}" },
        },
      }),
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "task",
        "--quiet",
        "proxy",
        "--servers",
        config,
        "--http",
        "0",
        "--install-dir",
        memory.installDir,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1", MCPMETER_PROXY_TOKEN: token, UPSTREAM_KEY: upstreamKey },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const seen: string[] = [];
    const lines = splitLines(child.stderr)[Symbol.asyncIterator]();
    try {
      const [, url] = await waitFor(lines, /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/, seen);
      const inspect = async (...args: string[]) => {
        const out = await new Deno.Command("node", {
          args: [inspector.bin, "--cli", url, "--transport", "http", ...args],
          env: { HOME: dir, NO_COLOR: "1" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).output();
        return {
          code: out.code,
          stdout: new TextDecoder().decode(out.stdout),
          stderr: new TextDecoder().decode(out.stderr),
        };
      };
      const auth = ["--header", `Authorization: Bearer ${token}`];
      await t.step("tools/list", async () => {
        const r = await inspect("--method", "tools/list", ...auth);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(JSON.parse(r.stdout).tools.map((x: { name: string }) => x.name), [
          "retrieve_tools",
          "describe_tool",
          "call_tool",
        ]);
      });
      await t.step("tools/call retrieve_tools finds server-memory's tool", async () => {
        const r = await inspect(
          "--method",
          "tools/call",
          "--tool-name",
          "retrieve_tools",
          "--tool-arg",
          "query=create entities in the knowledge graph",
          "detail=compact",
          ...auth,
        );
        assert.equal(r.code, 0, r.stderr);
        const body = JSON.parse(JSON.parse(r.stdout).content[0].text);
        assert.equal(body.tools[0].name, "memory:create_entities");
      });
      await t.step("without the token the Inspector is refused", async () => {
        const r = await inspect("--method", "tools/list");
        assert.notEqual(r.code, 0);
        assert.ok(!(r.stdout + r.stderr).includes(token));
      });
    } finally {
      child.kill("SIGTERM");
      // Drain the rest of stderr until the proxy exits.
      for (let n = await lines.next(); !n.done; n = await lines.next()) seen.push(n.value);
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
    const log = seen.join("\n");
    assert.match(
      log,
      /broken: failed .*\/tmp\/mcpmeter-missing-\[REDACTED\]/,
      "the failure names the command, key removed",
    );
    assert.match(log, /refused \(401\)/);
    assert.ok(!log.includes(upstreamKey), log);
    assert.ok(!log.includes(token), log);
  },
});
