// Harness speed. Run: deno bench -A lib/agent/run_bench.ts
// 1. Overhead per case with a zero-latency model and in-process tools (target ≤ 5 ms/case):
//    runSuite over 50 cases (2 model turns, 1 tool call each) vs the same model and tool calls
//    made directly (the named alternative); per-case = time per iteration / 50.
// 2. Throughput with a 200 ms model latency (scripted HTTP server, real SDK): 16 cases at
//    concurrency 8 vs concurrency 1 (target ≥ 6×).
import { runSuite } from "./run.ts";
import { createModelClient } from "./providers/client.ts";
import { messageReply, startScriptedModelServer } from "./_scripted_model_server.ts";
import type { ModelClient, ModelRequest, ModelTurn } from "./providers/types.ts";
import type { AgentConfig, ModelConfig, Suite } from "./types.ts";
import type { ToolHost } from "./tools.ts";

const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** Zero-latency in-process model: one tool call, then the answer. */
const instantModel: ModelClient = {
  id: "instant",
  complete(req: ModelRequest): Promise<ModelTurn> {
    const called = req.messages.some((m) => m.role === "tool");
    return Promise.resolve({
      text: called ? "42" : "",
      toolCalls: called ? [] : [{ id: "c1", name: "get-sum", args: { a: 17, b: 25 } }],
      stopReason: called ? "end_turn" : "tool_use",
      usage,
      notes: [],
      ms: 0,
      attempts: 1,
      cached: false,
    });
  },
};

const host: ToolHost & { close(): Promise<void> } = {
  tools: [{
    spec: { name: "get-sum", description: "add", inputSchema: { type: "object" } },
    server: "mem",
    tool: "get-sum",
  }],
  call: () => Promise.resolve({ text: "The sum of 17 and 25 is 42.", isError: false }),
  close: () => Promise.resolve(),
};

const agent = (id: string, model: string): AgentConfig => ({
  id,
  description: "",
  model,
  systemPrompt: "Be terse.",
  mcpServers: ["mem"],
  exposure: "direct",
  loop: "sequential",
  maxIterations: 4,
  maxOutputTokens: 64,
});

function suiteOf(n: number): Suite {
  return {
    id: "bench",
    description: "",
    cases: Array.from({ length: n }, (_, i) => ({
      id: `c${i}`,
      question: "Add 17 and 25.",
      criterion: {
        type: "all" as const,
        criteria: [{ type: "exact" as const, value: "42" }, {
          type: "tool_called" as const,
          tool: "mem:get-sum",
        }],
      },
    })),
  };
}

const pricing = {
  inputUsdPerMTok: 3,
  outputUsdPerMTok: 15,
  cacheReadUsdPerMTok: 0.3,
  cacheWriteUsdPerMTok: 3.75,
};
const models: ModelConfig[] = [{
  id: "instant",
  provider: "anthropic",
  model: "m",
  apiKey: "${K}",
  pricing,
}];
const root = await Deno.makeTempDir({ prefix: "mcpmeter-bench-" });
let runNo = 0;

async function runOnce(
  clients: Map<string, ModelClient>,
  modelId: string,
  cases: number,
  concurrency: number,
) {
  await runSuite({
    runDir: `${root}/r${runNo++}`,
    runId: "bench",
    suite: suiteOf(cases),
    agents: [agent("a", modelId)],
    models: [{ ...models[0], id: modelId }],
    toolPrices: {},
    clients,
    openTools: () => Promise.resolve(host),
    repetitions: 1,
    concurrency,
    now: () => performance.now(),
    epochNow: () => 0,
  });
}

Deno.bench({
  name: "direct calls: 50 cases × (2 model turns + 1 tool call), zero latency",
  group: "overhead",
  baseline: true,
  async fn() {
    for (let i = 0; i < 50; i++) {
      const req: ModelRequest = {
        system: "s",
        messages: [{ role: "user", text: "q" }],
        tools: [],
        maxOutputTokens: 64,
      };
      await instantModel.complete(req);
      await host.call(host.tools[0], { a: 17, b: 25 });
      await instantModel.complete({ ...req, messages: [{ role: "tool", results: [] }] });
    }
  },
});

Deno.bench({
  name: "runSuite: 50 cases, zero-latency in-process model and tools (files written)",
  group: "overhead",
  async fn() {
    await runOnce(new Map([["instant", instantModel]]), "instant", 50, 1);
  },
});

// Real SDK over HTTP at zero latency, to show what the adapter adds.
const fast = startScriptedModelServer((req) => {
  const msgs = req.body.messages as { content: unknown }[];
  const called = Array.isArray(msgs[msgs.length - 1].content);
  return messageReply(
    req.provider,
    called ? { text: "42", usage: { input: 100, output: 10 } } : {
      toolCalls: [{ id: "c1", name: "get-sum", input: { a: 17, b: 25 } }],
      usage: { input: 100, output: 10 },
    },
  );
});
const slow = startScriptedModelServer((req) => {
  const msgs = req.body.messages as { content: unknown }[];
  const called = Array.isArray(msgs[msgs.length - 1].content);
  return {
    ...messageReply(
      req.provider,
      called ? { text: "42", usage: { input: 100, output: 10 } } : {
        toolCalls: [{ id: "c1", name: "get-sum", input: { a: 17, b: 25 } }],
        usage: { input: 100, output: 10 },
      },
    ),
    delayMs: 100,
  };
});
const sdkClient = (url: string, id: string) =>
  createModelClient({ ...models[0], id, baseUrl: url }, {
    env: { K: "bench-key-123" },
    now: () => performance.now(),
    sleep: () => Promise.resolve(),
  });

Deno.bench({
  name: "runSuite: 50 cases, Anthropic SDK over local HTTP at zero latency",
  group: "overhead",
  async fn() {
    await runOnce(new Map([["http", sdkClient(fast.url, "http")]]), "http", 50, 1);
  },
});

// 200 ms per case: two model turns of 100 ms each.
Deno.bench({
  name: "16 cases, 200 ms model latency per case, concurrency 1",
  group: "throughput",
  baseline: true,
  n: 3,
  warmup: 1,
  async fn() {
    await runOnce(new Map([["slow", sdkClient(slow.url, "slow")]]), "slow", 16, 1);
  },
});

Deno.bench({
  name: "16 cases, 200 ms model latency per case, concurrency 8",
  group: "throughput",
  n: 3,
  warmup: 1,
  async fn() {
    await runOnce(new Map([["slow", sdkClient(slow.url, "slow")]]), "slow", 16, 8);
  },
});

globalThis.addEventListener("unload", () => {
  Deno.removeSync(root, { recursive: true });
});
