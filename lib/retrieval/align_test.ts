import assert from "node:assert/strict";
import { alignGolden, diagnoseIdMismatch } from "./align.ts";
import { GoldenSetError, IdMismatchError } from "./errors.ts";
import { evaluateRetrieval } from "./evaluate.ts";
import { parseMcpproxyGolden } from "./golden.ts";

const golden = (labels: string[]) =>
  parseMcpproxyGolden(
    JSON.stringify({
      queries: labels.map((id, i) => ({
        id: `q${i}`,
        query: `query ${i}`,
        labels: [{ tool_id: id, relevance: 2 }],
      })),
    }),
    { id: "g" },
  );

Deno.test("diagnoseIdMismatch() recognises prefixed index ids, prefixed labels and case", () => {
  assert.match(
    diagnoseIdMismatch(["github:create_issue"], ["create_issue"]),
    /^index ids carry a prefix/,
  );
  assert.match(
    diagnoseIdMismatch(["create_issue"], ["github:create_issue"]),
    /^label ids carry a prefix/,
  );
  assert.match(diagnoseIdMismatch(["GH:Create"], ["gh:create"]), /^ids differ in letter case/);
  assert.equal(diagnoseIdMismatch(["a:b"], ["zzz"]), "");
});

Deno.test("alignGolden() throws IdMismatchError when no label id is an index id", () => {
  assert.throws(
    () => alignGolden(golden(["create_issue", "read_file"]), ["gh:create_issue", "fs:read_file"]),
    (e: Error) =>
      e instanceof IdMismatchError && /none of its 2 label ids/.test(e.message) &&
      /index id "gh:create_issue" vs label id "create_issue"/.test(e.message),
  );
});

Deno.test("alignGolden() strict lists unknown ids; lenient drops and counts them", () => {
  const g = golden(["gh:create_issue", "gh:nope", "fs:read_file"]);
  const ids = ["gh:create_issue", "fs:read_file"];
  assert.throws(
    () => alignGolden(g, ids),
    (e: Error) => e instanceof GoldenSetError && /"gh:nope"/.test(e.message),
  );
  // The diagnosis is one more clause of the same sentence, not a capitalised sentence after "; ".
  const bare = golden(["create_issue", "read_file"]);
  assert.throws(
    () => alignGolden(bare, ["gh:create_issue", "read_file"]),
    (e: Error) =>
      e instanceof GoldenSetError &&
      e.message.includes('; index ids carry a prefix the labels lack: index id "gh:create_issue"'),
  );
  const a = alignGolden(g, ids, { strict: false });
  assert.deepEqual([...a.queries.keys()], ["q0", "q2"]);
  assert.deepEqual(a.dropped.reasons, { "unknown label id": 1 });
  assert.equal(a.dropped.count, 1);
});

Deno.test("the prefixed-vs-bare id bug is reported by evaluateRetrieval, not scored as 0", () => {
  // Labels with bare tool ids (as ToolRet's): an index that prefixes ids with the server name
  // would otherwise retrieve the right tools and score 0 everywhere.
  const g = parseMcpproxyGolden(
    JSON.stringify({
      queries: [{ id: "t1", query: "weather", labels: [{ tool_id: "get_weather", relevance: 1 }] }],
    }),
    { id: "toolret", strict: false },
  );
  const docs = ["get_weather", "send_mail", "read_file"].map((id) => ({
    id,
    name: id,
    server: "toolbench",
    description: id,
    params: "",
  }));
  const prefixed = docs.map((d) => ({ ...d, id: `${d.server}:${d.id}` }));
  assert.throws(
    () =>
      evaluateRetrieval({
        corpus: { id: "toolret", docs: prefixed },
        golden: g,
        retriever: "bm25",
        seed: 1,
      }),
    (e: Error) => e instanceof IdMismatchError && /prefix/.test(e.message),
  );
  // With the ids as the labels use them, the same retriever scores.
  const ok = evaluateRetrieval({
    corpus: { id: "toolret", docs },
    golden: g,
    retriever: "bm25",
    seed: 1,
  });
  assert.equal(ok.metrics["recall@1"], 1);
});

Deno.test("a retriever returning ids outside the corpus is an IdMismatchError", () => {
  const docs = ["a:x", "a:y", "a:z"].map((id) => ({
    id,
    name: id,
    server: "a",
    description: "",
    params: "",
  }));
  assert.throws(
    () =>
      evaluateRetrieval({
        corpus: { id: "c", docs },
        golden: golden(["a:x"]),
        retriever: () => ({
          name: "buggy",
          config: {},
          search: () => [{ id: "srv:a:x", score: 1 }],
        }),
        seed: 1,
      }),
    IdMismatchError,
  );
});
