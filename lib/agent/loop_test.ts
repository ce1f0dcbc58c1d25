import assert from "node:assert/strict";
import { resolve } from "node:path";
import {
  errorReply,
  messageReply,
  type ReceivedRequest,
  type ScriptHandler,
  startScriptedModelServer,
} from "./_scripted_model_server.ts";
import { createModelClient } from "./providers/client.ts";
import type { ModelConfig } from "./types.ts";
import { runAgentLoop } from "./loop.ts";
import type { ExposedTool, ToolHost } from "./tools.ts";
import { openMcpHost } from "./mcp_host.ts";
import { installPackages, readInstalledPackage, resolveBin } from "../mcp/install.ts";

const agent = {
  systemPrompt: "sys",
  loop: "sequential" as const,
  maxIterations: 4,
  maxOutputTokens: 100,
};

function modelFor(url: string): ModelConfig {
  return {
    id: "local",
    provider: "anthropic",
    model: "m",
    baseUrl: url,
    apiKey: "${K}",
    pricing: {
      inputUsdPerMTok: 1,
      outputUsdPerMTok: 1,
      cacheReadUsdPerMTok: 0,
      cacheWriteUsdPerMTok: 0,
    },
  };
}

function client(url: string) {
  return createModelClient(modelFor(url), {
    env: { K: "test-key-1234" },
    now: () => performance.now(),
    sleep: () => Promise.resolve(),
    retry: { maxRetries: 1, baseDelayMs: 1 },
  });
}

function fakeHost(names: string[], delays: Record<string, number>, errors: string[] = []) {
  let active = 0;
  const seen = { maxActive: 0, order: [] as string[] };
  const tools: ExposedTool[] = names.map((n) => ({
    spec: { name: n, description: n, inputSchema: { type: "object" } },
    server: "fake",
    tool: n,
  }));
  const host: ToolHost = {
    tools,
    async call(tool) {
      active += 1;
      seen.maxActive = Math.max(seen.maxActive, active);
      seen.order.push(tool.tool);
      await new Promise((r) => setTimeout(r, delays[tool.tool] ?? 0));
      active -= 1;
      return { text: `out:${tool.tool}`, isError: errors.includes(tool.tool) };
    },
  };
  return { host, seen };
}

/** Turn 1: call a then b; turn 2: answer with the tool results it received, in order. */
const twoCallsThenEcho: ScriptHandler = (req) => {
  const msgs = req.body.messages as { role: string; content: unknown }[];
  const last = msgs[msgs.length - 1];
  if (Array.isArray(last.content)) {
    const results = (last.content as { content: string; is_error?: boolean }[])
      .map((b) => `${b.content}${b.is_error ? "!" : ""}`);
    return messageReply("anthropic", { text: results.join(","), usage: { input: 50, output: 5 } });
  }
  return messageReply("anthropic", {
    toolCalls: [{ id: "t1", name: "a", input: {} }, { id: "t2", name: "b", input: {} }],
    usage: { input: 20, output: 10, cacheRead: 100 },
  });
};

async function withServer(
  h: ScriptHandler,
  fn: (url: string, reqs: ReceivedRequest[]) => Promise<void>,
) {
  const s = startScriptedModelServer(h);
  try {
    await fn(s.url, s.requests);
  } finally {
    await s.close();
  }
}

Deno.test("runAgentLoop(): parallel calls overlap, results return in call order", async () => {
  await withServer(twoCallsThenEcho, async (url) => {
    const { host, seen } = fakeHost(["a", "b"], { a: 60, b: 0 });
    const r = await runAgentLoop({
      agent: { ...agent, loop: "parallel" },
      question: "q",
      model: client(url),
      tools: host,
      now: () => performance.now(),
    });
    assert.equal(seen.maxActive, 2);
    // a finishes last but its result still comes first.
    assert.equal(r.finalAnswer, "out:a,out:b");
    assert.equal(r.iterations, 2);
    assert.deepEqual(r.toolCalls.map((c) => c.tool), ["fake:a", "fake:b"]);
    // usage: 20+50 input, 10+5 output, 100 cache read (second turn reported null → null).
    assert.equal(r.usage.inputTokens, 70);
    assert.equal(r.usage.outputTokens, 15);
    assert.equal(r.usage.cacheReadTokens, null);
    assert.equal(r.peakContextTokens, 120);
    assert.equal(r.error, null);
  });
});

Deno.test("runAgentLoop(): sequential calls never overlap; tool errors go back and are counted", async () => {
  await withServer(twoCallsThenEcho, async (url) => {
    const { host, seen } = fakeHost(["a", "b"], { a: 20 }, ["b"]);
    const r = await runAgentLoop({
      agent,
      question: "q",
      model: client(url),
      tools: host,
      now: () => performance.now(),
    });
    assert.equal(seen.maxActive, 1);
    assert.deepEqual(seen.order, ["a", "b"]);
    assert.equal(r.finalAnswer, "out:a,out:b!");
    assert.deepEqual(r.toolCalls.map((c) => c.isError), [false, true]);
  });
});

Deno.test("runAgentLoop(): an unknown tool is an error result with no route", async () => {
  let turn = 0;
  await withServer(
    () =>
      turn++ === 0
        ? messageReply("anthropic", {
          toolCalls: [{ id: "t", name: "nope", input: {} }],
          usage: { input: 1, output: 1 },
        })
        : messageReply("anthropic", { text: "done", usage: { input: 1, output: 1 } }),
    async (url, reqs) => {
      const { host } = fakeHost(["a"], {});
      const r = await runAgentLoop({
        agent,
        question: "q",
        model: client(url),
        tools: host,
        now: () => performance.now(),
      });
      assert.deepEqual(r.toolCalls.map((c) => [c.name, c.tool, c.isError]), [["nope", null, true]]);
      const sent =
        (reqs[1].body.messages as { content: { is_error?: boolean; content: string }[] }[])[2]
          .content[0];
      assert.equal(sent.is_error, true);
      assert.equal(sent.content, 'unknown tool "nope"');
    },
  );
});

Deno.test("runAgentLoop(): stops at maxIterations with an iteration_limit error", async () => {
  await withServer(
    () =>
      messageReply("anthropic", {
        toolCalls: [{ id: "t", name: "a", input: {} }],
        usage: { input: 1, output: 1 },
      }),
    async (url, reqs) => {
      const { host } = fakeHost(["a"], {});
      const r = await runAgentLoop({
        agent,
        question: "q",
        model: client(url),
        tools: host,
        now: () => performance.now(),
      });
      assert.equal(r.iterations, 4);
      assert.equal(reqs.length, 4);
      assert.equal(r.toolCalls.length, 4);
      assert.equal(r.finalAnswer, null);
      assert.equal(r.error?.kind, "iteration_limit");
      assert.equal(r.usage.inputTokens, 4);
    },
  );
});

Deno.test("runAgentLoop(): a model failure ends the case as a 'model' error, keeping usage so far", async () => {
  let turn = 0;
  await withServer(
    () =>
      turn++ === 0
        ? messageReply("anthropic", {
          toolCalls: [{ id: "t", name: "a", input: {} }],
          usage: { input: 7, output: 3 },
        })
        : errorReply("anthropic", 503),
    async (url) => {
      const { host } = fakeHost(["a"], {});
      const r = await runAgentLoop({
        agent,
        question: "q",
        model: client(url),
        tools: host,
        now: () => performance.now(),
      });
      assert.equal(r.error?.kind, "model");
      assert.match(r.error!.message, /gave up after 2 attempts; last: HTTP 503/);
      assert.equal(r.usage.inputTokens, 7);
      assert.equal(r.iterations, 2);
    },
  );
});

Deno.test("runAgentLoop(): answers from a real filesystem MCP server's output", async () => {
  // Install on first use (npm registry), exactly as tasks/agents_test.ts does.
  const [install] = await installPackages(
    [{ package: "@modelcontextprotocol/server-filesystem", version: "2026.8.31" }],
    { installDir: ".scratch/servers" },
  );
  assert.notEqual(install.status, "failed", install.message);
  const installed = await readInstalledPackage(
    ".scratch/servers",
    "@modelcontextprotocol/server-filesystem",
    "2026.8.31",
  );
  assert.ok(installed, "server-filesystem is installed");
  const dataDir = resolve("fixtures/suites/data/fs");
  await Deno.stat(dataDir);
  const host = await openMcpHost(
    [{
      entry: {
        kind: "stdio",
        name: "fs",
        command: "node",
        args: [resolveBin(installed), dataDir],
        env: {},
        meta: { extra: {} },
      },
    }],
    { exposure: "direct" },
  );
  try {
    // Scripted model: read notes/todo.txt, then answer with its line count.
    const handler: ScriptHandler = (req) => {
      const msgs = req.body.messages as { content: unknown }[];
      const last = msgs[msgs.length - 1].content;
      if (Array.isArray(last)) {
        const text = (last[0] as { content: string }).content;
        return messageReply("anthropic", {
          text: `${text.trimEnd().split("\n").length}`,
          usage: { input: 1, output: 1 },
        });
      }
      return messageReply("anthropic", {
        toolCalls: [{
          id: "t",
          name: "read_text_file",
          input: { path: `${dataDir}/notes/todo.txt` },
        }],
        usage: { input: 1, output: 1 },
      });
    };
    await withServer(handler, async (url) => {
      const r = await runAgentLoop({
        agent,
        question: "lines?",
        model: client(url),
        tools: host,
        now: () => performance.now(),
      });
      const expected =
        (await Deno.readTextFile(`${dataDir}/notes/todo.txt`)).trimEnd().split("\n").length;
      assert.equal(r.finalAnswer, String(expected));
      assert.deepEqual(r.toolCalls.map((c) => [c.tool, c.isError]), [["fs:read_text_file", false]]);
    });
  } finally {
    await host.close();
  }
});

Deno.test("runAgentLoop(): a sandbox limit reported by the host is kept in that call's record", async () => {
  await withServer(twoCallsThenEcho, async (url) => {
    const { host } = fakeHost(["a", "b"], {});
    const limited: ToolHost = {
      tools: host.tools,
      async call(tool, args) {
        const out = await host.call(tool, args);
        return tool.tool === "b"
          ? { ...out, isError: true, limit: { name: "cpu_ms", value: 10_000 } }
          : out;
      },
    };
    const r = await runAgentLoop({
      agent,
      question: "q",
      model: client(url),
      tools: limited,
      now: () => performance.now(),
    });
    assert.equal("limit" in r.toolCalls[0], false);
    assert.deepEqual(r.toolCalls[1].limit, { name: "cpu_ms", value: 10_000 });
    assert.equal(r.toolCalls[1].isError, true);
  });
});

Deno.test("runAgentLoop() keeps the waits between retries out of llmMs and records every retry", async () => {
  const turns = [
    {
      text: "",
      toolCalls: [{ id: "c1", name: "a", args: {} }],
      stopReason: "tool_use",
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      notes: [],
      // 2,600 ms in all, of which 2,000 + 200 ms were waits before retries.
      ms: 2600,
      attempts: 3,
      retries: [{ status: 429, code: "http", waitMs: 2000 }, {
        status: 500,
        code: "http",
        waitMs: 200,
      }],
      cached: false,
    },
    {
      text: "done",
      toolCalls: [],
      stopReason: "end_turn",
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      notes: [],
      ms: 50,
      attempts: 1,
      cached: false,
    },
  ];
  const { host } = fakeHost(["a"], { a: 0 });
  const r = await runAgentLoop({
    agent,
    question: "q",
    model: { id: "m", complete: () => Promise.resolve(turns.shift()!) },
    tools: host,
    now: () => 0,
  });
  assert.equal(r.finalAnswer, "done");
  assert.equal(r.llmMs, 400 + 50);
  assert.equal(r.retryWaitMs, 2200);
  assert.deepEqual(r.retries, [
    { status: 429, code: "http", waitMs: 2000 },
    { status: 500, code: "http", waitMs: 200 },
  ]);
});

Deno.test("runAgentLoop() cuts a tool result longer than toolResultMaxChars, with a marker and a record", async () => {
  const long = "x".repeat(25);
  const host: ToolHost = {
    tools: [{
      spec: { name: "big", description: "", inputSchema: { type: "object" } },
      server: "s",
      tool: "big",
    }],
    call: () => Promise.resolve({ text: long, isError: false }),
  };
  const sent: string[] = [];
  const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let n = 0;
  const r = await runAgentLoop({
    agent: { ...agent, toolResultMaxChars: 10 },
    question: "q",
    model: {
      id: "m",
      complete: (req) => {
        const last = req.messages.at(-1);
        if (last?.role === "tool") sent.push(last.results[0].text);
        return Promise.resolve({
          text: n > 0 ? "done" : "",
          toolCalls: n++ > 0 ? [] : [{ id: "c", name: "big", args: {} }],
          stopReason: "x",
          usage,
          notes: [],
          ms: 1,
          attempts: 1,
          cached: false,
        });
      },
    },
    tools: host,
    now: () => 0,
  });
  assert.deepEqual(sent, [
    "xxxxxxxxxx\n[mcpmeter: tool result cut to 10 of 25 characters (toolResultMaxChars)]",
  ]);
  assert.deepEqual(r.toolCalls[0].truncated, { keptChars: 10, totalChars: 25 });
});
