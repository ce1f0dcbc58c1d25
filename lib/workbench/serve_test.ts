// test:quick skips this file: its tests start processes (deno task test runs them).
// The workbench as deno task serve starts it (serveWorkbench, in process, on a random loopback
// port) with real MCP servers from npm and the scripted local model: a run started over the API
// streams its cases, completes, and summarizes exactly as the agents flow does on the same
// inputs, and chat goes through the same loop. Killing the server process mid-run and resuming
// is tested in tasks/serve_test.ts (it is about the process).
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDemoModelServer } from "../agent/io.ts";
import { createTokenizer } from "../tokens/mod.ts";
import { summarizeRecords } from "../agent/summary.ts";
import type { CaseRecord } from "../agent/types.ts";
import { readRecords, recordKey, runAgentsForTest } from "../../testing/agents.ts";
import { api, pollUntil } from "../../testing/workbench.ts";
import { serveWorkbench } from "./serve.ts";

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
/** Where the tests install the pinned MCP servers (shared with the other agent tests). */
const INSTALL_DIR = root(".scratch/servers");

// Wall-clock fields differ between any two runs; everything else is a function of the inputs.
const untimed = <T extends Record<string, unknown>>(row: T) => {
  const { wallP50Ms: _a, wallP95Ms: _b, ...rest } = row;
  return rest;
};

Deno.test({
  name:
    "serveWorkbench: a run started over the API streams its cases, completes, and summarizes as runAgents does",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-serve-test-" });
  const configDir = join(tmp, "config");
  const server = await serveWorkbench({
    port: 0,
    configDir,
    resultsDir: join(tmp, "results"),
    installDir: INSTALL_DIR,
    envFile: "/nonexistent.env",
    fromRoot: root,
    benchArgs: [],
    log: () => {},
  });
  try {
    // A new agent on the memory server only: its tool outputs hold no path of the per-session
    // data copy, so two runs see byte-identical conversations (the fs server's answers quote it).
    const created = await api(server, "PUT", "/api/config/agents/memory-scripted", {
      id: "memory-scripted",
      description: "The memory server alone, on the scripted model.",
      model: "scripted",
      systemPromptFile: "prompts/terse.md",
      mcpServers: ["memory"],
      loop: "sequential",
      maxIterations: 6,
    });
    assert.equal(created.status, 200, JSON.stringify(created.data));
    // Its judged case asks the scripted model too (the suite is edited over the API).
    const suite = (await api(server, "GET", "/api/suites/memory-graph")).data.suite;
    const judged = JSON.parse(
      JSON.stringify(suite).replace('"model":"judge"', '"model":"scripted"'),
    );
    assert.equal((await api(server, "PUT", "/api/suites/memory-graph", judged)).status, 200);
    const start = await api(server, "POST", "/api/runs", {
      suiteId: "memory-graph",
      agents: [{ agentId: "memory-scripted" }],
      repetitions: 2,
      concurrency: 2,
    });
    assert.equal(start.status, 201, JSON.stringify(start.data));
    const runId: string = start.data.runId;

    const events = await (await fetch(`${server.url}/api/runs/${runId}/events`)).text();
    const cases = [...events.matchAll(/^event: case\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]));
    assert.equal(cases.length, 6, events);
    const progress = [...events.matchAll(/^event: progress\ndata: (.*)$/gm)].map((m) =>
      JSON.parse(m[1])
    );
    assert.deepEqual(
      [progress.at(-1).completed, progress.at(-1).planned, progress.at(-1).state],
      [6, 6, "completed"],
    );
    assert.match(events, /event: end\ndata: \{"state":"completed"/);

    const run = await pollUntil(server, runId, ["completed", "failed"]);
    assert.equal(run.state, "completed", run.failure);
    assert.equal(run.results.length, 6);
    const errors = (run.results as CaseRecord[]).filter((r) => r.error !== null);
    assert.deepEqual(errors.map((r) => r.error), [], "no case errored");
    const summary = (await api(server, "GET", `/api/runs/${runId}/summary`)).data;

    // The agents flow (as deno task agents runs it) on the same config files, with its own
    // scripted model server.
    const model = startDemoModelServer(createTokenizer("cl100k_base"));
    try {
      const cliRun = await runAgentsForTest({
        suite: join(configDir, "suites", "memory_graph.json"),
        agents: ["memory-scripted"],
        agentsDir: join(configDir, "agents"),
        models: join(configDir, "models.json"),
        servers: join(configDir, "servers.json"),
        toolPrices: join(configDir, "tool_prices.json"),
        repetitions: 2,
        concurrency: 2,
        out: join(tmp, "cli"),
        runId: "cli",
        installDir: INSTALL_DIR,
        env: {
          ...Deno.env.toObject(),
          MCPMETER_SCRIPTED_URL: model.url,
          MCPMETER_SCRIPTED_OPENAI_URL: model.openaiBaseUrl,
          MCPMETER_SCRIPTED_KEY: "scripted-not-a-key",
        },
      });
      assert.equal(cliRun.code, 0, cliRun.stderr);
    } finally {
      await model.close();
    }
    const cli = await readRecords(join(tmp, "cli", "cli"));
    assert.deepEqual(
      summary.agents.map(untimed),
      summarizeRecords(cli).map((r) => untimed(r as unknown as Record<string, unknown>)),
    );
    // Per case too: verdicts, tokens and cost agree.
    const pick = (
      r: CaseRecord,
    ) => [recordKey(r), r.passed, r.inputTokens, r.outputTokens, r.costUsd];
    assert.deepEqual(
      (run.results as CaseRecord[]).map(pick).sort(),
      cli.map(pick).sort(),
    );
    // The judged case was judged, and its cost kept apart.
    assert.ok(summary.cost.judgeInputTokens > 0);
    assert.equal(summary.cost.judgeUsd, cli.reduce((a, r) => a + (r.judge?.costUsd ?? 0), 0));
    // The comparison's sums are the records' sums.
    const row = summary.comparison[0];
    assert.equal(row.inputTokens, cli.reduce((a, r) => a + (r.inputTokens ?? 0), 0));
    assert.equal(row.passed, cli.filter((r) => r.passed === true).length);
    // Chat: the same agent through the same loop, tool calls streamed before the answer.
    const question = suite.cases.find((k: { id: string }) => k.id === "entity-count").question;
    const chat = await (await fetch(`${server.url}/api/chat/t1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ agentId: "memory-scripted", message: question }),
    })).text();
    const kinds = [...chat.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    assert.ok(kinds.includes("tool_call"), chat);
    assert.ok(kinds.indexOf("tool_call") < kinds.indexOf("tool_result"), chat);
    assert.ok(kinds.indexOf("tool_result") < kinds.indexOf("answer"), chat);
    assert.deepEqual(kinds.slice(-2), ["usage", "done"]);
    const answer = JSON.parse(/^event: answer\ndata: (.*)$/m.exec(chat)![1]).text;
    const caseAnswer = (run.results as CaseRecord[]).find((r) => r.caseId === "entity-count")!
      .finalAnswer;
    assert.equal(answer, caseAnswer, "chat and benchmark share the loop");
    // A transcript was kept for each case.
    const one = await api(
      server,
      "GET",
      `/api/runs/${runId}/cases/memory-scripted/entity-count/0`,
    );
    assert.equal(one.data.transcript.messages[0].role, "user");
  } finally {
    await server.close();
    await Deno.remove(tmp, { recursive: true });
  }
});
