/**
 * Bounded waits (private to lib/mcp).
 *
 * @module
 */

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
