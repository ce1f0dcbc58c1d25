// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task synth as a command: a reference with no tools is bad input (exit 2), not a failure.
// What the generator writes is tested in lib/catalog/synth_test.ts.
import assert from "node:assert/strict";

Deno.test("synth --reference with no tools exits 2 naming the file, and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/empty.tools.json`, '{"tools":[]}');
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./synth.ts", import.meta.url).pathname,
        "--tools",
        "5",
        "--reference",
        `${dir}/empty.tools.json`,
        "--out",
        `${dir}/out.tools.json`,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    assert.match(stderr, /--reference .*empty\.tools\.json has no tools: nothing to draw from/);
    assert.equal(await Deno.stat(`${dir}/out.tools.json`).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("synth --out naming a folder exits 2 before generating, and leaves no .partial", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/taken`);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./synth.ts", import.meta.url).pathname,
        "--tools",
        "5",
        "--out",
        `${dir}/taken`,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    assert.match(stderr, /--out .*taken: is a folder; give the path of a file to write/);
    // Refused before the work: no progress line, nothing written beside the folder.
    assert.doesNotMatch(stderr, /tools in \d+ servers/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["taken"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
