import assert from "node:assert/strict";
import { join } from "node:path";
import { runSuite } from "./run.ts";
import { exposeTools } from "./tools.ts";
import type { ModelClient, ModelRequest, ModelTurn } from "./providers/types.ts";
import type { AgentConfig, ModelConfig } from "./types.ts";

const LONG = "notes.search_every_note_in_the_workspace_by_keyword_and_return_the_matching_lines";
const EXPOSED = "notes_search_every_note_in_the_workspace_by_keyword_and_060b6840";

Deno.test("runSuite(): run.json records the exposed-name mapping and the provider changes; calls route to the listed name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-test-" });
  try {
    const seen: string[] = [];
    const tools = exposeTools([
      { server: "notes", item: { name: LONG, description: "Search notes" } },
      { server: "notes", item: { name: "echo", inputSchema: { type: "object" } } },
    ], "openai");
    const usage = { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: null };
    // The model calls the tool by the name it was offered, then answers.
    const model: ModelClient = {
      id: "m",
      complete(req: ModelRequest): Promise<ModelTurn> {
        const done = req.messages.some((m) => m.role === "tool");
        return Promise.resolve({
          text: done ? "found" : "",
          toolCalls: done ? [] : [{ id: "c", name: req.tools[0].name, args: { q: "x" } }],
          stopReason: done ? "stop" : "tool_calls",
          usage,
          notes: [],
          ms: 1,
          attempts: 1,
          cached: false,
        });
      },
    };
    const agent: AgentConfig = {
      id: "a",
      description: "",
      model: "m",
      systemPrompt: "",
      mcpServers: ["notes"],
      exposure: "direct",
      loop: "sequential",
      maxIterations: 3,
      maxOutputTokens: 10,
    };
    const models: ModelConfig[] = [{
      id: "m",
      provider: "openai",
      model: "m",
      apiKey: "${K}",
      pricing: {
        inputUsdPerMTok: 1,
        outputUsdPerMTok: 1,
        cacheReadUsdPerMTok: 0,
        cacheWriteUsdPerMTok: 0,
      },
    }, {
      id: "unused",
      provider: "openai",
      model: "u",
      apiKey: "${K2:-sk-fallback-0123456789}",
      pricing: {
        inputUsdPerMTok: 1,
        outputUsdPerMTok: 1,
        cacheReadUsdPerMTok: 0,
        cacheWriteUsdPerMTok: 0,
      },
    }];
    const out = await runSuite({
      runDir: join(dir, "r"),
      runId: "r",
      suite: {
        id: "s",
        description: "",
        cases: [{
          id: "c",
          question: "q",
          criterion: { type: "tool_called", tool: `notes:${LONG}` },
        }],
      },
      agents: [agent],
      models,
      toolPrices: {},
      clients: new Map([["m", model]]),
      openTools: () =>
        Promise.resolve({
          tools,
          call: (tool) => {
            seen.push(`${tool.server}:${tool.tool}`);
            return Promise.resolve({ text: "hit", isError: false });
          },
          close: () => Promise.resolve(),
        }),
      repetitions: 1,
      now: () => 0,
      epochNow: () => 0,
    });
    assert.equal(out.records[0].passed, true);
    assert.deepEqual(seen, [`notes:${LONG}`]);
    assert.deepEqual(out.records[0].toolCalls.map((c) => [c.name, c.tool]), [
      [EXPOSED, `notes:${LONG}`],
    ]);
    const runText = await Deno.readTextFile(join(dir, "r", "run.json"));
    const run = JSON.parse(runText);
    // API keys are recorded as references; a literal `:-default` fallback is redacted.
    assert.deepEqual(run.models.map((m: { apiKey: string }) => m.apiKey), [
      "${K}",
      "${K2:-[REDACTED]}",
    ]);
    assert.ok(!runText.includes("sk-fallback"));
    assert.deepEqual(run.catalogs.a.mapping, { [EXPOSED]: `notes:${LONG}`, echo: "notes:echo" });
    assert.deepEqual(
      run.catalogs.a.normalization.map((
        n: { exposedName: string; tool: string; changes: { kind: string }[] },
      ) => [
        n.exposedName,
        n.tool,
        n.changes.map((c) => c.kind),
      ]),
      [
        [EXPOSED, `notes:${LONG}`, ["rename", "add-schema"]],
        ["echo", "notes:echo", ["add-properties"]],
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
