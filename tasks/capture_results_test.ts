// test:quick skips this file: its tests start processes (deno task test runs them).
// capture-results task: bad input is a one-line reason and exit code 2.
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;

Deno.test("capture-results rejects a calls plan naming an unknown server", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/calls.json`,
      JSON.stringify({ calls: [{ id: "x", server: "nope", tool: "t", arguments: {} }] }),
    );
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}tasks/capture_results.ts`, "--calls", `${dir}/calls.json`],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(r.code, 2);
    assert.match(
      new TextDecoder().decode(r.stderr),
      /^mcpmeter capture-results: error: call "x" names server "nope", not in fixtures\/tool_results\/servers.json\n$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
