// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task gate as a command: exit codes 0/1/2, the verdict on stdout, one-line errors without a
// stack trace. What the gate computes and writes (verdicts, p-values, JUnit against the XSD,
// Markdown) is tested on runGate() in lib/flows/gate_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeGateRuns } from "../testing/synthetic_runs.ts";

async function gate(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./gate.ts", import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "gate CLI: exit 0 on noise, 1 on a real drop, 2 on unusable input, errors on one line",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "mcpmeter-gate-cli-" });
    try {
      const r = await writeGateRuns(root);
      const pass = await gate(["--baseline", r.base, "--candidate", r.same]);
      assert.equal(pass.code, 0, pass.stdout + pass.stderr);
      assert.match(pass.stdout, /^PASS suite\/a · pass rate: 1\.000 → 0\.969/m);
      assert.match(pass.stdout, /gate: PASS/);
      const fail = await gate(["--baseline", r.base, "--candidate", r.worse]);
      assert.equal(fail.code, 1, fail.stdout + fail.stderr);
      assert.match(fail.stdout, /gate: FAIL \(1 of 5 checks failed\)/);
      for (
        const args of [
          ["--baseline", join(root, "missing"), "--candidate", r.base],
          ["--baseline", r.base],
          ["--baseline", r.base, "--candidate", r.base, "--alpha", "2"],
          ["--baseline", r.base, "--candidate", r.base, "--no-such-flag"],
        ]
      ) {
        const bad = await gate(args);
        assert.equal(bad.code, 2, `${args.join(" ")}: ${bad.stdout}${bad.stderr}`);
        assert.match(bad.stderr, /^mcpmeter gate: error: /);
        assert.ok(!bad.stderr.includes("    at "), "no stack trace");
      }
      await Deno.writeTextFile(join(r.base, "..", "same", "run.json"), "{not json");
      const malformed = await gate(["--baseline", r.base, "--candidate", r.same]);
      assert.equal(malformed.code, 2);
      assert.match(malformed.stderr, /run\.json": not JSON/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("gate, report and merge reject an unwritable output with exit 2 before any work; merge never writes over a run", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-outputs-" });
  try {
    const { base, same } = await writeGateRuns(root);
    const task = (name: string, args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", new URL(`./${name}.ts`, import.meta.url).pathname, ...args],
        stdout: "piped",
        stderr: "piped",
      }).output().then((o) => ({ code: o.code, stderr: new TextDecoder().decode(o.stderr) }));
    const bad = "/proc/version/x"; // a file's child: never a writable folder
    const g = await gate(["--baseline", base, "--candidate", same, "--junit", `${bad}.xml`]);
    assert.equal(g.code, 2, g.stderr);
    assert.match(g.stderr, /--junit .* cannot write there/);
    assert.doesNotMatch(g.stdout, /PASS|FAIL/, "no check ran");
    const r = await task("report", ["--runs", base, "--out", `${bad}.html`]);
    assert.equal(r.code, 2, r.stderr);
    // merge: into a non-empty folder, or into one of its inputs, is refused; nothing changes.
    const before = await Deno.readTextFile(join(same, "run.json"));
    const m1 = await task("merge", ["--out", same, base]);
    assert.equal(m1.code, 2, m1.stderr);
    assert.match(m1.stderr, /is not empty/);
    const m2 = await task("merge", ["--out", base, base]);
    assert.equal(m2.code, 2, m2.stderr);
    assert.match(m2.stderr, /is one of the runs being merged/);
    assert.equal(await Deno.readTextFile(join(same, "run.json")), before);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
