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
