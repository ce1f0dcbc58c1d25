import assert from "node:assert/strict";
import Ajv from "ajv";

const LIVEMCPTOOL =
  new URL("../../shared/corpora/livemcptool/tools.json", import.meta.url).pathname;
const hasLive = (() => {
  try {
    return Deno.statSync(LIVEMCPTOOL).isFile;
  } catch {
    return false;
  }
})();

async function bench(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./bench.ts", import.meta.url).pathname, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "deno task bench --corpus LiveMCPBench reports 527 tools from 70 servers",
  ignore: !hasLive,
  async fn() {
    const dir = await Deno.makeTempDir();
    const r = await bench([
      "--corpus",
      LIVEMCPTOOL,
      "--out",
      dir,
      "--arms",
      "baseline_json,compact_sig",
    ], {
      SOURCE_DATE_EPOCH: "0",
    });
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert.equal(report.corpora[0].toolCount, 527);
    assert.equal(report.corpora[0].serverCount, 70);
    assert.equal(report.corpora[0].id, "livemcptool");
    // 19 empty descriptions per the snapshot's ATTRIBUTION.md.
    assert.equal(report.corpora[0].degenerateByRule.empty, 19);
    assert.equal(report.modes.length, 3 * 2);
    assert.equal(report.run.createdAt, "1970-01-01T00:00:00.000Z");
    const html = await Deno.readTextFile(`${dir}/dashboard.html`);
    assert.match(html, /<svg/);
    // Same inputs, same bytes (outside the run block).
    const again = await Deno.makeTempDir();
    await bench(["--corpus", LIVEMCPTOOL, "--out", again, "--arms", "baseline_json,compact_sig"], {
      SOURCE_DATE_EPOCH: "0",
    });
    const strip = (t: string) => {
      const j = JSON.parse(t);
      delete j.run;
      return JSON.stringify(j);
    };
    assert.equal(
      strip(await Deno.readTextFile(`${again}/report.json`)),
      strip(await Deno.readTextFile(`${dir}/report.json`)),
    );
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(again, { recursive: true });
  },
});

Deno.test("deno task bench fails with one line on bad input", async (t) => {
  const dir = await Deno.makeTempDir();
  await t.step("missing corpus file", async () => {
    const r = await bench(["--corpus", `${dir}/nope.json`, "--out", dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^mcpmeter bench: error: .*nope\.json/m);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  });
  await t.step("malformed catalog", async () => {
    await Deno.writeTextFile(`${dir}/bad.json`, '{"tools": [{"name": ""}]}');
    const r = await bench(["--corpus", `${dir}/bad.json`, "--out", dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bad\.json/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
  await t.step("unknown flag and unknown tokenizer", async () => {
    assert.equal((await bench(["--nope"])).code, 2);
    const r = await bench(["--tokenizers", "p50k_base"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown tokenizer "p50k_base"/);
  });
  await t.step("--help", async () => {
    const r = await bench(["--help"]);
    assert.equal(r.code, 0);
    for (const flag of ["--corpus", "--tokenizers", "--out", "--seed", "--arms"]) {
      assert.match(r.stdout, new RegExp(flag));
    }
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task bench on the default corpus covers ≥1,000 tools from ≥40 servers and validates", async () => {
  const dir = await Deno.makeTempDir();
  const r = await bench(["--out", dir]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  const schema = JSON.parse(
    await Deno.readTextFile(new URL("../lib/report/report.schema.json", import.meta.url)),
  );
  const validate = new Ajv.default({ allErrors: true, strict: false }).compile(schema);
  const valid: boolean = validate(report);
  assert.ok(valid, JSON.stringify(validate.errors));
  assert.equal(report.corpora[0].id, "reference_v1");
  assert.ok(report.corpora[0].toolCount >= 1000, `${report.corpora[0].toolCount} tools`);
  assert.ok(report.corpora[0].serverCount >= 40, `${report.corpora[0].serverCount} servers`);
  assert.deepEqual([...new Set(report.modes.map((m: { mode: string }) => m.mode))], [
    "direct",
    "proxy",
    "code",
  ]);
  // Every arm is priced, and retrieval is scored on the reference golden set.
  assert.ok(report.arms.some((a: { arm: string }) => a.arm === "compact_sig"));
  const oracle = report.retrieval.find((x: { retriever: string }) => x.retriever === "oracle");
  assert.equal(oracle.metrics["mrr@10"], 1);
  assert.ok(report.retrieval.every((x: { queryCount: number }) => x.queryCount >= 150));
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "deno task bench --live adds a live block whose components sum to each response's tokens",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const r = await bench(["--live", "--out", dir, "--arms", "none", "--retrievers", "bm25"]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const schema = JSON.parse(
      await Deno.readTextFile(new URL("../lib/report/report.schema.json", import.meta.url)),
    );
    const validate = new Ajv.default({ allErrors: true, strict: false }).compile(schema);
    const valid: boolean = validate(report);
    assert.ok(valid, JSON.stringify(validate.errors));
    const live = report.live;
    assert.ok(live.queries.used > 0, "some golden queries are answerable by the live catalog");
    for (const q of live.responseCost.perQuery) {
      const sum = Object.values(q.components as Record<string, number>).reduce((a, b) => a + b, 0);
      assert.equal(sum, q.tokens, `query ${q.queryId}`);
    }
    // Break-even = (direct menu − proxy menu) ÷ mean response, echoed inputs.
    const be = live.breakEven;
    if (!be.withheld && !be.noBreakEven) {
      assert.ok(
        Math.abs(be.calls - (be.directMenuTokens - be.proxyMenuTokens) / be.meanResponseTokens) <
          1e-3,
      );
    }
    assert.match(await Deno.readTextFile(`${dir}/dashboard.html`), /Live discovery over MCP/);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("deno task bench validates flags before doing any work", async (t) => {
  const zero = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(zero, '{"tools": []}');
  const cases: [string[], RegExp][] = [
    [["--corpus", zero], /has no tools/],
    [["--proxy-catalog", zero], /--proxy-catalog .* has no tools/],
    [["--resamples", "0"], /--resamples must be between 1 and 100000/],
    [["--resamples", "1000000"], /--resamples must be between 1 and 100000/],
    [["--header", "X:Y"], /need --live/],
    [["--live", "--golden", "none"], /--live scores discovery on a golden set/],
    [["--out", "/proc/version/x"], /is not a writable folder/],
    [["--seed", "-1"], /--seed=VALUE/],
    [["--tokenizers", ","], /--tokenizers needs at least one comma-separated value, got ","/],
  ];
  for (const [args, message] of cases) {
    await t.step(args.join(" "), async () => {
      const r = await bench(args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      // Rejected up front: nothing was written.
      assert.doesNotMatch(r.stderr, /rendering dashboard/);
    });
  }
  await Deno.remove(zero);
});

Deno.test("bench --proxy-servers prices a gateway's live tools/list: mcpmeter's own proxy costs what its catalog file costs", async () => {
  const dir = await Deno.makeTempDir();
  const root = new URL("../", import.meta.url).pathname;
  const config = `${dir}/gateway.json`;
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
            `${root}fixtures/lint/servers.json`,
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
