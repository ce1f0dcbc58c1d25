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

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("capture task: bad input is a one-line error with exit code 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missingVar = `${dir}/servers.json`;
    await Deno.writeTextFile(
      missingVar,
      JSON.stringify({
        mcpServers: { s: { command: "node", env: { K: "${MCPMETER_UNSET_7F3A}" } } },
      }),
    );
    const cases: [string[], RegExp][] = [
      [["--concurrency", "0"], /^capture: --concurrency must be a positive integer, got "0"\n$/],
      [["--timeout-ms", "abc"], /^capture: --timeout-ms must be a positive integer, got "abc"\n$/],
      [["--bogus"], /^capture: Unknown option '--bogus'.*\n$/],
      [["--config", `${dir}/none.json`], /^capture: cannot read --config ".*none.json": .*\n$/],
      [
        ["--config", missingVar],
        /^capture: Cannot use servers config ".*servers.json": server "s" field "env.K": variable "MCPMETER_UNSET_7F3A" is not defined\n$/,
      ],
      [["--config", missingVar, "--id", "a/b"], /^capture: --id must be letters/],
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

Deno.test("capture task writes the corpus and the manifest; the manifest's sha256 matches the bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = `${dir}/servers.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          junk: { command: "node", args: [fixture("junk_then_serve.mjs")] },
          broken: { command: "node", args: [fixture("exit_at_start.mjs")] },
        },
      }),
    );
    const { code, stderr } = await run([
      "--config",
      config,
      "--out",
      `${dir}/out`,
      "--id",
      "tiny",
      "--no-install",
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /\[\d\/2\] junk: ok, 2 tools/);
    assert.match(stderr, /\[\d\/2\] broken: EXITED/);
    const bytes = await Deno.readFile(`${dir}/out/tiny.tools.json`);
    const corpus = JSON.parse(new TextDecoder().decode(bytes));
    assert.equal(corpus.format, "mcpmeter-capture");
    assert.equal(corpus.id, "tiny");
    assert.equal(corpus.serverCount, 1);
    assert.equal(corpus.toolCount, 2);
    assert.deepEqual(corpus.servers[0].tools.map((t: { name: string }) => t.name), ["add", "echo"]);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/tiny.manifest.json`));
    assert.equal(manifest.corpus.sha256, await sha256Hex(bytes));
    assert.equal(manifest.corpus.file, "tiny.tools.json");
    assert.deepEqual(manifest.totals.byOutcome, {
      ok: 1,
      timeout: 0,
      exited: 1,
      spawn_failed: 0,
      protocol_error: 0,
    });
    const broken = manifest.servers.find((s: { server: string }) => s.server === "broken");
    assert.equal(broken.cause, "the server exited with code 3 during initialize");
    assert.equal(broken.stderrTail, "fatal: EXAMPLE_API_KEY is not set\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("capture task writes nothing and fails when no server was captured, with a hint for npx entries", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = `${dir}/servers.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          broken: { command: "node", args: [fixture("exit_at_start.mjs")] },
          viaNpx: { command: "npx", args: ["-y", "@example/not-installed"], timeoutMs: 2000 },
        },
      }),
    );
    const { code, stderr } = await run(["--config", config, "--out", `${dir}/out`, "--no-install"]);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /no server of .*servers\.json was captured; nothing written/);
    assert.match(stderr, /viaNpx .*hint: servers start offline .* npx cannot download/);
    assert.doesNotMatch(stderr.split("\n").find((l) => l.includes("broken")) ?? "", /hint/);
    const written = await Deno.stat(`${dir}/out`).then(() => true, () => false);
    assert.equal(written, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
