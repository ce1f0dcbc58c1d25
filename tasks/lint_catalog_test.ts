// test:quick skips this file: its tests start processes (deno task test runs them).
// End-to-end: `deno task lint-catalog --servers` over the in-repo fixture
// stdio server (fixtures/lint/stdio_server.ts), no network. The expected
// findings are those the fixture's catalogs were written to trigger.
import assert from "node:assert/strict";
import { startV2HttpServer, v2ServerScript, v2StdioEntry } from "../testing/mcp_v2.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function lint(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}tasks/lint_catalog.ts`, ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("lint-catalog --servers captures live, lints, and lists failed servers with cause", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = `${dir}/servers.json`;
    const deno = (catalog: string) => ({
      command: Deno.execPath(),
      args: [
        "run",
        "--quiet",
        "--config",
        `${ROOT}deno.json`,
        `${ROOT}fixtures/lint/stdio_server.ts`,
        catalog,
      ],
    });
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          alpha: deno("alpha"),
          beta: deno("beta"),
          dies: { command: Deno.execPath(), args: ["eval", "Deno.exit(3)"] },
          missing: { command: "no-such-mcp-server-binary-x" },
        },
      }),
    );
    const r = await lint(["--servers", config, "--json"]);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.toolCount, 5);
    assert.deepEqual(
      report.failedServers.map((f: { server: string; outcome: string }) => [f.server, f.outcome]),
      [["dies", "exited"], ["missing", "spawn_failed"]],
    );
    assert.match(report.failedServers[0].message, /exited with code 3/);
    assert.match(report.failedServers[1].message, /no-such-mcp-server-binary-x/);
    assert.deepEqual(
      report.findings.map((f: { toolId: string; rule: string }) => `${f.toolId} ${f.rule}`),
      [
        "alpha:files.stat name-invalid",
        "alpha:no_props schema-without-properties",
        "alpha:read_file duplicate-name",
        "beta:pick top-level-combinator",
        "beta:read_file duplicate-name",
      ],
    );
    assert.equal(report.toolsWithErrors, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lint-catalog --servers with a missing config file is a one-line usage error", async () => {
  const r = await lint(["--servers", "/nonexistent/servers.json"]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /^mcpmeter lint-catalog: error: Cannot read servers config "\/nonexistent\/servers.json"/,
  );
  assert.equal(r.stderr.trim().split("\n").length, 1);
});

Deno.test("lint-catalog refuses --corpus together with --servers", async () => {
  const r = await lint(["--servers", "a.json", "--corpus", "b.json"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--corpus and --servers are exclusive/);
});

Deno.test("lint-catalog --format reads a catalog whose rows cannot tell (parameters, no type)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // OpenAI's and Gemini's bare function definitions look alike: detection asks for a format.
    const file = `${dir}/declarations.json`;
    await Deno.writeTextFile(
      file,
      '[{"name": "find", "description": "Find a ticket by its title.", "parameters": ' +
        '{"type": "object", "properties": {"title": {"type": "string"}}}}]',
    );
    const unnamed = await lint(["--corpus", file]);
    assert.equal(unnamed.code, 2);
    assert.ok(
      unnamed.stderr.includes("(bench, lint-catalog: --format openai-responses"),
      unnamed.stderr,
    );
    const named = await lint(["--corpus", file, "--format", "gemini", "--json"]);
    assert.equal(named.code, 0, named.stderr);
    const report = JSON.parse(named.stdout);
    assert.equal(report.corpusId, "declarations");
    assert.equal(report.toolCount, 1);
    const wrong = await lint(["--corpus", file, "--format", "gemini-2"]);
    assert.equal(wrong.code, 2);
    assert.ok(wrong.stderr.includes("--format must be one of"), wrong.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lint-catalog --help lists the formats --format takes", async () => {
  // The list was written as an escaped template (`\${CATALOG_FORMATS...}`), so the help
  // printed the code instead of the names.
  const r = await lint(["--help"]);
  assert.equal(r.code, 0);
  assert.ok(!r.stdout.includes("CATALOG_FORMATS"), r.stdout);
  for (const name of ["mcpmeter-capture", "mcp-tools-list", "openai-responses", "gemini"]) {
    assert.ok(r.stdout.includes(name), name);
  }
});

Deno.test("lint-catalog's table escapes control characters of tool names (no terminal escapes)", async () => {
  // A tool name is the server's text: ESC [2K ESC [1A erases the line and moves up, hiding it.
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/tools.json`;
    await Deno.writeTextFile(
      file,
      '{"tools": [{"name": "ok\\u001b[2K\\u001b[1Ahid", "description": "Reads a file.", ' +
        '"inputSchema": {"type": "object", "properties": {}}}]}',
    );
    const r = await lint(["--corpus", file]);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(!r.stdout.includes("\u001b"), JSON.stringify(r.stdout));
    assert.ok(r.stdout.includes(":ok\\x1b[2K\\x1b[1Ahid  name-invalid"), r.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lint-catalog refuses --timeout-ms without --servers, which it would ignore", async () => {
  const r = await lint(["--corpus", "b.json", "--timeout-ms", "5"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--timeout-ms applies to --servers only/);
});

Deno.test("lint-catalog --servers: every server failed is a measured failure (exit 1), as for capture", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = `${dir}/servers.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          needsKey: { command: "node", env: { K: "${MCPMETER_UNSET_7F3A}" } },
          viaUvx: { command: "uvx", args: ["mcp-server-fetch"] },
        },
      }),
    );
    const r = await lint(["--servers", config]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /no server of .*servers\.json was captured; nothing to lint/);
    assert.match(
      r.stderr,
      /needsKey spawn_failed: .*variable "MCPMETER_UNSET_7F3A" is not defined/,
    );
    assert.match(r.stderr, /viaUvx spawn_failed: uvx mcp-server-fetch downloads a Python package/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lint-catalog reports a description of ten million tokens, as it does a heavy schema", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // "word" then " word" × (n − 1): one cl100k_base token each (a space starts a pre-token).
    const n = 10_000_000;
    const description = "word" + " word".repeat(n - 1);
    const tools = [
      { name: "heavy", description, inputSchema: { type: "object", properties: {} } },
      {
        name: "light",
        description: "Reads one record from the store by its key.",
        inputSchema: { type: "object", properties: {} },
      },
    ];
    await Deno.writeTextFile(`${dir}/heavy.json`, JSON.stringify({ tools }));
    const r = await lint(["--corpus", `${dir}/heavy.json`, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    const found = report.findings.filter((f: { rule: string }) =>
      f.rule === "description-too-heavy"
    );
    assert.deepEqual(found, [{
      toolId: "heavy:heavy",
      rule: "description-too-heavy",
      severity: "warning",
      affects: ["clients", "retrieval"],
      message:
        `description is ${n} cl100k_base tokens (${description.length} characters; threshold 1000)`,
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lint-catalog --servers lints servers built on the v2 SDK, the 2026-07-28 revision alone too, over stdio and HTTP", async () => {
  const installed = await v2ServerScript();
  if ("skip" in installed) {
    console.warn(`skipped: ${installed.skip}`);
    return;
  }
  const http = await startV2HttpServer(installed.script, "modern-only");
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/servers.json`,
      JSON.stringify({
        mcpServers: {
          both: v2StdioEntry(installed.script, "both"),
          modern: v2StdioEntry(installed.script, "modern-only"),
          remote: { url: http.url, type: "http" },
        },
      }),
    );
    const r = await lint(["--servers", `${dir}/servers.json`, "--json"]);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.failedServers, [], r.stderr);
    assert.equal(report.toolCount, 6);
  } finally {
    await http.close();
    await Deno.remove(dir, { recursive: true });
  }
});
