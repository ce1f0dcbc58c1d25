import assert from "node:assert/strict";
import { ensureWritable } from "./_write.ts";
import { UsageError } from "../core/errors.ts";

Deno.test("ensureWritable() creates the folder of a new file and leaves no probe behind", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await ensureWritable(`${dir}/a/b/out.json`, "--out");
    assert.deepEqual([...Deno.readDirSync(`${dir}/a/b`)], []);
    // An existing file may be overwritten.
    await Deno.writeTextFile(`${dir}/a/b/out.json`, "x");
    await ensureWritable(`${dir}/a/b/out.json`, "--out");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ensureWritable() refuses a folder, or a path ending in /, before any work", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const refused = (path: string, message: string) =>
      assert.rejects(
        () => ensureWritable(path, "--out"),
        (e: unknown) => e instanceof UsageError && e.message === message,
      );
    await refused(dir, `--out ${dir}: is a folder; give the path of a file to write`);
    await refused(
      `${dir}/new/`,
      `--out ${dir}/new/: names a folder (it ends in /); give the path of a file to write`,
    );
    // Nothing was created for the refused path.
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    // A parent that is a file cannot hold the output.
    await Deno.writeTextFile(`${dir}/f`, "");
    await assert.rejects(
      () => ensureWritable(`${dir}/f/out.json`, "--junit"),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.startsWith(`--junit ${dir}/f/out.json: cannot write there (`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
