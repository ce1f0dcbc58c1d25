import assert from "node:assert/strict";
import { createBm25Retriever } from "./bm25.ts";
import { type ChatFn, type ChatRequest, createChatCaller } from "./chat.ts";
import { parseExpansions } from "./expand.ts";
import { createRerankRetriever, parseRanking, RerankError } from "./rerank.ts";
import type { RetrievalDoc } from "./types.ts";

const ids = ["a:x", "a:y", "a:z"];

Deno.test("parseRanking() reads bracketed numbers, bare numbers and echoed ids", async (t) => {
  await t.step("bracketed numbers win over other digits", () => {
    const p = parseRanking("Best: [2] > [3] > [1] (3 tools)", ids);
    assert.deepEqual(p.order, [1, 2, 0]);
    assert.deepEqual([p.ranked, p.appended, p.repeated, p.unknown.length], [3, 0, 0, 0]);
  });
  await t.step("bare numbers, unknown and repeated ones dropped, the missing appended", () => {
    const p = parseRanking("3, 0, 3, 12", ids);
    assert.deepEqual(p.order, [2, 0, 1]);
    assert.deepEqual(p.unknown, ["0", "12"]);
    assert.deepEqual([p.ranked, p.repeated, p.appended], [1, 1, 2]);
  });
  await t.step("ids or server/name, by first appearance", () => {
    const p = parseRanking("a/z is best, then a:x", ids);
    assert.deepEqual(p.order, [2, 0, 1]);
    assert.equal(p.appended, 1);
  });
  await t.step("prose with nothing usable keeps the base order", () => {
    const p = parseRanking("I cannot decide.", ids);
    assert.deepEqual(p.order, [0, 1, 2]);
    assert.equal(p.appended, 3);
  });
});

Deno.test("parseExpansions() strips list markers and quotes, drops repeats, keeps at most count", () => {
  assert.deepEqual(
    parseExpansions(
      "Here you go:\n1) 'ping the team'\n(2) ping the team\n• book a room\n- x\n- y",
      3,
    ),
    ["Here you go:", "ping the team", "book a room"],
  );
  assert.deepEqual(parseExpansions("\n\n", 5), []);
});

const docs: RetrievalDoc[] = [
  ["alpha", "first alpha tool"],
  ["beta", "second alpha tool"],
  ["gamma", "third alpha tool"],
  ["delta", "unrelated"],
].map(([name, description]) => ({ id: `s:${name}`, server: "s", name, description, params: "" }));

/** A chat function over a script: query → answer text, or an Error to throw. */
function scripted(answers: Record<string, string | Error>): { chat: ChatFn; seen: ChatRequest[] } {
  const seen: ChatRequest[] = [];
  return {
    seen,
    chat: (request) => {
      seen.push(request);
      const q = request.user.split("\n")[0].slice("Request: ".length);
      const a = answers[q];
      if (a instanceof Error) return Promise.reject(a);
      return Promise.resolve({ text: a ?? "", inputTokens: 10, outputTokens: 2, usd: 0.5 });
    },
  };
}

Deno.test("createRerankRetriever() reorders the top k, keeps base order past k and on a failed call", async () => {
  const base = createBm25Retriever(docs);
  // bm25 on "alpha": three tools tie on the description word, so id order: alpha, beta, gamma.
  assert.deepEqual(base.search("alpha", 10).map((h) => h.id), ["s:alpha", "s:beta", "s:gamma"]);
  const { chat, seen } = scripted({ alpha: "[2] > [1]", "alpha tool": new Error("HTTP 500") });
  const r = createRerankRetriever(docs, {
    base,
    caller: createChatCaller({ id: "m", model: "m", chat }),
    k: 2,
  });
  await r.prepare(["alpha", "alpha tool", "alpha"]);
  assert.equal(seen.length, 2, "one prompt per distinct query");
  // Top 2 reordered by the model, the third from the base after them.
  assert.deepEqual(r.search("alpha", 3).map((h) => h.id), ["s:beta", "s:alpha", "s:gamma"]);
  assert.deepEqual(r.search("alpha", 3).map((h) => h.score), [3, 2, 1]);
  assert.deepEqual(r.search("alpha", 1).map((h) => h.id), ["s:beta"]);
  assert.deepEqual(r.queryCost("alpha"), {
    requests: 1,
    inputTokens: 10,
    outputTokens: 2,
    usd: 0.5,
    cached: false,
  });
  // The failed query: base order, the cause in its notes and in the cost.
  assert.deepEqual(r.search("alpha tool", 2).map((h) => h.id), ["s:alpha", "s:beta"]);
  assert.deepEqual(r.queryNotes("alpha tool"), ["rerank call failed, base order kept: HTTP 500"]);
  assert.equal(r.queryCost("alpha tool"), undefined);
  const cost = r.cost();
  assert.deepEqual(cost.failures, { count: 1, examples: ["HTTP 500"] });
  assert.deepEqual([cost.requests, cost.inputTokens, cost.outputTokens, cost.usd], [2, 10, 2, 0.5]);
  assert.throws(() => r.search("never prepared", 3), /was not prepared/);
});

Deno.test("createRerankRetriever() rejects when every call fails, and k below 2", async () => {
  const { chat } = scripted({ alpha: new Error("HTTP 503 until the retries ran out") });
  const r = createRerankRetriever(docs, {
    base: createBm25Retriever(docs),
    caller: createChatCaller({ id: "m", model: "m", chat }),
  });
  await assert.rejects(
    () => r.prepare(["alpha"]),
    new RerankError(
      'rerank: all 1 calls to chat model "m" failed; first: HTTP 503 until the retries ran out',
    ),
  );
  assert.throws(
    () =>
      createRerankRetriever(docs, {
        base: createBm25Retriever(docs),
        caller: createChatCaller({ id: "m", model: "m", chat }),
        k: 1,
      }),
    RangeError,
  );
});
