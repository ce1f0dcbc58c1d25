// deno task sweep end to end: a 2 × 2 sweep over the filesystem suite, run as two shards against
// the real filesystem MCP server and a scripted wire-format model, merged, then reported.
import assert from "node:assert/strict";
import { join } from "node:path";
import { sweepFixture } from "./_sweep_testing.ts";
import { loadRun } from "../lib/report/load_runs.ts";
import { sweepGroupRows } from "../lib/report/compare.ts";

const INSTALL_DIR = ".scratch/servers";

async function task(script: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(script, import.meta.url).pathname, ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test({
  name: "sweep: cross product runs sharded through the agents machinery and groups in the report",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fx = await sweepFixture("mcpmeter-sweep-", "SWEEP_KEY");
    const { dir, models } = fx;
    try {
      const common = [
        "--base",
        "fs-terse-sequential",
        "--vary",
        "loop=sequential,parallel",
        "--vary",
        "systemPrompt=terse.md,careful.md",
        "--suite",
        "fixtures/suites/fs_basics.json",
        "--models",
        models,
        "--out",
        dir,
        "--install-dir",
        INSTALL_DIR,
        "--env-file",
        "/nonexistent.env",
      ];
      for (const shard of ["1/2", "2/2"]) {
        const r = await task("./sweep.ts", [
          ...common,
          "--shard",
          shard,
          "--run-id",
          `s${shard[0]}`,
        ], { SWEEP_KEY: "k" });
        assert.equal(r.code, 0, r.out);
        assert.match(
          r.out,
          /4 agent\(s\) from "fs-terse-sequential" \(loop × 2, systemPrompt × 2\)/,
        );
      }
      const merged = await task("./merge.ts", [
        "--out",
        join(dir, "merged"),
        join(dir, "s1"),
        join(dir, "s2"),
      ]);
      assert.equal(merged.code, 0, merged.out);
      const run = await loadRun(join(dir, "merged"));
      assert.equal(run.status, "complete");
      // 4 agents × 3 cases × 1 repetition, split over the two shards.
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
      // The merged run has no sweep.json: the parameters come back from the descriptions.
      assert.deepEqual(run.sweep?.parameters, ["loop", "systemPrompt"]);
      const groups = sweepGroupRows([run]);
      assert.deepEqual(groups.map((g) => [g.parameter, g.value, g.agents, g.scored]), [
        ["loop", "parallel", 2, 6],
        ["loop", "sequential", 2, 6],
        ["systemPrompt", "careful.md", 2, 6],
        ["systemPrompt", "terse.md", 2, 6],
      ]);
      const report = await task("./report.ts", [
        "--runs",
        join(dir, "merged"),
        "--out",
        join(dir, "out", "dashboard.html"),
      ]);
      assert.equal(report.code, 0, report.out);
      const html = await Deno.readTextFile(join(dir, "out", "dashboard.html"));
      assert.ok(html.includes(`<h2 id="sweep">`));
      const csv = await Deno.readTextFile(join(dir, "out", "dashboard_sweep.csv"));
      assert.equal(csv.split("\n")[0].split(",").slice(0, 3).join(","), "suite,parameter,value");
    } finally {
      await fx.close();
    }
  },
});

Deno.test({
  name: "sweep: the loop levers vary like any field and show up in the records and summary.csv",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fx = await sweepFixture("mcpmeter-sweep-levers-", "SWEEP_KEY");
    const { dir, models } = fx;
    try {
      const r = await task("./sweep.ts", [
        "--base",
        "fs-terse-sequential",
        "--vary",
        "contextStrategy=none,truncate:5",
        "--vary",
        "retryOnToolError=none,1",
        "--suite",
        "fixtures/suites/fs_basics.json",
        "--models",
        models,
        "--out",
        dir,
        "--install-dir",
        INSTALL_DIR,
        "--env-file",
        "/nonexistent.env",
        "--run-id",
        "levers",
      ], { SWEEP_KEY: "k" });
      assert.equal(r.code, 0, r.out);
      const run = await loadRun(join(dir, "levers"));
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
      const csv = (await Deno.readTextFile(join(dir, "levers", "summary.csv"))).trimEnd()
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

Deno.test("sweep: a run that never starts leaves no run folder behind", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-sweep-fail-" });
  try {
    // A models file without the base agent's model: the agents task refuses it (exit 2)
    // before it writes run.json.
    const models = join(dir, "models.json");
    await Deno.writeTextFile(models, JSON.stringify({ models: [] }));
    const r = await task("./sweep.ts", [
      "--base",
      "fs-terse-sequential",
      "--vary",
      "loop=sequential,parallel",
      "--suite",
      "fixtures/suites/fs_basics.json",
      "--models",
      models,
      "--out",
      dir,
      "--run-id",
      "never",
      "--env-file",
      "/nonexistent.env",
    ]);
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /the run did not start; removed .*never/);
    const left = [];
    for await (const e of Deno.readDir(dir)) left.push(e.name);
    assert.deepEqual(left.sort(), ["models.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
