import assert from "node:assert/strict";
import { GoldenSetError } from "./errors.ts";
import { parseMcpproxyGolden } from "./golden.ts";

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

Deno.test("an empty golden set is malformed input at parse time", () => {
  const empty = (e: unknown) =>
    e instanceof GoldenSetError && /^Cannot use golden set "x": it has no queries/.test(e.message);
  assert.throws(
    () => parseMcpproxyGolden('{"corpus_version":"c","queries":[]}', { id: "x" }),
    empty,
  );
  // Lenient parsing drops bad queries; an empty set has nothing to drop and still throws.
  assert.throws(() => parseMcpproxyGolden('{"queries":[]}', { id: "x", strict: false }), empty);
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

Deno.test("parseMcpproxyGolden() shows a relevance that is no number JSON writes as it reads", () => {
  // 1e400 in the file reads as Infinity, which JSON.stringify writes as null: the message said
  // 'has relevance null'.
  const text = '{"queries": [{"id": "q", "query": "find", "labels": ' +
    '[{"tool_id": "s:t", "relevance": 1e400}, {"tool_id": "s:u", "relevance": 2}]}]}';
  assert.throws(
    () => parseMcpproxyGolden(text, { id: "g" }),
    (e: Error) => e.message.includes('label "s:t" has relevance Infinity, expected 0, 1 or 2'),
  );
});
