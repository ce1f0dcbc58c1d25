// Proxy overhead: the same upstream tool called directly and through the
// proxy, side by side in one run (in-process transports on both paths, so
// the difference is what the proxy adds: its MCP server, argument checks,
// lookup and forwarding). A second group does the same with the real
// @modelcontextprotocol/server-memory over stdio when it is installed.
// Run: deno bench -A lib/proxy/proxy_bench.ts
import { z } from "zod";
import { fileURLToPath } from "node:url";
import { parseServersConfig } from "../mcp/config.ts";
import { readInstalledPackage } from "../mcp/install.ts";
import { clientFor, fakeUpstream, FS_TOOLS } from "../../testing/proxy.ts";
import { connectUpstreams } from "./connect.ts";
import { createProxyCore, createProxyServer } from "./server.ts";
import { createUpstreamPool } from "./upstream.ts";

const AnyResult = z.looseObject({});
const args = { path: "/tmp/x" };

const direct = await fakeUpstream({ name: "fs", tools: FS_TOOLS });
const behind = await fakeUpstream({ name: "fs", tools: FS_TOOLS });
const pool = await createUpstreamPool([behind]);
const agent = await clientFor(createProxyServer(createProxyCore(pool)));

Deno.bench({
  name: "in-process upstream, called directly",
  group: "call overhead (in-process)",
  baseline: true,
  async fn() {
    await direct.client.request(
      { method: "tools/call", params: { name: "read_file", arguments: args } },
      AnyResult,
    );
  },
});

Deno.bench({
  name: "in-process upstream, through the proxy's call_tool",
  group: "call overhead (in-process)",
  async fn() {
    await agent.request(
      {
        method: "tools/call",
        params: { name: "call_tool", arguments: { name: "fs:read_file", arguments: args } },
      },
      AnyResult,
    );
  },
});

const SERVERS = fileURLToPath(new URL("../../.scratch/servers", import.meta.url));
const MEMORY = { package: "@modelcontextprotocol/server-memory", version: "2026.8.31" };
if (await readInstalledPackage(SERVERS, MEMORY.package, MEMORY.version)) {
  const config = parseServersConfig({
    mcpServers: {
      memory: {
        command: "node",
        args: ["${BIN}"],
        env: { MEMORY_FILE_PATH: "${SCRATCH}/m.jsonl" },
        ...MEMORY,
      },
    },
  });
  const options = { installDir: SERVERS, env: Deno.env.toObject() };
  const directPool = await connectUpstreams(config, options);
  const proxiedPool = await connectUpstreams(config, options);
  const memoryAgent = await clientFor(createProxyServer(createProxyCore(proxiedPool)));
  Deno.bench({
    name: "server-memory over stdio, read_graph directly",
    group: "call overhead (stdio server-memory)",
    baseline: true,
    async fn() {
      await directPool.call("memory", "read_graph", {});
    },
  });
  Deno.bench({
    name: "server-memory over stdio, read_graph through the proxy",
    group: "call overhead (stdio server-memory)",
    async fn() {
      await memoryAgent.request(
        {
          method: "tools/call",
          params: { name: "call_tool", arguments: { name: "memory:read_graph", arguments: {} } },
        },
        AnyResult,
      );
    },
  });
  globalThis.addEventListener("unload", () => {
    directPool.close();
    proxiedPool.close();
  });
}
