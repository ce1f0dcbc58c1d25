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
