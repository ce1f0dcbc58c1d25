// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { resolve } from "node:path";
import {
  messageReply,
  type ReceivedRequest,
  type ScriptHandler,
  startScriptedModelServer,
} from "./_scripted_model_server.ts";
import { errorReply } from "../../testing/scripted_replies.ts";
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
    // The first request alone: 20 input + 100 cache read (no cache write reported).
    assert.equal(r.firstTurnInputTokens, 120);
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

/** A host whose tool `name` fails on the calls listed in `failOn` (1-based call numbers). */
function flakyHost(name: string, failOn: number[]) {
  let calls = 0;
  const host: ToolHost = {
    tools: [{
      spec: { name, description: name, inputSchema: { type: "object" } },
      server: "s",
      tool: name,
    }],
    call: () => {
      calls += 1;
      return Promise.resolve({ text: `out#${calls}`, isError: failOn.includes(calls) });
    },
  };
  return { host, calls: () => calls };
}

/** A scripted Anthropic model calling `name` `times` times, one call per turn, then answering. */
function callsThenAnswer(name: string, times: number): ScriptHandler {
  let turn = 0;
  return () =>
    turn++ < times
      ? messageReply("anthropic", {
        toolCalls: [{ id: `t${turn}`, name, input: { n: turn } }],
        usage: { input: 1, output: 1 },
      })
      : messageReply("anthropic", { text: "gave up", usage: { input: 1, output: 1 } });
}

/** The tool_result blocks of the last user message of a recorded Anthropic request. */
function sentResults(req: ReceivedRequest) {
  const msgs = req.body.messages as { content: unknown }[];
  return msgs.at(-1)!.content as { tool_use_id: string; content: string; is_error?: boolean }[];
}

Deno.test("runAgentLoop() retryOnToolError: the model is told the retries left, a call beyond them is not run", async () => {
  await withServer(callsThenAnswer("a", 3), async (url, reqs) => {
    const { host, calls } = flakyHost("a", [1, 2, 3]);
    const r = await runAgentLoop({
      agent: { ...agent, retryOnToolError: 1 },
      question: "q",
      model: client(url),
      tools: host,
      now: () => performance.now(),
    });
    // Call 1 errors (chain opens), call 2 is retry 1 and errors, call 3 is refused unrun.
    assert.equal(calls(), 2);
    assert.equal(reqs.length, 4);
    assert.deepEqual(sentResults(reqs[1]), [{
      type: "tool_result",
      tool_use_id: "t1",
      is_error: true,
      content:
        'out#1\n[mcpmeter: the call failed; you may retry "a" 1 more time(s) (retryOnToolError: 1)]',
    }]);
    assert.equal(
      sentResults(reqs[2])[0].content,
      'out#2\n[mcpmeter: the call failed and no retries of "a" are left (retryOnToolError: 1); a further call of it will not be run]',
    );
    assert.deepEqual(sentResults(reqs[3])[0], {
      type: "tool_result",
      tool_use_id: "t3",
      is_error: true,
      content: '[mcpmeter: not run: "a" failed 2 time(s) in a row and retryOnToolError is 1]',
    });
    assert.deepEqual(r.toolRetries, { attempted: 1, succeeded: 0, refused: 1 });
    assert.deepEqual(
      r.toolCalls.map((c) => [c.retry ?? null, c.notRun ?? null, c.isError, c.args]),
      [[null, null, true, { n: 1 }], [1, null, true, { n: 2 }], [null, "retry_limit", true, {
        n: 3,
      }]],
    );
    assert.equal(r.toolCalls[2].ms, 0);
    assert.equal(r.finalAnswer, "gave up");
  });
});

Deno.test("runAgentLoop() retryOnToolError: a retry that succeeds ends the chain and is counted", async () => {
  await withServer(callsThenAnswer("b", 3), async (url, reqs) => {
    // Fails on call 1 and 3: call 2 is a successful retry; call 3 opens a new chain.
    const { host, calls } = flakyHost("b", [1, 3]);
    const r = await runAgentLoop({
      agent: { ...agent, retryOnToolError: 2 },
      question: "q",
      model: client(url),
      tools: host,
      now: () => performance.now(),
    });
    assert.equal(calls(), 3);
    assert.equal(
      sentResults(reqs[1])[0].content,
      'out#1\n[mcpmeter: the call failed; you may retry "b" 2 more time(s) (retryOnToolError: 2)]',
    );
    // The successful retry's result goes back untouched (no note, no error flag).
    assert.deepEqual(sentResults(reqs[2])[0], {
      type: "tool_result",
      tool_use_id: "t2",
      content: "out#2",
    });
    // A fresh chain after the success: the full budget again.
    assert.match(sentResults(reqs[3])[0].content, /retry "b" 2 more time\(s\)/);
    assert.deepEqual(r.toolRetries, { attempted: 1, succeeded: 1, refused: 0 });
    assert.deepEqual(r.toolCalls.map((c) => c.retry ?? null), [null, 1, null]);
  });
});

Deno.test("runAgentLoop() without retryOnToolError counts retries but sends errors as they are", async () => {
  await withServer(callsThenAnswer("a", 3), async (url, reqs) => {
    const { host, calls } = flakyHost("a", [1, 2]);
    const r = await runAgentLoop({
      agent,
      question: "q",
      model: client(url),
      tools: host,
      now: () => performance.now(),
    });
    assert.equal(calls(), 3);
    assert.deepEqual(
      [1, 2, 3].map((i) => sentResults(reqs[i])[0].content),
      ["out#1", "out#2", "out#3"],
    );
    // Calls 2 and 3 are retries of the chain opened by call 1; call 3 succeeded.
    assert.deepEqual(r.toolRetries, { attempted: 2, succeeded: 1, refused: 0 });
  });
});

Deno.test("runAgentLoop() retryOnToolError: calls of one turn are not retries of each other", async () => {
  let turn = 0;
  const handler: ScriptHandler = () => {
    turn += 1;
    if (turn === 1) {
      return messageReply("anthropic", {
        toolCalls: [{ id: "x1", name: "a", input: {} }, { id: "x2", name: "a", input: {} }],
        usage: { input: 1, output: 1 },
      });
    }
    if (turn === 2) {
      return messageReply("anthropic", {
        toolCalls: [{ id: "y1", name: "a", input: {} }, { id: "y2", name: "a", input: {} }],
        usage: { input: 1, output: 1 },
      });
    }
    return messageReply("anthropic", { text: "ok", usage: { input: 1, output: 1 } });
  };
  await withServer(handler, async (url, reqs) => {
    const { host, calls } = flakyHost("a", [1, 2, 3]);
    const r = await runAgentLoop({
      agent: { ...agent, loop: "parallel", retryOnToolError: 1 },
      question: "q",
      model: client(url),
      tools: host,
      now: () => performance.now(),
    });
    // Turn 1: two first calls, both fail (one chain). Turn 2: y1 is retry 1 (fails), y2 would
    // be retry 2 and is refused.
    assert.equal(calls(), 3);
    assert.deepEqual(r.toolRetries, { attempted: 1, succeeded: 0, refused: 1 });
    assert.deepEqual(r.toolCalls.map((c) => c.retry ?? c.notRun ?? null), [
      null,
      null,
      1,
      "retry_limit",
    ]);
    assert.deepEqual(sentResults(reqs[2]).map((b) => b.tool_use_id), ["y1", "y2"]);
  });
});

Deno.test("runAgentLoop() retryOnToolError under proxy exposure: a retry is a call_tool of the same upstream tool", async () => {
  const { PROXY_SERVER_NAME } = await import("./tools.ts");
  const plan = ["fs:a", "fs:b", "fs:a", "fs:a"];
  let turn = 0;
  const handler: ScriptHandler = () =>
    turn < plan.length
      ? messageReply("anthropic", {
        toolCalls: [{ id: `p${turn}`, name: "call_tool", input: { name: plan[turn++] } }],
        usage: { input: 1, output: 1 },
      })
      : messageReply("anthropic", { text: "end", usage: { input: 1, output: 1 } });
  const ran: string[] = [];
  const host: ToolHost = {
    tools: [{
      spec: { name: "call_tool", description: "", inputSchema: { type: "object" } },
      server: PROXY_SERVER_NAME,
      tool: "call_tool",
    }],
    call: (_tool, args) => {
      const name = (args as { name: string }).name;
      ran.push(name);
      return Promise.resolve({ text: `ran ${name}`, isError: name === "fs:a" });
    },
  };
  await withServer(handler, async (url, reqs) => {
    const r = await runAgentLoop({
      agent: { ...agent, maxIterations: 6, retryOnToolError: 1 },
      question: "q",
      model: client(url),
      tools: host,
      now: () => performance.now(),
    });
    // fs:b between the two fs:a calls is no retry; the third fs:a is one retry too many.
    assert.deepEqual(ran, ["fs:a", "fs:b", "fs:a"]);
    assert.deepEqual(r.toolRetries, { attempted: 1, succeeded: 0, refused: 1 });
    assert.equal(
      sentResults(reqs[1])[0].content,
      'ran fs:a\n[mcpmeter: the call failed; you may retry "fs:a" 1 more time(s) (retryOnToolError: 1)]',
    );
    assert.equal(sentResults(reqs[2])[0].content, "ran fs:b");
    assert.equal(
      sentResults(reqs[4])[0].content,
      '[mcpmeter: not run: "fs:a" failed 2 time(s) in a row and retryOnToolError is 1]',
    );
  });
});
