import assert from "node:assert/strict";
import { heapSettler, SETTLE_MIN_GROWTH_BYTES, SETTLE_MIN_HEAP_BYTES } from "./bench_jobs.ts";

Deno.test("heapSettler: collects on a heap of at least the floor, never without a collector", () => {
  let calls = 0;
  let used = SETTLE_MIN_HEAP_BYTES - 1;
  const settle = heapSettler({ gc: () => calls++, inUse: () => used });
  assert.deepEqual(settle(), false);
  assert.deepEqual(calls, 0);
  used = SETTLE_MIN_HEAP_BYTES;
  assert.deepEqual(settle(), true);
  assert.deepEqual(calls, 1);
  const none = heapSettler({ gc: undefined, inUse: () => 1 << 30 });
  // No collector given and none exposed under `deno test` (no --expose-gc): nothing to do.
  assert.deepEqual(none(), (globalThis as { gc?: unknown }).gc !== undefined);
});

Deno.test("heapSettler: the floor is an option", () => {
  let calls = 0;
  const settle = heapSettler({ gc: () => calls++, inUse: () => 10, minBytes: 10, minGrowth: 0 });
  assert.deepEqual([settle(), calls], [true, 1]);
});

Deno.test("heapSettler: collects again only once the heap has grown by minGrowth since", () => {
  const mb = 1 << 20;
  let used = 700 * mb;
  const calls: number[] = [];
  // The collector frees down to 300 MB, as after an arms job.
  const settle = heapSettler({
    gc: () => {
      calls.push(used / mb);
      used = 300 * mb;
    },
    inUse: () => used,
  });
  assert.deepEqual(settle(), true); // 700 MB, nothing collected before
  used = 300 * mb + SETTLE_MIN_GROWTH_BYTES - 1; // 1 byte short of 128 MB grown
  assert.deepEqual(settle(), false);
  used = 300 * mb + SETTLE_MIN_GROWTH_BYTES; // 428 MB
  assert.deepEqual(settle(), true);
  assert.deepEqual(calls, [700, 428]);
  // Grown by 10 MB with the floor set to 10 MB: collects.
  let n = 0;
  let heap = 400 * mb;
  const small = heapSettler({
    gc: () => n++,
    inUse: () => heap,
    minGrowth: 10 * mb,
  });
  assert.deepEqual([small(), small()], [true, false]);
  heap += 10 * mb;
  assert.deepEqual([small(), n], [true, 2]);
});
