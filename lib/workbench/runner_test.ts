// test:quick skips this file: its tests start MCP servers from npm.
// The workbench's production runner (lib/agent's runSuite) over real MCP servers from npm and a
// local server speaking the Anthropic wire format: what the API says about a run is what the
// runner recorded, and no secret the run resolved is in what it serves or writes.
import assert from "node:assert/strict";
import { startScriptedModelServer } from "../agent/_scripted_model_server.ts";
import { fixturePolicy } from "../agent/_scripted_policy.ts";
import { errorReply } from "../../testing/scripted_replies.ts";
import { prepareAgentServers } from "../agent/io.ts";
import { AGENTS_DEFAULTS } from "../flows/agents.ts";
import { ensureAgentServers } from "../../testing/agents.ts";
import { api, pollUntil, raw, startBareWorkbench } from "../../testing/workbench.ts";
import {
  assertNoSecret,
  echoingModel,
  filesUnder,
  REAL_ANSWER_CRITERION,
  SECRETS,
} from "../../testing/secrets.ts";
import { join } from "node:path";

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

Deno.test({
  name:
    "workbench: no secret a run or a chat resolved is in any answer (API, pages, event streams) or any file it wrote",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await ensureAgentServers();
  const model = startScriptedModelServer(echoingModel);
  const wb = await startBareWorkbench({
    env: {
      ECHO_KEY: SECRETS.modelKey,
      SVC_SECRET: SECRETS.viaVariable,
      PLAIN_REF: SECRETS.plainReference,
    },
    prepareServers: ({ serversPath, agents }) =>
      prepareAgentServers({
        serversPath,
        agents,
        installDir: AGENTS_DEFAULTS.installDir,
        dataDir: AGENTS_DEFAULTS.data,
        env: { SVC_SECRET: SECRETS.viaVariable, PLAIN_REF: SECRETS.plainReference },
        task: "test",
        onProgress: () => {},
      }),
  });
  const served: { where: string; text: string }[] = [];
  const get = async (path: string) => {
    const r = await raw(wb, "GET", path);
    served.push({ where: `GET ${path}`, text: r.text });
    return r;
  };
  try {
    const models = (await api(wb, "GET", "/api/config/models")).data;
    await api(wb, "PUT", "/api/config/models", {
      ...models,
      models: [...models.models, {
        id: "echoing",
        provider: "anthropic",
        model: "m",
        baseUrl: model.url,
        apiKey: "${ECHO_KEY}",
        pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
      }],
    });
    const servers = (await api(wb, "GET", "/api/config/servers")).data;
    servers.mcpServers.everything.env = {
      SERVICE_AUTH: "${SVC_SECRET}",
      GITHUB_TOKEN: SECRETS.literalToken,
      PLAIN_SETTING: "${PLAIN_REF}",
    };
    assert.equal((await api(wb, "PUT", "/api/config/servers", servers)).status, 200);
    const put = await api(wb, "PUT", "/api/config/agents/env-echo", {
      id: "env-echo",
      description: "Reads the environment through a tool.",
      model: "echoing",
      systemPrompt: "Answer.",
      mcpServers: ["everything"],
    });
    assert.equal(put.status, 200, JSON.stringify(put.data));
    const suite = await api(wb, "POST", "/api/suites", {
      id: "secrets",
      description: "An agent whose tool and model echo secrets.",
      cases: [{
        id: "env",
        question: "What is in your environment?",
        criterion: REAL_ANSWER_CRITERION,
      }],
    });
    assert.equal(suite.status, 201, JSON.stringify(suite.data));
    const start = await api(wb, "POST", "/api/runs", {
      suiteId: "secrets",
      agents: [{ agentId: "env-echo" }],
    });
    assert.equal(start.status, 201, JSON.stringify(start.data));
    const id = start.data.runId;
    const events = await get(`/api/runs/${id}/events`);
    assert.match(events.text, /event: case/);
    const run = await pollUntil(wb, id, ["completed", "interrupted", "failed"]);
    assert.equal(run.state, "completed", JSON.stringify(run));
    // Scored on the real answer (it held both secrets), kept redacted.
    assert.equal(run.results[0].passed, true, JSON.stringify(run.results[0]));
    for (
      const path of [
        `/api/runs/${id}`,
        "/api/runs",
        `/api/runs/${id}/summary`,
        `/api/runs/${id}/cases/env-echo/env/0`,
        `/runs/${id}`,
        `/runs/${id}/cases/env-echo/env/0`,
        "/runs",
        "/api/config/servers",
        "/api/config/models",
      ]
    ) {
      const r = await get(path);
      assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
    }
    const transcript = served.find((s) => s.where.endsWith("/cases/env-echo/env/0"))!;
    assert.match(transcript.text, /\[REDACTED\]/);
    // The chat streams each tool result as it comes.
    const chat = await fetch(`${wb.url}/api/chat/s1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ agentId: "env-echo", message: "What is in your environment?" }),
    });
    const stream = await chat.text();
    served.push({ where: "POST /api/chat/s1", text: stream });
    assert.match(stream, /event: tool_result/);
    assert.match(stream, /event: answer/);
    for (const s of served) assertNoSecret(s.text, s.where);
    for (const f of await filesUnder(join(wb.tmp, "results"))) assertNoSecret(f.text, f.path);
  } finally {
    await wb.stop();
    await model.close();
  }
});

Deno.test({
  name:
    "workbench: servers pasted as client entries (npx -y pkg@version, uvx) run: the npx one is installed and its cases pass, the uvx one's cases show their cause on the run page",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const model = startScriptedModelServer(fixturePolicy);
  const progress: string[] = [];
  const wb = await startBareWorkbench({
    env: { FIXTURE_KEY: "fixture-key-0123" },
    prepareServers: ({ serversPath, agents }) =>
      prepareAgentServers({
        serversPath,
        agents,
        installDir: AGENTS_DEFAULTS.installDir,
        dataDir: AGENTS_DEFAULTS.data,
        env: {},
        task: "test",
        onProgress: (line) => progress.push(line),
      }),
  });
  try {
    const models = (await api(wb, "GET", "/api/config/models")).data;
    const putModels = await api(wb, "PUT", "/api/config/models", {
      ...models,
      models: [...models.models, {
        id: "fixture",
        provider: "anthropic",
        model: "m",
        baseUrl: model.url,
        apiKey: "${FIXTURE_KEY}",
        pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
      }],
    });
    assert.equal(putModels.status, 200, JSON.stringify(putModels.data));
    // As a user pastes them from Claude Desktop: the runner fetches the package at start.
    const servers = (await api(wb, "GET", "/api/config/servers")).data;
    servers.mcpServers.fs = {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "${DATA}/fs"],
    };
    servers.mcpServers.fetchpy = { command: "uvx", args: ["mcp-server-fetch"] };
    const saved = await api(wb, "PUT", "/api/config/servers", servers);
    assert.equal(saved.status, 200, JSON.stringify(saved.data));
    const base = (await api(wb, "GET", "/api/config/agents")).data.agents
      .find((a: { id: string }) => a.id === "fs-terse-sequential");
    for (const [id, server] of [["fs-pasted", "fs"], ["py-pasted", "fetchpy"]]) {
      const put = await api(wb, "PUT", `/api/config/agents/${id}`, {
        ...base,
        id,
        model: "fixture",
        mcpServers: [server],
      });
      assert.equal(put.status, 200, JSON.stringify(put.data));
    }
    const start = await api(wb, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-pasted" }, { agentId: "py-pasted" }],
    });
    assert.equal(start.status, 201, JSON.stringify(start.data));
    const id = start.data.runId;
    const run = await pollUntil(wb, id, ["completed", "interrupted", "failed"]);
    assert.equal(run.state, "completed", JSON.stringify(run));
    // fs-basics has three cases; the pinned npx entry was installed (or found) before them.
    const verdicts = run.results.map((r: { agentId: string; passed: boolean | null }) =>
      `${r.agentId} ${r.passed}`
    ).sort();
    assert.deepEqual(verdicts, [
      "fs-pasted true",
      "fs-pasted true",
      "fs-pasted true",
      "py-pasted null",
      "py-pasted null",
      "py-pasted null",
    ]);
    assert.ok(
      progress.some((l) =>
        l.startsWith(
          "fs: npx @modelcontextprotocol/server-filesystem@2026.8.31 runs @modelcontextprotocol/server-filesystem@2026.8.31",
        )
      ),
      progress.join("\n"),
    );
    const cause = 'MCP server "fetchpy": cannot start: uvx mcp-server-fetch downloads a Python';
    const page = await raw(wb, "GET", `/runs/${id}`);
    assert.equal(page.status, 200);
    // Three case rows and three log lines name the cause (quotes as HTML escapes them).
    assert.equal(page.text.split(cause.replaceAll('"', "&quot;")).length - 1, 6, page.text);
    // A case's page names the cause once, and why it has no transcript.
    const casePage = await raw(wb, "GET", `/runs/${id}/cases/py-pasted/todo-lines/0`);
    assert.equal(casePage.status, 200, casePage.text.slice(0, 300));
    assert.equal(casePage.text.split(cause.replaceAll('"', "&quot;")).length - 1, 1);
    assert.match(casePage.text, /No transcript: the case ended before its first model turn/);
    const events = await raw(wb, "GET", `/api/runs/${id}/events`);
    assert.match(events.text, /"errorMessage":"MCP server \\"fetchpy\\": cannot start: uvx/);
  } finally {
    await wb.stop();
    await model.close();
  }
});
