// deno task gate end to end: exit codes 0/1/2 on synthetic runs, and the JUnit XML validated
// with libxml2's xmllint against lib/report/junit.xsd (the common JUnit report shape).
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeSyntheticRun } from "../lib/report/_synthetic_runs.ts";

const XSD = new URL("../lib/report/junit.xsd", import.meta.url).pathname;

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

async function hasXmllint(): Promise<boolean> {
  try {
    return (await new Deno.Command("xmllint", { args: ["--version"], stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

async function xmllint(file: string) {
  const out = await new Deno.Command("xmllint", {
    args: ["--noout", "--schema", XSD, file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { ok: out.success, stderr: new TextDecoder().decode(out.stderr) };
}

async function runs(root: string) {
  const cases = Array.from({ length: 8 }, (_, i) => `c${i}`);
  const mk = (runId: string, passes: (c: number) => number, costUsd = 0.001) =>
    writeSyntheticRun(root, {
      runId,
      startedAt: "2025-01-01T00:00:00Z",
      cases,
      repetitions: 4,
      agents: [{ id: "a", outcome: (c, r) => ({ passed: r < passes(c), costUsd }) }],
    });
  return {
    base: await mk("base", () => 4),
    same: await mk("same", (c) => c === 0 ? 3 : 4),
    worse: await mk("worse", () => 1),
  };
}

Deno.test({
  name: "gate CLI: exit 0 on noise, 1 on a real drop, 2 on unusable input; JUnit validates",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "mcpmeter-gate-cli-" });
    try {
      const r = await runs(root);
      const junit = join(root, "out", "junit.xml");
      const md = join(root, "out", "summary.md");
      const pass = await gate([
        "--baseline",
        r.base,
        "--candidate",
        r.same,
        "--junit",
        junit,
        "--markdown",
        md,
      ]);
      assert.equal(pass.code, 0, pass.stdout + pass.stderr);
      assert.match(pass.stdout, /^PASS suite\/a · pass rate: 1\.000 → 0\.969/m);
      assert.match(pass.stdout, /gate: PASS/);
      assert.match(await Deno.readTextFile(md), /^## mcpmeter gate: PASS/);

      const fail = await gate(["--baseline", r.base, "--candidate", r.worse, "--junit", junit]);
      assert.equal(fail.code, 1, fail.stdout + fail.stderr);
      // 8 cases all falling 1 → 0.25: exact one-sided p = 1/2⁸ = 0.00391.
      assert.match(fail.stdout, /^FAIL suite\/a · pass rate: .*p = 0\.00391/m);
      const xml = await Deno.readTextFile(junit);
      assert.match(xml, /failures="1"/);

      if (await hasXmllint()) {
        const v = await xmllint(junit);
        assert.ok(v.ok, v.stderr);
        // The schema really constrains: a test case without a name is rejected.
        const broken = join(root, "broken.xml");
        await Deno.writeTextFile(
          broken,
          xml.replace(/<testcase classname="[^"]*" name="[^"]*"/, "<testcase"),
        );
        assert.equal((await xmllint(broken)).ok, false);
      } else {
        console.warn("xmllint not found (Debian libxml2-utils): JUnit XSD validation skipped");
      }

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
    const { base, same } = await runs(root);
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
