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
