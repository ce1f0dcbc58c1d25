// runBench on two catalogs whose files give the same corpus id: both measured, each named by its
// path, the renaming in the report's warnings; the same file twice is still refused.
import assert from "node:assert/strict";
import { runBench } from "./bench.ts";
import { denoFlowIo } from "./io.ts";
import { UsageError } from "../core/errors.ts";

const io = { ...denoFlowIo(), progress: () => {} };

Deno.test("runBench measures two catalogs in folders named alike, each named by its path", async () => {
  const dir = await Deno.makeTempDir();
  const tool = (name: string, description: string) =>
    JSON.stringify({ tools: [{ name, description, inputSchema: { type: "object" } }] });
  await Deno.mkdir(`${dir}/a/x`, { recursive: true });
  await Deno.mkdir(`${dir}/b/x`, { recursive: true });
  await Deno.writeTextFile(`${dir}/a/x/tools.json`, tool("read", "Read a file."));
  await Deno.writeTextFile(`${dir}/b/x/tools.json`, tool("write", "Write a file."));
  const options = {
    corpora: [`${dir}/a/x/tools.json`, `${dir}/b/x/tools.json`],
    golden: ["none"],
    arms: "baseline_json",
    tokenizers: ["cl100k_base"],
  };
  const report = await runBench(options, io);
  assert.deepEqual(report.corpora.map((c) => c.id), ["a/x", "b/x"]);
  // Each corpus priced on its own tools: the direct rows name the tools of its file.
  const direct = report.modes.filter((m) => m.mode === "direct").map((
    m,
  ) => [m.corpusId, m.toolCount]);
  assert.deepEqual(direct, [["a/x", 1], ["b/x", 1]]);
  assert.ok(
    report.warnings.includes(
      `a/x: two corpora give the id "x": ${dir}/a/x/tools.json is named "a/x" after its path`,
    ),
    report.warnings.join("\n"),
  );
  await assert.rejects(
    () => runBench({ ...options, corpora: [`${dir}/a/x/tools.json`, `${dir}/a/x/tools.json`] }, io),
    (e: unknown) =>
      e instanceof UsageError && /is given twice; pass each file once/.test(e.message),
  );
  await Deno.remove(dir, { recursive: true });
});
