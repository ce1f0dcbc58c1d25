// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import type { JsonValue } from "../catalog/types.ts";
import { runCode } from "./run_code.ts";

/** A bridge that records calls and answers `name(args)` as text; `fail:*` tools error. */
function recorder() {
  const calls: [string, JsonValue][] = [];
  const call = (name: string, args: JsonValue) => {
    calls.push([name, args]);
    return Promise.resolve({
      text: `${name}(${JSON.stringify(args)})`,
      isError: name.startsWith("fail:"),
    });
  };
  return { calls, call };
}

Deno.test("runCode() returns printed text and answers tools.call through the bridge", async () => {
  const { calls, call } = recorder();
  const r = await runCode({
    code: [
      "const a = await tools.call('m:get', { id: 1 });",
      "const [b, c] = await Promise.all([tools.call('m:get', { id: 2 }), tools.call('m:get', { id: 3 })]);",
      "console.log('first', a);",
      "console.info([b, c].join(' + '), { n: 2 });",
    ].join("\n"),
    timeoutMs: 20_000,
    call,
  });
  assert.deepEqual(r, {
    output: 'first m:get({"id":1})\nm:get({"id":2}) + m:get({"id":3}) { n: 2 }',
    isError: false,
    timedOut: false,
    exitCode: 0,
    toolCalls: 3,
  });
  assert.deepEqual(calls, [["m:get", { id: 1 }], ["m:get", { id: 2 }], ["m:get", { id: 3 }]]);
});

Deno.test("runCode(): a tool error rejects inside the program with the tool's text", async () => {
  const { call } = recorder();
  const r = await runCode({
    code:
      "try { await tools.call('fail:x', {}); } catch (e) { console.log('caught:', (e as Error).message); }",
    timeoutMs: 20_000,
    call,
  });
  assert.equal(r.output, "caught: fail:x({})");
  assert.equal(r.isError, false);
});

Deno.test("runCode(): the program has no file, network or environment access", async (t) => {
  const { call } = recorder();
  for (
    const [what, code, needle] of [
      [
        "read",
        "await Deno.readTextFile('/etc/hostname')",
        'Requires read access to "/etc/hostname"',
      ],
      ["write", "await Deno.writeTextFile('x.txt', 'x')", "Requires write access"],
      ["net", "await fetch('http://127.0.0.1:8080/')", "Requires net access"],
      ["env", "console.log(Deno.env.get('PATH'))", 'Requires env access to "PATH"'],
      ["run", "new Deno.Command('/bin/true').outputSync()", "Requires run access"],
    ] as const
  ) {
    await t.step(what, async () => {
      const r = await runCode({ code, timeoutMs: 20_000, call });
      assert.equal(r.isError, true, r.output);
      assert.equal(r.exitCode, 1);
      assert.ok(r.output.startsWith("Uncaught NotCapable: "), r.output);
      assert.ok(r.output.includes(needle), r.output);
    });
  }
});

Deno.test("runCode(): a program past its wall-time limit is killed, though it uses no CPU", async () => {
  const { call } = recorder();
  const r = await runCode({
    code: "console.log('before'); await new Promise((r) => setTimeout(r, 60_000));",
    timeoutMs: 1_000,
    maxCpuMs: 500,
    call,
  });
  assert.deepEqual(r, {
    output: "before\nrun_code: stopped at the wall-time limit (1000 ms)",
    isError: true,
    timedOut: true,
    exitCode: null,
    limit: { name: "wall_ms", value: 1_000 },
    toolCalls: 0,
  });
});

Deno.test("runCode(): a compile error is an error result naming the line of the model's code", async () => {
  const { call } = recorder();
  const r = await runCode({ code: "const ok = 1;\nconst x: number = ;", timeoutMs: 20_000, call });
  assert.equal(r.isError, true);
  // Line 2 of the code is line 4 of the program file.
  assert.match(r.output, /SyntaxError: Expression expected[\s\S]*program\.ts:4:19/);
  assert.ok(!r.output.includes("/tmp/"), "the sandbox path is hidden");
});

Deno.test("runCode(): output is capped", async () => {
  const { call } = recorder();
  const r = await runCode({
    code: "console.log('x'.repeat(50))",
    timeoutMs: 20_000,
    call,
    maxOutputChars: 10,
  });
  assert.equal(r.output, "xxxxxxxxxx\n[output cut at 10 characters]");
});

Deno.test("runCode() rejects a non-positive time limit", async () => {
  await assert.rejects(
    runCode({ code: "", timeoutMs: 0, call: recorder().call }),
    (e: unknown) => e instanceof RangeError && /got 0/.test(e.message),
  );
});

// Hostile programs: each is refused or stopped by the limit named, and the next program runs.

Deno.test("runCode(): an infinite loop is stopped by the CPU-time limit before the wall-time one", async () => {
  const { call } = recorder();
  const r = await runCode({
    code: "console.log('spinning'); while (true) {}",
    timeoutMs: 60_000,
    maxCpuMs: 700,
    call,
  });
  assert.deepEqual(r, {
    output: "spinning\nrun_code: stopped at the CPU-time limit (700 ms of CPU)",
    isError: true,
    timedOut: false,
    exitCode: null,
    limit: { name: "cpu_ms", value: 700 },
    toolCalls: 0,
  });
});

Deno.test("runCode(): an allocation loop is stopped by the V8 heap limit", async () => {
  const { call } = recorder();
  const r = await runCode({
    code: "const keep = []; while (true) keep.push(new Array(100_000).fill(Math.random()));",
    timeoutMs: 60_000,
    maxCpuMs: 60_000,
    maxHeapMb: 64,
    maxRssMb: 4_096,
    call,
  });
  assert.equal(r.isError, true);
  assert.deepEqual(r.limit, { name: "heap_mb", value: 64 });
  assert.equal(r.output, "run_code: stopped at the memory limit (V8 heap of 64 MB)");
});

Deno.test("runCode(): array buffers outside the V8 heap are stopped by the resident-memory cap", async () => {
  const { call } = recorder();
  const r = await runCode({
    code: "const keep = []; while (true) keep.push(new Uint8Array(16 << 20).fill(1));",
    timeoutMs: 60_000,
    maxCpuMs: 60_000,
    maxRssMb: 300,
    call,
  });
  assert.deepEqual(r.limit, { name: "rss_mb", value: 300 });
  assert.equal(r.output, "run_code: stopped at the memory limit (300 MB resident)");
});

Deno.test("runCode(): 10,000 tool calls are stopped at the tool-call cap, sequential or all at once", async (t) => {
  for (
    const [how, code] of [
      ["sequential", "for (let i = 0; i < 10_000; i++) await tools.call('m:get', { i });"],
      [
        "parallel",
        "await Promise.all(Array.from({ length: 10_000 }, (_, i) => tools.call('m:get', { i })));",
      ],
    ]
  ) {
    await t.step(how, async () => {
      const { calls, call } = recorder();
      const r = await runCode({ code, timeoutMs: 60_000, maxToolCalls: 50, call });
      assert.deepEqual(r.limit, { name: "tool_calls", value: 50 });
      assert.equal(r.isError, true);
      assert.equal(r.toolCalls, 50);
      assert.equal(calls.length, 50, "the 51st call never reached the bridge");
      assert.match(r.output, /run_code: stopped at the tool-call limit \(50 calls per program\)$/);
    });
  }
});

Deno.test("runCode(): a 100 MB print is stopped at the bridge cap; the parent keeps only the output cap", async (t) => {
  for (
    const [how, code] of [
      [
        "console.log",
        "const s = 'x'.repeat(1 << 20); for (let i = 0; i < 100; i++) console.log(s);",
      ],
      [
        "raw stdout, no newline",
        "const b = new Uint8Array(1 << 20).fill(120); for (let i = 0; i < 100; i++) Deno.stdout.writeSync(b);",
      ],
      [
        "stderr",
        "const b = new Uint8Array(1 << 20).fill(120); for (let i = 0; i < 100; i++) Deno.stderr.writeSync(b);",
      ],
    ]
  ) {
    await t.step(how, async () => {
      const r = await runCode({
        code,
        timeoutMs: 60_000,
        maxBridgeBytes: 4 << 20,
        maxOutputChars: 1_000,
        call: recorder().call,
      });
      assert.deepEqual(r.limit, { name: "bridge_bytes", value: 4 << 20 });
      assert.ok(r.output.length < 1_200, String(r.output.length));
      assert.ok(
        r.output.endsWith(
          "run_code: stopped at the output limit (4194304 bytes through the bridge)",
        ),
        r.output.slice(-200),
      );
    });
  }
});

Deno.test("runCode(): files, sockets, environment, processes, FFI and module loading are refused", async (t) => {
  const { call } = recorder();
  Deno.env.set("MCPMETER_TEST_SECRET", "do-not-leak-7f3a");
  try {
    for (
      const [what, code, needle] of [
        ["read a file", "await Deno.readTextFile('/etc/passwd')", "Requires read access"],
        ["stat a file", "Deno.statSync('/')", "Requires read access"],
        [
          "open a TCP socket",
          "await Deno.connect({ hostname: '127.0.0.1', port: 22 })",
          "Requires net access",
        ],
        ["listen", "Deno.listen({ port: 0 })", "Requires net access"],
        ["fetch", "await fetch('http://127.0.0.1:8080/')", "Requires net access"],
        [
          "read the environment",
          "console.log(JSON.stringify(Deno.env.toObject()))",
          "Requires env access",
        ],
        [
          "spawn a process",
          "await new Deno.Command('/bin/sh', { args: ['-c', 'id'] }).output()",
          "Requires run access",
        ],
        [
          "node:fs",
          "(await import('node:fs')).readFileSync('/etc/passwd')",
          "Requires read access",
        ],
        [
          "node:child_process",
          "(await import('node:child_process')).execSync('id')",
          "Uncaught NotCapable: Requires", // env access is checked first
        ],
        ["load a native library", "Deno.dlopen('libc.so.6', {})", "Requires ffi access"],
        [
          "import a local file named by a variable",
          "const p = '/etc/' + 'hostname'; await import(p)",
          "local-files-cannot-be-imported.invalid",
        ],
      ] as const
    ) {
      await t.step(what, async () => {
        const r = await runCode({ code, timeoutMs: 20_000, call });
        assert.equal(r.isError, true, r.output);
        assert.ok(r.output.includes(needle), r.output);
        assert.ok(!r.output.includes("do-not-leak"), r.output);
      });
    }
    for (
      const [what, code, pattern] of [
        [
          "import a remote module",
          "await import('https://deno.land/x/evil/mod.ts')",
          /--no-remote|remote/i,
        ],
        ["import an npm package", "await import('npm:left-pad@1.3.0')", /npm/i],
        ["import a JSR package", "await import('jsr:@std/path')", /jsr|remote/i],
      ] as const
    ) {
      await t.step(what, async () => {
        const r = await runCode({ code, timeoutMs: 20_000, call });
        assert.equal(r.isError, true, r.output);
        assert.match(r.output, pattern);
        assert.match(r.output, /^Uncaught /);
      });
    }
  } finally {
    Deno.env.delete("MCPMETER_TEST_SECRET");
  }
  // A literal specifier is loaded before the program runs, without a read check; the import
  // map refuses it. The JSON file holds a secret that must not come back.
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-code-test-" });
  const secretFile = `${dir}/credentials.json`;
  await Deno.writeTextFile(secretFile, JSON.stringify({ token: "file-secret-91c2" }));
  try {
    for (
      const [what, code] of [
        [
          "import a JSON file by a literal specifier",
          `const m = await import(${
            JSON.stringify(`file://${secretFile}`)
          }, { with: { type: "json" } }); console.log(JSON.stringify(m.default));`,
        ],
        ["import a JS file by a literal specifier", "await import('file:///etc/hostname')"],
        [
          "a static import injected at top level",
          `}\nimport c from ${
            JSON.stringify(`file://${secretFile}`)
          } with { type: "json" };\nconsole.log(JSON.stringify(c));\nasync function __unused() {`,
        ],
        ["a relative import", "await import('./import_map.json', { with: { type: 'json' } })"],
      ] as const
    ) {
      await t.step(what, async () => {
        const r = await runCode({ code, timeoutMs: 20_000, call });
        assert.equal(r.isError, true, r.output);
        assert.ok(!r.output.includes("file-secret"), r.output);
        assert.match(r.output, /local-files-cannot-be-imported\.invalid/);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  await t.step("the next program still runs", async () => {
    const r = await runCode({
      code: "console.log(await tools.call('m:get', { ok: true }))",
      timeoutMs: 20_000,
      call,
    });
    assert.equal(r.output, 'm:get({"ok":true})');
    assert.equal(r.isError, false);
  });
});

Deno.test("runCode() rejects non-positive limits", async () => {
  for (const key of ["maxCpuMs", "maxHeapMb", "maxRssMb", "maxToolCalls", "maxBridgeBytes"]) {
    await assert.rejects(
      runCode({ code: "", timeoutMs: 1_000, call: recorder().call, [key]: 0 }),
      (e: unknown) =>
        e instanceof RangeError && e.message === `${key} must be a positive number, got 0`,
    );
  }
});
