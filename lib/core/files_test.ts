// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeAtomic } from "./files.ts";
import { readWhole } from "./files.ts";

Deno.test("writeAtomic replaces a file whole; a failed write keeps the old one and leaves no temporary file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-atomic-test-" });
  try {
    const path = join(dir, "report.json");
    await writeAtomic(path, "old");
    await writeAtomic(path, "new");
    assert.equal(await Deno.readTextFile(path), "new");
    // Chunks written as they come: the file is their text.
    await writeAtomic(path, ["n", "e", "w ☃"].values());
    assert.equal(await Deno.readTextFile(path), "new ☃");
    await writeAtomic(path, "new");
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

Deno.test("readWhole gives a file's exact bytes: empty, small, larger than one read, a missing file throws NotFound, a folder IsADirectory", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-read-whole-test-" });
  try {
    const empty = join(dir, "empty");
    await Deno.writeFile(empty, new Uint8Array());
    assert.deepEqual(await readWhole(empty), new Uint8Array());
    const small = join(dir, "small");
    await Deno.writeFile(small, new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    assert.deepEqual(await readWhole(small), new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    // 3 MB plus one byte of a known pattern (byte i is i mod 251): more than one read returns.
    const big = new Uint8Array((3 << 20) + 1);
    for (let i = 0; i < big.length; i++) big[i] = i % 251;
    const bigPath = join(dir, "big");
    await Deno.writeFile(bigPath, big);
    const got = await readWhole(bigPath);
    assert.equal(got.length, big.length);
    assert.equal(got[got.length - 1], (big.length - 1) % 251);
    assert.deepEqual(got, big);
    await assert.rejects(readWhole(join(dir, "missing")), Deno.errors.NotFound);
    await assert.rejects(readWhole(dir), Deno.errors.IsADirectory);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readWhole reads a file whose size stat does not give (a pipe) whole", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-read-whole-test-" });
  try {
    const fifo = join(dir, "fifo");
    const mk = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.equal(mk.code, 0);
    // A writer in another process: 200,000 bytes of "a", then the pipe closes.
    const writer = new Deno.Command("sh", {
      args: ["-c", `head -c 200000 /dev/zero | tr '\\0' 'a' > "${fifo}"`],
    }).spawn();
    const got = await readWhole(fifo);
    await writer.status;
    assert.equal(got.length, 200_000);
    assert.ok(got.every((b) => b === 0x61));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
