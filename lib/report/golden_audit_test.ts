import assert from "node:assert/strict";
import Ajv from "ajv";
import type { Corpus } from "../catalog/types.ts";
import { auditGoldenSet } from "../retrieval/audit.ts";
import { evaluateRetrieval } from "../retrieval/evaluate.ts";
import { parseMcpproxyGolden } from "../retrieval/golden.ts";
import { type BenchReport, REPORT_SCHEMA_VERSION, TOKENIZER_CAVEAT } from "./bench_report.ts";
import { renderDashboard } from "./dashboard.ts";
import { RESULT_DECIMALS, stableJson } from "../core/json.ts";

const tools = ["create_issue", "list_issues", "read_file", "write_file"].map((name) => ({
  id: `gh:${name}`,
  server: "gh",
  name,
  description: name === "read_file" ? "Show the contents of a file" : "",
}));
const corpus: Corpus = {
  id: "tiny",
  version: "1",
  provenance: { format: "mcp-tools-list", sha256: "00" },
  tools,
  warnings: [],
};
const golden = (id: string, queries: [string, string][]) =>
  parseMcpproxyGolden(
    JSON.stringify({
      queries: queries.map(([q, tool], i) => ({
        id: `q${i}`,
        query: q,
        labels: [{ tool_id: tool, relevance: 2 }],
      })),
    }),
    { id },
  );
// Echoes tool names in 2 of 2 queries: easy. The other: 0 of 2.
const easy = golden("easy.test", [["create an issue", "gh:create_issue"], [
  "read a file",
  "gh:read_file",
]]);
const hard = golden("hard.test", [["report a bug", "gh:create_issue"], [
  "show me notes.md",
  "gh:read_file",
]]);

function report(): BenchReport {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    task: "test",
    run: { createdAt: "2026-01-01T00:00:00.000Z", git: { commit: null, dirty: null }, wallMs: 0 },
    seed: 1,
    tokenizers: ["cl100k_base"],
    dependencies: {},
    inputs: [],
    caveats: { tokenizer: TOKENIZER_CAVEAT },
    degenerateRules: [],
    corpora: [],
    modes: [],
    scaling: [],
    crossovers: [],
    heaviest: [],
    retrieval: [easy, hard].map((g) =>
      evaluateRetrieval({ corpus, golden: g, retriever: "bm25", seed: 1, resamples: 50 })
    ),
    goldenSets: [auditGoldenSet(easy, corpus), auditGoldenSet(hard, corpus)],
    warnings: [],
  };
}

Deno.test("a report with goldenSets validates against report.schema.json", async () => {
  const schema = JSON.parse(
    await Deno.readTextFile(new URL("./report.schema.json", import.meta.url)),
  );
  const validate = new Ajv.default({ allErrors: true, strict: false }).compile(schema);
  const doc = JSON.parse(stableJson(report(), { decimals: RESULT_DECIMALS })) as {
    goldenSets: { nameHitRate: number }[];
  };
  assert.ok(validate(doc), JSON.stringify(validate.errors, null, 2));
  doc.goldenSets[0].nameHitRate = 1.5;
  assert.equal(validate(doc), false);
});

Deno.test("renderDashboard() shows the audit and warns about the easy set only", () => {
  const r = report();
  assert.equal(r.goldenSets![0].nameHitRate, 1);
  assert.equal(r.goldenSets![1].nameHitRate, 0);
  const html = renderDashboard(r);
  assert.match(html, /name hit rate/);
  assert.match(html, /class="warning">⚠ easy\.test: 100\.0% of its queries/);
  assert.doesNotMatch(html, /⚠ hard\.test/);
  assert.doesNotMatch(html, /NaN/);
});
