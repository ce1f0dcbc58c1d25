import assert from "node:assert/strict";
import { join } from "node:path";
import { InputFileError } from "../core/errors.ts";
import { runSuite, type RunSuiteOptions } from "./run.ts";
import { memoryRunFolder, readCaseRecords, runFolder } from "./run_folder.ts";
import { parseCaseLines } from "./read_run.ts";
import { exposeTools } from "./tools.ts";
import type { ModelClient } from "./providers/types.ts";

const usage = { inputTokens: 7, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: null };
const model: ModelClient = {
  id: "m",
  complete: () =>
    Promise.resolve({
      text: "42",
      toolCalls: [],
      stopReason: "stop",
      usage,
      notes: [],
      ms: 1,
      attempts: 1,
      cached: false,
    }),
};

const options = (runDir: string): RunSuiteOptions => ({
  runDir,
  runId: "r",
  suite: {
    id: "s",
    description: "",
    cases: [
      { id: "yes", question: "q", criterion: { type: "regex", pattern: "^42$" } },
      { id: "no", question: "q", criterion: { type: "regex", pattern: "^41$" } },
    ],
  },
  agents: [{
    id: "a",
    description: "",
    model: "m",
    systemPrompt: "",
    mcpServers: [],
    exposure: "direct",
    loop: "sequential",
    maxIterations: 2,
    maxOutputTokens: 10,
  }],
  models: [{
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
  }],
  toolPrices: {},
  clients: new Map([["m", model]]),
  openTools: () =>
    Promise.resolve({
      tools: exposeTools([], "openai"),
      call: () => Promise.resolve({ text: "", isError: false }),
      close: () => Promise.resolve(),
    }),
  repetitions: 1,
  now: () => 0,
  epochNow: () => 0,
});

Deno.test("runSuite() writes through its folder: the memory folder gets the bytes the disk folder writes, and no file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-folder-test-" });
  try {
    const onDisk = await runSuite(options(join(dir, "disk")));
    const memory = memoryRunFolder();
    const inMemory = await runSuite({ ...options(join(dir, "memory")), folder: memory });
    assert.deepEqual(inMemory.records, onDisk.records);
    // One pass (42 matches ^42$), one fail.
    assert.deepEqual(inMemory.records.map((r) => [r.caseId, r.passed]), [
      ["yes", true],
      ["no", false],
    ]);
    assert.equal(memory.cases(), await Deno.readTextFile(join(dir, "disk", "cases.jsonl")));
    assert.equal(memory.runDoc(), await Deno.readTextFile(join(dir, "disk", "run.json")));
    for (const name of ["summary.csv", "cases.csv", "summary.json"]) {
      assert.equal(memory.file(name), await Deno.readTextFile(join(dir, "disk", name)), name);
    }
    assert.equal(JSON.parse(memory.runDoc()!).status, "complete");
    await assert.rejects(Deno.stat(join(dir, "memory")), Deno.errors.NotFound);
    // A second session on the memory folder without resume is refused, as on disk.
    await assert.rejects(
      runSuite({ ...options(join(dir, "memory")), folder: memory }),
      /already has 2 cases; use --resume r/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readCaseRecords() drops a torn last line from the file; a bad line is named", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-folder-test-" });
  const line = (caseId: string) =>
    JSON.stringify({
      agentId: "x",
      caseId,
      repetition: 0,
      passed: true,
      wallMs: 1,
      toolCalls: [],
      costUsd: 0,
    }) + "\n";
  try {
    const path = join(dir, "cases.jsonl");
    await Deno.writeTextFile(path, line("a") + line("b") + '{"caseI');
    const records = await readCaseRecords(path);
    assert.deepEqual(records.map((r) => r.caseId), ["a", "b"]);
    assert.equal(await Deno.readTextFile(path), line("a") + line("b"));
    assert.deepEqual(await runFolder(join(dir, "none")).readRecords(), []);
    assert.throws(
      () => parseCaseLines(line("a") + "not json\n", "x.jsonl"),
      (e: unknown) =>
        e instanceof InputFileError && /"x.jsonl": line 2 is not JSON/.test(e.message),
    );
    assert.throws(
      () => parseCaseLines(line("a") + '{"caseId":"b"}\n', "x.jsonl"),
      (e: unknown) =>
        e instanceof InputFileError &&
        /"x.jsonl": line 2: field "agentId" is missing/.test(e.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
