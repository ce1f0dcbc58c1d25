// The workbench's production runner (lib/agent's runSuite) over a real MCP server from npm and a
// local server speaking the Anthropic wire format: what the API says about a run is what the
// runner recorded.
import assert from "node:assert/strict";
import { errorReply, startScriptedModelServer } from "../agent/_scripted_model_server.ts";
import { prepareAgentServers } from "../agent/io.ts";
import { AGENTS_DEFAULTS } from "../flows/agents.ts";
import { ensureAgentServers } from "../../testing/agents.ts";
import { api, pollUntil, raw, startBareWorkbench } from "../../testing/workbench.ts";

const KEY = "sk-refused-0123456789abcdef";

Deno.test({
  name:
    "workbench: a run stopped by three refused keys is interrupted, and the API gives the reason in failure",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await ensureAgentServers();
  const model = startScriptedModelServer((req) => errorReply(req.provider, 401));
  const wb = await startBareWorkbench({
    env: { REFUSED_KEY: KEY },
    prepareServers: ({ serversPath, agents }) =>
      prepareAgentServers({
        serversPath,
        agents,
        installDir: AGENTS_DEFAULTS.installDir,
        dataDir: AGENTS_DEFAULTS.data,
        env: {},
        task: "test",
        onProgress: () => {},
      }),
  });
  try {
    const models = (await api(wb, "GET", "/api/config/models")).data;
    const refusing = {
      id: "refusing",
      provider: "anthropic",
      model: "m",
      baseUrl: model.url,
      apiKey: "${REFUSED_KEY}",
      pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
    };
    const put = await api(wb, "PUT", "/api/config/models", {
      ...models,
      models: [...models.models, refusing],
    });
    assert.equal(put.status, 200, JSON.stringify(put.data));
    const agent = (await api(wb, "GET", "/api/config/agents")).data.agents
      .find((a: { id: string }) => a.id === "fs-terse-sequential");
    const added = await api(wb, "PUT", "/api/config/agents/fs-refused", {
      ...agent,
      id: "fs-refused",
      model: "refusing",
    });
    assert.equal(added.status, 200, JSON.stringify(added.data));
    // fs-basics has three cases: three 401s in a row stop the run.
    const start = await api(wb, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-refused" }],
    });
    assert.equal(start.status, 201, JSON.stringify(start.data));
    const run = await pollUntil(wb, start.data.runId, ["interrupted", "failed", "completed"]);
    assert.equal(run.state, "interrupted");
    assert.match(
      run.failure,
      /^3 consecutive cases were refused with HTTP 401 \(the API key is wrong, missing or not allowed\): stopped starting new cases; fix the key and resume$/,
    );
    // The list says it too, and no answer holds the key.
    const list = await raw(wb, "GET", "/api/runs");
    assert.match(list.text, /consecutive cases were refused with HTTP 401/);
    assert.ok(!list.text.includes(KEY));
  } finally {
    await wb.stop();
    await model.close();
  }
});
