// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task live: flags are checked before anything starts (exit 2, one line); --help exits 0.
import assert from "node:assert/strict";

async function live(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./live.ts", import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("deno task live rejects bad flags with one line and exit 2; --help exits 0", async (t) => {
  const cases: [string[], RegExp][] = [
    [["--tokenizer", "p50k_base"], /--tokenizer must be one of cl100k_base, o200k_base/],
    [["--endpoint", "not a url"], /--endpoint must be a URL, got "not a url"/],
    [["--limit", "0"], /--limit must be a positive integer, got "0"/],
    [["--arg", "novalue"], /--arg must be K=V, got "novalue"/],
    [["--nope"], /see --help/],
  ];
  for (const [args, message] of cases) {
    await t.step(args.join(" "), async () => {
      const r = await live(args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^mcpmeter live: error: /m);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    });
  }
  const help = await live(["--help"]);
  assert.equal(help.code, 0);
  for (const flag of ["--golden", "--endpoint", "--only", "--compact-arg"]) {
    assert.match(help.stdout, new RegExp(flag));
  }
});
