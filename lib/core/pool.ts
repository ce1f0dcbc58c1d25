/**
 * Bounded-parallel map over `npm:p-limit`: the one pool behind server captures, package
 * installs, upstream connections and agent runs.
 *
 * @module
 */

import pLimit from "p-limit";

/**
 * Runs `fn` over `items` with at most `limit` calls in flight; results keep the order of
 * `items`. When one call throws, calls not yet started are dropped and the returned promise
 * rejects with that error (calls already in flight finish on their own).
 *
 * @param items Inputs.
 * @param limit Maximum concurrent calls (positive integer).
 * @param fn Async work per item (receives the item and its index).
 * @returns The results in input order.
 * @throws {RangeError} When `limit` is not a positive integer.
 *
 * @example Usage
 * ```ts
 * import { mapBounded } from "./pool.ts";
 * const squares = await mapBounded([1, 2, 3], 2, async (n) => n * n);
 * if (squares.join() !== "1,4,9") throw new Error("unexpected");
 * ```
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  }
  const run = pLimit(limit);
  return await Promise.all(items.map((item, index) =>
    run(async () => {
      try {
        return await fn(item, index);
      } catch (error) {
        run.clearQueue();
        throw error;
      }
    })
  ));
}
