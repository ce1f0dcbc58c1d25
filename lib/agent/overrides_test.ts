// Tool-description overrides as the model receives them: the exact tool definitions sent over
// the OpenAI and Anthropic wire formats (direct), and what the in-process proxy and the code
// host return.
import assert from "node:assert/strict";
import { hostSessions, type McpToolHost } from "./mcp_host.ts";
import { memorySession, NOTES_SERVER } from "../../testing/mcp.ts";
import { messageReply, startScriptedModelServer } from "./_scripted_model_server.ts";
import { createModelClient } from "./providers/client.ts";
import { runAgentLoop } from "./loop.ts";
import { catalogHash } from "./tools.ts";
import { parseToolOverrides, toolOverridesSha256 } from "../catalog/overrides.ts";
import type { AgentConfig, Exposure } from "./types.ts";
import type { ModelClient } from "./providers/types.ts";
import { runSuite } from "./run.ts";
import { join } from "node:path";
import { AgentConfigError, parseAgents } from "./config.ts";
import { loadAgents } from "./load_config.ts";

// The in-process twin of fixtures/mcp/serve_with_child.mjs (its process is not what these tests
// are about) lists two tools on server "notes": a long dotted name with no inputSchema, and
// echo(message) described "Returns the message.".
const notes = () => memorySession("notes", NOTES_SERVER);

const OVERRIDES = parseToolOverrides({
  overrides: {
    "notes:echo": {
      title: "Echo",
      description: "Send back the message, unchanged.",
      parameters: { message: "Text to send back." },
    },
    "notes:missing": { description: "no such tool" },
    "mail:send": { description: "no such server" },
  },
});

async function withHost(
  exposure: Exposure,
  overrides: typeof OVERRIDES | undefined,
  fn: (host: McpToolHost) => Promise<void>,
  provider: "openai" | "anthropic" = "openai",
): Promise<void> {
  const host = await hostSessions([await notes()], {
    exposure,
    provider,
    ...(overrides ? { overrides } : {}),
  });
  try {
    await fn(host);
  } finally {
    await host.close();
  }
}

/**
 * The `tools` array of the one request (Chat Completions, or Anthropic Messages) a one-turn loop
 * sends, each tool as JSON text.
 */
async function toolsSent(
  host: McpToolHost,
  provider: "openai" | "anthropic" = "openai",
): Promise<{ name: string; text: string }[]> {
  const server = startScriptedModelServer((req) =>
    messageReply(req.provider, { text: "done", usage: { input: 1, output: 1 } })
  );
  try {
    const model = createModelClient({
      id: "local",
      provider,
      model: "m",
      baseUrl: provider === "openai" ? server.openaiBaseUrl : server.url,
      apiKey: "${K}",
      pricing: {
        inputUsdPerMTok: 1,
        outputUsdPerMTok: 1,
        cacheReadUsdPerMTok: 0,
        cacheWriteUsdPerMTok: 0,
      },
    }, {
      env: { K: "test-key-1234" },
      now: () => performance.now(),
      sleep: () => Promise.resolve(),
    });
    const r = await runAgentLoop({
      agent: { systemPrompt: "sys", loop: "sequential", maxIterations: 2, maxOutputTokens: 50 },
      question: "q",
      model,
      tools: host,
      now: () => performance.now(),
    });
    assert.equal(r.finalAnswer, "done");
    assert.equal(server.requests.length, 1);
    // JSON.parse keeps the order of keys as sent, so this is the request's own text of each tool.
    const tools = server.requests[0].body.tools as { name?: string; function?: { name: string } }[];
    return tools.map((t) => ({ name: t.function?.name ?? t.name!, text: JSON.stringify(t) }));
  } finally {
    await server.close();
  }
}

Deno.test("overrides (direct): the definitions sent to the model carry the override, and only the overridden tool changes", async () => {
  let plain: { name: string; text: string }[] = [];
  let plainHash = "";
  await withHost("direct", undefined, async (host) => {
    plain = await toolsSent(host);
    plainHash = await catalogHash(host.tools, host.overrides?.sha256);
    assert.equal(host.overrides, undefined);
  });
  await withHost("direct", OVERRIDES, async (host) => {
    const sent = await toolsSent(host);
    // Hand-written: the OpenAI function tool of echo, description and parameter replaced (the
    // title is not part of a Chat Completions tool).
    const echo =
      '{"type":"function","function":{"name":"echo","description":"Send back the message, unchanged.",' +
      '"parameters":{"type":"object","properties":{"message":{"type":"string","description":"Text to send back."}},' +
      '"required":["message"]}}}';
    assert.equal(sent.find((t) => t.name === "echo")!.text, echo);
    assert.equal(
      plain.find((t) => t.name === "echo")!.text,
      '{"type":"function","function":{"name":"echo","description":"Returns the message.",' +
        '"parameters":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}}',
    );
    // Every other byte of the tools array is the same as without overrides.
    assert.deepEqual(
      sent.filter((t) => t.name !== "echo"),
      plain.filter((t) => t.name !== "echo"),
    );
    assert.equal(sent.length, 2);
    // The record: sha256, what was applied, and the two keys that name nothing.
    assert.equal(host.overrides!.sha256, await toolOverridesSha256(OVERRIDES));
    assert.deepEqual(host.overrides!.applied, [{
      toolId: "notes:echo",
      fields: ["title", "description", "parameters.message"],
    }]);
    assert.deepEqual(host.overrides!.problems.map((p) => [p.key, p.kind]), [
      ["mail:send", "unknown-server"],
      ["notes:missing", "unknown-tool"],
    ]);
    assert.ok(
      host.warnings.includes('overrides: override "mail:send": no server "mail" in the catalog'),
    );
    assert.notEqual(await catalogHash(host.tools, host.overrides!.sha256), plainHash);
  });
});

Deno.test("overrides (direct, Anthropic wire): the input_schema and description sent carry the override, nothing else changes", async () => {
  let plain: { name: string; text: string }[] = [];
  await withHost("direct", undefined, async (host) => {
    plain = await toolsSent(host, "anthropic");
  }, "anthropic");
  await withHost("direct", OVERRIDES, async (host) => {
    const sent = await toolsSent(host, "anthropic");
    // Hand-written: an Anthropic Messages tool is {name, description, input_schema}.
    assert.equal(
      sent.find((t) => t.name === "echo")!.text,
      '{"name":"echo","description":"Send back the message, unchanged.","input_schema":' +
        '{"type":"object","properties":{"message":{"type":"string","description":"Text to send back."}},' +
        '"required":["message"]}}',
    );
    assert.deepEqual(
      sent.filter((t) => t.name !== "echo"),
      plain.filter((t) => t.name !== "echo"),
    );
    assert.equal(sent.length, 2);
  }, "anthropic");
});

Deno.test("overrides (proxy): the proxy describes and returns the overridden texts; its own three tools and the catalog hash say so", async () => {
  let plainHash = "";
  let plainTools = "";
  await withHost("proxy", undefined, async (host) => {
    plainHash = await catalogHash(host.tools, host.overrides?.sha256);
    plainTools = JSON.stringify(host.tools);
  });
  await withHost("proxy", OVERRIDES, async (host) => {
    // The model is offered the same three proxy tools...
    assert.equal(JSON.stringify(host.tools), plainTools);
    // ...so the hash differs only through the overrides' sha256.
    const hash = await catalogHash(host.tools, host.overrides!.sha256);
    assert.notEqual(hash, plainHash);
    assert.equal(await catalogHash(host.tools), plainHash);
    const [retrieve, describe] = host.tools;
    const found = JSON.parse((await host.call(retrieve, { query: "echo the message" })).text);
    const echo = found.tools.find((t: { name: string }) => t.name === "notes:echo");
    assert.equal(echo.description, "Send back the message, unchanged.");
    const described = JSON.parse((await host.call(describe, { tool_ids: ["notes:echo"] })).text);
    assert.deepEqual(described.tools[0], {
      name: "notes:echo",
      server: "notes",
      title: "Echo",
      description: "Send back the message, unchanged.",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string", description: "Text to send back." } },
        required: ["message"],
      },
    });
  });
});

Deno.test("overrides (code): retrieve_tools lists the overridden description", async () => {
  await withHost("code", OVERRIDES, async (host) => {
    const found = JSON.parse(
      (await host.call(host.tools[0], { query: "echo message", limit: 1 })).text,
    );
    assert.equal(found.tools[0].description, "Send back the message, unchanged.");
    assert.equal(host.overrides!.applied.length, 1);
  });
});

Deno.test("agents: overrides inline are validated, a path is read relative to the agent file", async () => {
  const base = { id: "a", description: "d", model: "m", mcpServers: ["notes"], systemPrompt: "s" };
  const [inline] = parseAgents({
    ...base,
    overrides: { overrides: { "notes:echo": { title: "E" } } },
  });
  assert.deepEqual(inline.overrides, { overrides: { "notes:echo": { title: "E" } } });
  assert.throws(
    () =>
      parseAgents(
        { ...base, overrides: { overrides: { "notes:echo": { titel: "E" } } } },
        "a.json",
      ),
    (e: unknown) =>
      e instanceof AgentConfigError &&
      e.message ===
        'Cannot load agent "a.json": field "overrides.overrides.notes:echo.titel" is not a known field',
  );
  assert.throws(
    () => parseAgents({ ...base, overrides: 3 }, "a.json"),
    (e: unknown) => e instanceof AgentConfigError && e.field === "overrides",
  );
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/agents`);
    await Deno.writeTextFile(
      `${dir}/rewrites.json`,
      '{"overrides": {"notes:echo": {"description": "Echo it."}}}',
    );
    await Deno.writeTextFile(
      `${dir}/agents/a.json`,
      JSON.stringify({ ...base, overrides: "../rewrites.json" }),
    );
    const [loaded] = await loadAgents(`${dir}/agents`);
    assert.deepEqual(loaded.overrides, {
      file: "../rewrites.json",
      overrides: { "notes:echo": { description: "Echo it." } },
    });
    // A resolved agent written back as JSON (what sweep does) reads the same.
    assert.deepEqual(parseAgents(JSON.stringify(loaded))[0].overrides, loaded.overrides);
    await Deno.writeTextFile(
      `${dir}/agents/a.json`,
      JSON.stringify({ ...base, overrides: "../missing.json" }),
    );
    await assert.rejects(
      () => loadAgents(`${dir}/agents`),
      (e: unknown) =>
        e instanceof AgentConfigError && e.field === "overrides" &&
        e.message.includes('names "../missing.json", which cannot be used') &&
        e.message.includes("file not found"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runSuite(): run.json records the agent's overrides, their sha256 in the catalog hash, and what named nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-overrides-run-" });
  const hosts: McpToolHost[] = [];
  try {
    const agent: AgentConfig = {
      id: "a",
      description: "",
      model: "m",
      systemPrompt: "",
      mcpServers: ["notes"],
      exposure: "proxy",
      loop: "sequential",
      maxIterations: 2,
      maxOutputTokens: 10,
      overrides: { ...OVERRIDES, file: "rewrites.json" },
    };
    const model: ModelClient = {
      id: "m",
      complete: () =>
        Promise.resolve({
          text: "x",
          toolCalls: [],
          stopReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: null },
          notes: [],
          ms: 1,
          attempts: 1,
          cached: false,
        }),
    };
    await runSuite({
      runDir: join(dir, "r"),
      runId: "r",
      suite: {
        id: "s",
        description: "",
        cases: [{ id: "c", question: "q", criterion: { type: "exact", value: "x" } }],
      },
      agents: [agent],
      models: [{
        id: "m",
        provider: "openai",
        model: "m",
        apiKey: "${K}",
        pricing: {
          inputUsdPerMTok: 1,
          outputUsdPerMTok: 1,
          cacheReadUsdPerMTok: 0,
          cacheWriteUsdPerMTok: 0,
        },
      }],
      toolPrices: {},
      clients: new Map([["m", model]]),
      openTools: async (a) => {
        const host = await hostSessions([await notes()], {
          exposure: a.exposure,
          provider: "openai",
          ...(a.overrides ? { overrides: a.overrides } : {}),
        });
        hosts.push(host);
        return host;
      },
      repetitions: 1,
      now: () => 0,
      epochNow: () => 0,
    });
    const run = JSON.parse(await Deno.readTextFile(join(dir, "r", "run.json")));
    const sha = await toolOverridesSha256(OVERRIDES);
    assert.deepEqual(run.catalogs.a.overrides, {
      sha256: sha,
      file: "rewrites.json",
      applied: [{ toolId: "notes:echo", fields: ["title", "description", "parameters.message"] }],
      problems: [
        {
          key: "mail:send",
          kind: "unknown-server",
          message: 'override "mail:send": no server "mail" in the catalog',
        },
        {
          key: "notes:missing",
          kind: "unknown-tool",
          message: 'override "notes:missing": server "notes" lists no tool "missing"',
        },
      ],
    });
    assert.equal(run.catalogs.a.hash, await catalogHash(hosts[0].tools, sha));
    assert.notEqual(run.catalogs.a.hash, await catalogHash(hosts[0].tools));
    assert.deepEqual(run.agents[0].overrides.overrides, OVERRIDES.overrides);
    assert.ok(
      run.warnings.includes(
        'agent "a": overrides: override "mail:send": no server "mail" in the catalog',
      ),
      run.warnings.join("\n"),
    );
  } finally {
    for (const h of hosts) await h.close();
    await Deno.remove(dir, { recursive: true });
  }
});
