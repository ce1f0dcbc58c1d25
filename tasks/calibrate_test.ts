// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task calibrate as a command: exit 0 with the report on stdout, 1 on a missed threshold,
// 2 on bad input with one line naming the file and field, --help. The figures themselves are
// tested on runCalibration() in lib/flows/calibrate_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedModelServer } from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";
import { writeJudgeRegistry, writeOneLabel } from "../testing/judge.ts";

const SUITE = new URL("../fixtures/suites/memory_graph.json", import.meta.url).pathname;
const LABELS = new URL("../fixtures/labels/memory_graph.labels.json", import.meta.url).pathname;

async function calibrate(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./calibrate.ts", import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", K: "sk-calibrate-test-0000" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("calibrate: exit 0 with the figures on stdout, exit 1 when --min-kappa is missed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-calibrate-" });
  const server = startScriptedModelServer(fixturePolicy);
  try {
    const base = [
      "--suite",
      SUITE,
      "--labels",
      LABELS,
      "--models",
      await writeJudgeRegistry(dir, server.url, server.openaiBaseUrl),
      "--env-file",
      join(dir, "none.env"),
      "--judge",
      "judge",
      "--out",
      dir,
    ];
    const r = await calibrate(base);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /accuracy 0\.625 \[[\d.]+, [\d.]+\] {2}kappa 0\.250/);
    assert.match(r.stdout, /wrote .*memory-graph--judge\.json and memory-graph--judge\.csv/);
    const strict = await calibrate([...base, "--min-kappa", "0.5"]);
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /FAIL: kappa 0\.250 < --min-kappa 0\.5/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("calibrate: bad input exits 2 with one line naming the file and field", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-calibrate-" });
  try {
    const common = [
      "--suite",
      SUITE,
      "--models",
      await writeJudgeRegistry(dir, "http://127.0.0.1:9", "http://127.0.0.1:9/v1"),
      "--env-file",
      join(dir, "none.env"),
      "--out",
      dir,
    ];
    const bad = await writeOneLabel(join(dir, "bad.labels.json"), {
      id: "x",
      case: "entity-count",
      answer: "4",
      expected: "pass",
    });
    const noJudge = await calibrate([...common, "--labels", bad, "--judge", "judge"]);
    assert.equal(noJudge.code, 2);
    assert.match(
      noJudge.stderr,
      /bad\.labels\.json": field "labels\[0\]\.case" case "entity-count" has no llm_judge criterion/,
    );
    const unknown = await calibrate([...common, "--labels", LABELS, "--judge", "nobody"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /has no model "nobody" \(--judge\); it has judge, judge-oai/);
    const missing = await calibrate([...common, "--labels", LABELS]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--judge is required/);
    const help = await calibrate(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Cohen's kappa/);
    for (const r of [noJudge, unknown, missing]) {
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
