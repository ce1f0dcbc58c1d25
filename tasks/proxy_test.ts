// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task proxy as a user runs it (deno task, its declared permissions): --help and the
// loopback rule (exit 2 before anything starts). The proxy flow itself, reached by the official
// MCP Inspector CLI, is tested in lib/flows/proxy_test.ts; tasks/permissions_test.ts makes a real
// initialize call through deno task proxy --http.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function runTask(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "proxy", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("deno task proxy --help documents the HTTP safety flags", async () => {
  const r = await runTask(["--help"]);
  assert.equal(r.code, 0, r.stderr);
  for (const flag of ["--token", "--allow-host", "--allow-origin", "--max-result-bytes"]) {
    assert.ok(r.stdout.includes(flag), flag);
  }
});

Deno.test("deno task proxy refuses to bind off loopback without a token, before starting anything", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-proxy-test-" });
  try {
    const config = join(dir, "servers.json");
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: {} }));
    const r = await runTask(["--servers", config, "--http", "0", "--host", "0.0.0.0"], {
      MCPMETER_PROXY_TOKEN: "",
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /Binding 0\.0\.0\.0 exposes the server beyond this machine: set --token or \$MCPMETER_PROXY_TOKEN/,
    );
    assert.doesNotMatch(r.stderr, /upstreams ready/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
