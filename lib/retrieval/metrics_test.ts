import assert from "node:assert/strict";
import {
  averagePrecisionAtK,
  meanMetrics,
  ndcgAtK,
  queryMetrics,
  rankHits,
  recallAtK,
  recallCurve,
  reciprocalRankAtK,
} from "./metrics.ts";
import type { Grade } from "./types.ts";

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);
const labels = (entries: [string, Grade][]) => new Map<string, Grade>(entries);

Deno.test("queryMetrics() reproduces the issue's worked example", () => {
  // labels A=2, B=1, C=1; ranking A, X, B, Y
  const m = queryMetrics(["A", "X", "B", "Y"], labels([["A", 2], ["B", 1], ["C", 1]]));
  close(m["recall@1"], 1 / 3);
  close(m["recall@3"], 2 / 3);
  close(m["recall@5"], 2 / 3);
  close(m["recall@10"], 2 / 3);
  close(m["mrr@10"], 1);
  close(m["ndcg@10"], 2.5 / (2 + 1 / Math.log2(3) + 1 / 2));
  close(m["map@10"], (1 + 2 / 3) / 3);
});

Deno.test("rankHits() breaks score ties by id; metrics follow that order", () => {
  // Scores: c 2, a 1, b 1, d 0.5 → ranking c, a, b, d (a before b on the tie).
  const ranking = rankHits([
    { id: "b", score: 1 },
    { id: "a", score: 1 },
    { id: "c", score: 2 },
    { id: "d", score: 0.5 },
  ]).map((h) => h.id);
  assert.deepEqual(ranking, ["c", "a", "b", "d"]);
  // Relevant: a=1, d=2, e=1 (never retrieved); z=0 is a judged hard negative.
  const l = labels([["a", 1], ["d", 2], ["e", 1], ["z", 0]]);
  const m = queryMetrics(ranking, l);
  close(m["recall@1"], 0);
  close(m["recall@3"], 1 / 3);
  close(m["recall@5"], 2 / 3);
  close(m["mrr@10"], 1 / 2);
  // DCG = 1/log2(3) + 2/log2(5); IDCG = 2/log2(2) + 1/log2(3) + 1/log2(4)
  close(m["ndcg@10"], (1 / Math.log2(3) + 2 / Math.log2(5)) / (2 + 1 / Math.log2(3) + 0.5));
  // AP = (1/2 + 2/4) / 3
  close(m["map@10"], 1 / 3);
});

Deno.test("a hard negative (grade 0) at rank 1 scores like any miss", () => {
  const l = labels([["neg", 0], ["pos", 2]]);
  close(reciprocalRankAtK(["neg", "pos"], l, 10), 1 / 2);
  close(ndcgAtK(["neg", "pos"], l, 10), (2 / Math.log2(3)) / 2);
  close(recallAtK(["neg"], l, 10), 0);
});

Deno.test("metrics of an empty ranking are 0", () => {
  const m = queryMetrics([], labels([["a", 1]]));
  assert.deepEqual(Object.values(m), [0, 0, 0, 0, 0, 0, 0]);
});

Deno.test("only the top k count: a hit at rank 11 is a miss at 10", () => {
  const ranking = Array.from({ length: 10 }, (_, i) => `x${i}`).concat(["a"]);
  const l = labels([["a", 1]]);
  assert.equal(recallAtK(ranking, l, 10), 0);
  assert.equal(averagePrecisionAtK(ranking, l, 10), 0);
  assert.equal(reciprocalRankAtK(ranking, l, 10), 0);
});

Deno.test("metrics throw RangeError for no relevant label, duplicate ids, or k < 1", () => {
  assert.throws(() => queryMetrics(["a"], labels([["a", 0]])), RangeError);
  assert.throws(() => queryMetrics(["a"], labels([])), RangeError);
  assert.throws(() => queryMetrics(["a", "a"], labels([["a", 1]])), RangeError);
  assert.throws(() => recallAtK(["a"], labels([["a", 1]]), 0), RangeError);
  assert.throws(() => rankHits([{ id: "a", score: Number.NaN }]), RangeError);
});

Deno.test("recallCurve() gives recall@1..maxK of a ranking shorter than maxK, and checks once", () => {
  // Relevant: A, B, C (D is grade 0); ranking X, A, D, B: hits after ranks 1-4 are 0, 1, 1, 2.
  const l = labels([["A", 2], ["B", 1], ["C", 1], ["D", 0]]);
  assert.deepEqual(recallCurve(["X", "A", "D", "B"], l, 6), [0, 1 / 3, 1 / 3, 2 / 3, 2 / 3, 2 / 3]);
  assert.throws(() => recallCurve(["A", "B", "A"], l, 3), RangeError);
  assert.throws(() => recallCurve(["A"], labels([["A", 0]]), 1), RangeError);
  assert.throws(() => recallCurve(["A"], l, 0), RangeError);
});

Deno.test("meanMetrics() averages every query once", () => {
  const one = queryMetrics(["a"], labels([["a", 1]]));
  const zero = queryMetrics(["x"], labels([["a", 1]]));
  const m = meanMetrics([one, zero, zero, one]);
  assert.equal(m["recall@1"], 0.5);
  assert.equal(m["ndcg@10"], 0.5);
  assert.throws(() => meanMetrics([]), RangeError);
});
