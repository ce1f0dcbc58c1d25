// test:quick skips this file: its tests start MCP servers (node) and install one from npm.
// The flows against servers of both protocol eras: live measurement of an endpoint that speaks
// only the 2026-07-28 revision, and the agent runner over a server built on the v2 TypeScript SDK
// (@modelcontextprotocol/server 2.4.0) on stdio and streamable HTTP, both eras and modern-only;
// run.json records the negotiated version and the server's instructions.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLive } from "./live.ts";
import { messageReply, type ReceivedRequest } from "../agent/_scripted_model_server.ts";
import { E2E_KEY, runAgentsForTest, withScriptedModel } from "../../testing/agents.ts";
import {
  MODERN,
  startV2HttpServer,
  V2_INSTRUCTIONS,
  v2ServerScript,
  v2StdioEntry,
} from "../../testing/mcp_v2.ts";

const installed = await v2ServerScript();
const skip = "skip" in installed ? installed.skip : undefined;
if (skip) console.warn(`v2 SDK tests skipped: ${skip}`);
const script = "script" in installed ? installed.script : "";

Deno.test({
  name: "runLive() measures an endpoint that speaks only the 2026-07-28 revision",
  ignore: skip !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const http = await startV2HttpServer(script, "modern-only");
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-eras-" });
  try {
    const golden = join(dir, "golden.json");
    const queries = ["repeat this", "say it again"].map((query, i) => ({
      id: `q${i}`,
      query,
      labels: [{ tool_id: "v2:echo", relevance: 2 }],
    }));
    await Deno.writeTextFile(golden, JSON.stringify({ queries }));
    // Its discovery tool is echo; the query goes in `message`.
    const block = await runLive({
      endpoint: http.url,
      golden,
      tool: "echo",
      queryArg: "message",
      timeoutMs: 20_000,
    });
    assert.deepEqual(block.queries.failures, []);
    assert.equal(block.queries.failed, 0);
    assert.equal(block.responseCost.n, 2);
    assert.ok(!block.warnings.some((w) => w.startsWith("tools/list of the endpoint failed")));
    // live.json says which era the endpoint spoke and what it told its clients.
    assert.equal(block.target.protocolVersion, MODERN);
    assert.equal(block.target.instructions, V2_INSTRUCTIONS);
  } finally {
    await http.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "runLive() over the reference proxy records the era and instructions of each upstream, v2 SDK servers on stdio and HTTP",
  ignore: skip !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const modern = await startV2HttpServer(script, "modern-only");
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-eras-" });
  try {
    const servers = join(dir, "servers.json");
    await Deno.writeTextFile(
      servers,
      JSON.stringify({
        mcpServers: {
          s_both: v2StdioEntry(script, "both"),
          h_modern: { url: modern.url, type: "http" },
        },
      }),
    );
    const golden = join(dir, "golden.json");
    await Deno.writeTextFile(
      golden,
      JSON.stringify({
        queries: [{
          id: "q0",
          query: "repeat a message",
          labels: [{ tool_id: "s_both:echo", relevance: 2 }],
        }],
      }),
    );
    const block = await runLive({ servers, golden, timeoutMs: 20_000 });
    assert.equal(block.target.kind, "reference-proxy");
    const seen = (block.target.servers ?? []).map((
      s,
    ) => [s.server, s.state, s.protocolVersion, s.instructions]);
    assert.deepEqual(seen, [
      ["h_modern", "ready", MODERN, V2_INSTRUCTIONS],
      ["s_both", "ready", MODERN, V2_INSTRUCTIONS],
    ]);
    assert.equal(block.queries.failed, 0, JSON.stringify(block.queries.failures));
  } finally {
    await modern.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A model that calls each v2 server's echo once, then answers with what they said. */
function echoEach(req: ReceivedRequest) {
  const tools = ((req.body.tools ?? []) as { name: string }[]).map((t) => t.name)
    .filter((n) => n.endsWith("echo")).sort();
  const said = JSON.stringify(req.body.messages);
  const next = tools.find((name) => !said.includes(`"name":"${name}"`));
  return next === undefined
    ? messageReply(req.provider, {
      text: `done: ${(said.match(/echo: hi/g) ?? []).length}`,
      usage: { input: 10, output: 5 },
    })
    : messageReply(req.provider, {
      toolCalls: [{ id: `call_${next}`, name: next, input: { message: "hi" } }],
      usage: { input: 10, output: 5 },
    });
}

Deno.test({
  name:
    "the agent runner calls tools of v2 SDK servers in both modes, on stdio and HTTP, and run.json records each server's protocol version and instructions",
  ignore: skip !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const both = await startV2HttpServer(script, "both");
  const modern = await startV2HttpServer(script, "modern-only");
  try {
    await withScriptedModel(echoEach, async (_s, dir, models) => {
      const servers = {
        mcpServers: {
          s_both: v2StdioEntry(script, "both"),
          s_modern: v2StdioEntry(script, "modern-only"),
          h_both: { url: both.url, type: "http" },
          h_modern: { url: modern.url, type: "http" },
        },
      };
      await Deno.writeTextFile(join(dir, "servers.json"), JSON.stringify(servers));
      const agentsDir = join(dir, "agents");
      await Deno.mkdir(agentsDir);
      await Deno.writeTextFile(
        join(agentsDir, "eras.json"),
        JSON.stringify({
          id: "eras",
          description: "Calls echo on four v2 SDK servers.",
          model: "claude",
          systemPrompt: "Answer.",
          mcpServers: Object.keys(servers.mcpServers),
          maxIterations: 8,
        }),
      );
      await Deno.writeTextFile(
        join(dir, "suite.json"),
        JSON.stringify({
          id: "eras",
          description: "Each server answers.",
          cases: [{
            id: "echo",
            question: "Ask each server to echo hi.",
            criterion: { type: "exact", value: "done: 4" },
          }],
        }),
      );
      const r = await runAgentsForTest({
        suite: join(dir, "suite.json"),
        agentsDir,
        models,
        servers: join(dir, "servers.json"),
        out: dir,
        env: { E2E_KEY },
        runId: "eras",
      });
      assert.equal(r.code, 0, r.stderr);
      const runJson = JSON.parse(await Deno.readTextFile(join(dir, "eras", "run.json")));
      const records = (await Deno.readTextFile(join(dir, "eras", "cases.jsonl"))).trim()
        .split("\n").map((l) => JSON.parse(l));
      assert.equal(records[0].passed, true, JSON.stringify(records[0]));
      const seen = runJson.catalogs.eras.servers as {
        server: string;
        protocolVersion?: string;
        instructions?: string;
      }[];
      assert.deepEqual(seen.map((s) => s.server).sort(), Object.keys(servers.mcpServers).sort());
      for (const s of seen) {
        assert.equal(s.protocolVersion, MODERN, s.server);
        assert.equal(s.instructions, V2_INSTRUCTIONS, s.server);
      }
    });
  } finally {
    await both.close();
    await modern.close();
  }
});
