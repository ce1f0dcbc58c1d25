import assert from "node:assert/strict";
import { join } from "node:path";
import { expandRunGlobs } from "./run_globs.ts";

Deno.test("expandRunGlobs() keeps the run folders a glob matches and skips folders without run.json", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-globs-" });
  try {
    for (const name of ["run-b", "run-a", "failed-start", "other"]) {
      await Deno.mkdir(join(dir, name));
    }
    await Deno.writeTextFile(join(dir, "run-a", "run.json"), "{}");
    await Deno.writeTextFile(join(dir, "run-b", "run.json"), "{}");
    // A run that never started: only the workbench's own file.
    await Deno.writeTextFile(join(dir, "failed-start", "workbench.json"), "{}");
    assert.deepEqual(await expandRunGlobs([join(dir, "*")]), [
      join(dir, "run-a"),
      join(dir, "run-b"),
    ]);
    assert.deepEqual(await expandRunGlobs([join(dir, "run-?")]), [
      join(dir, "run-a"),
      join(dir, "run-b"),
    ]);
    // No run among the matches: the glob is kept as given, so the loader names it.
    assert.deepEqual(await expandRunGlobs([join(dir, "fail*")]), [join(dir, "fail*")]);
    // A plain path passes unchanged.
    assert.deepEqual(await expandRunGlobs([join(dir, "other")]), [join(dir, "other")]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
