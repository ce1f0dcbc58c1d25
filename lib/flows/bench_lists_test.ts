// runBench's list options: a tokenizer, retriever or golden set named twice is measured once,
// in first-given order; retrievers ["none"] scores none.
import assert from "node:assert/strict";
import { runBench } from "./bench.ts";
import { denoFlowIo } from "./io.ts";

const io = { ...denoFlowIo(), progress: () => {} };

Deno.test("runBench measures a tokenizer, retriever or golden set given twice once; retrievers none scores none", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tools = ["x", "v", "w"].map((name) => ({
      name,
      description: `Does ${name} things.`,
      inputSchema: { type: "object" },
    }));
    await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify({ tools }));
    const queries = [{ id: "q1", query: "do x", labels: [{ tool_id: "a:x", relevance: 2 }] }];
    await Deno.writeTextFile(`${dir}/g.json`, JSON.stringify({ corpus_version: "a", queries }));
    const options = {
      corpora: [`${dir}/a.json`],
      golden: [`${dir}/g.json`, `${dir}/g.json`],
      arms: "none",
      toolResults: "none",
      tokenizers: ["o200k_base", "cl100k_base", "o200k_base"],
      retrievers: ["random", "bm25", "random", "bm25"],
    };
    const report = await runBench(options, io);
    assert.deepEqual(report.tokenizers, ["o200k_base", "cl100k_base"]);
    // One direct row per tokenizer, not three.
    assert.deepEqual(
      report.modes.filter((m) => m.mode === "direct").map((m) => m.tokenizer),
      ["o200k_base", "cl100k_base"],
    );
    assert.deepEqual(report.retrieval?.map((r) => `${r.goldenSetId} ${r.retriever}`), [
      "g random",
      "g bm25",
    ]);
    const none = await runBench({ ...options, retrievers: ["none"] }, io);
    assert.deepEqual(none.retrieval ?? [], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
