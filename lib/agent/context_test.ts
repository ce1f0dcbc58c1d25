import assert from "node:assert/strict";
import {
  messageReply,
  type ScriptHandler,
  startScriptedModelServer,
} from "./_scripted_model_server.ts";
import { createModelClient } from "./providers/client.ts";
import type { ModelConfig } from "./types.ts";
import { runAgentLoop } from "./loop.ts";
import type { ToolHost } from "./tools.ts";
import {
  createContextReducer,
  DROPPED_TOOL_RESULT,
  SUMMARIZER_SYSTEM,
  SUMMARY_HEADER,
  tokenTruncationMarker,
} from "./context.ts";
import { createTokenizer } from "../tokens/mod.ts";

/** A tokenizer whose counts are easy by hand: whitespace-separated words. */
const words = { name: "words", count: (t: string) => t.split(/\s+/).filter(Boolean).length };

const agent = {
  systemPrompt: "sys",
  loop: "sequential" as const,
  maxIterations: 6,
  maxOutputTokens: 100,
};

function client(url: string, provider: "anthropic" | "openai", id = "local") {
  const config: ModelConfig = {
    id,
    provider,
    model: "m",
    baseUrl: provider === "openai" ? `${url}/v1` : url,
    apiKey: "${K}",
    pricing: {
      inputUsdPerMTok: 1,
      outputUsdPerMTok: 1,
      cacheReadUsdPerMTok: 0,
      cacheWriteUsdPerMTok: 0,
    },
  };
  return createModelClient(config, {
    env: { K: "test-key-1234" },
    now: () => performance.now(),
    sleep: () => Promise.resolve(),
    retry: { maxRetries: 0, baseDelayMs: 1 },
  });
}

/** One tool `t`; call n returns `text(n)`. */
function host(text: (n: number) => string): ToolHost {
  let n = 0;
  return {
    tools: [{
      spec: { name: "t", description: "t", inputSchema: { type: "object" } },
      server: "s",
      tool: "t",
    }],
    call: () => Promise.resolve({ text: text(++n), isError: false }),
  };
}

/** Calls `t` with {n} for `times` turns, then answers "done". */
function callsThenAnswer(provider: "anthropic" | "openai", times: number): ScriptHandler {
  let turn = 0;
  return () =>
    turn++ < times
      ? messageReply(provider, {
        toolCalls: [{ id: `c${turn}`, name: "t", input: { n: turn } }],
        usage: { input: 1, output: 1 },
      })
      : messageReply(provider, { text: "done", usage: { input: 1, output: 1 } });
}

// Eleven words per result.
const eleven = (n: number) => `r${n} ${"w ".repeat(10).trim()}`;

Deno.test("drop-old-tool-results: the request carries placeholders for all but the last keepLast tool turns", async () => {
  const s = startScriptedModelServer(callsThenAnswer("anthropic", 3));
  try {
    const r = await runAgentLoop({
      agent: { ...agent, contextStrategy: { type: "drop-old-tool-results", keepLast: 1 } },
      question: "q",
      model: client(s.url, "anthropic"),
      tools: host(eleven),
      now: () => performance.now(),
      tokenizer: words,
    });
    assert.equal(r.finalAnswer, "done");
    assert.equal(s.requests.length, 4);
    const call = (n: number) => ({
      role: "assistant",
      content: [{ type: "tool_use", id: `c${n}`, name: "t", input: { n } }],
    });
    const result = (n: number, content: string) => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `c${n}`, content }],
    });
    assert.deepEqual(s.requests[3].body.messages, [
      { role: "user", content: "q" },
      call(1),
      result(1, DROPPED_TOOL_RESULT),
      call(2),
      result(2, DROPPED_TOOL_RESULT),
      call(3),
      result(3, eleven(3)),
    ]);
    // Request 2 had one tool turn: nothing dropped.
    assert.deepEqual((s.requests[1].body.messages as unknown[])[2], result(1, eleven(1)));
    // The placeholder is 9 words, a result 11: 2 saved per dropped result; request 3 drops
    // one, request 4 two.
    assert.equal(words.count(DROPPED_TOOL_RESULT), 9);
    assert.deepEqual(r.context, {
      strategy: "drop-old-tool-results",
      requestsReduced: 2,
      tokensSaved: 2 + 4,
      tokenizer: "words",
      provenance: "computed",
    });
    assert.equal(r.summarizer, null);
    // The conversation the loop returns stays whole.
    const tools = r.messages.filter((m) => m.role === "tool");
    assert.deepEqual(tools.map((m) => m.role === "tool" && m.results[0].text), [
      eleven(1),
      eleven(2),
      eleven(3),
    ]);
  } finally {
    await s.close();
  }
});

Deno.test("truncate-tool-results: an OpenAI request carries the cut result and the token marker", async () => {
  const s = startScriptedModelServer(callsThenAnswer("openai", 1));
  const forty = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
  try {
    const r = await runAgentLoop({
      agent: { ...agent, contextStrategy: { type: "truncate-tool-results", maxTokens: 3 } },
      question: "q",
      model: client(s.url, "openai"),
      tools: host(() => forty),
      now: () => performance.now(),
      tokenizer: words,
    });
    assert.equal(r.finalAnswer, "done");
    const msgs = s.requests[1].body.messages as { role: string; content: unknown }[];
    assert.deepEqual(msgs.at(-1), {
      role: "tool",
      tool_call_id: "c1",
      content:
        "w0 w1 w2 \n[mcpmeter: tool result cut to 3 of 40 tokens (contextStrategy truncate-tool-results)]",
    });
    // Saved in request 2: 40 words − (3 kept + 11 in the marker).
    assert.equal(words.count(tokenTruncationMarker(3, 40)), 11);
    assert.equal(r.context?.tokensSaved, 40 - 14);
    assert.equal(r.context?.requestsReduced, 1);
  } finally {
    await s.close();
  }
});

Deno.test("summarize: older turns are folded into the question by the summarizer model, its usage apart", async () => {
  const agentServer = startScriptedModelServer(callsThenAnswer("anthropic", 3));
  let summaries = 0;
  const summarizerServer = startScriptedModelServer(() =>
    messageReply("anthropic", {
      text: `SUMMARY-${++summaries}`,
      usage: { input: 40, output: 7 },
    })
  );
  try {
    const r = await runAgentLoop({
      agent: {
        ...agent,
        contextStrategy: { type: "summarize", model: "sum", afterTokens: 20 },
      },
      question: "q",
      model: client(agentServer.url, "anthropic"),
      tools: host(eleven),
      now: () => performance.now(),
      tokenizer: words,
      summarizer: client(summarizerServer.url, "anthropic", "sum"),
    });
    assert.equal(r.finalAnswer, "done");
    const reqs = agentServer.requests;
    const call = (n: number) => ({
      role: "assistant",
      content: [{ type: "tool_use", id: `c${n}`, name: "t", input: { n } }],
    });
    const result = (n: number) => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `c${n}`, content: eleven(n) }],
    });
    // Requests 1 and 2 have at most one tool turn: nothing to fold.
    assert.deepEqual(reqs[1].body.messages, [{ role: "user", content: "q" }, call(1), result(1)]);
    // Request 3 (27 words > 20): turn 1 folded; request 4: turn 2 folded into the summary.
    assert.deepEqual(reqs[2].body.messages, [
      { role: "user", content: `q\n\n${SUMMARY_HEADER}\nSUMMARY-1` },
      call(2),
      result(2),
    ]);
    assert.deepEqual(reqs[3].body.messages, [
      { role: "user", content: `q\n\n${SUMMARY_HEADER}\nSUMMARY-2` },
      call(3),
      result(3),
    ]);
    // What the summarizer was sent.
    const sreqs = summarizerServer.requests;
    assert.equal(sreqs.length, 2);
    assert.equal(sreqs[0].body.system, SUMMARIZER_SYSTEM);
    assert.deepEqual(sreqs[0].body.tools, undefined);
    assert.deepEqual(sreqs[1].body.messages, [{
      role: "user",
      content: `The agent's task: q\n\nSummary so far:\nSUMMARY-1\n\nTurns to fold in:\n` +
        `assistant: \ncalled t({"n":2})\ntool result (t): ${eleven(2)}`,
    }]);
    // Summarizer usage apart from the agent's (4 agent turns of 1 in / 1 out); the scripted
    // replies report no cache fields, so those sums are unknown.
    assert.deepEqual(r.summarizer, {
      calls: 2,
      usage: { inputTokens: 80, outputTokens: 14, cacheReadTokens: null, cacheWriteTokens: null },
    });
    assert.equal(r.usage.inputTokens, 4);
    // Words: question 1, assistant turn 2, tool result 11, header 11, summary 1.
    // Request 3: whole 1+13+13 = 27, sent 13+13 = 26 → 1. Request 4: 40 vs 26 → 14.
    assert.equal(words.count(SUMMARY_HEADER), 11);
    assert.deepEqual(r.context, {
      strategy: "summarize",
      requestsReduced: 2,
      tokensSaved: 15,
      tokenizer: "words",
      provenance: "computed",
    });
  } finally {
    await agentServer.close();
    await summarizerServer.close();
  }
});

Deno.test("summarize: a failing summarizer ends the case as a model error", async () => {
  const agentServer = startScriptedModelServer(callsThenAnswer("anthropic", 3));
  try {
    const r = await runAgentLoop({
      agent: {
        ...agent,
        contextStrategy: { type: "summarize", model: "sum", afterTokens: 1 },
      },
      question: "q",
      model: client(agentServer.url, "anthropic"),
      tools: host(eleven),
      now: () => performance.now(),
      tokenizer: words,
      // Nothing listens on port 9 of loopback.
      summarizer: client("http://127.0.0.1:9", "anthropic", "sum"),
    });
    assert.equal(r.error?.kind, "model");
    assert.match(r.error!.message, /^summarizer model "sum" failed: /);
    assert.equal(r.error?.code, "unreachable");
    // Two agent requests went out before the third needed a summary.
    assert.equal(agentServer.requests.length, 2);
  } finally {
    await agentServer.close();
  }
});

Deno.test("truncate-tool-results keeps the longest prefix within maxTokens under a real BPE tokenizer", async () => {
  const tok = createTokenizer("o200k_base");
  const text = "The quick brown fox jumps over the lazy dog; ".repeat(20);
  const reducer = createContextReducer({
    strategy: { type: "truncate-tool-results", maxTokens: 17 },
    tokenizer: tok,
    questionIndex: 0,
  });
  const [, , tool] = await reducer.view([
    { role: "user", text: "q" },
    { role: "assistant", text: "", toolCalls: [{ id: "a", name: "t", args: {} }] },
    { role: "tool", results: [{ callId: "a", name: "t", text, isError: false }] },
  ]);
  assert.ok(tool.role === "tool");
  const sent = tool.results[0].text;
  const marker = tokenTruncationMarker(17, tok.count(text));
  assert.ok(sent.endsWith(`\n${marker}`));
  const prefix = sent.slice(0, sent.length - marker.length - 1);
  assert.ok(text.startsWith(prefix));
  assert.ok(tok.count(prefix) <= 17);
  assert.ok(tok.count(text.slice(0, prefix.length + 1)) > 17);
});

Deno.test("createContextReducer() refuses a strategy without what it needs; none sends the conversation as is", async () => {
  assert.throws(
    () =>
      createContextReducer({
        strategy: { type: "drop-old-tool-results", keepLast: 1 },
        questionIndex: 0,
      }),
    /drop-old-tool-results: no tokenizer given/,
  );
  assert.throws(
    () =>
      createContextReducer({
        strategy: { type: "summarize", model: "h", afterTokens: 10 },
        tokenizer: words,
        questionIndex: 0,
      }),
    /no model client for "h"/,
  );
  const none = createContextReducer({ strategy: { type: "none" }, questionIndex: 0 });
  const msgs = [{ role: "user" as const, text: "q" }];
  assert.equal(await none.view(msgs), msgs);
  assert.equal(none.report(), null);
});

Deno.test("truncate-tool-results leaves a result whole when cutting it would not shorten the context", async () => {
  const reducer = createContextReducer({
    strategy: { type: "truncate-tool-results", maxTokens: 3 },
    tokenizer: words,
    questionIndex: 0,
  });
  // 14 words = 3 kept + the 11-word marker: cutting saves nothing, so it stays; 15 are cut.
  const result = (n: number) => ({
    role: "tool" as const,
    results: [{
      callId: "a",
      name: "t",
      text: Array.from({ length: n }, (_, i) => `w${i}`).join(" "),
      isError: false,
    }],
  });
  const call = {
    role: "assistant" as const,
    text: "",
    toolCalls: [{ id: "a", name: "t", args: {} }],
  };
  const whole = [{ role: "user" as const, text: "q" }, call, result(14)];
  assert.deepEqual(await reducer.view(whole), whole);
  assert.deepEqual(reducer.report()?.requestsReduced, 0);
  const [, , cut] = await reducer.view([{ role: "user", text: "q" }, call, result(15)]);
  assert.ok(cut.role === "tool");
  assert.equal(cut.results[0].text, `w0 w1 w2 \n${tokenTruncationMarker(3, 15)}`);
  // 15 − (3 + 11) = 1 saved.
  assert.deepEqual([reducer.report()?.requestsReduced, reducer.report()?.tokensSaved], [1, 1]);
});
