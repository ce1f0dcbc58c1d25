import assert from "node:assert/strict";
import { heapSettler, SETTLE_MIN_HEAP_BYTES } from "./bench_jobs.ts";

Deno.test("heapSettler: collects on a heap of at least the floor, never without a collector", () => {
  let calls = 0;
  let used = SETTLE_MIN_HEAP_BYTES - 1;
  const settle = heapSettler({ gc: () => calls++, heapUsed: () => used });
  assert.deepEqual(settle(), false);
  assert.deepEqual(calls, 0);
  used = SETTLE_MIN_HEAP_BYTES;
  assert.deepEqual(settle(), true);
  assert.deepEqual(calls, 1);
  const none = heapSettler({ gc: undefined, heapUsed: () => 1 << 30 });
  // No collector given and none exposed under `deno test` (no --expose-gc): nothing to do.
  assert.deepEqual(none(), (globalThis as { gc?: unknown }).gc !== undefined);
});

Deno.test("heapSettler: the floor is an option", () => {
  let calls = 0;
  const settle = heapSettler({ gc: () => calls++, heapUsed: () => 10, minBytes: 10 });
  assert.deepEqual([settle(), calls], [true, 1]);
});
