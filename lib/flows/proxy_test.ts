// test:quick skips this file: its tests start processes (deno task test runs them).
// The proxy flow (runProxy) on streamable HTTP, in process, over the real server-memory, reached
// by the official MCP Inspector CLI as a real client; progress lines come from the injected
// sink. The CLI (--help, the loopback rule's exit code) is tested in tasks/proxy_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { INSPECTOR, installedBin, SERVER_MEMORY } from "../../testing/npm.ts";
import { runProxy } from "./proxy.ts";
import { denoFlowIo } from "./io.ts";

Deno.test({
  name:
    "MCP Inspector CLI lists and calls tools through runProxy on HTTP; secrets stay out of its log",
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
          // Fails at start with a message naming its command, which holds the key.
          broken: { command: "/tmp/mcpmeter-missing-${UPSTREAM_KEY}" },
        },
      }),
    );
    const seen: string[] = [];
    const stop = Promise.withResolvers<void>();
    const listening = Promise.withResolvers<string>();
    const proxy = runProxy({
      servers: config,
      port: 0,
      token,
      installDir: memory.installDir,
      env: { ...Deno.env.toObject(), UPSTREAM_KEY: upstreamKey },
      stop: stop.promise,
      onListening: listening.resolve,
    }, { ...denoFlowIo(), progress: (_task, line) => seen.push(line) });
    proxy.catch(listening.reject);
    try {
      const url = await listening.promise;
      const inspect = async (...args: string[]) => {
        const out = await new Deno.Command("node", {
          args: [inspector.bin, "--cli", url, "--transport", "http", ...args],
          env: { HOME: dir, NO_COLOR: "1" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
        return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
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
        const query = "query=create entities in the knowledge graph";
        const call = ["--method", "tools/call", "--tool-name", "retrieve_tools"];
        const r = await inspect(...call, "--tool-arg", query, "detail=compact", ...auth);
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
      stop.resolve();
      await proxy.catch(() => {});
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

Deno.test({
  name:
    "runProxy: a pasted npx entry is pinned and installed, then served; a uvx one is a warned failure; with none started the proxy refuses to serve",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const inspector = await installedBin(INSPECTOR, "mcp-inspector");
    if ("skip" in inspector) {
      console.warn(`skipped: ${inspector.skip}`);
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
    const write = async (name: string, servers: Record<string, unknown>) => {
      const path = join(dir, name);
      await Deno.writeTextFile(path, JSON.stringify({ mcpServers: servers }));
      return path;
    };
    const fetchEntry = { command: "uvx", args: ["mcp-server-fetch"] };
    try {
      await t.step("npx memory served, uvx fetch warned", async () => {
        const servers = await write("npx.json", {
          memory: {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-memory"],
            env: { MEMORY_FILE_PATH: "${SCRATCH}/memory.jsonl" },
          },
          fetch: fetchEntry,
        });
        const seen: string[] = [];
        const stop = Promise.withResolvers<void>();
        const listening = Promise.withResolvers<string>();
        const proxy = runProxy({
          servers,
          port: 0,
          env: Deno.env.toObject(),
          stop: stop.promise,
          onListening: listening.resolve,
        }, { ...denoFlowIo(), progress: (_task, line) => seen.push(line) });
        proxy.catch(listening.reject);
        try {
          const url = await listening.promise;
          const out = await new Deno.Command("node", {
            args: [
              inspector.bin,
              "--cli",
              url,
              "--transport",
              "http",
              "--method",
              "tools/call",
              "--tool-name",
              "retrieve_tools",
              "--tool-arg",
              "query=create entities in the knowledge graph",
              "detail=compact",
            ],
            env: { HOME: dir, NO_COLOR: "1" },
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
          }).output();
          const text = new TextDecoder().decode(out.stdout);
          assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
          const body = JSON.parse(JSON.parse(text).content[0].text);
          assert.equal(body.tools[0].name, "memory:create_entities");
        } finally {
          stop.resolve();
          await proxy;
        }
        const log = seen.join("\n");
        assert.match(
          log,
          /memory: npx @modelcontextprotocol\/server-memory runs @modelcontextprotocol\/server-memory@\d/,
        );
        assert.match(log, /fetch: cannot start: uvx mcp-server-fetch downloads a Python package/);
        assert.match(log, /1\/2 upstreams ready/);
        assert.match(log, /warning: serving without fetch/);
      });
      await t.step("no upstream started: rejects, nothing served", async () => {
        const servers = await write("down.json", {
          fetch: fetchEntry,
          missing: { command: "/tmp/mcpmeter-no-such-server" },
        });
        let listened = false;
        await assert.rejects(
          runProxy({
            servers,
            port: 0,
            env: Deno.env.toObject(),
            stop: new Promise(() => {}),
            onListening: () => listened = true,
          }, { ...denoFlowIo(), progress: () => {} }),
          /no upstream started \(fetch, missing\)/,
        );
        assert.equal(listened, false);
      });
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
