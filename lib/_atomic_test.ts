import assert from "node:assert/strict";
import { join } from "node:path";
import { writeAtomic } from "./_atomic.ts";

Deno.test("writeAtomic replaces a file whole; a failed write keeps the old one and leaves no temporary file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-atomic-test-" });
  try {
    const path = join(dir, "report.json");
    await writeAtomic(path, "old");
    await writeAtomic(path, "new");
    assert.equal(await Deno.readTextFile(path), "new");
    // A folder where the file should go: the rename fails after the temporary file is written.
    const blocked = join(dir, "blocked");
    await Deno.mkdir(join(blocked, "inside"), { recursive: true });
    await assert.rejects(writeAtomic(blocked, "x"));
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assert.deepEqual(names.sort(), ["blocked", "report.json"]);
    assert.equal(await Deno.readTextFile(path), "new");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
