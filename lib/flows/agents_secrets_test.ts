// test:quick skips this file: its tests start MCP servers from npm.
// Secrets a run resolved never reach a byte it writes: the agents flow over the real
// @modelcontextprotocol/server-everything, whose get-env tool echoes its environment, and a
// local server speaking the Anthropic wire format whose model repeats the API key it was sent.
// Every file the run wrote (run folder, --wire-log, response cache) and everything it printed
// is searched for each secret in every form it could take there.
import assert from "node:assert/strict";
import { join } from "node:path";
import { AGENTS_DEFAULTS, caseProgressPrinter, runAgents, runSummary } from "./agents.ts";
import { denoFlowIo } from "./io.ts";
import { ensureAgentServers, withScriptedModel } from "../../testing/agents.ts";
import {
  assertNoSecret,
  echoingModel,
  filesUnder,
  REAL_ANSWER_CRITERION,
  SECRETS,
} from "../../testing/secrets.ts";

Deno.test({
  name:
    "agents: no secret the run resolved is in any file it wrote, its wire log, its cache or its output; criteria still see the real answer",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await ensureAgentServers();
  await withScriptedModel(echoingModel, async (s, dir, models) => {
    // The everything server with a ${VAR} secret, a literal token, and a key in its arguments.
    const servers = JSON.parse(await Deno.readTextFile(AGENTS_DEFAULTS.servers));
    servers.mcpServers.everything.env = {
      SERVICE_AUTH: "${SVC_SECRET}",
      GITHUB_TOKEN: SECRETS.literalToken,
      PLAIN_SETTING: "${PLAIN_REF}",
    };
    await Deno.writeTextFile(join(dir, "servers.json"), JSON.stringify(servers));
    const agentsDir = join(dir, "agents");
    await Deno.mkdir(agentsDir);
    await Deno.writeTextFile(
      join(agentsDir, "env.json"),
      JSON.stringify({
        id: "env-echo",
        description: "Reads the environment through a tool.",
        model: "claude",
        systemPrompt: "Answer.",
        mcpServers: ["everything"],
      }),
    );
    // The criterion sees the real answer: it holds the key the model repeated.
    await Deno.writeTextFile(
      join(dir, "suite.json"),
      JSON.stringify({
        id: "secrets",
        description: "An agent whose tool and model echo secrets.",
        cases: [{
          id: "env",
          question: "What is in your environment?",
          criterion: REAL_ANSWER_CRITERION,
        }],
      }),
    );
    const out = join(dir, "runs");
    const wire = join(dir, "wire");
    const cache = join(dir, "cache");
    const said: string[] = [];
    const result = await runAgents({
      suite: join(dir, "suite.json"),
      agentsDir,
      models,
      servers: join(dir, "servers.json"),
      repetitions: 1,
      concurrency: 1,
      out,
      runId: "leaky",
      cache: "write",
      cacheDir: cache,
      wireLog: wire,
      timeoutMs: 60_000,
      installDir: AGENTS_DEFAULTS.installDir,
      data: AGENTS_DEFAULTS.data,
      env: {
        E2E_KEY: SECRETS.modelKey,
        SVC_SECRET: SECRETS.viaVariable,
        PLAIN_REF: SECRETS.plainReference,
      },
      seed: 0,
      onRecord: caseProgressPrinter(false, (t) => said.push(t)),
    }, { ...denoFlowIo(), progress: (task, m) => said.push(`[${task}] ${m}`) });
    assert.equal(result.status, "ran");
    if (result.status !== "ran") return;
    const summary = runSummary(result.runDir, result.runId, result.outcome);
    // The tool and the model really echoed them, and the criterion saw them.
    const record = result.outcome.records[0];
    assert.equal(record.passed, true, JSON.stringify(record));
    assert.match(record.finalAnswer ?? "", /My key is \[REDACTED\]/);
    assert.ok(s.requests.length >= 2);
    const files = [...await filesUnder(out), ...await filesUnder(wire), ...await filesUnder(cache)];
    assert.ok(files.some((f) => f.path.endsWith("cases.jsonl")));
    assert.ok(files.some((f) => f.path.includes("/wire/")));
    assert.ok(files.some((f) => f.path.includes("/cache/")));
    for (const f of files) assertNoSecret(f.text, f.path);
    assertNoSecret([...said, ...summary.stderr, ...summary.stdout].join("\n"), "output");
    // What it answered, and what the tool saw, survive redacted.
    const wireText = files.filter((f) => f.path.includes("/wire/")).map((f) => f.text).join("\n");
    assert.match(wireText, /\[REDACTED\]/);
  });
});
