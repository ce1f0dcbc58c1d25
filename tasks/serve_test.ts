// deno task serve end to end: the real server process on a random loopback port, real MCP
// servers from npm, the scripted local model. A run started over the API streams its cases,
// completes, and summarizes exactly as `deno task agents` does on the same inputs; a server killed
// mid-run shows the run as interrupted after a restart and resumes it without losing or
// duplicating a case.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromRoot } from "./_cli.ts";
import { api, INSTALL_DIR, pollUntil, serve, useScripted } from "./_serve_harness.ts";
import { startDemoModelServer } from "../lib/agent/io.ts";
import { createTokenizer } from "../lib/tokens/mod.ts";
import { summarizeRecords } from "../lib/agent/summary.ts";
import type { CaseRecord } from "../lib/agent/types.ts";

const key = (r: CaseRecord) => `${r.agentId}/${r.caseId}/${r.repetition}`;
const readRecords = async (path: string) =>
  (await Deno.readTextFile(path)).split("\n").filter(Boolean).map((l) =>
    JSON.parse(l) as CaseRecord
  );
// Wall-clock fields differ between any two runs; everything else is a function of the inputs.
const untimed = <T extends Record<string, unknown>>(row: T) => {
  const { wallP50Ms: _a, wallP95Ms: _b, ...rest } = row;
  return rest;
};

Deno.test({
  name:
    "serve: a run started over the API streams its cases, completes, and summarizes as deno task agents does",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-serve-test-" });
  const configDir = join(tmp, "config");
  const server = await serve(configDir, join(tmp, "results"));
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

    // The CLI on the same config files, with its own scripted model server.
    const model = startDemoModelServer(createTokenizer("cl100k_base"));
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          fromRoot("tasks/agents.ts"),
          "--suite",
          join(configDir, "suites", "memory_graph.json"),
          "--agents",
          "memory-scripted",
          "--agents-dir",
          join(configDir, "agents"),
          "--models",
          join(configDir, "models.json"),
          "--servers",
          join(configDir, "servers.json"),
          "--tool-prices",
          join(configDir, "tool_prices.json"),
          "--repetitions",
          "2",
          "--concurrency",
          "2",
          "--out",
          join(tmp, "cli"),
          "--run-id",
          "cli",
          "--install-dir",
          INSTALL_DIR,
          "--env-file",
          "/nonexistent.env",
        ],
        cwd: fromRoot("."),
        env: {
          MCPMETER_SCRIPTED_URL: model.url,
          MCPMETER_SCRIPTED_OPENAI_URL: model.openaiBaseUrl,
          MCPMETER_SCRIPTED_KEY: "scripted-not-a-key",
          NO_COLOR: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
    } finally {
      await model.close();
    }
    const cli = await readRecords(join(tmp, "cli", "cli", "cases.jsonl"));
    assert.deepEqual(
      summary.agents.map(untimed),
      summarizeRecords(cli).map((r) => untimed(r as unknown as Record<string, unknown>)),
    );
    // Per case too: verdicts, tokens and cost agree.
    const pick = (r: CaseRecord) => [key(r), r.passed, r.inputTokens, r.outputTokens, r.costUsd];
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
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test({
  name:
    "serve: a server killed mid-run shows the run interrupted after restart and resumes it without losing or duplicating a case",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-serve-test-" });
  const configDir = join(tmp, "config");
  const resultsDir = join(tmp, "results");
  let server = await serve(configDir, resultsDir);
  try {
    await useScripted(server, "fs-terse-sequential");
    const start = await api(server, "POST", "/api/runs", {
      suiteId: "fs-basics",
      agents: [{ agentId: "fs-terse-sequential" }],
      repetitions: 6,
      concurrency: 1,
    });
    const runId: string = start.data.runId;
    // Kill the server (SIGKILL: no cleanup) once two cases are on disk.
    const reader = (await fetch(`${server.url}/api/runs/${runId}/events`)).body!
      .pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while ((seen.match(/^event: case$/gm)?.length ?? 0) < 2) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value;
    }
    await server.stop("SIGKILL");
    await reader.cancel().catch(() => {});
    const casesPath = join(resultsDir, "runs", runId, "cases.jsonl");
    const before = await readRecords(casesPath);
    assert.ok(before.length >= 2 && before.length < 18, `${before.length} cases before the kill`);

    server = await serve(configDir, resultsDir);
    const after = (await api(server, "GET", `/api/runs/${runId}`)).data;
    assert.equal(after.state, "interrupted");
    assert.equal(after.completed, before.length);
    assert.equal(after.planned, 18);
    const resume = await api(server, "POST", `/api/runs/${runId}/resume`);
    assert.equal(resume.status, 202, JSON.stringify(resume.data));
    const done = await pollUntil(server, runId, ["completed", "failed"]);
    assert.equal(done.state, "completed", done.failure);
    const all = await readRecords(casesPath);
    assert.equal(all.length, 18);
    assert.equal(new Set(all.map(key)).size, 18, "no case recorded twice");
    assert.deepEqual(all.slice(0, before.length), before, "recorded cases kept as they were");
    const runJson = JSON.parse(
      await Deno.readTextFile(join(resultsDir, "runs", runId, "run.json")),
    );
    assert.equal(runJson.status, "complete");
    assert.equal(runJson.sessions.length, 2);
  } finally {
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("serve: --host beyond loopback without a token exits 2 before listening", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fromRoot("tasks/serve.ts"), "--host", "0.0.0.0", "--port", "0"],
    env: { MCPMETER_TOKEN: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /needs? a token|set a token/);
});
