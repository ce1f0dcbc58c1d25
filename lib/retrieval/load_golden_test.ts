import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { InputFileError } from "../core/errors.ts";
import { GoldenSetError } from "./errors.ts";
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

Deno.test("loadGolden() names the line and column of a torn file, and a missing file as missing", async () => {
  const dir = await Deno.makeTempDir();
  const torn = `${dir}/torn.json`;
  // Cut inside the second query: the text ends at line 3, after its 31st character.
  const text =
    '{"queries": [\n  {"id": "q1", "query": "a", "labels": []},\n  {"id": "q2", "query": "b"';
  await Deno.writeTextFile(torn, text);
  const lastLine = text.split("\n")[2];
  await assert.rejects(
    () => loadGolden(torn),
    (e: unknown) =>
      e instanceof GoldenSetError && e instanceof InputFileError && e.path === torn &&
      e.message.startsWith(`Cannot use golden set "${torn}": is not valid JSON: `) &&
      e.message.endsWith(
        ` at line 3 column ${lastLine.length + 1} (offset ${text.length})`,
      ),
  );
  // A stray character after the value, on line 2 column 1.
  await Deno.writeTextFile(torn, '{"queries": []}\nx');
  await assert.rejects(() => loadGolden(torn), /at line 2 column 1 \(offset 16\)/);
  const missing = `${dir}/missing.json`;
  await assert.rejects(
    () => loadGolden(missing),
    (e: unknown) =>
      e instanceof GoldenSetError && e.path === missing &&
      e.message === `Cannot use golden set "${missing}": file not found`,
  );
  await Deno.remove(dir, { recursive: true });
});
