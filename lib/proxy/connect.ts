/**
 * Starts the proxy's upstreams from a servers config (the standard
 * `mcpServers` shape, see lib/mcp/config.ts) and keeps them connected.
 *
 * Each server is a `lib/mcp` session ({@linkcode openSession}). Stdio servers
 * run like `deno task capture` runs them: a throwaway HOME,
 * `${SCRATCH}`/`${TMPDIR}` folders, `${BIN}` pointing at the pinned package's
 * bin script in the install folder, the declared `files` written first, and the
 * strongest process isolation available so the whole tree can be killed on
 * close. Remote servers are reached over streamable HTTP (legacy SSE only when
 * the entry says `"type": "sse"`; no fallback).
 *
 * @module
 */
import type { ServerEntry, ServersConfig } from "../mcp/config.ts";
import { openSession } from "../mcp/session.ts";
import {
  createUpstreamPool,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type UpstreamConnection,
  type UpstreamFailure,
  type UpstreamPool,
} from "./upstream.ts";
import { oneLine } from "../_text.ts";

/** Options of {@linkcode connectUpstreams}. */
export interface ConnectOptions {
  /** Variables for `${VAR}` expansion (typically `Deno.env.toObject()`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Folder of installed packages (`deno task capture`'s), for `${BIN}` and `${PACKAGE_DIR}`. */
  readonly installDir?: string;
  /**
   * Timeout of start-up (spawn + initialize) per server, and of each later
   * listing or forwarded call, in ms.
   * @default {DEFAULT_UPSTREAM_TIMEOUT_MS}
   */
  readonly timeoutMs?: number;
  /** Config source name for error messages. */
  readonly source?: string;
  /**
   * Servers started at the same time.
   * @default {8}
   */
  readonly concurrency?: number;
  /** Called once per server when it is ready or has failed. */
  readonly onProgress?: (server: string, outcome: "ready" | "failed", message?: string) => void;
}

async function connect(
  entry: ServerEntry,
  options: ConnectOptions,
  timeoutMs: number,
): Promise<UpstreamConnection> {
  const session = await openSession(entry, {
    timeoutMs,
    env: options.env,
    path: options.env?.PATH,
    installDir: options.installDir,
    source: options.source,
  });
  return { name: session.name, client: session.client, close: session.close };
}

/**
 * Starts (stdio) or connects to (HTTP) every server of a config, in parallel,
 * then lists their tools into an {@linkcode UpstreamPool}.
 *
 * A server that fails to start, exits, hangs past the timeout or fails its
 * listing is recorded as `failed` in the pool's statuses; the others are used.
 *
 * @param config Parsed servers config (entries not yet expanded).
 * @param options Env for `${VAR}`, install folder, timeout (ms), concurrency, progress.
 * @returns The pool; call `close()` to end every upstream.
 * @throws {RangeError} When `concurrency` is not a positive integer.
 */
export async function connectUpstreams(
  config: ServersConfig,
  options: ConnectOptions = {},
): Promise<UpstreamPool> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const failures: UpstreamFailure[] = [];
  const connections: UpstreamConnection[] = [];
  const limit = options.concurrency ?? 8;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  }
  let next = 0;
  const start = async (entry: ServerEntry) => {
    try {
      const connection = await connect(entry, options, timeoutMs);
      connections.push(connection);
      options.onProgress?.(entry.name, "ready");
    } catch (error) {
      failures.push({ name: entry.name, message: oneLine(error) });
      options.onProgress?.(entry.name, "failed", oneLine(error));
    }
  };
  const worker = async () => {
    while (next < config.servers.length) await start(config.servers[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, config.servers.length) }, worker));
  connections.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return await createUpstreamPool(connections, { timeoutMs, failures });
}
