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

/**
 * Ends a streamable HTTP session on the server with `DELETE` (the spec: a client that no longer
 * needs its session should), waiting at most `ms`; nothing for a transport without sessions
 * (stdio, SSE, a 2026-07-28 server, which has none). Without it each closed session stayed open
 * on the server.
 *
 * @param transport The client transport.
 * @param ms Longest wait, in ms.
 * @returns When done or given up.
 */
export async function endHttpSession(transport: unknown, ms: number): Promise<void> {
  const t = transport as { sessionId?: unknown; terminateSession?: () => Promise<void> };
  if (typeof t?.terminateSession !== "function" || t.sessionId === undefined) return;
  await settleWithin(t.terminateSession(), ms);
}
