// test:quick skips this file: its tests start processes (deno task test runs them).
// The bench flow (runBench + writeBenchResults) in process on the real corpora: the LiveMCPBench
// snapshot of ../shared (skipped with a reason where it is absent), the default reference corpus
// with its golden set, and --live over the real reference servers. The CLI (flag errors, exit
// codes, --help, a gateway priced over --proxy-servers) is tested in tasks/bench_test.ts.
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { runBench, writeBenchResults } from "./bench.ts";
import { benchFailure, benchSummaryLines } from "./bench_summary.ts";
import { oneToolBenchReport, tinyBenchReport } from "../../testing/report.ts";
import { denoFlowIo, UsageError } from "./io.ts";
import schema from "../report/report.schema.json" with { type: "json" };

const LIVEMCPTOOL =
  new URL("../../../shared/corpora/livemcptool/tools.json", import.meta.url).pathname;
const hasLive = await Deno.stat(LIVEMCPTOOL).then((s) => s.isFile, () => false);
if (!hasLive) console.warn(`LiveMCPBench bench test skipped: ${LIVEMCPTOOL} is absent`);

const io = { ...denoFlowIo(), progress: () => {} };
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/**
 * Runs the bench, checks nothing in it would make the task exit 1, and writes its files into a
 * fresh folder; returns the folder and the report as written.
 */
async function bench(options: Parameters<typeof runBench>[0]) {
  const dir = await Deno.makeTempDir();
  const result = await runBench(options, io);
  // What makes deno task bench exit 1 after writing (a live block that measured nothing).
  assert.equal(benchFailure(result), null);
  await writeBenchResults(result, dir, io);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  return { dir, report, text: await Deno.readTextFile(`${dir}/report.json`) };
}

Deno.test({
  name: "runBench on LiveMCPBench reports 527 tools from 70 servers, the same bytes twice",
  ignore: !hasLive,
  async fn() {
    Deno.env.set("SOURCE_DATE_EPOCH", "0");
    try {
      const options = { corpora: [LIVEMCPTOOL], arms: "baseline_json,compact_sig" };
      const { dir, report, text } = await bench(options);
      assert.equal(report.corpora[0].toolCount, 527);
      assert.equal(report.corpora[0].serverCount, 70);
      assert.equal(report.corpora[0].id, "livemcptool");
      // 19 empty descriptions per the snapshot's ATTRIBUTION.md.
      assert.equal(report.corpora[0].degenerateByRule.empty, 19);
      assert.equal(report.modes.length, 3 * 2);
      assert.equal(report.run.createdAt, "1970-01-01T00:00:00.000Z");
      assert.match(await Deno.readTextFile(`${dir}/dashboard.html`), /<svg/);
      // Same inputs, same bytes (outside the run block).
      const again = await bench(options);
      const strip = (t: string) => {
        const j = JSON.parse(t);
        delete j.run;
        return JSON.stringify(j);
      };
      assert.equal(strip(again.text), strip(text));
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(again.dir, { recursive: true });
    } finally {
      Deno.env.delete("SOURCE_DATE_EPOCH");
    }
  },
});

Deno.test("runBench on the default corpus covers ≥1,000 tools from ≥40 servers and validates", async () => {
  const { dir, report } = await bench({});
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
  name: "runBench({live}) adds a live block whose components sum to each response's tokens",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, report } = await bench({ live: true, arms: "none", retrievers: ["bm25"] });
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

Deno.test("benchSummaryLines counts the report's warnings in one last line, and says nothing without", () => {
  const line = (warnings: string[]) =>
    benchSummaryLines(tinyBenchReport(7, warnings)).filter((l) => l.startsWith("warnings "));
  assert.deepEqual(line([]), []);
  assert.deepEqual(line(["corpus a/x: renamed"]), [
    'warnings         1 warning, listed in report.json "warnings" and on the dashboard',
  ]);
  const three = benchSummaryLines(tinyBenchReport(7, ["w1", "w2", "w3"]));
  assert.equal(
    three.at(-1),
    'warnings         3 warnings, listed in report.json "warnings" and on the dashboard',
  );
  // The warnings themselves stay off the console.
  assert.ok(!three.some((l) => l.includes("w2")));
});

Deno.test("benchSummaryLines words a mode that costs more than direct as costing more, not 'saves -N%'", () => {
  // One tool of 4 tokens against an 8-token proxy: 8/4 − 1 = 100% more, with schemas.
  const lines = benchSummaryLines(oneToolBenchReport());
  assert.ok(
    lines.includes(
      "one              proxy       1 tool          8 cl100k_base tokens  costs 100.00% more up front",
    ),
    lines.join("\n"),
  );
  assert.ok(!lines.some((l) => /saves -/.test(l)), lines.join("\n"));
  // The 78-tool report's proxy (8 tokens against 78 × 4 = 312): saves 1 − 8/312 = 97.44%.
  assert.ok(
    benchSummaryLines(tinyBenchReport()).some((l) =>
      l.endsWith("8 cl100k_base tokens  saves 97.44% up front")
    ),
  );
});

Deno.test("benchSummaryLines never rounds a saving onto 0% or 100% it does not equal", () => {
  // A 5 MB description: 2,621,465 direct tokens, a 100-token proxy (saves 99.9962%), compact_sig
  // 8 tokens fewer (3.05e-6), minified_json 16 more.
  const base = tinyBenchReport();
  const tiny = base.modes.filter((m) => m.tokenizer === "cl100k_base");
  const direct = 2621465;
  const report = {
    ...base,
    modes: tiny.map((m) => {
      const tokens = m.mode === "direct" ? direct : m.mode === "proxy" ? 100 : 2621464;
      return { ...m, tokensWithSchemas: tokens, savingsWithSchemas: 1 - tokens / direct };
    }),
    arms: [["compact_sig", 2621457], ["minified_json", 2621481]].map(([arm, total]) => ({
      corpusId: "tiny",
      arm,
      tokenizer: "cl100k_base",
      skipped: false,
      skippedTools: { count: 0, examples: [] },
      totalTokens: total,
      savings: 1 - (total as number) / direct,
    })),
  } as unknown as typeof base;
  const lines = benchSummaryLines(report);
  // toFixed(2) would say "saves 100.00%".
  assert.ok(
    lines.some((l) => l.endsWith("100 cl100k_base tokens  saves >99.99% up front")),
    lines.join("\n"),
  );
  // 1 token fewer of 2,621,465: 0.00004%, not "saves 0.00%".
  assert.ok(
    lines.some((l) => l.endsWith("2621464 cl100k_base tokens  saves <0.01% up front")),
    lines.join("\n"),
  );
  assert.ok(
    lines.includes(
      "tiny             arms vs baseline_json (name, description, inputSchema): compact_sig saves <0.01%, minified_json costs <0.01% more",
    ),
    lines.join("\n"),
  );
});

Deno.test("benchSummaryLines says which arm could not encode some or all of a corpus's tools", () => {
  const base = tinyBenchReport(); // the corpus "tiny" has 78 tools
  const arm = (name: string, count: number, savings: number | null) => ({
    corpusId: "tiny",
    arm: name,
    tokenizer: "cl100k_base",
    skipped: false,
    skippedTools: {
      count,
      examples: count === 0
        ? []
        : [{ toolId: "tiny:s.t3", reason: "TOON encode failed: RangeError" }],
    },
    totalTokens: 10,
    savings,
  });
  const report = {
    ...base,
    arms: [arm("compact_sig", 0, 0.5), arm("markdown", 3, 0.25), arm("toon_listing", 78, null)],
  } as unknown as typeof base;
  const lines = benchSummaryLines(report);
  assert.deepEqual(lines.filter((l) => /arms vs|could not encode/.test(l)), [
    "tiny             arms vs baseline_json (name, description, inputSchema): compact_sig saves 50.0%, markdown saves 25.0%",
    "note             tiny: markdown could not encode 3 of 78 tools (tiny:s.t3: TOON encode failed: RangeError); report.json arms[].skippedTools lists them",
    "note             tiny: toon_listing could not encode any of its 78 tools (tiny:s.t3: TOON encode failed: RangeError); report.json arms[].skippedTools lists them",
  ]);
});

Deno.test("benchSummaryLines says why retrieval was not scored: no golden set, or no retriever", () => {
  const why = (report: ReturnType<typeof tinyBenchReport>) =>
    benchSummaryLines(report).filter((l) => l.startsWith("retrieval "));
  assert.deepEqual(why(tinyBenchReport()), [
    "retrieval        not scored: no golden set; --golden FILE scores queries labelled with this catalog's server:tool ids (format: fixtures/golden/README.md)",
  ]);
  const audit = { goldenSetId: "g", nameHitRate: 0.1, lexicalOverlap: 0.2, easy: false };
  const audited = { ...tinyBenchReport(), goldenSets: [audit] } as never;
  assert.deepEqual(why(audited), [
    "retrieval        not scored: no retriever selected (--retrievers)",
  ]);
});

Deno.test("benchSummaryLines says how many golden queries the live figures rest on, and why the rest were left out", () => {
  const live = (skipped: Record<string, number>, failed: number) =>
    ({
      ...tinyBenchReport(),
      live: {
        queries: {
          goldenSetId: "reference_v1.test",
          total: 206,
          used: 206 - Object.values(skipped).reduce((a, b) => a + b, 0),
          skipped: {
            count: Object.values(skipped).reduce((a, b) => a + b, 0),
            reasons: skipped,
            examples: [],
          },
          failed,
          failures: [],
        },
        responseCost: { p50: 120, p95: 300 },
        latencyMs: { p50: 1.5 },
        breakEven: { calls: 3.25 },
      },
    }) as never;
  const lines = (r: never) => benchSummaryLines(r).filter((l) => l.startsWith("live "));
  assert.deepEqual(lines(live({ "relevance-2 tool not in the live catalog": 193 }, 2)), [
    "live             response tokens p50 120 p95 300, latency p50 1.50 ms, break-even 3.3 calls",
    "live             on 13 of 206 queries of reference_v1.test (193 left out: 193 relevance-2 tool not in the live catalog), 2 failed",
  ]);
  assert.deepEqual(
    lines(live({}, 0))[1],
    "live             on 206 of 206 queries of reference_v1.test",
  );
});

Deno.test("a golden set that names a corpus not benched is skipped with a warning that says how to use it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tool = (name: string) => ({
      name,
      description: `Does ${name} things.`,
      inputSchema: { type: "object" },
    });
    const tools = [tool("x"), tool("v"), tool("w")];
    await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify({ tools }));
    await Deno.writeTextFile(`${dir}/b.json`, JSON.stringify({ tools: [tool("y")] }));
    const queries = [{ id: "q1", query: "do x", labels: [{ tool_id: "a:x", relevance: 2 }] }];
    await Deno.writeTextFile(`${dir}/named.json`, JSON.stringify({ corpus_version: "c", queries }));
    await Deno.writeTextFile(`${dir}/unnamed.json`, JSON.stringify({ queries }));
    await Deno.writeTextFile(`${dir}/right.json`, JSON.stringify({ corpus_version: "a", queries }));
    const said: string[] = [];
    const options = {
      corpora: [`${dir}/a.json`, `${dir}/b.json`],
      golden: [`${dir}/named.json`, `${dir}/unnamed.json`, `${dir}/right.json`],
      arms: "none",
      toolResults: "none",
      retrievers: ["bm25"],
    };
    const report = await runBench(options, { ...io, progress: (_t, m) => said.push(m) });
    assert.deepEqual(report.retrieval?.map((r) => r.goldenSetId), ["right"]);
    const skips = [
      'golden set named names corpus "c", which was not measured; skipped: set its "corpus_version" to the id of the corpus it labels (measured: a, b)',
      'golden set unnamed names no corpus (it has no "corpus_version"); skipped: set its "corpus_version" to the id of the corpus it labels (measured: a, b)',
    ];
    // (The scored set's audit warning, "golden set right: ...", is another matter.)
    const corpusWords = (w: string) => w.startsWith("golden set") && w.includes("corpus");
    assert.deepEqual(report.warnings.filter(corpusWords), skips);
    // On the console too, not only in report.json.
    assert.deepEqual(said.filter(corpusWords), skips);
    // Every set asked for skipped: nothing of what was asked would be measured, bad input.
    await assert.rejects(
      () => runBench({ ...options, golden: options.golden.slice(0, 2) }, io),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.startsWith(
          '--golden: no golden set can be scored, so nothing asked for would be measured: golden set named names corpus "c", which was not measured; set its',
        ) && e.message.includes("golden set unnamed names no corpus"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with one corpus, a golden set naming another is scored on it with a warning, or fails naming the corpus", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a.json`,
      JSON.stringify({
        tools: ["x", "v", "w"].map((name) => ({ name, description: `Does ${name} things.` })),
      }),
    );
    const set = (tool: string) =>
      JSON.stringify({
        corpus_version: "other",
        queries: [{ id: "q1", query: "do x", labels: [{ tool_id: tool, relevance: 2 }] }],
      });
    await Deno.writeTextFile(`${dir}/g.json`, set("a:x"));
    await Deno.writeTextFile(`${dir}/none.json`, set("other:z"));
    const said: string[] = [];
    const options = { corpora: [`${dir}/a.json`], arms: "none", toolResults: "none" };
    const report = await runBench(
      { ...options, golden: [`${dir}/g.json`], retrievers: ["bm25"] },
      { ...io, progress: (_t, m) => said.push(m) },
    );
    const warning =
      'golden set g names corpus "other", not "a"; scored against "a", the only corpus measured';
    assert.ok(report.warnings.includes(warning), report.warnings.join("\n"));
    assert.ok(said.includes(warning), said.join("\n"));
    assert.equal(report.retrieval?.[0].metrics["recall@5"], 1);
    // None of its labels is a tool of that corpus: the error says which corpus the set names.
    await assert.rejects(
      () => runBench({ ...options, golden: [`${dir}/none.json`] }, io),
      (e: unknown) =>
        e instanceof Error && e.name === "IdMismatchError" &&
        e.message.startsWith('Cannot score golden set "none": none of its 1 label ids') &&
        e.message.endsWith(
          '; the set names corpus "other", not "a" (the corpus measured): pass the corpus it labels with --corpus',
        ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("benchSummaryLines says when a corpus's modes are counted on names and descriptions only", () => {
  const base = tinyBenchReport();
  const report = {
    ...base,
    modes: base.modes.map((m) => ({
      ...m,
      withSchemasAuthoritative: false,
      tokensNameDescription: 100,
      savingsNameDescription: m.mode === "direct" ? 0 : 0.25,
    })),
  };
  const lines = benchSummaryLines(report);
  const modeLines = lines.filter((l) => / tokens/.test(l) && !l.startsWith("arms"));
  assert.ok(modeLines.length >= 2, lines.join("\n"));
  for (const l of modeLines) assert.match(l, / 100 cl100k_base tokens \(names\+descriptions\)/);
  assert.equal(lines.filter((l) => l.startsWith("note ")).length, 1);
  assert.match(lines.find((l) => l.startsWith("note "))!, /not every tool has an inputSchema/);
  // Every tool with a schema: no marker, no note.
  const plain = benchSummaryLines(base);
  assert.ok(!plain.some((l) => l.includes("names+descriptions") || l.startsWith("note ")));
});

Deno.test("a golden set over a catalog of one or two tools is scored by every default retriever", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tool = (name: string, description: string) => ({ name, description });
    const catalogs = {
      one: [tool("read_file", "Read a file from disk")],
      two: [tool("read_file", "Read a file from disk"), tool("send_email", "Send an email")],
    };
    for (const [id, tools] of Object.entries(catalogs)) {
      await Deno.writeTextFile(`${dir}/${id}.json`, JSON.stringify({ tools }));
      const queries = [
        { id: "q1", query: "read a file", labels: [{ tool_id: `${id}:read_file`, relevance: 2 }] },
      ];
      await Deno.writeTextFile(
        `${dir}/${id}.golden.json`,
        JSON.stringify({ corpus_version: id, queries }),
      );
      const report = await runBench(
        {
          corpora: [`${dir}/${id}.json`],
          golden: [`${dir}/${id}.golden.json`],
          arms: "none",
          toolResults: "none",
        },
        io,
      );
      // Every default retriever is scored (none refuses a small catalog); the relevant tool
      // shares every query word with the query, so BM25, TF-IDF and the oracle rank it first.
      const rows = report.retrieval ?? [];
      const names = rows.map((r) => r.retriever);
      for (const name of ["bm25", "tfidf_classic", "random", "oracle"]) {
        assert.ok(names.includes(name), `${id}: ${names.join(", ")}`);
      }
      for (
        const r of rows.filter((r) => ["bm25", "tfidf_classic", "oracle"].includes(r.retriever))
      ) {
        assert.equal(r.metrics["mrr@10"], 1, `${id} ${r.retriever}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("benchSummaryLines gives each deferred mode one line: start, a search, where it stops beating direct and the proxy", () => {
  const row = {
    corpusId: "tiny",
    tokenizer: "cl100k_base",
    mode: "anthropic_search" as const,
    variant: "bm25",
    format: "anthropic-messages" as const,
    toolCount: 78,
    resultsPerSearch: 5,
    directTokens: 12_000,
    startTokens: 25,
    start: { searchTool: 25, visible: 0, instructions: 0 },
    searchTokens: 1_000,
    proxyStartTokens: 300,
    proxySearchTokens: 900,
    // (12,000 − 25) / 1,000 = 11.975; against the proxy (300 − 25) / (1,000 − 900) = 2.75.
    breakEvenVsDirect: { searches: 11.975, cheaperAtStart: "mode" as const },
    breakEvenVsProxy: { searches: 2.75, cheaperAtStart: "mode" as const },
    sessions: [],
    crossovers: [],
    notCounted: [],
    source: "https://example.test",
    provenance: {
      tokens: "measured" as const,
      searchTokens: "computed" as const,
      breakEven: "computed" as const,
      sessions: "estimated" as const,
      crossovers: "estimated" as const,
    },
  };
  const lines = benchSummaryLines({
    ...tinyBenchReport(),
    deferredModes: [row, {
      ...row,
      mode: "client_deferred",
      variant: "claude_code",
      startTokens: 400,
      breakEvenVsProxy: { searches: null, cheaperAtStart: "other" },
    }],
  });
  assert.ok(
    lines.includes(
      "tiny             anthropic_search bm25        start 25 + 1,000/search (5 tools); vs direct 12,000: cheaper up to 11 searches; vs proxy 300 + 900/search: cheaper up to 2 searches",
    ),
    lines.join("\n"),
  );
  assert.ok(
    lines.some((l) =>
      l.startsWith("tiny             client_deferred claude_code  start 400 ") &&
      l.endsWith("vs proxy 300 + 900/search: never cheaper")
    ),
    lines.join("\n"),
  ); // One tool per search is "1 tool", on the mode's line and in the note.
  const one = benchSummaryLines({
    ...tinyBenchReport(),
    deferredModes: [{ ...row, resultsPerSearch: 1 }],
  });
  assert.ok(
    one.some((l) => l.includes("start 25 + 1,000/search (1 tool); vs direct")),
    one.join("\n"),
  );
  assert.ok(one.some((l) => l.includes(", 1 tool per search assumed;")), one.join("\n"));
});
