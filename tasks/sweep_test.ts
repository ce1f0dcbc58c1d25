// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task sweep as a command: the expansion summary on stderr, the agents task run as a child,
// a sweep that never starts cleaned up, missing flags refused. The sweep itself (expansion,
// records, groups, report) is tested in process in lib/flows/sweep_test.ts; shards and merge
// end to end in tasks/sweep_shards_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";

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
      "--agents-dir",
      "fixtures/agents",
      "--servers",
      "fixtures/agents/servers.json",
      "--out",
      dir,
      "--run-id",
      "never",
      "--env-file",
      "/nonexistent.env",
    ]);
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /\[sweep\] 2 agent\(s\) from "fs-terse-sequential" \(loop × 2\)/);
    assert.match(r.out, /the run did not start; removed .*never/);
    const left = [];
    for await (const e of Deno.readDir(dir)) left.push(e.name);
    assert.deepEqual(left.sort(), ["models.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweep: missing --base, --suite or --vary exits 2 with one line; --help exits 0", async () => {
  const r = await task("./sweep.ts", [
    "--base",
    "fs-terse-sequential",
    "--env-file",
    "/nonexistent.env",
  ]);
  assert.equal(r.code, 2, r.out);
  assert.match(
    r.out,
    /^mcpmeter sweep: error: --base AGENT, --suite FILE and at least one --vary are required/,
  );
  assert.equal(r.out.trim().split("\n").length, 1, r.out);
  const help = await task("./sweep.ts", ["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /--vary NAME=V,\.\.\./);
});

Deno.test({
  name:
    "sweep: SIGINT sent to the sweep alone reaches its agents run, which stops cleanly (exit 130, status stopped, --resume line) and does not outlive it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { fixturePolicy } = await import("../lib/agent/_scripted_policy.ts");
    const { E2E_KEY, ensureAgentServers, withScriptedModel } = await import(
      "../testing/agents.ts"
    );
    await ensureAgentServers();
    await withScriptedModel(
      (req) => ({ ...fixturePolicy(req), delayMs: 150 }),
      async (_s, dir, models) => {
        const child = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            new URL("./sweep.ts", import.meta.url).pathname,
            ...`--base fs-terse-sequential --vary loop=sequential,parallel --suite fixtures/suites/fs_basics.json --models ${models} --agents-dir fixtures/agents --servers fixtures/agents/servers.json --out ${dir} --run-id sw --repetitions 3 --env-file /nonexistent.env`
              .split(" "),
          ],
          env: { NO_COLOR: "1", E2E_KEY },
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const casesPath = join(dir, "sw", "cases.jsonl");
        const lines = async () =>
          (await Deno.readTextFile(casesPath).catch(() => "")).split("\n").filter(Boolean).length;
        for (let i = 0; i < 600 && await lines() < 1; i++) {
          await new Promise((r) => setTimeout(r, 50));
        }
        child.kill("SIGINT"); // the sweep's pid only, not a process group
        const [status, err] = await Promise.all([
          child.status,
          new Response(child.stderr).text(),
          child.stdout.cancel(),
        ]);
        assert.equal(status.code, 130, err);
        assert.match(err, /finish the run with deno task agents --resume sw/);
        const run = JSON.parse(await Deno.readTextFile(join(dir, "sw", "run.json")));
        assert.equal(run.status, "stopped");
        // The agents run ended with the sweep: nothing is appended afterwards.
        const after = await lines();
        await new Promise((r) => setTimeout(r, 1_500));
        assert.equal(await lines(), after);
        assert.ok(after < 12, `${after} of 12 cases: stopped early`);
      },
    );
  },
});
