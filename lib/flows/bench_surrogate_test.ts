// runBench on a catalog with unpaired UTF-16 surrogates: priced as written, and warned about
// (in a description and in a schema string) in the report's warnings.
import assert from "node:assert/strict";
import { runBench } from "./bench.ts";
import { denoFlowIo } from "./io.ts";

const io = { ...denoFlowIo(), progress: () => {} };

Deno.test("runBench warns of a lone surrogate in a description or a schema string", async () => {
  const dir = await Deno.makeTempDir();
  // Written as JSON escapes, as a file would hold them: \uD800 (high, alone), \uDC00 (low, alone).
  const text = String.raw`{"tools": [
    {"name": "a", "description": "Reads \uD800 a file.", "inputSchema": {"type": "object"}},
    {"name": "b", "description": "Writes a file.", "inputSchema": {"type": "object",
      "properties": {"x": {"type": "string", "description": "lone \uDC00 low"}}}},
    {"name": "c", "description": "A pair \uD83D\uDE00 is fine.", "inputSchema": {"type": "object"}}
  ]}`;
  await Deno.writeTextFile(`${dir}/s.json`, text);
  const options = { corpora: [`${dir}/s.json`], golden: ["none"], arms: "baseline_json" };
  const report = await runBench({ ...options, tokenizers: ["cl100k_base"] }, io);
  assert.deepEqual(report.warnings.filter((w) => w.includes("surrogate")), [
    "s: unpaired UTF-16 surrogate (no UTF-8 form; strict JSON parsers refuse it, priced as " +
    "written): 2 tools (s:a description, s:b inputSchema #/properties/x/description)",
  ]);
  await Deno.remove(dir, { recursive: true });
});
