/**
 * Captures every server of a config, bounded-parallel: stdio servers through
 * {@linkcode captureStdioServer}, remote ones through
 * {@linkcode captureRemoteServer}. One failing server never stops the others.
 *
 * @module
 */

import type { ServerEntry, ServersConfig } from "./config.ts";
import { captureRemoteServer } from "./http.ts";
import { packageVars } from "./install.ts";
import { captureStdioServer } from "./stdio.ts";
import { mapBounded } from "../core/pool.ts";
import { oneLine } from "../core/text.ts";
import type { IsolationMode } from "./_sandbox.ts";
import type { ServerCaptureRecord } from "./types.ts";
import { spawnFailedRecord } from "./_capture.ts";

/** Default number of servers captured at once. */
export const DEFAULT_CAPTURE_CONCURRENCY = 2;

/** A progress event of {@linkcode captureServers}. */
export type CaptureProgress =
  | {
    readonly kind: "start";
    readonly server: string;
    readonly index: number;
    readonly total: number;
  }
  | {
    readonly kind: "done";
    readonly server: string;
    readonly index: number;
    readonly total: number;
    /** How many servers have finished, this one included. */
    readonly done: number;
    readonly record: ServerCaptureRecord;
  };

/** Options of {@linkcode captureServers}. */
export interface CaptureOptions {
  /** Servers captured at once (default {@linkcode DEFAULT_CAPTURE_CONCURRENCY}). */
  readonly concurrency?: number;
  /**
   * Overall timeout per server in ms when its entry has no `timeoutMs`
   * (default `DEFAULT_SERVER_TIMEOUT_MS`, 30 s).
   */
  readonly timeoutMs?: number;
  /** Variables for `${VAR}` expansion (typically this process's environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Folder of installed packages (see `install.ts`). When set, an entry with
   * `package`/`version` gets `${BIN}` = its bin script and `${PACKAGE_DIR}` =
   * its package folder; a package that is not installed is a `spawn_failed`
   * record.
   */
  readonly installDir?: string;
  /** Isolation for stdio servers (default: strongest available). */
  readonly isolation?: IsolationMode;
  /** Only these server names (default: all). Unknown names are a `RangeError`. */
  readonly only?: readonly string[];
  /**
   * Settle window for servers that declare `tools.listChanged`: how long to wait for a
   * `notifications/tools/list_changed` (and re-list) after each listing, in ms.
   * @default {1000}
   */
  readonly settleMs?: number;
  /** Called when a server starts and when it is done. */
  readonly onProgress?: (event: CaptureProgress) => void;
}

/**
 * Captures the servers of a config.
 *
 * @param config A parsed config (entries unexpanded: expansion happens per
 *   server, once its HOME/SCRATCH exist).
 * @param options Concurrency, default timeout (ms), env, install folder,
 *   progress callback.
 * @returns One record per server, in config order (sorted by name).
 * @throws {RangeError} When `concurrency` is not a positive integer, a
 *   timeout is not positive, or `only` names an unknown server.
 */
export async function captureServers(
  config: ServersConfig,
  options: CaptureOptions = {},
): Promise<ServerCaptureRecord[]> {
  const names = new Set(config.servers.map((s) => s.name));
  for (const name of options.only ?? []) {
    if (!names.has(name)) throw new RangeError(`no server named ${JSON.stringify(name)} in config`);
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new RangeError(`timeoutMs must be a positive number, got ${options.timeoutMs}`);
  }
  const only = options.only === undefined ? undefined : new Set(options.only);
  const servers = config.servers.filter((s) => only === undefined || only.has(s.name));
  let done = 0;
  return await mapBounded(
    servers,
    options.concurrency ?? DEFAULT_CAPTURE_CONCURRENCY,
    async (entry, index) => {
      options.onProgress?.({ kind: "start", server: entry.name, index, total: servers.length });
      const record = await captureOne(entry, config.source, options);
      done += 1;
      options.onProgress?.({
        kind: "done",
        server: entry.name,
        index,
        total: servers.length,
        done,
        record,
      });
      return record;
    },
  );
}

async function captureOne(
  entry: ServerEntry,
  source: string,
  options: CaptureOptions,
): Promise<ServerCaptureRecord> {
  const timeoutMs = entry.meta.timeoutMs ?? options.timeoutMs;
  const timeout = timeoutMs === undefined ? {} : { timeoutMs };
  if (entry.kind === "remote") {
    return await captureRemoteServer(entry, {
      ...timeout,
      env: options.env ?? {},
      source,
      ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    });
  }
  let vars: Record<string, string> = {};
  if (options.installDir !== undefined) {
    try {
      vars = await packageVars(entry, options.installDir);
    } catch (error) {
      return spawnFailedRecord(entry, oneLine(error));
    }
  }
  return await captureStdioServer(entry, {
    ...timeout,
    env: options.env ?? {},
    vars,
    source,
    ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
    ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
  });
}
