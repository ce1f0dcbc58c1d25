import assert from "node:assert/strict";
import { join } from "node:path";
import { runSuite } from "./run.ts";
import { exposeTools } from "./tools.ts";
import {
  ModelCallError,
  type ModelClient,
  type ModelRequest,
  type ModelTurn,
} from "./providers/types.ts";
import type { AgentConfig, ModelConfig } from "./types.ts";

const LONG = "notes.search_every_note_in_the_workspace_by_keyword_and_return_the_matching_lines";
const EXPOSED = "notes_search_every_note_in_the_workspace_by_keyword_and_060b6840";

Deno.test("runSuite(): run.json records the exposed-name mapping and the provider changes; calls route to the listed name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-test-" });
  try {
    const seen: string[] = [];
    const tools = exposeTools([
      { server: "notes", item: { name: LONG, description: "Search notes" } },
      { server: "notes", item: { name: "echo", inputSchema: { type: "object" } } },
    ], "openai");
    const usage = { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: null };
    // The model calls the tool by the name it was offered, then answers.
    const model: ModelClient = {
      id: "m",
      complete(req: ModelRequest): Promise<ModelTurn> {
        const done = req.messages.some((m) => m.role === "tool");
        return Promise.resolve({
          text: done ? "found" : "",
          toolCalls: done ? [] : [{ id: "c", name: req.tools[0].name, args: { q: "x" } }],
          stopReason: done ? "stop" : "tool_calls",
          usage,
          notes: [],
          ms: 1,
          attempts: 1,
          cached: false,
        });
      },
    };
    const agent: AgentConfig = {
      id: "a",
      description: "",
      model: "m",
      systemPrompt: "",
      mcpServers: ["notes"],
      exposure: "direct",
      loop: "sequential",
      maxIterations: 3,
      maxOutputTokens: 10,
    };
    const models: ModelConfig[] = [{
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
    }, {
      id: "unused",
      provider: "openai",
      model: "u",
      apiKey: "${K2:-sk-fallback-0123456789}",
      pricing: {
        inputUsdPerMTok: 1,
        outputUsdPerMTok: 1,
        cacheReadUsdPerMTok: 0,
        cacheWriteUsdPerMTok: 0,
      },
    }];
    const out = await runSuite({
      runDir: join(dir, "r"),
      runId: "r",
      suite: {
        id: "s",
        description: "",
        cases: [{
          id: "c",
          question: "q",
          criterion: { type: "tool_called", tool: `notes:${LONG}` },
        }],
      },
      agents: [agent],
      models,
      toolPrices: {},
      clients: new Map([["m", model]]),
      openTools: () =>
        Promise.resolve({
          tools,
          call: (tool) => {
            seen.push(`${tool.server}:${tool.tool}`);
            return Promise.resolve({ text: "hit", isError: false });
          },
          close: () => Promise.resolve(),
        }),
      repetitions: 1,
      now: () => 0,
      epochNow: () => 0,
    });
    assert.equal(out.records[0].passed, true);
    assert.deepEqual(seen, [`notes:${LONG}`]);
    assert.deepEqual(out.records[0].toolCalls.map((c) => [c.name, c.tool]), [
      [EXPOSED, `notes:${LONG}`],
    ]);
    const runText = await Deno.readTextFile(join(dir, "r", "run.json"));
    const run = JSON.parse(runText);
    // API keys are recorded as references; a literal `:-default` fallback is redacted.
    assert.deepEqual(run.models.map((m: { apiKey: string }) => m.apiKey), [
      "${K}",
      "${K2:-[REDACTED]}",
    ]);
    assert.ok(!runText.includes("sk-fallback"));
    assert.deepEqual(run.catalogs.a.mapping, { [EXPOSED]: `notes:${LONG}`, echo: "notes:echo" });
    assert.deepEqual(
      run.catalogs.a.normalization.map((
        n: { exposedName: string; tool: string; changes: { kind: string }[] },
      ) => [
        n.exposedName,
        n.tool,
        n.changes.map((c) => c.kind),
      ]),
      [
        [EXPOSED, `notes:${LONG}`, ["rename", "add-schema"]],
        ["echo", "notes:echo", ["add-properties"]],
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A one-model, one-agent suite of `cases` cases whose model answers by `reply(call index)`. */
function tinySuite(dir: string, cases: number, reply: (n: number) => ModelTurn | Error) {
  let calls = 0;
  const model: ModelClient = {
    id: "m",
    complete() {
      const r = reply(calls++);
      return r instanceof Error ? Promise.reject(r) : Promise.resolve(r);
    },
  };
  const agent: AgentConfig = {
    id: "a",
    description: "",
    model: "m",
    systemPrompt: "",
    mcpServers: [],
    exposure: "direct",
    loop: "sequential",
    maxIterations: 2,
    maxOutputTokens: 10,
  };
  const models: ModelConfig[] = [{
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
  }];
  return (extra: Partial<Parameters<typeof runSuite>[0]> = {}) =>
    runSuite({
      runDir: join(dir, "r"),
      runId: "r",
      suite: {
        id: "s",
        description: "",
        cases: Array.from({ length: cases }, (_, i) => ({
          id: `c${i}`,
          question: "q",
          criterion: { type: "contains" as const, values: ["ok"] },
        })),
      },
      agents: [agent],
      models,
      toolPrices: {},
      clients: new Map([["m", model]]),
      openTools: () =>
        Promise.resolve({
          tools: [],
          call: () => Promise.reject(),
          close: () => Promise.resolve(),
        }),
      repetitions: 1,
      now: () => 0,
      epochNow: () => 0,
      ...extra,
    });
}

const answer = (text: string): ModelTurn => ({
  text,
  toolCalls: [],
  stopReason: "stop",
  usage: { inputTokens: 5, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: null },
  notes: [],
  ms: 1,
  attempts: 1,
  cached: false,
});

Deno.test("runSuite(): consecutive 401s stop the run early; the rest stay unstarted for --resume", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-auth-" });
  try {
    const refused = new ModelCallError("http", 'model "m": HTTP 401: invalid x-api-key', {
      status: 401,
      attempts: 1,
    });
    const run = tinySuite(dir, 10, () => refused);
    const out = await run({ stopAfterAuthFailures: 3 });
    // Concurrency 1: three refused cases, then the other seven are never started.
    assert.equal(out.records.length, 3);
    assert.deepEqual(out.records.map((r) => [r.error?.code, r.error?.status]), [
      ["http", 401],
      ["http", 401],
      ["http", 401],
    ]);
    assert.deepEqual(out.stopped?.notStarted, 7);
    assert.match(out.stopped!.reason, /^3 consecutive cases were refused with HTTP 401/);
    const runJson = JSON.parse(await Deno.readTextFile(join(dir, "r", "run.json")));
    assert.equal(runJson.status, "stopped");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runSuite(): --retry-errors replaces the infrastructure-error records and keeps the others", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-retry-" });
  try {
    // First session: cases 0 and 2 answer, case 1 hits an outage (connection refused).
    const down = new ModelCallError("unreachable", "cannot connect", { attempts: 1 });
    const first = await tinySuite(dir, 3, (n) => n === 1 ? down : answer("ok"))();
    assert.deepEqual(first.records.map((r) => r.passed), [true, null, true]);
    // A plain resume has nothing to do; --retry-errors runs case 1 again, replacing its record.
    const plain = await tinySuite(dir, 3, () => answer("ok"))({ resume: true });
    assert.equal(plain.newRecords, 0);
    const again = await tinySuite(dir, 3, () => answer("ok"))({ resume: true, retryErrors: true });
    assert.equal(again.replaced, 1);
    assert.equal(again.newRecords, 1);
    const lines = (await Deno.readTextFile(join(dir, "r", "cases.jsonl"))).trim().split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((r) => [r.caseId, r.passed]), [
      ["c0", true],
      ["c2", true],
      ["c1", true],
    ]);
    // cases.csv: one row per record, sorted by agent, case, repetition; summary.json beside it.
    const csv = (await Deno.readTextFile(join(dir, "r", "cases.csv"))).trim().split("\n");
    assert.equal(csv.length, 4);
    assert.ok(csv[0].startsWith("agent_id,case_id,repetition,passed,criterion,error_kind,"));
    assert.deepEqual(csv.slice(1).map((l) => l.split(",").slice(0, 5)), [
      ["a", "c0", "0", "true", "contains"],
      ["a", "c1", "0", "true", "contains"],
      ["a", "c2", "0", "true", "contains"],
    ]);
    const summary = JSON.parse(await Deno.readTextFile(join(dir, "r", "summary.json")));
    assert.deepEqual([summary.runId, summary.agents[0].agentId, summary.agents[0].passRate], [
      "r",
      "a",
      1,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agentPricing(): one-hour cache writes cost 1.6× the five-minute price unless the model sets one", async () => {
  const { agentPricing } = await import("./run.ts");
  const p = {
    inputUsdPerMTok: 3,
    outputUsdPerMTok: 15,
    cacheReadUsdPerMTok: 0.3,
    cacheWriteUsdPerMTok: 3.75,
  };
  // Anthropic: 5m writes 1.25 × $3 = $3.75, 1h writes 2 × $3 = $6.
  assert.equal(
    agentPricing({ promptCaching: { enabled: true, ttl: "1h" } }, p)?.cacheWriteUsdPerMTok,
    6,
  );
  assert.equal(agentPricing({ promptCaching: { enabled: true, ttl: "5m" } }, p), p);
  assert.equal(agentPricing({ promptCaching: { enabled: false, ttl: "1h" } }, p), p);
  assert.equal(agentPricing({}, p), p);
  assert.equal(
    agentPricing({ promptCaching: { enabled: true, ttl: "1h" } }, {
      ...p,
      cacheWrite1hUsdPerMTok: 7,
    })
      ?.cacheWriteUsdPerMTok,
    7,
  );
  assert.equal(agentPricing({}, undefined), undefined);
});

Deno.test("runSuite(): a summarize agent's record keeps the summarizer's tokens and USD apart; summary.csv sums them", async () => {
  const { memoryRunFolder } = await import("./run_folder.ts");
  const turn = (over: Partial<ModelTurn>): ModelTurn => ({
    text: "",
    toolCalls: [],
    stopReason: "x",
    usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    notes: [],
    ms: 1,
    attempts: 1,
    cached: false,
    ...over,
  });
  // Three tool turns, then the answer (counted here: the view it is sent gets shorter).
  let n = 0;
  const model: ModelClient = {
    id: "m",
    complete: () => {
      n += 1;
      return Promise.resolve(
        n <= 3 ? turn({ toolCalls: [{ id: `c${n}`, name: "t", args: {} }] }) : turn({ text: "ok" }),
      );
    },
  };
  const summarizer: ModelClient = {
    id: "sum",
    complete: () =>
      Promise.resolve(turn({
        text: "short",
        usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 },
      })),
  };
  const price = (i: number, o: number) => ({
    inputUsdPerMTok: i,
    outputUsdPerMTok: o,
    cacheReadUsdPerMTok: 0,
    cacheWriteUsdPerMTok: 0,
  });
  const models: ModelConfig[] = [
    { id: "m", provider: "openai", model: "m", apiKey: "${K}", pricing: price(1, 1) },
    { id: "sum", provider: "openai", model: "s", apiKey: "${K}", pricing: price(2, 10) },
  ];
  const agent: AgentConfig = {
    id: "a",
    description: "",
    model: "m",
    systemPrompt: "",
    mcpServers: ["x"],
    exposure: "direct",
    loop: "sequential",
    maxIterations: 5,
    maxOutputTokens: 10,
    contextStrategy: { type: "summarize", model: "sum", afterTokens: 5 },
  };
  const folder = memoryRunFolder();
  const options = {
    runDir: "r",
    folder,
    runId: "r",
    suite: {
      id: "s",
      description: "",
      cases: [{ id: "c", question: "q", criterion: { type: "contains" as const, values: ["ok"] } }],
    },
    agents: [agent],
    models,
    toolPrices: {},
    clients: new Map([["m", model], ["sum", summarizer]]),
    openTools: () =>
      Promise.resolve({
        tools: [{
          spec: { name: "t", description: "", inputSchema: { type: "object" } },
          server: "x",
          tool: "t",
        }],
        call: () => Promise.resolve({ text: "a b c d e f", isError: false }),
        close: () => Promise.resolve(),
      }),
    repetitions: 1,
    now: () => 0,
    epochNow: () => 0,
    tokenizer: { name: "words", count: (t: string) => t.split(/\s+/).filter(Boolean).length },
  };
  const out = await runSuite(options);
  const [r] = out.records;
  assert.equal(r.passed, true);
  // Requests 3 and 4 fold a turn each: two summarizer calls of 1,000 in and 100 out at $2/$10.
  assert.deepEqual(r.summarizer, {
    model: "sum",
    calls: 2,
    inputTokens: 2000,
    outputTokens: 200,
    costUsd: (2000 * 2 + 200 * 10) / 1e6,
  });
  // The agent's cost: 4 turns of 10 in + 1 out at $1/$1, summarizer excluded.
  assert.equal(r.costUsd, 44 / 1e6);
  assert.equal(r.context?.strategy, "summarize");
  assert.equal(r.context?.tokenizer, "words");
  const csv = folder.file("summary.csv")!.trimEnd().split("\n").map((l) => l.split(","));
  assert.equal(csv[1][csv[0].indexOf("summarizer_cost_usd")], "0.006");
  assert.equal(csv[1][csv[0].indexOf("summarizer_input_tokens")], "2000");

  // Without the summarizer's client, or without a tokenizer, the run refuses to start.
  await assert.rejects(
    () => runSuite({ ...options, folder: memoryRunFolder(), clients: new Map([["m", model]]) }),
    /no model client for its summarizer "sum"/,
  );
  const { tokenizer: _t, ...noTokenizer } = options;
  await assert.rejects(
    () => runSuite({ ...noTokenizer, folder: memoryRunFolder() }),
    /contextStrategy summarize needs a tokenizer/,
  );
});

Deno.test("runSuite(): a case whose agent's servers fail to start records the wait as its wall time and the cause as its mcp error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-host-" });
  try {
    // A clock the failing start moves: 30 000 ms pass while the servers do not answer.
    let clock = 1_000;
    const agent: AgentConfig = {
      id: "a",
      description: "",
      model: "m",
      systemPrompt: "",
      mcpServers: ["slow"],
      exposure: "direct",
      loop: "sequential",
      maxIterations: 3,
      maxOutputTokens: 10,
    };
    const out = await runSuite({
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
      clients: new Map([["m", {
        id: "m",
        complete: () => Promise.reject(new Error("the model is never asked")),
      }]]),
      openTools: () => {
        clock += 30_000;
        return Promise.reject(new Error('MCP server "slow": cannot start: no answer'));
      },
      repetitions: 1,
      now: () => clock,
      epochNow: () => 0,
    });
    const [r] = out.records;
    assert.deepEqual([r.passed, r.wallMs, r.error], [null, 30_000, {
      kind: "mcp",
      message: 'MCP server "slow": cannot start: no answer',
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
