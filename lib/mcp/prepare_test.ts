// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { parseServersConfig } from "./config.ts";
import type { InstallResult, PackageSpec } from "./install.ts";
import { mergePrepared, prepareCapture } from "./prepare.ts";
import type { ServerCaptureRecord } from "./types.ts";

// A pasted Claude Desktop config, unchanged.
const PASTED = {
  mcpServers: {
    filesystem: {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"],
    },
    memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory@2026.8.31"] },
    fetch: { command: "uvx", args: ["mcp-server-fetch"] },
    gone: { command: "npx", args: ["-y", "@example/does-not-exist"] },
    local: { command: "node", args: ["/opt/server.js"] },
  },
};

Deno.test("prepareCapture() pins npm launches, installs them first, and sets aside what cannot start", async () => {
  const resolved: string[] = [];
  const installed: PackageSpec[][] = [];
  const prepared = await prepareCapture(parseServersConfig(PASTED), {
    resolveVersion: (name, range) => {
      resolved.push(`${name}@${range ?? "latest"}`);
      if (name === "@example/does-not-exist") {
        return Promise.reject(
          new Error(
            "npm view @example/does-not-exist@latest found no version (npm error code E404)",
          ),
        );
      }
      return Promise.resolve("2026.1.14");
    },
    install: (specs) => {
      installed.push([...specs]);
      return Promise.resolve(specs.map((s): InstallResult => ({
        package: s.package,
        version: s.version,
        status: s.package.endsWith("memory") ? "present" : "installed",
        ms: 1,
      })));
    },
  });
  // Only the unpinned npm launches are resolved (memory is pinned; fetch is Python), in
  // config-key order (filesystem, gone).
  assert.deepEqual(resolved, [
    "@modelcontextprotocol/server-filesystem@latest",
    "@example/does-not-exist@latest",
  ]);
  // One install call, before any start, with both pinned packages.
  assert.deepEqual(installed, [[
    { package: "@modelcontextprotocol/server-filesystem", version: "2026.1.14", scripts: false },
    { package: "@modelcontextprotocol/server-memory", version: "2026.8.31", scripts: false },
  ]]);
  assert.deepEqual(
    prepared.config.servers.map((s) => s.kind === "stdio" ? [s.name, s.command, ...s.args] : []),
    [
      ["filesystem", "node", "${BIN}", "/Users/me/Desktop"],
      ["local", "node", "/opt/server.js"],
      ["memory", "node", "${BIN}"],
    ],
  );
  assert.deepEqual(prepared.failed.map((r) => [r.server, r.outcome, r.phase, r.captureMs]), [
    ["fetch", "spawn_failed", "spawn", 0],
    ["gone", "spawn_failed", "spawn", 0],
  ]);
  assert.match(
    prepared.failed[1].message!,
    /cannot resolve a version for npx @example\/does-not-exist: .*E404/,
  );
  assert.deepEqual([...prepared.warnings], [[
    "filesystem",
    [
      'unpinned launch "npx @modelcontextprotocol/server-filesystem": installed ' +
      "@modelcontextprotocol/server-filesystem@2026.1.14; write " +
      "@modelcontextprotocol/server-filesystem@2026.1.14 in the config for a reproducible capture",
    ],
  ]]);
  assert.deepEqual(prepared.installs, {
    "@modelcontextprotocol/server-filesystem@2026.1.14": "installed",
    "@modelcontextprotocol/server-memory@2026.8.31": "present",
  });

  // Merged with the captured records: warnings first, failures in place, sorted by server.
  const ok = (server: string): ServerCaptureRecord => ({
    server,
    transport: "stdio",
    outcome: "ok",
    warnings: ["w"],
    tools: [],
    pages: {},
    captureMs: 5,
    runPaths: [],
  });
  const merged = mergePrepared([ok("filesystem"), ok("local"), ok("memory")], prepared);
  assert.deepEqual(merged.map((r) => [r.server, r.outcome, r.warnings.length]), [
    ["fetch", "spawn_failed", 0],
    ["filesystem", "ok", 2],
    ["gone", "spawn_failed", 0],
    ["local", "ok", 1],
    ["memory", "ok", 1],
  ]);
});

Deno.test("prepareCapture() turns a failed install into that server's failure only", async () => {
  const prepared = await prepareCapture(parseServersConfig(PASTED), {
    only: ["memory", "local"],
    resolveVersion: () => Promise.reject(new Error("not called for pinned or unselected entries")),
    install: (specs) =>
      Promise.resolve(specs.map((s): InstallResult => ({
        package: s.package,
        version: s.version,
        status: "failed",
        message: "npm install failed (exit 1): npm error code ETARGET",
        ms: 3,
      }))),
  });
  assert.deepEqual(prepared.failed.map((r) => [r.server, r.message]), [[
    "memory",
    "@modelcontextprotocol/server-memory@2026.8.31 could not be installed before the offline " +
    "start: npm install failed (exit 1): npm error code ETARGET",
  ]]);
  assert.ok(prepared.config.servers.some((s) => s.name === "local"));
  assert.ok(!prepared.config.servers.some((s) => s.name === "memory"));
});
