// deno task serve as a process: the real server on a random loopback port, real MCP servers
// from npm, the scripted local model. A server killed mid-run (SIGKILL) shows the run as
// interrupted after a restart and resumes it without losing or duplicating a case; --host beyond
// loopback without a token exits 2. A run over the API compared with the agents flow is tested
// in process in lib/workbench/serve_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromRoot } from "./_cli.ts";
import { api, pollUntil, serve, useScripted } from "./_serve_testing.ts";
import { readRecords, recordKey } from "../lib/flows/_agents_testing.ts";

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
    const runDir = join(resultsDir, "runs", runId);
    const before = await readRecords(runDir);
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
    const all = await readRecords(runDir);
    assert.equal(all.length, 18);
    assert.equal(new Set(all.map(recordKey)).size, 18, "no case recorded twice");
    assert.deepEqual(all.slice(0, before.length), before, "recorded cases kept as they were");
    const runJson = JSON.parse(
      await Deno.readTextFile(join(runDir, "run.json")),
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

Deno.test("serve: --host beyond loopback with a short token exits 2, naming its length and not its value", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fromRoot("tasks/serve.ts"), "--host", "0.0.0.0", "--port", "0"],
    env: { MCPMETER_TOKEN: "hunter2" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 2, stderr);
  assert.match(stderr, /the token is 7 characters, fewer than 16/);
  assert.ok(
    !stderr.includes("hunter2") && !new TextDecoder().decode(out.stdout).includes("hunter2"),
  );
});
