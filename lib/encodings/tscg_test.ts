import assert from "node:assert/strict";
import { loadArms } from "./registry.ts";
import { loadTscgArm, TSCG_NO_COMPRESS_REASON, TSCG_UNAVAILABLE_REASON } from "./tscg.ts";
import { toTool } from "./_testing.ts";

Deno.test("tscg is an arm-level skip when @tscg/core cannot be imported", async () => {
  const arms = await loadArms(["tscg"]);
  assert.deepEqual(arms, [{ name: "tscg", unavailable: true, reason: TSCG_UNAVAILABLE_REASON }]);
});

Deno.test("tscg's skip reason says what is missing and how to get it, or leave the arm out", async () => {
  // A tester read "not served by this registry" and could not tell which registry, nor what to do.
  const reason = TSCG_UNAVAILABLE_REASON;
  for (
    const part of ["npm package @tscg/core", 'deno.json\'s "imports"', "npm:@tscg/core@", "--arms"]
  ) {
    assert.ok(reason.includes(part), `${part} missing from: ${reason}`);
  }
  assert.doesNotMatch(reason, /this registry/);
  // A module that imports but is not TSCG's API says so, not that it is missing.
  const other = await loadTscgArm({ importer: () => Promise.resolve({ default: {} }) });
  assert.deepEqual(other, { name: "tscg", unavailable: true, reason: TSCG_NO_COMPRESS_REASON });
  assert.match(TSCG_NO_COMPRESS_REASON, /no compress\(\) export/);
  const failed = await loadTscgArm({ importer: () => Promise.reject(new TypeError("not mapped")) });
  assert.deepEqual(failed, { name: "tscg", unavailable: true, reason: TSCG_UNAVAILABLE_REASON });
});

Deno.test("tscg passes OpenAI-style tools to compress() when the module imports", async () => {
  // Stand-in module with @tscg/core's documented call shape:
  // compress(tools, {model, profile}) -> {compressed}.
  const calls: unknown[] = [];
  const module = {
    compress(tools: readonly unknown[], options: unknown) {
      calls.push({ tools, options });
      const names = tools.map((t) => (t as { function: { name: string } }).function.name);
      if (names.includes("bad")) throw new Error("unsupported schema");
      return { compressed: names.map((n) => `${n}()`).join("\n") };
    },
  };
  const arm = await loadTscgArm({ importer: () => Promise.resolve(module) });
  assert.ok(!("unavailable" in arm));
  const good = toTool({
    server: "s",
    name: "good",
    description: "G",
    inputSchema: { type: "object" },
  });
  const bad = toTool({ server: "s", name: "bad", description: "B" });
  assert.deepEqual(calls.length, 0);
  const listing = arm.encodeListing([good, bad]);
  assert.equal(listing.text, "good()");
  assert.deepEqual(listing.skipped, {
    count: 1,
    examples: [{ toolId: "s:bad", reason: "TSCG compress failed: Error: unsupported schema" }],
  });
  assert.deepEqual(calls[0], {
    tools: [{
      type: "function",
      function: { name: "good", description: "G", parameters: { type: "object" } },
    }],
    options: { model: "gpt-4o", profile: "balanced" },
  });
  assert.equal(arm.lowerBound, true);
});
