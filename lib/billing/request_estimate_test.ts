import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import o200kData from "js-tiktoken/ranks/o200k_base";
import type { Calibration } from "./estimate.ts";
import { agentRequestEstimate, estimateAgentRequest, textFeatures } from "./request_estimate.ts";

const reference = new Tiktoken(o200kData);
const ids = (text: string) => reference.encode(text, [], []);
const iv = (low: number, mid: number, high: number) => ({ low, mid, high });

Deno.test("textFeatures(): o200k tokens as prose, structure and non-ASCII (js-tiktoken's counts)", () => {
  const prompt = "You are a careful assistant.";
  assert.equal(ids(prompt).length, 6);
  assert.deepEqual(textFeatures("anthropic", prompt), { prose: 6, structure: 0, nonAscii: 0 });
  // "café": no white space, so not prose; its tokens holding "é" are non-ASCII.
  const wide = ids("café").filter((t) => /[^\x20-\x7e]/.test(reference.decode([t]))).length;
  assert.deepEqual(textFeatures("anthropic", "café"), {
    prose: 0,
    structure: ids("café").length - wide,
    nonAscii: wide,
  });
  assert.deepEqual(textFeatures("openai", prompt), {
    cookbook: 6,
    cookbookTop: 6,
    cookbookNested: 0,
    json: 6,
  });
  assert.deepEqual(textFeatures("gemini", prompt), { json: 6 });
});

Deno.test("estimateAgentRequest(): overhead, tools and system prompt under a hand calibration", () => {
  const calibration: Calibration = {
    format: "mcpmeter-token-calibration",
    formatVersion: 1,
    name: "hand",
    method: "test",
    sources: [],
    entries: [{
      provider: "openai",
      models: null,
      label: "one per Cookbook token",
      intercept: iv(10, 12, 14),
      coefficients: { cookbookTop: iv(1, 1, 2) },
      sources: [],
    }],
  };
  const tool = {
    name: "add",
    description: "Sum two numbers.",
    inputSchema: { type: "object", properties: {} },
  };
  const prompt = "You are a careful assistant.";
  // Cookbook: 7 per function + tokens of "add:Sum two numbers" (the final period dropped); no
  // property. The prompt: 6 tokens.
  const toolTop = 7 + ids("add:Sum two numbers").length;
  const e = estimateAgentRequest({
    provider: "openai",
    model: null,
    calibration,
    tools: [tool],
    systemPrompt: prompt,
  })!;
  assert.equal(e.overhead, 12);
  assert.deepEqual(e.tools, { tokens: toolTop, low: toolTop, high: 2 * toolTop, count: 1 });
  assert.deepEqual(e.systemPrompt, { tokens: 6, low: 6, high: 12 });
  assert.deepEqual([e.tokens, e.low, e.high], [
    12 + toolTop + 6,
    10 + toolTop + 6,
    14 + 3 * toolTop,
  ]);
  assert.equal(e.calibration, "hand: one per Cookbook token");
  // No tools: no tool-use overhead.
  const bare = estimateAgentRequest({
    provider: "openai",
    model: null,
    calibration,
    tools: [],
    systemPrompt: prompt,
  })!;
  assert.deepEqual([bare.tokens, bare.overhead], [6, 0]);
  // No entry for the provider: no estimate.
  assert.equal(
    estimateAgentRequest({
      provider: "gemini",
      model: null,
      calibration,
      tools: [],
      systemPrompt: "",
    }),
    undefined,
  );
});

Deno.test("agentRequestEstimate(): the default calibration per wire format, or why not", () => {
  const agent = { exposure: "direct" as const, systemPrompt: "You are a careful assistant." };
  const tools = [{
    spec: { name: "add", description: "Sum two numbers.", inputSchema: { type: "object" } },
  }];
  const claude = agentRequestEstimate(agent, {
    model: "claude-sonnet-4-5",
    wire: "anthropic-messages",
  }, tools);
  assert.ok(!("skipped" in claude));
  if ("skipped" in claude) return;
  // Anthropic's documented tool-use system prompt: 346 tokens (Claude 3 to Opus 4.6 entry).
  assert.equal(claude.overhead, 346);
  assert.equal(claude.provider, "anthropic");
  assert.equal(claude.format, "anthropic-messages");
  assert.match(claude.calibration, /Claude, tokenizer of Claude 3 to Opus 4\.6$/);
  assert.equal(claude.tokens, 346 + claude.tools.tokens + claude.systemPrompt.tokens);
  assert.match(claude.includes, /overhead \(346\), 1 tool\(s\) as sent, the system prompt/);
  const gpt = agentRequestEstimate(
    agent,
    { model: "gpt-5", wire: "openai-chat-completions" },
    tools,
  );
  assert.equal("skipped" in gpt ? "" : gpt.provider, "openai");
  assert.match(
    (agentRequestEstimate({ ...agent, exposure: "anthropic_search" }, {
      model: "claude-sonnet-4-5",
      wire: "anthropic-messages",
    }, tools) as { skipped: string }).skipped,
    /^anthropic_search: the tools wait behind the provider's tool search/,
  );
  assert.match(
    (agentRequestEstimate(agent, { model: "x", wire: "carrier-pigeon" }, tools) as {
      skipped: string;
    }).skipped,
    /no calibration entry for carrier-pigeon x/,
  );
});
