// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { z } from "zod";
import type { JsonObject } from "../catalog/types.ts";
import { parseServersConfig } from "../mcp/config.ts";
import { installPackages, readInstalledPackage } from "../mcp/install.ts";
import { clientFor } from "../../testing/proxy.ts";
import { connectUpstreams } from "./connect.ts";
import { createProxyCore, createProxyServer } from "./server.ts";

const MEMORY = { package: "@modelcontextprotocol/server-memory", version: "2026.8.31" };
const SCRATCH_SERVERS = fromFileUrl(new URL("../../.scratch/servers", import.meta.url));
const CACHE = fromFileUrl(new URL("../../.scratch/live/servers", import.meta.url));

/** The install folder holding server-memory: capture's, else a cache installed on first use. */
async function memoryInstallDir(): Promise<string | undefined> {
  if (await readInstalledPackage(SCRATCH_SERVERS, MEMORY.package, MEMORY.version)) {
    return SCRATCH_SERVERS;
  }
  const [result] = await installPackages([MEMORY], { installDir: CACHE });
  return result.status === "failed" ? undefined : CACHE;
}

const AnyResult = z.looseObject({});

Deno.test({
  name:
    "connectUpstreams() runs the real server-memory behind the proxy; broken servers fail alone",
  async fn() {
    const installDir = await memoryInstallDir();
    assert.ok(installDir !== undefined, "could not install @modelcontextprotocol/server-memory");
    const config = parseServersConfig({
      mcpServers: {
        memory: {
          command: "node",
          args: ["${BIN}"],
          env: { MEMORY_FILE_PATH: "${SCRATCH}/memory.jsonl" },
          ...MEMORY,
        },
        ghost: { command: "/nonexistent/mcp-server" },
        quitter: { command: "node", args: ["-e", "process.exit(3)"] },
      },
    });
    const pool = await connectUpstreams(config, {
      installDir,
      env: Deno.env.toObject(),
      timeoutMs: 20_000,
    });
    try {
      const statuses = pool.statuses();
      assert.deepEqual(statuses.map((s) => [s.server, s.state]), [
        ["ghost", "failed"],
        ["memory", "ready"],
        ["quitter", "failed"],
      ]);
      assert.match(statuses[0].message!, /"\/nonexistent\/mcp-server" not found/);
      assert.ok(pool.tools.some((t) => t.id === "memory:create_entities"));
      const client = await clientFor(createProxyServer(createProxyCore(pool)));
      const call = async (name: string, args: JsonObject) =>
        await client.request(
          { method: "tools/call", params: { name, arguments: args } },
          AnyResult,
        );
      const found = await call("retrieve_tools", {
        query: "create new entities in the knowledge graph",
        limit: 3,
      }) as { content: { text: string }[] };
      assert.equal(JSON.parse(found.content[0].text).tools[0].name, "memory:create_entities");
      const created = await call("call_tool", {
        name: "memory:create_entities",
        arguments: { entities: [{ name: "mcpmeter", entityType: "project", observations: ["x"] }] },
      }) as { isError?: boolean };
      assert.notEqual(created.isError, true);
      const graph = await call("call_tool", { name: "memory:read_graph", arguments: {} }) as {
        content: { text: string }[];
      };
      assert.match(graph.content[0].text, /"name": ?"mcpmeter"/);
      await client.close();
    } finally {
      await pool.close();
    }
  },
});
