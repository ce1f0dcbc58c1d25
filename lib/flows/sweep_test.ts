// test:quick skips this file: its tests start processes (deno task test runs them).
// The sweep flow in process: prepareSweep() expands a base agent into a 2 × 2 cross product, the
// generated agents run through runAgents() against the real filesystem MCP server and a scripted
// wire-format model, and the report groups them by the varied parameters.
import assert from "node:assert/strict";
import { join } from "node:path";
import { type PreparedSweep, prepareSweep } from "./sweep.ts";
import { runAgentsForTest, type SweepFixture, sweepFixture } from "../../testing/agents.ts";
import { runReport } from "./report.ts";
import { denoFlowIo } from "./io.ts";
import { loadRun } from "../report/load_runs.ts";
import { sweepGroupRows } from "../report/compare.ts";

const quiet = { ...denoFlowIo(), progress: () => {} };

/** Prepares the sweep of `fs-terse-sequential` over `vary` and runs it. */
async function sweep(fx: SweepFixture, vary: string[], runId: string): Promise<PreparedSweep> {
  const suite = "fixtures/suites/fs_basics.json";
  const prepared = await prepareSweep({
    base: "fs-terse-sequential",
    vary,
    suite,
    agentsDir: "fixtures/agents",
    out: fx.dir,
    runId,
  }, quiet);
  const r = await runAgentsForTest({
    suite,
    agentsDir: prepared.sweepDir,
    models: fx.models,
    out: fx.dir,
    runId: prepared.runId,
    env: { SWEEP_KEY: "k" },
  });
  assert.equal(r.code, 0, r.stderr);
  return prepared;
}

Deno.test({
  name: "sweep flow: the cross product runs through the agents machinery and groups in the report",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fx = await sweepFixture("mcpmeter-sweep-", "SWEEP_KEY");
    try {
      const prepared = await sweep(
        fx,
        ["loop=sequential,parallel", "systemPrompt=terse.md,careful.md"],
        "s",
      );
      assert.match(
        prepared.summary,
        /4 agent\(s\) from "fs-terse-sequential" \(loop × 2, systemPrompt × 2\)/,
      );
      const run = await loadRun(prepared.runDir);
      assert.equal(run.status, "complete");
      // 4 agents × 3 cases × 1 repetition.
      assert.equal(run.records.length, 12);
      assert.deepEqual(
        [...new Set(run.records.map((r) => r.agentId))].sort(),
        [
          "fs-terse-sequential__loop-parallel__systemPrompt-careful",
          "fs-terse-sequential__loop-parallel__systemPrompt-terse",
          "fs-terse-sequential__loop-sequential__systemPrompt-careful",
          "fs-terse-sequential__loop-sequential__systemPrompt-terse",
        ],
      );
      const careful = run.agents.find((a) => a.id.endsWith("loop-parallel__systemPrompt-careful"))!;
      assert.equal(careful.loop, "parallel");
      assert.equal(
        careful.systemPrompt,
        await Deno.readTextFile("fixtures/agents/prompts/careful.md"),
      );
      const groups = sweepGroupRows([run]);
      assert.deepEqual(groups.map((g) => [g.parameter, g.value, g.agents, g.scored]), [
        ["loop", "parallel", 2, 6],
        ["loop", "sequential", 2, 6],
        ["systemPrompt", "careful.md", 2, 6],
        ["systemPrompt", "terse.md", 2, 6],
      ]);
      const html = join(fx.dir, "out", "dashboard.html");
      await runReport({ runs: [prepared.runDir], filter: {}, out: html }, quiet);
      assert.ok((await Deno.readTextFile(html)).includes(`<h2 id="sweep">`));
      const csv = await Deno.readTextFile(join(fx.dir, "out", "dashboard_sweep.csv"));
      assert.equal(csv.split("\n")[0].split(",").slice(0, 3).join(","), "suite,parameter,value");
      // A run without sweep.json (a merged one): the parameters come back from the descriptions.
      await Deno.remove(join(prepared.runDir, "sweep.json"));
      assert.deepEqual((await loadRun(prepared.runDir)).sweep?.parameters, [
        "loop",
        "systemPrompt",
      ]);
    } finally {
      await fx.close();
    }
  },
});

Deno.test({
  name:
    "sweep flow: the loop levers vary like any field and show up in the records and summary.csv",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fx = await sweepFixture("mcpmeter-sweep-levers-", "SWEEP_KEY");
    try {
      const prepared = await sweep(
        fx,
        ["contextStrategy=none,truncate:5", "retryOnToolError=none,1"],
        "levers",
      );
      const run = await loadRun(prepared.runDir);
      const id = (cs: string, retry: string) =>
        `fs-terse-sequential__contextStrategy-${cs}__retryOnToolError-${retry}`;
      const agent = (i: string) => run.agents.find((a) => a.id === i)!;
      assert.deepEqual(agent(id("truncate-5", "1")).contextStrategy, {
        type: "truncate-tool-results",
        maxTokens: 5,
      });
      assert.equal(agent(id("truncate-5", "1")).retryOnToolError, 1);
      assert.equal("retryOnToolError" in agent(id("none", "none")), false);
      assert.equal(run.records.length, 4 * 3);
      for (const rec of run.records) {
        assert.ok(rec.toolRetries !== undefined, rec.agentId);
        if (rec.agentId.includes("truncate-5")) {
          assert.equal(rec.context?.strategy, "truncate-tool-results");
          assert.equal(rec.context?.tokenizer, "o200k_base");
          assert.equal(rec.context?.provenance, "computed");
          // A result is cut only when that saves tokens.
          assert.ok(rec.context!.tokensSaved >= 0, JSON.stringify(rec.context));
          assert.equal(rec.context!.tokensSaved > 0, rec.context!.requestsReduced > 0);
        } else {
          assert.equal(rec.context, undefined);
        }
      }
      const csv = (await Deno.readTextFile(join(prepared.runDir, "summary.csv"))).trimEnd()
        .split("\n").map((l) => l.split(","));
      const col = csv[0].indexOf("mean_context_tokens_saved");
      const saved = Object.fromEntries(csv.slice(1).map((row) => [row[0], row[col]]));
      assert.equal(saved[id("none", "none")], "");
      assert.ok(Number(saved[id("truncate-5", "none")]) > 0);
      const groups = sweepGroupRows([run]);
      assert.deepEqual(groups.map((g) => [g.parameter, g.value, g.agents]), [
        ["contextStrategy", "none", 2],
        ["contextStrategy", "truncate:5", 2],
        ["retryOnToolError", "1", 2],
        ["retryOnToolError", "none", 2],
      ]);
    } finally {
      await fx.close();
    }
  },
});

Deno.test("prepareSweep(): refuses a run id with a path in it, and a run that exists, before writing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-sweep-refuse-" });
  try {
    const options = {
      base: "fs-terse-sequential",
      vary: ["loop=sequential,parallel"],
      suite: "fixtures/suites/fs_basics.json",
      agentsDir: "fixtures/agents",
      out: join(dir, "runs"),
    };
    await assert.rejects(
      prepareSweep({ ...options, runId: "../x" }, quiet),
      (e: Error) => e.name === "UsageError" && /--run-id "\.\.\/x" is not a run id/.test(e.message),
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    await Deno.mkdir(join(dir, "runs", "old"), { recursive: true });
    await Deno.writeTextFile(join(dir, "runs", "old", "run.json"), "{}");
    await assert.rejects(
      prepareSweep({ ...options, runId: "old" }, quiet),
      (e: Error) => e.name === "UsageError" && /run "old" already exists/.test(e.message),
    );
    assert.deepEqual([...Deno.readDirSync(join(dir, "runs", "old"))].map((e) => e.name), [
      "run.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep flow: exposure varies over every exposure an agent may have, the tool-search ones too", async () => {
  const out = await Deno.makeTempDir({ prefix: "mcpmeter-sweep-exposure-" });
  try {
    const prepared = await prepareSweep({
      base: "fs-terse-sequential",
      vary: ["exposure=direct,proxy,code,anthropic_search,openai_search"],
      suite: "fixtures/suites/fs_basics.json",
      agentsDir: "fixtures/agents",
      out,
      runId: "x",
    }, quiet);
    assert.equal(prepared.agents, 5);
    const written = [];
    for await (const e of Deno.readDir(prepared.sweepDir)) {
      const agent = JSON.parse(await Deno.readTextFile(join(prepared.sweepDir, e.name)));
      written.push(`${e.name}: ${agent.exposure}`);
    }
    assert.deepEqual(written.sort(), [
      "fs-terse-sequential__exposure-anthropic_search.json: anthropic_search",
      "fs-terse-sequential__exposure-code.json: code",
      "fs-terse-sequential__exposure-direct.json: direct",
      "fs-terse-sequential__exposure-openai_search.json: openai_search",
      "fs-terse-sequential__exposure-proxy.json: proxy",
    ]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
