// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task capture as a CLI: flag and input errors (one line, exit 2), --help, and the exit-1
// rule (nothing captured: nothing written, each failure named). What the capture flow writes
// is tested beside it, in lib/flows/capture_test.ts.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const task = fileURLToPath(new URL("./capture.ts", import.meta.url));
const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/mcp/${name}`, import.meta.url));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", task, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

Deno.test("capture task: bad input is a one-line error with exit code 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missingVar = `${dir}/servers.json`;
    const malformed = `${dir}/malformed.servers.json`;
    await Deno.writeTextFile(malformed, JSON.stringify({ mcpServers: { s: {} } }));
    await Deno.writeTextFile(
      missingVar,
      JSON.stringify({
        mcpServers: { s: { command: "node", env: { K: "${MCPMETER_UNSET_7F3A}" } } },
      }),
    );
    const cases: [string[], RegExp][] = [
      [
        ["--concurrency", "0"],
        /^mcpmeter capture: error: --concurrency must be a positive integer, got "0"\n$/,
      ],
      [
        ["--timeout-ms", "abc"],
        /^mcpmeter capture: error: --timeout-ms must be a positive integer, got "abc"\n$/,
      ],
      [["--bogus"], /^mcpmeter capture: error: unknown flag --bogus \(see --help\)\n$/],
      [
        ["--config", `${dir}/none.json`],
        /^mcpmeter capture: error: cannot read --config ".*none.json": .*\n$/,
      ],
      [["--config", missingVar, "--id", "a/b"], /^mcpmeter capture: error: --id must be letters/],
      // A malformed servers config is bad input too, named with the entry at fault.
      [["--config", malformed], /^mcpmeter capture: error: .*servers\.json.*"s"/],
    ];
    for (const [args, pattern] of cases) {
      const { code, stderr } = await run(args);
      assert.equal(code, 2, args.join(" "));
      assert.match(stderr, pattern, args.join(" "));
    }
    const help = await run(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--timeout-ms MS/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("capture task writes nothing and fails when no server was captured; an uninstallable launch fails at once with its reason", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = `${dir}/servers.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          broken: { command: "node", args: [fixture("exit_at_start.mjs")] },
          // Unpinned, and --no-install cannot resolve a version: fails before any start.
          viaNpx: { command: "npx", args: ["-y", "@example/not-installed"], timeoutMs: 60000 },
          // A Python runner cannot be installed offline: fails before any start.
          viaUvx: { command: "uvx", args: ["mcp-server-fetch"], timeoutMs: 60000 },
        },
      }),
    );
    const started = performance.now();
    const { code, stderr } = await run(["--config", config, "--out", `${dir}/out`, "--no-install"]);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /no server of .*servers\.json was captured; nothing written/);
    // The console says why the server exited: the line it wrote to stderr.
    assert.match(
      stderr,
      /failed: broken exited: the server exited with code 3 during initialize; its stderr: fatal: EXAMPLE_API_KEY is not set\n/,
    );
    assert.match(
      stderr,
      /failed: viaNpx spawn_failed: npx @example\/not-installed is not pinned to one version .* write it as @example\/not-installed@VERSION/,
    );
    assert.match(
      stderr,
      /failed: viaUvx spawn_failed: uvx mcp-server-fetch downloads a Python package from PyPI/,
    );
    // Neither waited for its 60 s timeout (the whole run is one short process).
    assert.ok(performance.now() - started < 60_000);
    const written = await Deno.stat(`${dir}/out`).then(() => true, () => false);
    assert.equal(written, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
