// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task demo-agents end to end (real npm MCP servers, the scripted model): the demo's agents
// differ as configured, each by its own mechanism, and every run says its model is simulated.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fromRoot } from "./_cli.ts";
import { UNCHECKED_ANSWER } from "../lib/agent/demo_policy.ts";
import type { CaseRecord } from "../lib/agent/types.ts";

Deno.test({
  name:
    "demo-agents: the demo's agents differ in pass rate, cost and errors, each by its configuration; every run is simulated",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-demo-test-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "demo-agents", "--out", tmp, "--repetitions", "1"],
      cwd: fromRoot("."),
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    // It ends with each agent's pass rate (simulated) and where to look next.
    const stdout = new TextDecoder().decode(out.stdout);
    assert.match(
      stdout,
      /^Pass rates of the demo's agents.*\(simulated: a scripted model answered;$/m,
    );
    assert.match(stdout, /^ {4}baseline +100\.0% {2}3 of 3 passed$/m);
    assert.match(stdout, /^ {4}no-tools +0\.0% {2}0 of 3 passed$/m);
    assert.match(stdout, /^ {4}broken-server +– {2}no scored case \(3 infrastructure errors\)$/m);
    assert.match(stdout, /^Next:\n {2}the workbench lists RESULTS\/demo\/runs only/m);
    assert.match(stdout, /^ {2}deno task report --runs '.*\/runs\/\*'/m);
    const read = async (runId: string) => {
      const dir = join(tmp, "runs", runId);
      const run = JSON.parse(await Deno.readTextFile(join(dir, "run.json")));
      const records = (await Deno.readTextFile(join(dir, "cases.jsonl"))).trim().split("\n")
        .map((l) => JSON.parse(l) as CaseRecord);
      return { run, records };
    };
    for (const id of ["demo-fs_basics-1", "demo-memory_graph-2", "demo-fs_basics-sweep-tools"]) {
      const { run } = await read(id);
      assert.ok(
        run.models.length > 0 && run.models.every((m: { simulated?: boolean }) => m.simulated),
      );
    }
    const { records } = await read("demo-fs_basics-1");
    const of = (agent: string) => records.filter((r) => r.agentId === agent);
    const passed = (agent: string) => of(agent).filter((r) => r.passed === true).length;
    const cost = (agent: string) => of(agent).reduce((s, r) => s + (r.costUsd ?? 0), 0);
    const input = (agent: string) => of(agent).reduce((s, r) => s + (r.inputTokens ?? 0), 0);
    assert.equal(of("baseline").length, 3);
    assert.equal(passed("baseline"), 3);
    assert.equal(passed("cheaper-model"), 3);
    assert.ok(cost("cheaper-model") < cost("baseline") / 3, `${cost("cheaper-model")}`);
    assert.equal(passed("via-proxy"), 3);
    assert.ok(input("via-proxy") < input("baseline"), "the proxy sends fewer tool tokens");
    assert.deepEqual(of("no-tools").map((r) => [r.passed, r.finalAnswer, r.toolCalls.length]), [
      [false, UNCHECKED_ANSWER, 0],
      [false, UNCHECKED_ANSWER, 0],
      [false, UNCHECKED_ANSWER, 0],
    ]);
    // Every fs_basics case needs three model turns; two are allowed.
    assert.deepEqual(of("tight-budget").map((r) => [r.passed, r.error?.kind]), [
      [false, "iteration_limit"],
      [false, "iteration_limit"],
      [false, "iteration_limit"],
    ]);
    assert.deepEqual(of("broken-server").map((r) => [r.passed, r.error?.kind]), [
      [null, "mcp"],
      [null, "mcp"],
      [null, "mcp"],
    ]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
