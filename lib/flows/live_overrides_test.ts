// runLive({overrides}): the reference proxy searches and returns the rewritten descriptions.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runLive } from "./live.ts";
import { parseToolOverrides } from "../catalog/overrides.ts";
import { denoFlowIo } from "./io.ts";
import { createUpstreamPool } from "../proxy/upstream.ts";
import { memorySession, NOTES_SERVER } from "../../testing/mcp.ts";

Deno.test("runLive({overrides}): the proxy over the notes server finds a tool by its overridden description", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-live-overrides-" });
  try {
    // fixtures/mcp/serve_with_child.mjs: echo(message) "Returns the message." and a long-named
    // search tool; no word of the query "parrot" is in either until echo is rewritten. Its
    // in-process twin stands in for the process (the stdio upstreams of runLive are run for real
    // by tasks/permissions_test.ts), the proxy is still reached over HTTP.
    await Deno.writeTextFile(
      `${dir}/servers.json`,
      JSON.stringify({
        mcpServers: {
          notes: {
            command: "node",
            args: [
              fileURLToPath(new URL("../../fixtures/mcp/serve_with_child.mjs", import.meta.url)),
              `mcpmeter-live-overrides-${crypto.randomUUID()}`,
            ],
          },
        },
      }),
    );
    await Deno.writeTextFile(
      `${dir}/golden.json`,
      JSON.stringify({
        queries: [{ id: "q1", query: "parrot", labels: [{ tool_id: "notes:echo", relevance: 2 }] }],
      }),
    );
    const overrides = parseToolOverrides({
      overrides: {
        "notes:echo": { description: "Parrot the message back." },
        "notes:gone": { description: "x" },
      },
    });
    const live = (o?: typeof overrides) =>
      runLive({
        servers: `${dir}/servers.json`,
        serverNames: ["notes"],
        golden: `${dir}/golden.json`,
        ...(o ? { overrides: o } : {}),
        connectUpstreams: async (config) => {
          assert.deepEqual(config.servers.map((e) => e.name), ["notes"]);
          return await createUpstreamPool([await memorySession("notes", NOTES_SERVER)]);
        },
      }, denoFlowIo());
    const plain = await live();
    const over = await live(overrides);
    const row = (b: typeof plain) => b.responseCost.perQuery.find((r) => r.queryId === "q1")!;
    assert.equal(row(plain).outcome, "ok");
    assert.ok(!row(plain).topIds!.includes("notes:echo"), JSON.stringify(row(plain).topIds));
    assert.equal(row(over).topIds![0], "notes:echo");
    assert.ok(
      over.warnings.includes(
        'overrides: override "notes:gone": server "notes" lists no tool "gone"',
      ),
      JSON.stringify(over.warnings),
    );
    assert.ok(!plain.warnings.some((w) => w.startsWith("overrides:")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
