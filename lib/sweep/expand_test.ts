import assert from "node:assert/strict";
import type { AgentConfig } from "../agent/types.ts";
import { expandSweep, parseSweepDescription, parseVary } from "./expand.ts";

const BASE: AgentConfig = {
  id: "base",
  description: "d",
  model: "claude",
  systemPrompt: "be terse",
  mcpServers: ["fs"],
  exposure: "direct",
  loop: "sequential",
  maxIterations: 10,
  maxOutputTokens: 512,
};

Deno.test("expandSweep() builds the cross product named after what varies", () => {
  const out = expandSweep(BASE, [
    parseVary("model=a,b"),
    parseVary("exposure=direct,proxy"),
    parseVary("systemPrompt=prompts/p1.md,p2.md"),
  ], { "prompts/p1.md": "one", "p2.md": "two" });
  assert.equal(out.length, 2 * 2 * 2);
  assert.deepEqual(out.map((s) => s.id).slice(0, 3), [
    "base__model-a__exposure-direct__systemPrompt-p1",
    "base__model-a__exposure-direct__systemPrompt-p2",
    "base__model-a__exposure-proxy__systemPrompt-p1",
  ]);
  const last = out[7];
  assert.deepEqual(last.params, { model: "b", exposure: "proxy", systemPrompt: "p2.md" });
  assert.equal(last.agent.model, "b");
  assert.equal(last.agent.exposure, "proxy");
  assert.equal(last.agent.systemPrompt, "two");
  // Untouched fields come from the base.
  assert.deepEqual(last.agent.mcpServers, ["fs"]);
  assert.equal(last.agent.maxIterations, 10);
  assert.deepEqual(parseSweepDescription(last.agent.description)?.params, last.params);
});

Deno.test("expandSweep() converts typed fields and rejects bad values", () => {
  const [a] = expandSweep(BASE, [
    parseVary("maxIterations=3"),
    parseVary("temperature=0.5"),
    parseVary("mcpServers=fs+memory"),
  ]);
  assert.equal(a.agent.maxIterations, 3);
  assert.equal(a.agent.temperature, 0.5);
  assert.deepEqual(a.agent.mcpServers, ["fs", "memory"]);
  assert.throws(() => expandSweep(BASE, [parseVary("maxIterations=0")]), RangeError);
  assert.throws(() => expandSweep(BASE, [parseVary("exposure=hidden")]), RangeError);
  assert.throws(() => expandSweep(BASE, [parseVary("temperature=3")]), RangeError);
  // Two values that slug to the same id.
  assert.throws(() => expandSweep(BASE, [parseVary("model=a b,a/b")]), /both give the id/);
  assert.throws(() => expandSweep(BASE, [parseVary("model=a"), parseVary("model=b")]), RangeError);
});

Deno.test("parseVary() names the problem", () => {
  assert.throws(() => parseVary("model"), /expected name=value1,value2/);
  assert.throws(() => parseVary("colour=red"), /Cannot vary "colour"/);
  assert.throws(() => parseVary("model="), /no values/);
  assert.throws(() => parseVary("model=a,a"), /"a" twice/);
});

Deno.test("expandSweep() varies tool-description overrides: none, or a document the caller read", () => {
  const rewrite = {
    file: "overrides/terse.overrides.json",
    overrides: { "fs:read_file": { description: "Read a file." } },
  };
  const withBase = { ...BASE, overrides: { overrides: { "fs:x": { title: "X" } } } };
  const out = expandSweep(
    withBase,
    [parseVary("overrides=none,overrides/terse.overrides.json")],
    {},
    {
      "overrides/terse.overrides.json": rewrite,
    },
  );
  assert.deepEqual(out.map((s) => s.id), ["base__overrides-none", "base__overrides-terse"]);
  assert.equal("overrides" in out[0].agent, false);
  assert.deepEqual(out[1].agent.overrides, rewrite);
  assert.throws(
    () => expandSweep(BASE, [parseVary("overrides=missing.json")]),
    /Cannot set overrides to "missing.json" in a sweep/,
  );
});

Deno.test("expandSweep() varies the agent levers; every generated agent passes the agents schema", async () => {
  const { parseAgents } = await import("../agent/config.ts");
  const base: AgentConfig = { ...BASE, toolResultMaxChars: 999, retryOnToolError: 5 };
  const out = expandSweep(base, [
    parseVary("promptCaching=off,1h+results"),
    parseVary("toolResultMaxChars=none,4000"),
    parseVary("tools=all,fs:read_*+fs:list_*+!fs:read_media*"),
    parseVary("retryOnToolError=none,0"),
    parseVary("contextStrategy=none,truncate:500,drop-old-tool-results:2,summarize:haiku-4:8000"),
  ]);
  assert.equal(out.length, 2 * 2 * 2 * 2 * 4);
  const first = out[0].agent;
  assert.deepEqual(first.promptCaching, { enabled: false });
  // `none` removes the base's value.
  assert.equal("toolResultMaxChars" in first, false);
  assert.equal("retryOnToolError" in first, false);
  assert.equal("tools" in first, false);
  assert.deepEqual(first.contextStrategy, { type: "none" });
  const last = out.at(-1)!;
  assert.equal(
    last.id,
    "base__promptCaching-1h-results__toolResultMaxChars-4000__tools-fs-read_-fs-list_-fs-read_media-__retryOnToolError-0__contextStrategy-summarize-haiku-4-8000",
  );
  assert.deepEqual(last.agent.promptCaching, { enabled: true, ttl: "1h", toolResults: true });
  assert.equal(last.agent.toolResultMaxChars, 4000);
  assert.deepEqual(last.agent.tools, {
    allow: ["fs:read_*", "fs:list_*"],
    deny: ["fs:read_media*"],
  });
  assert.equal(last.agent.retryOnToolError, 0);
  assert.deepEqual(last.agent.contextStrategy, {
    type: "summarize",
    model: "haiku-4",
    afterTokens: 8000,
  });
  assert.deepEqual(out[1].agent.contextStrategy, { type: "truncate-tool-results", maxTokens: 500 });
  assert.deepEqual(out[2].agent.contextStrategy, { type: "drop-old-tool-results", keepLast: 2 });
  // The sweep task writes each agent as JSON for the agents task: all of them must load.
  for (const s of out) {
    const [back] = parseAgents(JSON.parse(JSON.stringify(s.agent)), `${s.id}.json`);
    assert.deepEqual(back.contextStrategy, s.agent.contextStrategy);
    assert.deepEqual(back.tools, s.agent.tools);
  }
  // Only denies: every tool but those.
  const [deny] = expandSweep(BASE, [parseVary("tools=!fs:write_*")]);
  assert.deepEqual(deny.agent.tools, { deny: ["fs:write_*"] });
  assert.deepEqual(parseSweepDescription(deny.agent.description)?.params, {
    tools: "!fs:write_*",
  });
});

Deno.test("expandSweep() names what a bad lever value should be", () => {
  const bad = (spec: string, re: RegExp) =>
    assert.throws(() => expandSweep(BASE, [parseVary(spec)]), re);
  bad("promptCaching=on", /promptCaching to "on" .* expected off, 5m, 1h/);
  bad("promptCaching=off+results", /expected off, 5m, 1h/);
  bad("toolResultMaxChars=0", /expected an integer >= 1, or none/);
  bad("retryOnToolError=-1", /expected an integer >= 0, or none/);
  bad("retryOnToolError=1.5", /expected an integer >= 0, or none/);
  // Number() reads these as integers; a lever value is decimal digits.
  bad("maxIterations=1e3", /expected an integer >= 1/);
  bad("maxOutputTokens=0x10", /expected an integer >= 1/);
  bad("maxIterations=2.0", /expected an integer >= 1/);
  bad("tools=fs:a++fs:b", /expected all, or globs joined by \+/);
  bad("contextStrategy=drop", /expected none, truncate:MAX_TOKENS, drop:KEEP_LAST/);
  bad("contextStrategy=truncate:0", /summarize:MODEL:AFTER_TOKENS/);
  bad("contextStrategy=summarize:8000", /summarize:MODEL:AFTER_TOKENS/);
  bad("contextStrategy=squash:3", /summarize:MODEL:AFTER_TOKENS/);
});
