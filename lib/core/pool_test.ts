import assert from "node:assert/strict";
import { mapBounded } from "./pool.ts";

Deno.test("mapBounded() keeps input order and never has more than `limit` calls in flight", async () => {
  let inFlight = 0;
  let peak = 0;
  // Later items finish first: order must come from the input, not from completion.
  const out = await mapBounded([5, 4, 3, 2, 1], 2, async (n, i) => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await new Promise((r) => setTimeout(r, n * 2));
    inFlight -= 1;
    return `${i}:${n * 10}`;
  });
  assert.deepEqual(out, ["0:50", "1:40", "2:30", "3:20", "4:10"]);
  assert.equal(peak, 2);
});

Deno.test("mapBounded() rejects with the first error and starts nothing after it", async () => {
  const started: number[] = [];
  const err = await mapBounded([0, 1, 2, 3], 1, (n) => {
    started.push(n);
    return n === 1 ? Promise.reject(new Error("boom")) : Promise.resolve(n);
  }).catch((e) => e);
  assert.equal((err as Error).message, "boom");
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(started, [0, 1]);
});

Deno.test("mapBounded() refuses a limit that is not a positive integer", async () => {
  for (const bad of [0, -1, 1.5, NaN]) {
    await assert.rejects(
      mapBounded([1], bad, (n) => Promise.resolve(n)),
      (e: unknown) => e instanceof RangeError && /positive integer, got/.test(e.message),
    );
  }
  assert.deepEqual(await mapBounded([], 3, (n: number) => Promise.resolve(n)), []);
});
