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
import { redactText } from "../core/secrets.ts";
import { serversSecrets } from "../mcp/secrets.ts";
import { openSession } from "../mcp/session.ts";
import {
  createUpstreamPool,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type UpstreamConnection,
  type UpstreamFailure,
  type UpstreamPool,
} from "./upstream.ts";
import { oneLine } from "../core/text.ts";
import { mapBounded } from "../core/pool.ts";

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
  /** Monotonic clock (ms) for the pool's `listingMs`; default `performance.now`. */
  readonly now?: () => number;
  /** Servers that failed before any start (e.g. a launch that could not be installed). */
  readonly failures?: readonly UpstreamFailure[];
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
 * The credentials a servers config hands to its upstreams, which the proxy must never echo: the
 * one rule of `lib/mcp/secrets.ts` (`serversSecrets`: every `${VAR}` an entry resolves,
 * secret-named env and header values with and without the `Bearer ` scheme, secrets in its
 * arguments and URL, well-known credentials).
 *
 * @param config Parsed servers config (entries not yet expanded).
 * @param env Variables for `${VAR}` expansion.
 * @returns Secret values (duplicates possible; short ones are ignored by the redaction).
 *
 * @example Usage
 * ```ts
 * import { parseServersConfig } from "../mcp/config.ts";
 * import { upstreamSecrets } from "./connect.ts";
 * const config = parseServersConfig({ mcpServers: { gh: { command: "x", env: { GH_TOKEN: "${T}" } } } });
 * if (!upstreamSecrets(config, { T: "ghp_abc123" }).includes("ghp_abc123")) throw new Error();
 * ```
 */
export function upstreamSecrets(
  config: ServersConfig,
  env: Readonly<Record<string, string | undefined>> = {},
): string[] {
  return serversSecrets(config, env);
}

/**
 * Starts (stdio) or connects to (HTTP) every server of a config, in parallel,
 * then lists their tools into an {@linkcode UpstreamPool}.
 *
 * A server that fails to start, exits, hangs past the timeout or fails its
 * listing is recorded as `failed` in the pool's statuses; the others are used.
 * Failure messages have the config's credentials ({@linkcode upstreamSecrets}) replaced.
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
  const secrets = upstreamSecrets(config, options.env);
  const failures: UpstreamFailure[] = (options.failures ?? []).map((f) => ({
    name: f.name,
    message: redactText(f.message, secrets),
  }));
  const connections: UpstreamConnection[] = [];
  const start = async (entry: ServerEntry) => {
    try {
      const connection = await connect(entry, options, timeoutMs);
      connections.push(connection);
      // Which era the upstream speaks (lib/mcp/client.ts): 2026-07-28, or a 2025 revision.
      const version = connection.client.protocolVersion?.();
      options.onProgress?.(
        entry.name,
        "ready",
        version === undefined ? undefined : `protocol ${version}`,
      );
    } catch (error) {
      const message = redactText(oneLine(error), secrets);
      failures.push({ name: entry.name, message });
      options.onProgress?.(entry.name, "failed", message);
    }
  };
  await mapBounded(config.servers, options.concurrency ?? 8, start);
  connections.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return await createUpstreamPool(connections, {
    timeoutMs,
    failures,
    ...(options.now ? { now: options.now } : {}),
  });
}
