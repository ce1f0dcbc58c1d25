import assert from "node:assert/strict";
import { PostingList } from "./_postings.ts";
import { createRng } from "../stats/prng.ts";

Deno.test("PostingList.field() groups entries by term, documents in order, over several chunks", () => {
  // 150,000 entries (3 chunks of 65,536), terms and tfs drawn at random; some tfs 0 in each field.
  const rng = createRng(3);
  const random = () => rng.next();
  const terms = 997;
  const list = new PostingList();
  const entries: [number, number, number, number][] = [];
  for (let d = 0; entries.length < 150_000; d++) {
    for (let k = 0; k < 30; k++) {
      const e: [number, number, number, number] = [
        Math.floor(random() * terms),
        d,
        Math.floor(random() * 4),
        1 + Math.floor(random() * 3) - (k % 5 === 0 ? 1 : 0),
      ];
      entries.push(e);
      list.add(...e);
    }
  }
  const norms = new Float64Array(1);
  for (const which of [0, 1] as const) {
    const field = list.field(which, new Array(terms), norms);
    assert.equal(field.norms, norms);
    const want: number[][][] = Array.from({ length: terms }, () => []);
    for (const e of entries) if (e[2 + which] > 0) want[e[0]].push([e[1], e[2 + which]]);
    for (let t = 0; t < terms; t++) {
      const got = [];
      for (let k = field.starts[t]; k < field.starts[t + 1]; k++) {
        got.push([field.docs[k], field.tfs[k]]);
      }
      assert.deepEqual(got, want[t], `field ${which} term ${t}`);
    }
    assert.equal(field.starts[terms], entries.filter((e) => e[2 + which] > 0).length);
  }
});
