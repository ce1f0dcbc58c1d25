import assert from "node:assert/strict";
import { TopHits } from "./_top_hits.ts";
import { compareHits } from "./metrics.ts";
import { createRng } from "../stats/prng.ts";

Deno.test("TopHits keeps the first k hits of a full compareHits sort, ties by id", () => {
  const rng = createRng(7);
  const random = () => rng.next();
  for (let round = 0; round < 200; round++) {
    const n = 1 + Math.floor(random() * 40);
    // Ids in shuffled order and few distinct scores, so ties by id are frequent.
    const ids = Array.from({ length: n }, (_, i) => `t${(i * 7919) % 1000}_${i}`);
    const scores = ids.map(() => Math.floor(random() * 5) / 4);
    const k = Math.floor(random() * (n + 2));
    const top = new TopHits(ids, Math.min(k, n));
    for (let d = 0; d < n; d++) top.offer(d, scores[d]);
    const expected = ids.map((id, d) => ({ id, score: scores[d] })).sort(compareHits).slice(0, k);
    assert.deepEqual(top.hits(), expected);
  }
});

Deno.test("TopHits with capacity 0 keeps nothing", () => {
  const top = new TopHits(["a"], 0);
  top.offer(0, 1);
  assert.deepEqual(top.hits(), []);
});
