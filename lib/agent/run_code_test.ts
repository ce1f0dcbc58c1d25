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

Deno.test("runCode(): a program past its time limit is killed", async () => {
  const { call } = recorder();
  const r = await runCode({
    code: "console.log('before'); while (true) {}",
    timeoutMs: 1_000,
    call,
  });
  assert.deepEqual(r, {
    output: "before\nrun_code: killed after 1000 ms",
    isError: true,
    timedOut: true,
    exitCode: null,
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
