import assert from "node:assert/strict";
import { GoldenSetError } from "./errors.ts";
import { parseBeir, parseMcpproxyGolden, parseToolRet } from "./golden.ts";

const q = (id: unknown, query: unknown, labels: unknown, notes?: string) => ({
  id,
  query,
  labels,
  ...(notes ? { notes } : {}),
});
const L = (tool_id: unknown, relevance: unknown) => ({ tool_id, relevance });

Deno.test("parseMcpproxyGolden() reads queries, graded labels, notes and corpus_version", () => {
  const g = parseMcpproxyGolden(
    JSON.stringify({
      corpus_version: "reference_v1",
      queries: [
        q(
          "q1",
          "open a PR on GitLab",
          [L("gitlab:create_mr", 2), L("gh:create_pr", 0)],
          "gh is a hard negative",
        ),
        q("q2", "read a file", [L("fs:read_file", 2), L("fs:read_text_file", 1)]),
      ],
    }),
    { id: "t" },
  );
  assert.equal(g.corpusVersion, "reference_v1");
  assert.deepEqual([...g.queries.keys()], ["q1", "q2"]);
  assert.deepEqual([...g.qrels.get("q1")!], [["gitlab:create_mr", 2], ["gh:create_pr", 0]]);
  assert.equal(g.notes.get("q1"), "gh is a hard negative");
  assert.equal(g.dropped.count, 0);
});

const BAD = JSON.stringify({
  queries: [
    q("q1", "fine", [L("a:b", 2)]),
    q("q1", "duplicate id", [L("a:b", 2)]),
    q("q2", "   ", [L("a:b", 2)]),
    q("q3", "bad grade", [L("a:b", 3)]),
    q("q4", "dup label", [L("a:b", 2), L("a:b", 1)]),
    q("q5", "only negatives", [L("a:b", 0)]),
    q("", "no id", [L("a:b", 2)]),
  ],
});

Deno.test("parseMcpproxyGolden() strict: one GoldenSetError listing every problem", () => {
  try {
    parseMcpproxyGolden(BAD, { id: "bad" });
    assert.fail("expected an error");
  } catch (e) {
    assert.ok(e instanceof GoldenSetError);
    assert.equal(e.problems.length, 6);
    assert.match(
      e.message,
      /^Cannot use golden set "bad": queries\[1\]: query id "q1" appears twice/,
    );
  }
});

Deno.test("parseMcpproxyGolden() lenient: drops are counted by reason", () => {
  const g = parseMcpproxyGolden(BAD, { id: "bad", strict: false });
  assert.deepEqual([...g.queries.keys()], ["q1"]);
  assert.equal(g.dropped.count, 6);
  assert.deepEqual(g.dropped.reasons, {
    "duplicate label id": 1,
    "duplicate query id": 1,
    "empty query": 1,
    "invalid grade": 1,
    "missing query id": 1,
    "no relevant label": 1,
  });
});

Deno.test("parseMcpproxyGolden() rejects a file without a queries array, and non-JSON", () => {
  assert.throws(() => parseMcpproxyGolden("{}", { id: "x" }), GoldenSetError);
  assert.throws(() => parseMcpproxyGolden("{", { id: "x" }), SyntaxError);
});

Deno.test("an empty golden set is malformed input at parse time, in every format", () => {
  const empty = (e: unknown) =>
    e instanceof GoldenSetError && /^Cannot use golden set "x": it has no queries/.test(e.message);
  assert.throws(
    () => parseMcpproxyGolden('{"corpus_version":"c","queries":[]}', { id: "x" }),
    empty,
  );
  // Lenient parsing drops bad queries; an empty set has nothing to drop and still throws.
  assert.throws(() => parseMcpproxyGolden('{"queries":[]}', { id: "x", strict: false }), empty);
  assert.throws(() => parseBeir({ corpus: "", queries: "", qrels: "" }, { id: "x" }), empty);
});

Deno.test("parseBeir() reads corpus.jsonl, queries.jsonl and a qrels TSV (BEIR and TREC rows)", () => {
  const { golden, docs } = parseBeir({
    corpus: '{"_id":"d1","title":"Create issue","text":"Opens an issue"}\n' +
      '{"_id":"d2","title":"","text":"Reads a file"}\n{"_id":3,"text":"numeric id"}\n',
    queries:
      '{"_id":"q1","text":"file an issue"}\n{"_id":"q2","text":"read"}\n{"_id":"q9","text":"other split"}\n',
    qrels: "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\t3\t0\nq2 0 d2 1".replace(" 0 ", "\t0\t")
      .replace(
        "d2 1",
        "d2\t1",
      ),
  }, { id: "beir.test" });
  assert.deepEqual(docs.map((d) => d.id), ["d1", "d2", "3"]);
  assert.equal(docs[0].name, "Create issue");
  assert.deepEqual([...golden.queries.keys()], ["q1", "q2"]); // q9 has no qrels in this split
  assert.deepEqual([...golden.qrels.get("q1")!], [["d1", 2], ["3", 0]]);
  assert.deepEqual([...golden.qrels.get("q2")!], [["d2", 1]]);
});

Deno.test("parseBeir() reports the line of malformed JSONL and qrels for unknown queries", () => {
  assert.throws(
    () => parseBeir({ corpus: '{"_id":"d1"}\n{oops', queries: "", qrels: "" }, { id: "b" }),
    (e: Error) => e instanceof SyntaxError && /corpus\.jsonl line 2/.test(e.message),
  );
  assert.throws(
    () =>
      parseBeir({ corpus: '{"_id":"d1","text":"x"}', queries: "", qrels: "qx\td1\t1" }, {
        id: "b",
      }),
    (e: Error) =>
      e instanceof GoldenSetError && /query id "qx" is not in queries\.jsonl/.test(e.message),
  );
});

Deno.test("parseToolRet() reads documentation and labels given as JSON text, ids kept bare", () => {
  const tools = [
    {
      id: "weather_get",
      config: "toolbench",
      documentation: JSON.stringify({
        name: "get_weather",
        description: "Current weather for a city",
        parameters: { type: "object", properties: { city: { type: "string" } } },
      }),
    },
    { id: "plain", config: "gorilla", documentation: "Free text documentation" },
  ];
  const queries = [
    {
      id: "t1",
      query: "is it raining in Oslo",
      instruction: "Find a tool.",
      labels: JSON.stringify([{ id: "weather_get", relevance: 1 }]),
    },
  ];
  const out = parseToolRet(
    { tools: JSON.stringify(tools), queries: queries.map((x) => JSON.stringify(x)).join("\n") },
    { id: "toolret.web", withInstruction: true },
  );
  assert.deepEqual(out.docs[0], {
    id: "weather_get",
    name: "get_weather",
    server: "toolbench",
    description: "Current weather for a city",
    params: '{"type":"object","properties":{"city":{"type":"string"}}}',
  });
  assert.equal(out.docs[1].description, "Free text documentation");
  assert.equal(out.golden.queries.get("t1"), "Find a tool. is it raining in Oslo");
  assert.deepEqual([...out.golden.qrels.get("t1")!], [["weather_get", 1]]);
});

Deno.test("parseMcpproxyGolden() names the file's own text field when a query has none", () => {
  // Someone else's golden set, written with "text" and "relevant": the message said
  // 'text is undefined', naming a field the format does not have.
  const other = JSON.stringify({
    queries: [{ id: "q1", text: "weather in tokyo", relevant: { "w:get": 2 } }],
  });
  try {
    parseMcpproxyGolden(other, { id: "theirs" });
    assert.fail("expected an error");
  } catch (err) {
    assert.deepEqual((err as GoldenSetError).problems, [
      'query "q1": field "query" (the query text) is missing; the query has "id", "text", "relevant"',
    ]);
  }
  const blank = JSON.stringify({ queries: [{ id: "q2", query: "  ", labels: [] }] });
  try {
    parseMcpproxyGolden(blank, { id: "blank" });
    assert.fail("expected an error");
  } catch (err) {
    assert.deepEqual((err as GoldenSetError).problems, [
      'query "q2": field "query" is "  ", expected the query text',
    ]);
  }
});
