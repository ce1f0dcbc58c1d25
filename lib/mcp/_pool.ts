/**
 * Bounded-parallel map (private to lib/mcp).
 *
 * @module
 */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight; results keep
 * the order of `items`.
 *
 * @param items Inputs.
 * @param limit Maximum concurrent calls (positive integer).
 * @param fn Async work per item (receives the item and its index).
 * @returns The results in input order.
 * @throws {RangeError} When `limit` is not a positive integer.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  }
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Waits for a promise to settle, but at most `ms` milliseconds; never rejects
 * and leaves no timer behind.
 *
 * @param promise Work to wait for (its rejection is ignored).
 * @param ms Longest wait, in ms.
 * @returns `true` when it settled in time.
 */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    promise.then(() => true, () => true),
    new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms)),
  ]);
  clearTimeout(timer);
  return settled;
}
