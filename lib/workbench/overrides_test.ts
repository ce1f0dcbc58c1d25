// The workbench's working config and an agent's tool-description overrides file.
import assert from "node:assert/strict";
import { ConfigStore } from "./config_store.ts";
import { WorkbenchError } from "./_paths.ts";

Deno.test("ConfigStore: an agent's overrides file must be inside agents/ and valid; loadAgents reads it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/agents/overrides`, { recursive: true });
    await Deno.mkdir(`${dir}/suites`);
    await Deno.writeTextFile(
      `${dir}/models.json`,
      JSON.stringify({
        models: [{
          id: "m",
          provider: "openai",
          model: "m",
          apiKey: "${K}",
          pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 1 },
        }],
      }),
    );
    await Deno.writeTextFile(
      `${dir}/servers.json`,
      JSON.stringify({ mcpServers: { fs: { command: "node", args: ["x"] } } }),
    );
    const store = new ConfigStore(dir, false);
    const agent = (overrides: unknown) => ({
      id: "a",
      description: "",
      model: "m",
      mcpServers: ["fs"],
      systemPrompt: "s",
      overrides,
    });
    const refused = async (overrides: unknown, pattern: RegExp) =>
      await assert.rejects(
        () => store.putAgent("a", agent(overrides)),
        (e: unknown) =>
          e instanceof WorkbenchError && e.status === 400 && e.field === "overrides" &&
          pattern.test(e.message),
      );
    await refused(
      "overrides/rw.json",
      /names "overrides\/rw.json", which cannot be used: .*file not found/,
    );
    await Deno.writeTextFile(`${dir}/agents/overrides/rw.json`, '{"overrides": {"fs:x": {}}}');
    await refused("overrides/rw.json", /must give at least one of title, description, parameters/);
    await assert.rejects(() => store.putAgent("a", agent("../outside.json")), WorkbenchError);
    await Deno.writeTextFile(
      `${dir}/agents/overrides/rw.json`,
      '{"overrides": {"fs:x": {"description": "X."}}}',
    );
    await store.putAgent("a", agent("overrides/rw.json"));
    const [loaded] = await store.loadAgents();
    assert.deepEqual(loaded.overrides, {
      file: "overrides/rw.json",
      overrides: { "fs:x": { description: "X." } },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
