import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRuns, RunInputError } from "./load_runs.ts";

Deno.test("loadRuns() tells a missing path, an unmatched pattern, a file and an empty folder apart", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(root, "file.txt"), "x");
    await Deno.mkdir(join(root, "empty"));
    const cases: [string, string][] = [
      [join(root, "nope"), "no such folder"],
      [join(root, "nope", "*"), "no such folder (no folder matches this pattern)"],
      [join(root, "file.txt"), "not a folder"],
      [join(root, "empty"), "holds no run.json, nor run folders"],
    ];
    for (const [path, why] of cases) {
      await assert.rejects(
        () => loadRuns([path]),
        (e: unknown) =>
          e instanceof RunInputError && e.message === `Cannot use run "${path}": ${why}`,
        path,
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loadRuns() with onSkip leaves an unusable run out and names it; every run unusable still throws", async () => {
  const { writeSyntheticRun } = await import("../../testing/synthetic_runs.ts");
  const root = await Deno.makeTempDir();
  try {
    const runs = join(root, "runs");
    for (const [id, day] of [["r1", "2025-01-02"], ["r2", "2025-01-01"]]) {
      await writeSyntheticRun(runs, {
        runId: id,
        startedAt: `${day}T00:00:00Z`,
        cases: ["c"],
        repetitions: 1,
        agents: [{ id: "a", outcome: () => ({ passed: true }) }],
      });
    }
    await Deno.mkdir(join(runs, "broken"));
    await Deno.writeTextFile(join(runs, "broken", "run.json"), "{ half");
    const brokenJson = join(runs, "broken", "run.json");

    // Without onSkip the broken run fails the whole read (as before).
    await assert.rejects(() => loadRuns([runs]), RunInputError);

    const skipped: string[] = [];
    const got = await loadRuns([runs], { onSkip: (e) => skipped.push(e.message) });
    assert.deepEqual(got.map((r) => r.runId), ["r2", "r1"]);
    assert.equal(skipped.length, 1);
    assert.match(skipped[0], new RegExp(`^Cannot use run "${brokenJson}": not JSON \\(`));

    // Only broken runs: nothing is left to report, so it throws, counting the others.
    const only = join(root, "only");
    for (const name of ["x", "y"]) {
      await Deno.mkdir(join(only, name), { recursive: true });
      await Deno.writeTextFile(join(only, name, "run.json"), "[]");
    }
    const seen: string[] = [];
    await assert.rejects(
      () => loadRuns([only], { onSkip: (e) => seen.push(e.message) }),
      (e: unknown) =>
        e instanceof RunInputError &&
        e.message ===
          `Cannot use run "${
            join(only, "x", "run.json")
          }": is not a JSON object (and 1 other run could not be used either: no run left)`,
    );
    assert.deepEqual(seen, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a run whose model registry marks a model simulated carries it to its records, and pages over them say so", async () => {
  const { writeSyntheticRun } = await import("../../testing/synthetic_runs.ts");
  const { agentRunRecords } = await import("./viz/records.ts");
  const { simulatedNotice } = await import("./dashboard_page.ts");
  const root = await Deno.makeTempDir();
  try {
    const spec = (runId: string, simulated: boolean) => ({
      runId,
      startedAt: `2026-01-0${runId.length}T00:00:00.000Z`,
      cases: ["a"],
      repetitions: 1,
      agents: [{ id: "x", outcome: () => ({ passed: true }) }],
      models: [{ id: "m", pricing: { inputUsdPerMTok: 1 }, ...(simulated ? { simulated } : {}) }],
    });
    await writeSyntheticRun(root, spec("sim", true));
    await writeSyntheticRun(root, spec("real", false));
    const records = agentRunRecords(await loadRuns([root]));
    assert.deepEqual(records.map((r) => [r.runId, r.simulated ?? false]), [
      ["sim", true],
      ["real", false],
    ]);
    assert.equal(
      simulatedNotice(records),
      "Simulated: 1 of 2 runs (sim) used a scripted model, which no provider bills; USD figures from those runs are what the pricing would charge.",
    );
    assert.equal(simulatedNotice(records.filter((r) => r.runId === "real")), "");
    assert.match(
      simulatedNotice(records.filter((r) => r.runId === "sim")),
      /^Simulated: every run/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
