// The search exposures end to end in process: runSuite over an in-process MCP server (hostSessions
// over InMemoryTransport) and the real Anthropic / OpenAI Responses adapters talking to a local
// HTTP server that checks each request body and answers with the providers' tool-search blocks.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runSuite } from "./run.ts";
import { hostSessions } from "./mcp_host.ts";
import { createModelClient } from "./providers/client.ts";
import {
  messageReply,
  type ReceivedRequest,
  type ScriptedReply,
  startScriptedModelServer,
} from "./_scripted_model_server.ts";
import { toolSearchProblem, toolSearchProblems } from "./tool_search.ts";
import type { AgentConfig, CaseRecord, ModelConfig } from "./types.ts";
import { type MemoryServerDef, memorySession } from "../../testing/mcp.ts";

/** Three tools, so the search has something to choose from. */
const FILES: MemoryServerDef = {
  serverName: "files",
  tools: [
    {
      name: "read_file",
      description: "Read a file.",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
    {
      name: "echo",
      description: "Returns the message.",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      },
    },
    {
      name: "delete_file",
      description: "Delete a file.",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
  ],
  call: (name, args) => ({ content: [{ type: "text", text: `${name}: ${args.message ?? ""}` }] }),
};

/** Counts characters: expansion figures below are lengths of texts written out by hand. */
const CHARS = { name: "chars", count: (t: string) => t.length };

const PRICING = {
  inputUsdPerMTok: 1,
  outputUsdPerMTok: 1,
  cacheReadUsdPerMTok: 0,
  cacheWriteUsdPerMTok: 0,
};

async function runOne(
  provider: "anthropic" | "openai-responses",
  agent: Partial<AgentConfig>,
  handler: (req: ReceivedRequest) => ScriptedReply,
): Promise<{ record: CaseRecord; requests: ReceivedRequest[] }> {
  const server = startScriptedModelServer(handler);
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-search-test-" });
  try {
    const model: ModelConfig = {
      id: "m",
      provider,
      model: provider === "anthropic" ? "claude-sonnet-4-6" : "gpt-5.4",
      baseUrl: provider === "anthropic" ? server.url : server.openaiBaseUrl,
      apiKey: "${K}",
      pricing: PRICING,
    };
    const client = createModelClient(model, {
      env: { K: "test-key" },
      now: () => 0,
      sleep: () => Promise.resolve(),
    });
    const full: AgentConfig = {
      id: "a",
      description: "",
      model: "m",
      systemPrompt: "Use the tools.",
      mcpServers: ["files"],
      exposure: "anthropic_search",
      loop: "sequential",
      maxIterations: 4,
      maxOutputTokens: 64,
      ...agent,
    };
    const out = await runSuite({
      runDir: join(dir, "r"),
      runId: "r",
      suite: {
        id: "s",
        description: "",
        cases: [{
          id: "c",
          question: "Echo hi",
          criterion: { type: "tool_called", tool: "files:echo" },
        }],
      },
      agents: [full],
      models: [model],
      toolPrices: {},
      clients: new Map([["m", client]]),
      openTools: async (a) =>
        hostSessions([await memorySession("files", FILES)], {
          exposure: a.exposure,
          provider,
          ...(a.toolSearch === undefined ? {} : { toolSearch: a.toolSearch }),
        }),
      repetitions: 1,
      tokenizer: CHARS,
      now: () => 0,
      epochNow: () => 0,
    });
    return { record: out.records[0], requests: [...server.requests] };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The echo tool as the Anthropic Messages API is sent it (written out by hand). */
const ECHO_ANTHROPIC =
  '[{"name":"echo","description":"Returns the message.","input_schema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}]';

Deno.test("anthropic_search: tools go out deferred behind the search tool; the search blocks come back, are replayed and recorded", async () => {
  const { record, requests } = await runOne("anthropic", {}, (req) => {
    if (req.index === 0) {
      return messageReply("anthropic", {
        searches: [{ id: "srvtoolu_1", input: { query: "echo message" }, tools: ["echo"] }],
        toolCalls: [{ id: "toolu_1", name: "echo", input: { message: "hi" } }],
        usage: { input: 50, output: 10 },
      });
    }
    return messageReply("anthropic", { text: "done", usage: { input: 80, output: 5 } });
  });
  assert.equal(requests.length, 2);
  // The first body: the search tool first, then every MCP tool with defer_loading: true.
  const tools = requests[0].body.tools as Record<string, unknown>[];
  assert.deepEqual(tools[0], {
    type: "tool_search_tool_bm25_20251119",
    name: "tool_search_tool_bm25",
  });
  assert.deepEqual(tools.slice(1).map((t) => [t.name, t.defer_loading]), [
    ["read_file", true],
    ["echo", true],
    ["delete_file", true],
  ]);
  assert.deepEqual(tools[2], {
    name: "echo",
    description: "Returns the message.",
    input_schema: {
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    },
    defer_loading: true,
  });
  // The second body replays the assistant turn as received: search blocks, then the tool use.
  const messages = requests[1].body.messages as { role: string; content: { type: string }[] }[];
  assert.deepEqual(messages[1].content.map((b) => b.type), [
    "server_tool_use",
    "tool_search_tool_result",
    "tool_use",
  ]);
  assert.deepEqual(messages[2].content.map((b) => b.type), ["tool_result"]);
  assert.equal(record.passed, true);
  assert.deepEqual(record.toolSearch, {
    searches: [{
      turn: 1,
      input: { query: "echo message" },
      tools: ["files:echo"],
      expansionTokens: ECHO_ANTHROPIC.length,
    }],
    expansionTokens: ECHO_ANTHROPIC.length,
    tokenizer: "chars",
    provenance: "computed",
  });
});

Deno.test("anthropic_search regex with alwaysLoad: the regex tool, the kept tool not deferred, a failed search recorded", async () => {
  const { record, requests } = await runOne(
    "anthropic",
    { toolSearch: { variant: "regex", alwaysLoad: ["files:read_*"] } },
    (req) =>
      req.index === 0
        ? messageReply("anthropic", {
          searches: [
            { id: "srvtoolu_1", input: { pattern: "(ech" }, tools: [], error: "invalid_pattern" },
            { id: "srvtoolu_2", input: { pattern: "(?i)echo" }, tools: ["echo"] },
          ],
          toolCalls: [{ id: "toolu_1", name: "echo", input: { message: "hi" } }],
          usage: { input: 50, output: 10 },
        })
        : messageReply("anthropic", { text: "done", usage: { input: 80, output: 5 } }),
  );
  const tools = requests[0].body.tools as Record<string, unknown>[];
  assert.deepEqual(tools[0], {
    type: "tool_search_tool_regex_20251119",
    name: "tool_search_tool_regex",
  });
  assert.deepEqual(tools.slice(1).map((t) => [t.name, t.defer_loading ?? false]), [
    ["read_file", false],
    ["echo", true],
    ["delete_file", true],
  ]);
  assert.deepEqual(
    record.toolSearch?.searches.map((s) => [s.input, s.tools, s.error ?? null, s.expansionTokens]),
    [
      [{ pattern: "(ech" }, [], "invalid_pattern", 0],
      [{ pattern: "(?i)echo" }, ["files:echo"], null, ECHO_ANTHROPIC.length],
    ],
  );
});

/** The echo function as the Responses API is sent it (written out by hand). */
const ECHO_RESPONSES =
  '[{"type":"function","name":"echo","description":"Returns the message.","parameters":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]},"strict":false}]';

Deno.test("openai_search: one namespace per server behind tool_search on the Responses API; the search items are replayed and recorded", async () => {
  const { record, requests } = await runOne("openai-responses", {
    exposure: "openai_search",
  }, (req) => {
    if (req.index === 0) {
      const ns = (req.body.tools as Record<string, unknown>[])[0];
      const echo = (ns.tools as Record<string, unknown>[])[1];
      return messageReply("openai-responses", {
        searches: [{
          id: "1",
          input: { query: "echo" },
          tools: ["echo"],
          loaded: [{
            type: "namespace",
            name: "files",
            description: ns.description,
            tools: [echo],
          }],
        }],
        toolCalls: [{ id: "call_1", name: "echo", namespace: "files", input: { message: "hi" } }],
        usage: { input: 50, output: 10 },
      });
    }
    return messageReply("openai-responses", { text: "done", usage: { input: 80, output: 5 } });
  });
  assert.equal(requests[0].provider, "openai-responses");
  const body = requests[0].body as { tools: Record<string, unknown>[]; instructions: string };
  assert.equal(body.instructions, "Use the tools.");
  assert.deepEqual(body.tools.map((t) => t.type), ["namespace", "tool_search"]);
  const ns = body.tools[0];
  // An in-process server without instructions: the namespace is described by its name.
  assert.deepEqual([ns.name, ns.description], ["files", 'Tools of the MCP server "files".']);
  assert.deepEqual((ns.tools as Record<string, unknown>[]).map((t) => [t.name, t.defer_loading]), [
    ["read_file", true],
    ["echo", true],
    ["delete_file", true],
  ]);
  // The second request: the first turn's output items as received, then the call's output.
  const input = requests[1].body.input as Record<string, unknown>[];
  assert.deepEqual(input.map((i) => i.type ?? i.role), [
    "user",
    "tool_search_call",
    "tool_search_output",
    "function_call",
    "function_call_output",
  ]);
  assert.equal(input[3].namespace, "files");
  assert.equal(record.passed, true);
  assert.deepEqual(
    record.toolSearch?.searches.map((s) => [s.input, s.tools, s.expansionTokens]),
    [[{ query: "echo" }, ["files:echo"], ECHO_RESPONSES.length]],
  );
  // Responses usage: input_tokens 50 + 80 (no cached tokens reported by the double).
  assert.equal(record.inputTokens, 130);
});

Deno.test("toolSearchProblem: the provider each search needs, and the models the providers list", () => {
  const ok = (e: "anthropic_search" | "openai_search", p: string, m: string) =>
    toolSearchProblem(e, p, m) === null;
  assert.ok(ok("anthropic_search", "anthropic", "claude-sonnet-4-5"));
  assert.ok(ok("anthropic_search", "anthropic", "claude-opus-4-20250514"));
  assert.ok(ok("anthropic_search", "anthropic", "claude-haiku-4-5-20251001"));
  assert.ok(ok("anthropic_search", "anthropic", "scripted"), "an unknown name is let through");
  assert.ok(!ok("anthropic_search", "anthropic", "claude-3-5-haiku-latest"));
  assert.ok(!ok("anthropic_search", "anthropic", "claude-3-7-sonnet-20250219"));
  assert.ok(!ok("anthropic_search", "anthropic", "claude-haiku-4-20250101"));
  assert.ok(!ok("anthropic_search", "openai", "claude-sonnet-4-5"));
  assert.ok(ok("openai_search", "openai-responses", "gpt-5.4"));
  assert.ok(ok("openai_search", "openai-responses", "gpt-5.5-mini"));
  assert.ok(!ok("openai_search", "openai-responses", "gpt-5"));
  assert.ok(!ok("openai_search", "openai-responses", "gpt-4.1-mini"));
  assert.ok(!ok("openai_search", "openai-responses", "o4-mini"));
  // Every spelling of an older GPT: ChatGPT's snapshots, Azure's dotless versions (3.5, 4.1:
  // its rules forbid the dot), a gateway's or a fine-tune's prefix.
  assert.ok(!ok("openai_search", "openai-responses", "chatgpt-4o-latest"));
  assert.ok(!ok("openai_search", "openai-responses", "gpt-35-turbo"));
  assert.ok(!ok("openai_search", "openai-responses", "gpt-35-turbo-16k"));
  assert.ok(!ok("openai_search", "openai-responses", "azure/gpt-41-mini"));
  assert.ok(!ok("openai_search", "openai-responses", "ft:gpt-4o-mini:org::abc"));
  assert.ok(!ok("openai_search", "openai-responses", "gpt-5-chat-latest"));
  // ... and the later ones in the same spellings pass.
  assert.ok(ok("openai_search", "openai-responses", "gpt-54-mini"));
  assert.ok(ok("openai_search", "openai-responses", "openai/gpt-5.4-2026-03-05"));
  assert.ok(ok("openai_search", "openai-responses", "gpt-6"));
  // A two-digit major is not a dotless 1.0 or 2.0: no API serves GPT-1 or GPT-2.
  assert.ok(ok("openai_search", "openai-responses", "gpt-10"));
  assert.ok(ok("openai_search", "openai-responses", "azure/gpt-12-mini"));
  assert.match(
    toolSearchProblem("openai_search", "openai", "gpt-5.4")!,
    /needs a model of provider "openai-responses"/,
  );
  assert.equal(toolSearchProblem("direct", "openai", "gpt-3.5-turbo"), null);
  const models: ModelConfig[] = [{
    id: "old",
    provider: "anthropic",
    model: "${M:-claude-3-haiku-20240307}",
    apiKey: "${K}",
    pricing: PRICING,
  }];
  assert.deepEqual(
    toolSearchProblems([{ id: "a", model: "old", exposure: "anthropic_search" }], models, {}),
    [
      'agent "a" (model "old"): model "claude-3-haiku-20240307" has no tool search: Anthropic lists Sonnet 4.0+, Opus 4.0+ and Haiku 4.5+',
    ],
  );
  // The variable set to a model that has it: no problem.
  assert.deepEqual(
    toolSearchProblems([{ id: "a", model: "old", exposure: "anthropic_search" }], models, {
      M: "claude-sonnet-4-6",
    }),
    [],
  );
});
