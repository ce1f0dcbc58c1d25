// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task bench as a CLI: bad input and bad flags are one line and exit 2 before any work,
// --help lists the flags, and --proxy-servers prices a live gateway (mcpmeter's own proxy, a
// real process). What the bench flow measures is tested in lib/flows/bench_test.ts.
import assert from "node:assert/strict";

async function bench(args: string[], signal?: AbortSignal) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./bench.ts", import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    ...(signal === undefined ? {} : { signal }),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("deno task bench fails with one line on bad input and bad flags, before any work", async (t) => {
  const dir = await Deno.makeTempDir();
  const zero = `${dir}/zero.json`;
  await Deno.writeTextFile(zero, '{"tools": []}');
  await Deno.writeTextFile(`${dir}/bad.json`, '{"tools": [{"name": ""}]}');
  await Deno.writeTextFile(`${dir}/torn.json`, '{"queries": [\n  {');
  const cases: [string[], RegExp][] = [
    [["--corpus", `${dir}/nope.json`, "--out", dir], /^mcpmeter bench: error: .*nope\.json/m],
    [["--corpus", `${dir}/bad.json`, "--out", dir], /bad\.json/],
    [["--nope"], /unknown flag --nope/],
    [["--tokenizers", "p50k_base"], /unknown tokenizer "p50k_base"/],
    [["--corpus", zero], /has no tools/],
    [["--proxy-catalog", zero], /--proxy-catalog .* has no tools/],
    [["--resamples", "0"], /--resamples must be a positive integer, got "0"/],
    [["--resamples", "1000000"], /--resamples must be an integer in \[1, 100000\], got 1000000/],
    [["--header", "X:Y"], /need --live/],
    [["--live", "--golden", "none"], /--live scores discovery on a golden set/],
    [["--out", "/proc/version/x"], /is not a writable folder/],
    [["--seed", "-1"], /--seed must be a non-negative integer, got "-1"\n/],
    [["--seed=-1"], /--seed must be a non-negative integer, got "-1"\n/],
    [
      ["--golden", "--out", dir],
      /--golden needs a value, but the next argument is the flag --out /,
    ],
    [["--corpus"], /--corpus needs a value \(see --help\)/],
    [
      ["--golden", `${dir}/nope.json`],
      /--golden: Cannot use golden set ".*nope\.json": file not found\n/,
    ],
    [
      ["--golden", zero],
      /--golden .*zero\.json: Cannot use golden set "zero": the file is not an object with a "queries"/,
    ],
    [
      ["--golden", `${dir}/torn.json`],
      /torn\.json": is not valid JSON: .* at line 2 column 4 \(offset 17\)\n/,
    ],
    [["--tokenizers", ","], /--tokenizers needs at least one comma-separated value, got ","/],
  ];
  for (const [args, message] of cases) {
    await t.step(args.join(" "), async () => {
      const r = await bench(args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
      // Rejected up front: nothing was written.
      assert.doesNotMatch(r.stderr, /rendering dashboard/);
    });
  }
  const help = await bench(["--help"]);
  assert.equal(help.code, 0);
  for (const flag of ["--corpus", "--tokenizers", "--out", "--seed", "--arms"]) {
    assert.match(help.stdout, new RegExp(flag));
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task bench reads a --corpus given as a pipe (--corpus <(jq ...)), which can be read once", async () => {
  // The bench reads a corpus file more than once (its tools, then its bytes for the wire layer):
  // the second read of a pipe was empty and the run ended with "Unexpected end of input", exit 1.
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/tools.json`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.equal(made.code, 0);
    const list = ["read_file", "write_file"].map((name) => ({
      name,
      description: `Does ${name} on a path.`,
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    }));
    const tools = JSON.stringify({ tools: list });
    // A writer that opens the pipe once, as a shell's process substitution does.
    const writer = new Deno.Command("sh", {
      args: ["-c", `printf '%s' "$0" > "$1"`, tools, fifo],
    }).spawn();
    // A second open of a named pipe waits for a writer that never comes: bounded here.
    const r = await bench(
      ["--corpus", fifo, "--out", `${dir}/out`, "--arms", "none"],
      AbortSignal.timeout(120_000),
    );
    try {
      writer.kill();
    } catch { /* it has ended */ }
    await writer.status;
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.deepEqual(report.corpora.map((c: { toolCount: number }) => c.toolCount), [2]);
    // The wire layer read the bytes again: the tools array as received, compact.
    const wire = report.costLayers.rows.find((r: { layer: string }) => r.layer === "wire");
    assert.equal(wire.bytes, new TextEncoder().encode(JSON.stringify(list)).length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task bench shows a catalog's control characters escaped on the terminal", async () => {
  // A capture's id (the file's own text) reached stdout and stderr raw: ESC [2J cleared the screen.
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/cap.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        format: "mcpmeter-capture",
        formatVersion: 1,
        id: "cap\u001b[2Jid",
        serverCount: 1,
        toolCount: 1,
        servers: [{
          server: "s",
          toolCount: 1,
          tools: [{ name: "t", description: "Reads a thing.", inputSchema: { type: "object" } }],
        }],
      }),
    );
    const r = await bench(["--corpus", file, "--out", `${dir}/out`, "--arms", "none"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("\u001b") && !r.stderr.includes("\u001b"));
    assert.match(r.stdout, /^cap\\x1b\[2Jid anthropic billed /m);
    assert.match(r.stderr, /^\[bench\] cap\\x1b\[2Jid: /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task bench exits 2 when no label id of a golden set is in the corpus", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/one.json`,
    JSON.stringify({ tools: [{ name: "read_file", description: "Read a file from disk" }] }),
  );
  await Deno.writeTextFile(
    `${dir}/golden.json`,
    JSON.stringify({
      queries: [{
        id: "q1",
        query: "open an issue",
        labels: [{ tool_id: "github:create_issue", relevance: 2 }],
      }],
    }),
  );
  const r = await bench([
    "--corpus",
    `${dir}/one.json`,
    "--golden",
    `${dir}/golden.json`,
    "--arms",
    "none",
    "--out",
    `${dir}/out`,
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^mcpmeter bench: error: Cannot score golden set "golden": none of its 1 label ids/m,
  );
  assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bench --proxy-servers prices a gateway's live tools/list: mcpmeter's own proxy costs what its catalog file costs", async () => {
  const dir = await Deno.makeTempDir();
  const root = new URL("../", import.meta.url).pathname;
  const config = `${dir}/gateway.json`;
  // The proxy's upstreams: the lint fixture's two servers, by absolute path (the gateway starts
  // in a scratch folder, where ${PWD} is not the repository). A proxy whose upstreams all fail
  // does not serve.
  const upstreams = `${dir}/upstreams.json`;
  const fixture = (name: string) => ({
    command: Deno.execPath(),
    args: [
      "run",
      "--quiet",
      "--config",
      `${root}deno.json`,
      `${root}fixtures/lint/stdio_server.ts`,
      name,
    ],
  });
  await Deno.writeTextFile(
    upstreams,
    JSON.stringify({ mcpServers: { alpha: fixture("alpha"), beta: fixture("beta") } }),
  );
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      mcpServers: {
        gateway: {
          command: Deno.execPath(),
          args: [
            "run",
            "-A",
            "--quiet",
            "--config",
            `${root}deno.json`,
            `${root}tasks/proxy.ts`,
            "--servers",
            upstreams,
          ],
          timeoutMs: 60000,
        },
      },
    }),
  );
  const common = [
    "--arms",
    "none",
    "--golden",
    "none",
    "--tool-results",
    "none",
    "--tokenizers",
    "cl100k_base",
  ];
  const live = await bench([...common, "--proxy-servers", config, "--out", `${dir}/live`]);
  assert.equal(live.code, 0, live.stderr);
  const file = await bench([...common, "--out", `${dir}/file`]);
  assert.equal(file.code, 0, file.stderr);
  const proxyRow = async (d: string) =>
    JSON.parse(await Deno.readTextFile(`${d}/report.json`)).modes.find((m: { mode: string }) =>
      m.mode === "proxy"
    );
  const a = await proxyRow(`${dir}/live`);
  const b = await proxyRow(`${dir}/file`);
  assert.equal(a.toolCount, 3);
  assert.equal(a.tokensWithSchemas, b.tokensWithSchemas);
  assert.equal(a.tokensNameDescription, b.tokensNameDescription);
  assert.equal((await bench(["--proxy-servers", config, "--proxy-catalog", "x.json"])).code, 2);
  await Deno.remove(dir, { recursive: true });
});
