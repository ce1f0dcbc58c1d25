// test:quick skips this file: its tests start processes (deno task test runs them).
// runGate() over synthetic runs: the verdict lines, the exact sign-test p of a real drop, the
// JUnit XML validated with libxml2's xmllint against lib/report/junit.xsd, the Markdown summary,
// and the inputs it refuses before comparing anything.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeGateRuns, writeSyntheticRun } from "../../testing/synthetic_runs.ts";
import { UsageError } from "../core/errors.ts";
import { runGate } from "./gate.ts";

const XSD = new URL("../report/junit.xsd", import.meta.url).pathname;

async function xmllint(file: string): Promise<{ ok: boolean; stderr: string } | undefined> {
  try {
    const out = await new Deno.Command("xmllint", {
      args: ["--noout", "--schema", XSD, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { ok: out.success, stderr: new TextDecoder().decode(out.stderr) };
  } catch {
    return undefined;
  }
}

Deno.test("runGate(): noise passes, a real drop fails at p = 1/2⁸; JUnit validates, Markdown heads PASS", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-gate-flow-" });
  try {
    const r = await writeGateRuns(root);
    const junit = join(root, "out", "junit.xml");
    const md = join(root, "out", "summary.md");
    const pass = await runGate({ baseline: r.base, candidate: r.same, junit, markdown: md });
    const passText = pass.stdout.join("\n");
    assert.equal(pass.exitCode, 0, passText);
    assert.match(passText, /^PASS suite\/a · pass rate: 1\.000 → 0\.969/m);
    assert.match(passText, /gate: PASS/);
    assert.match(await Deno.readTextFile(md), /^## mcpmeter gate: PASS/);

    const fail = await runGate({ baseline: r.base, candidate: r.worse, junit });
    assert.equal(fail.exitCode, 1);
    // 8 cases all falling 1 → 0.25: exact one-sided p = 1/2⁸ = 0.00391.
    assert.match(fail.stdout.join("\n"), /^FAIL suite\/a · pass rate: .*p = 0\.00391/m);
    const xml = await Deno.readTextFile(junit);
    assert.match(xml, /failures="1"/);

    const v = await xmllint(junit);
    if (v === undefined) {
      console.warn("xmllint not found (Debian libxml2-utils): JUnit XSD validation skipped");
      return;
    }
    assert.ok(v.ok, v.stderr);
    // The schema really constrains: a test case without a name is rejected.
    const broken = join(root, "broken.xml");
    await Deno.writeTextFile(
      broken,
      xml.replace(/<testcase classname="[^"]*" name="[^"]*"/, "<testcase"),
    );
    assert.equal((await xmllint(broken))!.ok, false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runGate(): a missing or malformed run, a half-given pair or an unwritable --junit is a UsageError before any check", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-gate-flow-" });
  try {
    const r = await writeGateRuns(root);
    await assert.rejects(
      runGate({ baseline: join(root, "missing"), candidate: r.base }),
      UsageError,
    );
    await assert.rejects(runGate({ baseline: r.base }), /--baseline and --candidate go together/);
    await assert.rejects(
      runGate({ baseline: r.base, candidate: r.same, junit: "/proc/version/x.xml" }),
      /--junit .* cannot write there/,
    );
    await Deno.writeTextFile(join(r.same, "run.json"), "{not json");
    await assert.rejects(runGate({ baseline: r.base, candidate: r.same }), /run\.json": not JSON/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runGate(): a baseline whose every case is an infrastructure error is unusable input, not a failed candidate", async () => {
  const root = await Deno.makeTempDir({ prefix: "mcpmeter-gate-flow-" });
  try {
    const spec = (runId: string, day: string, outcome: () => object) =>
      writeSyntheticRun(root, {
        runId,
        startedAt: `${day}T00:00:00Z`,
        cases: ["c0", "c1", "c2"],
        repetitions: 1,
        agents: [{ id: "a", outcome: outcome as never }],
      });
    const down = await spec("down", "2025-01-01", () => ({ passed: null, error: "model" }));
    const good = await spec("good", "2025-01-02", () => ({ passed: true }));
    await assert.rejects(
      runGate({ baseline: down, candidate: good }),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message ===
          'baseline "down" cannot serve as a baseline: all 3 case records are infrastructure errors (model); rerun them with deno task agents --resume down --retry-errors, or give another --baseline',
    );
    // The other way round the candidate failed: a gate FAIL (exit 1), as before.
    const out = await runGate({ baseline: good, candidate: down });
    assert.equal(out.exitCode, 1);
    assert.match(
      out.stdout.join("\n"),
      /candidate "down" failed: all 3 cases are infrastructure errors/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
