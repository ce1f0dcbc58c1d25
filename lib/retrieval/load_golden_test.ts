import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { loadGolden } from "./load_golden.ts";

Deno.test("loadGolden() parses the file and records the SHA-256 of its bytes", async () => {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  const text = JSON.stringify({
    corpus_version: "c",
    queries: [{ id: "q1", query: "read a file", labels: [{ tool_id: "fs:read", relevance: 2 }] }],
  });
  await Deno.writeTextFile(path, text);
  const golden = await loadGolden(path);
  assert.equal(golden.corpusVersion, "c");
  assert.equal(golden.queries.get("q1"), "read a file");
  // Independent digest of the same bytes.
  assert.equal(golden.sha256, createHash("sha256").update(text).digest("hex"));
  await Deno.remove(path);
});
