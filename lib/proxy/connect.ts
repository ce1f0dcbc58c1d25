/**
 * Starts the proxy's upstreams from a servers config (the standard
 * `mcpServers` shape, see lib/mcp/config.ts) and keeps them connected.
 *
 * Stdio servers run like `deno task capture` runs them: a throwaway HOME,
 * `${SCRATCH}`/`${TMPDIR}` folders, `${BIN}` pointing at the pinned package's
 * bin script in the install folder, the declared `files` written first, and the
 * strongest process isolation available so the whole tree can be killed on
 * close. Remote servers are reached over streamable HTTP (no SSE fallback).
 *
 * @module
 */
import { expandServerEntry, type ServerEntry, type ServersConfig } from "../mcp/config.ts";
import { readInstalledPackage, resolveBin } from "../mcp/install.ts";
import { CLIENT_INFO } from "../mcp/stdio.ts";
import { detectIsolation, findExecutable, killTree, wrapCommand } from "../mcp/_sandbox.ts";
import { createScratch, writeDeclaredFiles } from "../mcp/_scratch.ts";
import { Client, StdioClientTransport, StreamableHTTPClientTransport } from "./_sdk.ts";
import {
  createUpstreamPool,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type UpstreamConnection,
  type UpstreamFailure,
  type UpstreamPool,
} from "./upstream.ts";

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

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function connectStdio(
  entry: ServerEntry & { kind: "stdio" },
  options: ConnectOptions,
  timeoutMs: number,
): Promise<UpstreamConnection> {
  const isolation = await detectIsolation();
  const scratch = await createScratch(`mcpmeter-proxy-${entry.name.replace(/[^\w.-]/g, "_")}-`);
  let pid: number | undefined;
  const kill = async () => {
    if (pid !== undefined) killTree(isolation, pid);
    await scratch.dispose();
  };
  try {
    const vars: Record<string, string> = {};
    if (options.installDir !== undefined && entry.meta.package !== undefined) {
      const version = entry.meta.version ?? "";
      const installed = await readInstalledPackage(
        options.installDir,
        entry.meta.package,
        version,
      );
      if (installed === undefined) {
        throw new Error(
          `package ${entry.meta.package}@${version} is not installed in ${options.installDir}`,
        );
      }
      vars.PACKAGE_DIR = installed.packageDir;
      try {
        vars.BIN = resolveBin(installed, entry.meta.bin);
      } catch (error) {
        if ([entry.command, ...entry.args].some((a) => a.includes("${BIN}"))) throw error;
      }
    }
    const expanded = expandServerEntry(entry, {
      ...options.env,
      HOME: scratch.home,
      SCRATCH: scratch.work,
      TMPDIR: scratch.tmp,
      ...vars,
    }, options.source) as typeof entry;
    if (expanded.meta.files !== undefined) await writeDeclaredFiles(expanded.meta.files, scratch);
    const path = options.env?.PATH ?? Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin";
    const cwd = expanded.cwd ?? scratch.work;
    const executable = findExecutable(expanded.command, path, cwd);
    if (executable === undefined) {
      throw new Error(`command ${JSON.stringify(expanded.command)} not found or not executable`);
    }
    const wrapped = wrapCommand(isolation, executable, expanded.args);
    const transport = new StdioClientTransport({
      command: wrapped.command,
      args: wrapped.args,
      cwd,
      stderr: "ignore",
      env: {
        HOME: scratch.home,
        PATH: path,
        TMPDIR: scratch.tmp,
        NODE_NO_WARNINGS: "1",
        ...expanded.env,
      },
    });
    const client = new Client({ ...CLIENT_INFO }, { capabilities: {} });
    const started = transport.start.bind(transport);
    transport.start = async () => {
      await started();
      pid = transport.pid ?? undefined;
    };
    await withTimeout(
      client.connect(transport, { timeout: timeoutMs }),
      timeoutMs,
      `${entry.name}: initialize`,
    );
    return {
      name: entry.name,
      client,
      close: async () => {
        await Promise.race([
          client.close().catch(() => {}),
          new Promise((r) => setTimeout(r, 500)),
        ]);
        await kill();
      },
    };
  } catch (error) {
    await kill();
    throw error;
  }
}

async function connectRemote(
  entry: ServerEntry & { kind: "remote" },
  options: ConnectOptions,
  timeoutMs: number,
): Promise<UpstreamConnection> {
  const expanded = expandServerEntry(entry, options.env ?? {}, options.source) as typeof entry;
  const transport = new StreamableHTTPClientTransport(new URL(expanded.url), {
    requestInit: { headers: { ...expanded.headers } },
  });
  const client = new Client({ ...CLIENT_INFO }, { capabilities: {} });
  await withTimeout(
    client.connect(transport, { timeout: timeoutMs }),
    timeoutMs,
    `${entry.name}: initialize`,
  );
  return { name: entry.name, client, close: () => client.close().catch(() => {}) };
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
      const connection = entry.kind === "stdio"
        ? await connectStdio(entry, options, timeoutMs)
        : await connectRemote(entry, options, timeoutMs);
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
