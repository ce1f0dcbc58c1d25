import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import o200kData from "js-tiktoken/ranks/o200k_base";
import { loadCatalog } from "../catalog/load.ts";
import { sentText } from "../billing/sent_layer.ts";
import { benchCostLayers, costLayerLines, parseCountTargets } from "./bench_cost_layers.ts";
import { hangingServer } from "../../testing/http.ts";

const reference = new Tiktoken(o200kData);
const n = (text: string) => reference.encode(text, [], []).length;

const RAW = JSON.stringify({
  jsonrpc: "2.0",
  id: 2,
  result: {
    tools: [
      {
        name: "read_file",
        description: "Read a file from disk.",
        inputSchema: {
          type: "object",
          properties: { path: { type: "string" } },
          required: ["path"],
        },
        annotations: { readOnlyHint: true },
      },
      { name: "list", description: "List files", inputSchema: { type: "object" } },
    ],
  },
});

async function withCorpus(fn: (file: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/fs.json`, RAW);
    await fn(`${dir}/fs.json`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const quiet = (env: Record<string, string>) => ({
  env: () => env,
  progress: () => {},
  displayPath: (p: string) => p,
});

Deno.test("parseCountTargets() reads PROVIDER:MODEL lists and refuses the rest", () => {
  assert.deepEqual(parseCountTargets(["anthropic:claude-x,openai:gpt-5", "anthropic:claude-x"]), [
    { provider: "anthropic", model: "claude-x" },
    { provider: "openai", model: "gpt-5" },
  ]);
  assert.throws(() => parseCountTargets(["mistral:large"]), /not PROVIDER:MODEL/);
  assert.throws(() => parseCountTargets(["anthropic"]), /not PROVIDER:MODEL/);
});

Deno.test("benchCostLayers(): wire and sent are js-tiktoken's counts of the exact texts; billed estimated without a key", async () => {
  await withCorpus(async (file) => {
    const corpus = await loadCatalog(file);
    const { block } = await benchCostLayers({
      corpora: [{ corpus, file }],
      tokenizers: ["o200k_base"],
      targets: [],
      perTool: false,
      cacheDir: "/nonexistent",
    }, quiet({}));
    const top = block.rows.filter((r) => r.server === null);
    const wire = top.find((r) => r.layer === "wire")!;
    const tools = JSON.stringify(JSON.parse(RAW).result.tools);
    assert.equal(wire.tokens, n(tools));
    assert.equal(wire.wireOrder, "received");
    for (
      const format of [
        "anthropic-messages",
        "openai-chat-completions",
        "openai-responses",
        "gemini",
      ] as const
    ) {
      const row = top.find((r) => r.layer === "sent" && r.format === format)!;
      assert.equal(row.tokens, n(sentText(corpus.tools, format)), format);
    }
    const billed = top.filter((r) => r.layer === "billed");
    assert.deepEqual(billed.map((r) => [r.provider, r.provenance]), [
      ["anthropic", "estimated"],
      ["openai", "estimated"],
      ["gemini", "estimated"],
    ]);
    for (const r of billed) assert.ok(r.low! <= r.tokens! && r.tokens! <= r.high!);
    // No model named: Claude's bill is estimated for the current Sonnet, with the entry of the
    // Opus 4.7 tokenizer; OpenAI's and Gemini's calibration has one entry each.
    assert.deepEqual(billed.map((r) => [r.model, r.calibration?.replace(/^[^:]*: /, "")]), [
      ["claude-sonnet-5-5", "Claude, Opus 4.7 tokenizer and later"],
      [null, "OpenAI, o200k models (gpt-4o and later)"],
      [null, "Gemini 2 and later"],
    ]);
    assert.equal(block.counts, undefined);
    const lines = costLayerLines(block, "o200k_base");
    // What the user pays comes first; the wire count (billed by no one) last.
    assert.match(lines[3], /^fs wire [\d,]+ o200k_base tokens \(tools\/list as received/);
    assert.match(
      lines[0],
      // the fixed overhead it includes: Anthropic's 346 tokens times the Opus 4.7 tokenizer's
      // mid inflation 1.2 (415.2), OpenAI's 12 per request, Gemini's none
      /^fs anthropic billed [\d,]+ \[[\d,]+-[\d,]+\] estimated \(claude-sonnet-5-5, incl\. its 415-token tool-use overhead\) · sent [\d,]+ o200k_base$/,
    );
    // An estimate of no model names the models its calibration entry is for.
    assert.match(
      lines[1],
      / openai billed .* estimated for OpenAI, o200k models \(gpt-4o and later\), incl\. its 12-token tool-use overhead · /,
    );
    assert.match(lines[2], / gemini billed .* estimated for Gemini 2 and later · sent /);
  });
});

Deno.test("benchCostLayers(): --count-with measures, caches (0 requests the second time) and marks a missing key", async () => {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    requests++;
    const body = await req.json();
    return Response.json({ input_tokens: body.tools ? 400 + 10 * body.tools.length : 9 });
  });
  const cacheDir = await Deno.makeTempDir();
  try {
    await withCorpus(async (file) => {
      const corpus = await loadCatalog(file);
      const env = {
        ANTHROPIC_API_KEY: "sk-test-x",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
      };
      const run = () =>
        benchCostLayers({
          corpora: [{ corpus, file }],
          tokenizers: ["o200k_base"],
          targets: parseCountTargets(["anthropic:claude-x,gemini:gemini-x"]),
          perTool: true,
          cacheDir,
        }, quiet(env));
      const first = await run();
      // Per target: none, catalog, one server, two tools. The one server's request is the
      // catalog's (same body): answered from the cache. Gemini has no key: nothing sent.
      assert.deepEqual(first.block.counts, { planned: 10, sent: 4, cached: 1 });
      assert.equal(requests, 4);
      const row = first.block.rows.find((r) =>
        r.layer === "billed" && r.provenance === "measured" && r.server === null
      )!;
      assert.equal(row.tokens, 400 + 20 - 9);
      const gemini = first.block.rows.find((r) =>
        r.layer === "billed" && r.provider === "gemini" && r.model === "gemini-x" &&
        r.server === null && r.provenance !== "estimated"
      )!;
      assert.equal(gemini.tokens, null);
      assert.equal(gemini.reason, "GEMINI_API_KEY is not set");
      assert.ok(
        first.warnings.some((w) =>
          /gemini:gemini-x not measured: GEMINI_API_KEY is not set/.test(w)
        ),
      );
      assert.equal(
        first.tools.filter((t) => t.layer === "billed" && t.provenance === "measured").length,
        2,
      );
      const second = await run();
      assert.deepEqual(second.block.counts, { planned: 10, sent: 0, cached: 5 });
      assert.equal(requests, 4);
      const lines = costLayerLines(second.block, "o200k_base");
      assert.match(
        lines.find((l) => / anthropic /.test(l))!,
        /^fs anthropic billed 411 measured \(claude-x\)/,
      );
      assert.match(
        lines.find((l) => / gemini /.test(l))!,
        /gemini-x not measured: GEMINI_API_KEY is not set/,
      );
    });
  } finally {
    await server.shutdown();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("benchCostLayers(): a count with the tools at or below the count without is not measured, naming both, never a bill of 0 or less", async () => {
  // A gateway whose counts cannot be: the catalog's request (two tools) counted below the request
  // without tools, each tool alone counted the same as it.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    return Response.json({
      input_tokens: body.tools === undefined ? 100 : body.tools.length === 2 ? 10 : 100,
    });
  });
  const cacheDir = await Deno.makeTempDir();
  try {
    await withCorpus(async (file) => {
      const corpus = await loadCatalog(file);
      const { block, tools, warnings } = await benchCostLayers(
        {
          corpora: [{ corpus, file }],
          tokenizers: ["o200k_base"],
          targets: parseCountTargets(["anthropic:claude-x"]),
          perTool: true,
          cacheDir,
        },
        quiet({
          ANTHROPIC_API_KEY: "sk-test-x",
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
        }),
      );
      const billed = block.rows.filter((r) =>
        r.layer === "billed" && r.model === "claude-x" && r.provenance !== "estimated"
      );
      assert.equal(billed.length, 2); // the catalog and its one server
      for (const row of billed) {
        assert.equal(row.tokens, null);
        assert.equal(row.provenance, null);
        assert.equal(
          row.reason,
          "impossible counts: 10 tokens with the tools, 100 without them " +
            "(tools cannot add nothing or less)",
        );
      }
      assert.deepEqual(
        tools.filter((t) => t.layer === "billed" && t.provenance === "measured"),
        [],
      );
      assert.ok(
        warnings.some((w) => /claude-x not measured: impossible counts/.test(w)),
        warnings.join("\n"),
      );
      const line = costLayerLines(block, "o200k_base").find((l) => / anthropic /.test(l))!;
      assert.match(line, /estimated/);
      assert.match(line, /claude-x not measured: impossible counts/);
    });
  } finally {
    await server.shutdown();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("benchCostLayers(): a count far above what the tools sent can hold is not measured (9,007,199,254,740,991 tokens)", async () => {
  // A gateway answering 2^53 - 1 for any request with tools: the bench put 9,007,199,254,740,891
  // first, as the "measured" Anthropic bill of a two-tool catalog.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    return Response.json({
      input_tokens: body.tools === undefined ? 100 : Number.MAX_SAFE_INTEGER,
    });
  });
  const cacheDir = await Deno.makeTempDir();
  try {
    await withCorpus(async (file) => {
      const corpus = await loadCatalog(file);
      const { block, warnings } = await benchCostLayers(
        {
          corpora: [{ corpus, file }],
          tokenizers: ["o200k_base"],
          targets: parseCountTargets(["anthropic:claude-x"]),
          perTool: false,
          cacheDir,
        },
        quiet({
          ANTHROPIC_API_KEY: "sk-test-x",
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
        }),
      );
      const sent = block.rows.find((r) =>
        r.layer === "sent" && r.format === "anthropic-messages" && r.server === null
      )!;
      const billed = block.rows.filter((r) =>
        r.layer === "billed" && r.model === "claude-x" && r.provenance !== "estimated"
      );
      assert.equal(billed.length, 2); // the catalog and its one server
      for (const row of billed) {
        assert.equal(row.tokens, null);
        assert.equal(row.provenance, null);
        assert.match(
          row.reason ?? "",
          new RegExp(
            `^impossible counts: 9007199254740991 tokens with the tools, 100 without them, a ` +
              `share of 9007199254740891 for ${sent.bytes} bytes of tools sent \\(at most \\d+: `,
          ),
        );
      }
      assert.ok(warnings.some((w) => /claude-x not measured: impossible counts/.test(w)));
    });
  } finally {
    await server.shutdown();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("benchCostLayers(): when the request without tools cannot be counted, no other request of that target is sent", async () => {
  // An endpoint rate-limiting the plain request for good (Retry-After 0 keeps the retries quick):
  // every share needs that count, so the catalog, server and tool requests would be spent in vain
  // (and against a hanging endpoint each would wait out its timeouts).
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    seen.push(body.tools === undefined ? "none" : `${body.tools.length} tools`);
    return body.tools === undefined
      ? Response.json({ error: { type: "rate_limit_error" } }, {
        status: 429,
        headers: { "retry-after": "0" },
      })
      : Response.json({ input_tokens: 500 });
  });
  const cacheDir = await Deno.makeTempDir();
  try {
    await withCorpus(async (file) => {
      const corpus = await loadCatalog(file);
      const { block, warnings } = await benchCostLayers(
        {
          corpora: [{ corpus, file }],
          tokenizers: ["o200k_base"],
          targets: parseCountTargets(["anthropic:claude-x"]),
          perTool: true,
          cacheDir,
        },
        quiet({
          ANTHROPIC_API_KEY: "sk-test-x",
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
        }),
      );
      assert.ok(seen.length > 0 && seen.every((s) => s === "none"), seen.join(", "));
      const billed = block.rows.filter((r) =>
        r.layer === "billed" && r.model === "claude-x" && r.provenance !== "estimated"
      );
      assert.equal(billed.length, 2);
      for (const row of billed) {
        assert.equal(row.tokens, null);
        assert.match(row.reason!, /HTTP 429/);
      }
      assert.equal(warnings.filter((w) => /claude-x not measured/.test(w)).length, 1);
    });
  } finally {
    await server.shutdown();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("benchCostLayers(): an endpoint that stops answering costs two timed-out requests for the whole run; the cause is on the rows", async () => {
  // Anthropic answers the request without tools, then hangs on every request with tools (until
  // the test ends); OpenAI's endpoint accepts and never answers at all.
  const anthropic: string[] = [];
  const release = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json();
    anthropic.push(body.tools === undefined ? "none" : `${body.tools.length} tools`);
    if (body.tools === undefined) return Response.json({ input_tokens: 9 });
    await release.promise;
    return new Response(null, { status: 504 });
  });
  const openai = hangingServer();
  const cacheDir = await Deno.makeTempDir();
  try {
    await withCorpus(async (file) => {
      const corpus = await loadCatalog(file);
      const { block, warnings } = await benchCostLayers(
        {
          // The second corpus (the same tools) meets both endpoints already down.
          corpora: [{ corpus, file }, { corpus: { ...corpus, id: "fs2" }, file }],
          tokenizers: ["o200k_base"],
          targets: parseCountTargets(["anthropic:claude-x", "openai:gpt-x"]),
          perTool: true,
          cacheDir,
          countClient: { timeoutMs: 150, sleep: () => Promise.resolve() },
        },
        quiet({
          ANTHROPIC_API_KEY: "sk-test-x",
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
          OPENAI_API_KEY: "sk-test-y",
          OPENAI_BASE_URL: `${openai.base}/v1`,
        }),
      );
      // Anthropic: none, then the catalog twice (timed out); fs2's none comes from the cache.
      assert.deepEqual(anthropic, ["none", "2 tools", "2 tools"]);
      assert.deepEqual(openai.requests, [
        "POST /v1/responses/input_tokens HTTP/1.1",
        "POST /v1/responses/input_tokens HTTP/1.1",
      ]);
      // Per corpus and target: none, catalog, server, 2 tools.
      assert.deepEqual(block.counts, { planned: 20, sent: 5, cached: 1 });
      const reason = (id: string, model: string) =>
        block.rows.find((r) =>
          r.corpusId === id && r.layer === "billed" && r.model === model && r.server === null &&
          r.provenance !== "estimated"
        )!.reason;
      const timedOut = (p: string, m: string) =>
        `${p} ${m}: gave up after 2 attempts, 2 timed out; last: no answer within 150 ms`;
      assert.equal(reason("fs", "claude-x"), timedOut("anthropic", "claude-x"));
      assert.equal(reason("fs", "gpt-x"), timedOut("openai", "gpt-x"));
      assert.equal(
        reason("fs2", "claude-x"),
        "anthropic claude-x: not sent: the anthropic count endpoint is down for this run (" +
          timedOut("anthropic", "claude-x") + ")",
      );
      assert.equal(
        warnings.filter((w) => / not measured: /.test(w)).length,
        4,
        warnings.join("\n"),
      );
    });
  } finally {
    await openai.close();
    release.resolve();
    await server.shutdown();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("a report with costLayers (measured, estimated, not measured rows) validates against report.schema.json", async () => {
  const Ajv = (await import("ajv")).default;
  const { tinyBenchReport } = await import("../../testing/report.ts");
  const { RESULT_DECIMALS, stableJson } = await import("../core/json.ts");
  await withCorpus(async (file) => {
    const corpus = await loadCatalog(file);
    const { block } = await benchCostLayers({
      corpora: [{ corpus, file }],
      tokenizers: ["o200k_base"],
      targets: parseCountTargets(["openai:gpt-x"]),
      perTool: false,
      cacheDir: "/nonexistent",
    }, quiet({}));
    const schema = JSON.parse(
      await Deno.readTextFile(new URL("../report/report.schema.json", import.meta.url)),
    );
    const validate = new Ajv.default({ allErrors: true, strict: false }).compile(schema);
    const report = JSON.parse(
      stableJson({ ...tinyBenchReport(), costLayers: block }, { decimals: RESULT_DECIMALS }),
    ) as {
      costLayers: { rows: { layer: string }[] };
    };
    assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
    report.costLayers.rows[0].layer = "invoice";
    assert.equal(validate(report), false);
  });
});
