/**
 * Long-lived stdio MCP sessions: start a server the way a capture does (throwaway HOME,
 * `${SCRATCH}`/`${TMPDIR}` folders, declared `files`, the strongest process isolation), keep
 * the connected SDK `Client` for as many requests as the caller likes, and on `close()` kill
 * the whole process tree and remove the folders. Remote servers get the same kind of session
 * over streamable HTTP (or legacy SSE when the entry says `"type": "sse"`, or as the fallback
 * of an entry without `type`), with secret header values kept out of errors and results.
 *
 * Folders are named `mcpmeter-session-<pid>-<label>-*` under the system temp folder, `<pid>`
 * being this process. A process killed with SIGKILL cannot clean up; the next run calls
 * {@linkcode removeStaleSessionFolders}, which removes the folders whose owner process is gone.
 *
 * @module
 */

import { join } from "node:path";
import { SSEClientTransportV2, StreamableHTTPClientTransportV2 } from "../core/sdk.ts";
import {
  createMcpClient,
  type EraNegotiation,
  type McpClient,
  mcpErrorKind,
  mcpErrorText,
  type McpTransport,
  nextNegotiation,
} from "./client.ts";
import {
  expandServerEntry,
  type RemoteServerEntry,
  type ServerEntry,
  type StdioServerEntry,
} from "./config.ts";
import { packageVars } from "./install.ts";
import type { ListingClient } from "./list.ts";
import { DEFAULT_SERVER_TIMEOUT_MS, ObservedStdioTransport, secretValues } from "./stdio.ts";
import { detectIsolation, type IsolationMode, killTree } from "./_sandbox.ts";
import { checkTimeoutMs, FALLBACK_PATH, prepareLaunch } from "./_launch.ts";
import { settleWithin } from "./_settle.ts";
import { endHttpSession } from "./client.ts";
import { createScratch } from "./_scratch.ts";
import { oneLine } from "../core/text.ts";
import { Redactor, redactText, urlSecrets } from "../core/secrets.ts";
import { remoteSecrets } from "./http.ts";
import type { RunPath } from "./types.ts";

/** Name prefix of every session folder (and of {@linkcode createSessionFolder}'s folders). */
export const SESSION_FOLDER_PREFIX = "mcpmeter-session-";

/**
 * What a session's client offers: the listing requests of `lib/mcp/list.ts`, any other
 * request (e.g. `tools/call`), and close. The SDK's `Client` satisfies it; declared here so the
 * public surface does not depend on the SDK's types.
 */
export interface SessionClient extends ListingClient {
  /** Called when the connection closes (set by the caller). */
  onclose?: () => void;
  /** Ends the connection (the process tree is killed by the session's `close`). */
  close(): Promise<void>;
  /**
   * Calls a tool (`tools/call`); the result is checked with the SDK's `CallToolResult` schema
   * (and a listed tool's `outputSchema`). Pass `undefined` as `resultSchema`.
   */
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<SessionToolResult>;
}

/** A `tools/call` result as {@linkcode SessionClient.callTool} returns it. */
export interface SessionToolResult {
  /** Content blocks (`{type: "text", text}`, ...); `[]` when the server sent none. */
  readonly content?: unknown;
  /** True when the tool reports a failure. */
  readonly isError?: boolean;
  /** Structured result, when the tool has one. */
  readonly structuredContent?: unknown;
  /** Any other field, as received. */
  readonly [key: string]: unknown;
}

/** A connected server, stdio or remote. */
export interface McpSession {
  /** Config key of the server. */
  readonly name: string;
  /** The connected client; valid until `close()`. */
  readonly client: SessionClient;
  /**
   * Closes the client (waiting at most 500 ms) and, for stdio, kills the whole process tree
   * with SIGKILL and removes the folders. Idempotent; never rejects.
   *
   * @returns When done.
   */
  close(): Promise<void>;
}

/** A running stdio server with a connected client. */
export interface StdioSession extends McpSession {
  /** Pid of the spawned (wrapper) process, when it started. */
  readonly pid: number | undefined;
  /** How the process tree is isolated (see `lib/mcp/_sandbox.ts`). */
  readonly isolation: IsolationMode;
  /** The session's temp root (holding `home/`, `work/`, `tmp/`); gone after `close()`. */
  readonly folder: string;
  /** The session's folders with their placeholders (`<home>`, `<scratch>`, ...), most specific first. */
  readonly runPaths: readonly RunPath[];
}

/** Options of {@linkcode openStdioSession}. */
export interface StdioSessionOptions {
  /**
   * Timeout of spawn + `initialize`, ms. Default: the entry's `timeoutMs`, else
   * {@linkcode DEFAULT_SERVER_TIMEOUT_MS}.
   */
  readonly timeoutMs?: number;
  /**
   * Variables for `${VAR}` expansion (typically the caller's environment). `HOME`, `SCRATCH`
   * and `TMPDIR` are always the session's own folders.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Extra variables that win over `env` (e.g. `BIN`, `DATA`). */
  readonly vars?: Readonly<Record<string, string>>;
  /**
   * Folder of installed packages (see {@linkcode packageVars}): when set and the entry names a
   * `package`, `${PACKAGE_DIR}` and `${BIN}` point into it (`vars` win over them).
   */
  readonly installDir?: string;
  /** `PATH` for the server and for finding `command`; default this process's `PATH`. */
  readonly path?: string;
  /** Isolation to use; default the strongest available (probed once). */
  readonly isolation?: IsolationMode;
  /** Config source name for error messages. */
  readonly source?: string;
}

/** Options of {@linkcode openRemoteSession}. */
export interface RemoteSessionOptions {
  /**
   * Timeout of `initialize`, ms. Default: the entry's `timeoutMs`, else
   * {@linkcode DEFAULT_SERVER_TIMEOUT_MS}.
   */
  readonly timeoutMs?: number;
  /** Variables for `${VAR}` expansion of `url` and `headers`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Config source name for error messages. */
  readonly source?: string;
}

/** A session that could not be started; the message names the server and the cause. */
export class SessionStartError extends Error {
  /** Config key of the server. */
  readonly server: string;
  /**
   * Builds the error.
   *
   * @param server Config key.
   * @param message What went wrong, one line.
   * @param options Cause.
   */
  constructor(server: string, message: string, options?: ErrorOptions) {
    super(`Cannot start MCP server "${server}": ${message}`, options);
    this.name = "SessionStartError";
    this.server = server;
  }
}

/** Trailing characters of a server's stderr quoted when it dies before `initialize`. */
const STARTUP_STDERR_CHARS = 300;

function label(text: string): string {
  return text.replace(/[^A-Za-z0-9_.]/g, "_").slice(0, 40);
}

/**
 * Creates an empty folder named for this process
 * (`<tmp>/mcpmeter-session-<pid>-<label>-*`), so {@linkcode removeStaleSessionFolders} can
 * remove it after a crash.
 *
 * @param name Short label, e.g. `data`.
 * @returns The absolute path; the caller removes it.
 */
export async function createSessionFolder(name: string): Promise<string> {
  return await Deno.realPath(
    await Deno.makeTempDir({ prefix: `${SESSION_FOLDER_PREFIX}${Deno.pid}-${label(name)}-` }),
  );
}

/**
 * Starts one stdio server and connects a client to it.
 *
 * The environment is only `HOME` (throwaway), `PATH`, `TMPDIR` (inside the session folder),
 * `NODE_NO_WARNINGS=1` and the entry's own `env`; nothing else of this process (no API key)
 * reaches the server. Stderr is read, never printed: when the server exits before answering
 * `initialize`, the error says how it ended (exit code or signal) and quotes the end of its
 * stderr, secrets redacted.
 *
 * @param entry The unexpanded config entry (expanded here once the folders exist).
 * @param options Timeout (ms), variables, PATH, isolation.
 * @returns The session; call `close()` when done.
 * @throws {SessionStartError} When expansion fails, the command is missing, or the server
 *   exits or does not answer `initialize` in time (the tree is killed and the folders removed
 *   first).
 * @throws {RangeError} When `timeoutMs` is not a positive number.
 */
export async function openStdioSession(
  entry: StdioServerEntry,
  options: StdioSessionOptions = {},
): Promise<StdioSession> {
  const timeoutMs = checkTimeoutMs(
    options.timeoutMs ?? entry.meta.timeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS,
  );
  let vars = options.vars;
  if (options.installDir !== undefined) {
    try {
      vars = { ...await packageVars(entry, options.installDir), ...options.vars };
    } catch (error) {
      throw new SessionStartError(entry.name, oneLine(error), { cause: error });
    }
  }
  const isolation = options.isolation ?? await detectIsolation();
  const path = options.path ?? Deno.env.get("PATH") ?? FALLBACK_PATH;
  const scratch = await createScratch(`${SESSION_FOLDER_PREFIX}${Deno.pid}-${label(entry.name)}-`);
  let pid: number | undefined;
  let client: McpClient | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      if (client !== undefined) await settleWithin(client.close(), 500);
      if (pid !== undefined) killTree(isolation, pid);
      await scratch.dispose();
    })();
    return closing;
  };
  try {
    const launch = await prepareLaunch(entry, scratch, { ...options, vars, path, isolation });
    if ("problem" in launch) throw new SessionStartError(entry.name, launch.problem);
    // A server whose era the probe misjudged is started again and spoken to in the other era
    // (lib/mcp/client.ts nextNegotiation): one that closed the connection on server/discover
    // (the 2025 rules let it refuse requests before initialize), or refused initialize.
    for (
      let negotiation: EraNegotiation | undefined = "auto";
      negotiation !== undefined;
    ) {
      // Stderr is read (never printed): its tail says why a server that will not start failed.
      const transport = new ObservedStdioTransport({ ...launch, stderr: "pipe" });
      const stderr = transport.tailStderr(STARTUP_STDERR_CHARS);
      transport.onSpawned = () => pid = transport.spawnedPid;
      client = createMcpClient(negotiation);
      try {
        await connectWithin(entry, client, transport, timeoutMs);
        break;
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        const kind = mcpErrorKind(cause);
        const next = nextNegotiation(negotiation, cause);
        if (next !== undefined) {
          await settleWithin(client.close(), 500);
          if (pid !== undefined) killTree(isolation, pid);
          await transport.exitedWithin(1_000);
          pid = undefined;
          negotiation = next;
          continue;
        }
        if (kind !== "closed" && kind !== "probe_closed") throw error;
        // The server went away before answering: say how it ended and what it printed.
        await transport.exitedWithin(1_000);
        const exit = transport.exit;
        const how = exit === undefined
          ? "closed the connection"
          : exit.signal !== null
          ? `was killed by ${exit.signal}`
          : `exited with code ${exit.code}`;
        const tail = oneLine(stderr.toString().trim());
        const said = redactText(tail, secretValues(entry, launch.env, options.env ?? {}));
        throw new SessionStartError(
          entry.name,
          `the server ${how} before answering initialize${
            said === "" ? " (nothing on stderr)" : `; its stderr ends: ${said}`
          }`,
          { cause: error },
        );
      }
    }
    return {
      name: entry.name,
      client: client as unknown as SessionClient,
      pid,
      isolation,
      folder: scratch.root,
      runPaths: scratch.runPaths,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Connects a client to a remote server: streamable HTTP, or the legacy SSE transport when the
 * entry's `type` is `sse`; an entry without `type` that fails to initialize over streamable
 * HTTP (not a timeout) tries SSE once, as captures do (`lib/mcp/http.ts`).
 *
 * Secrets stay out of what the session says: the values of secret-named headers and of the
 * secret-named variables the url or headers reference ({@linkcode remoteSecrets}), and secrets
 * carried in the url, are replaced by `[REDACTED]` in error messages and in every result
 * (a server may echo a header in an error body or a tool result).
 *
 * @param entry The unexpanded remote entry (`url` and `headers` are expanded here).
 * @param options Timeout (ms), variables, source name.
 * @returns The session; call `close()` when done.
 * @throws {SessionStartError} When expansion fails or the server does not answer `initialize`
 *   in time or with an error.
 * @throws {RangeError} When `timeoutMs` is not a positive number.
 */
export async function openRemoteSession(
  entry: RemoteServerEntry,
  options: RemoteSessionOptions = {},
): Promise<McpSession> {
  const timeoutMs = checkTimeoutMs(
    options.timeoutMs ?? entry.meta.timeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS,
  );
  let url: URL;
  let expanded: RemoteServerEntry;
  try {
    expanded = expandServerEntry(entry, options.env ?? {}, options.source) as RemoteServerEntry;
    url = new URL(expanded.url);
  } catch (error) {
    throw new SessionStartError(entry.name, oneLine(error), { cause: error });
  }
  const secrets = [
    ...remoteSecrets(entry, expanded, options.env ?? {}),
    ...urlSecrets(expanded.url),
  ];
  const requestInit = { headers: { ...expanded.headers } };
  const attempts: ("sse" | "streamable-http")[] = expanded.transport === "sse"
    ? ["sse"]
    : expanded.transport === "streamable-http"
    ? ["streamable-http"]
    : ["streamable-http", "sse"];
  let first: SessionStartError | undefined;
  for (const kind of attempts) {
    const transport = kind === "sse"
      ? new SSEClientTransportV2(url, { requestInit })
      : new StreamableHTTPClientTransportV2(url, { requestInit });
    const client = createMcpClient();
    let closing: Promise<void> | undefined;
    const close = () =>
      closing ??= endHttpSession(transport, 500).then(() => settleWithin(client.close(), 500))
        .then(() => {});
    try {
      await connectWithin(entry, client, transport, timeoutMs);
      return {
        name: entry.name,
        client: redactingClient(client as unknown as SessionClient, secrets),
        close,
      };
    } catch (error) {
      await close();
      const redacted = error instanceof SessionStartError
        ? new SessionStartError(
          entry.name,
          redactText(error.message.replace(/^Cannot start MCP server "[^"]*": /, ""), secrets),
        )
        : error;
      if (
        !(redacted instanceof SessionStartError) || /no answer to initialize/.test(redacted.message)
      ) {
        throw redacted;
      }
      first ??= redacted;
    }
  }
  throw first!;
}

/**
 * The client with `secrets` replaced in every result and error message of `request` and
 * `callTool`; the client itself when there is no secret.
 */
function redactingClient(client: SessionClient, secrets: readonly string[]): SessionClient {
  const redactor = new Redactor(secrets);
  if (redactor.secrets.length === 0) return client;
  const clean = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return redactor.json(await p);
    } catch (error) {
      if (error instanceof Error) error.message = redactor.text(error.message);
      throw error;
    }
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop === "request") {
        return (...args: Parameters<SessionClient["request"]>) => clean(target.request(...args));
      }
      if (prop === "callTool") {
        return (...args: Parameters<SessionClient["callTool"]>) => clean(target.callTool(...args));
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(target, prop, value) {
      return Reflect.set(target, prop, value, target);
    },
  });
}

/**
 * Opens a session for any config entry: {@linkcode openStdioSession} or
 * {@linkcode openRemoteSession}.
 *
 * @param entry The unexpanded entry.
 * @param options Timeout (ms), variables, install folder, PATH, isolation (stdio only), source.
 * @returns The session; call `close()` when done.
 * @throws {SessionStartError} When the server cannot be started or connected.
 * @throws {RangeError} When `timeoutMs` is not a positive number.
 */
export async function openSession(
  entry: ServerEntry,
  options: StdioSessionOptions = {},
): Promise<McpSession> {
  return entry.kind === "stdio"
    ? await openStdioSession(entry, options)
    : await openRemoteSession(entry, options);
}

async function connectWithin(
  entry: ServerEntry,
  client: McpClient,
  transport: McpTransport,
  timeoutMs: number,
): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await client.connect(transport, { timeout: timeoutMs, signal: controller.signal });
  } catch (error) {
    // The SDK's HTTP transports carry the response status as a numeric `code`.
    const code = (error as { code?: unknown } | null)?.code;
    const status = typeof code === "number" && code >= 100 && code <= 599 ? `HTTP ${code}: ` : "";
    const why = controller.signal.aborted
      ? `no answer to initialize within ${timeoutMs} ms`
      : `initialize failed: ${status}${oneLine(withCauses(error), 500)}`;
    throw new SessionStartError(entry.name, why, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An error's message followed by its causes' in parentheses (up to three deep, each only when it
 * adds something): `fetch failed` alone does not say whether the host, the port or TLS failed.
 */
function withCauses(error: unknown): string {
  let text = mcpErrorText(error);
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 3 && cause instanceof Error; depth++) {
    if (cause.message && !text.includes(cause.message)) text += ` (${cause.message})`;
    cause = cause.cause;
  }
  return text;
}

function processAlive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

/** Age (ms) below which a session folder is never removed as stale: 6 hours. */
export const STALE_SESSION_MIN_AGE_MS = 6 * 60 * 60 * 1000;

/**
 * Removes session folders (`mcpmeter-session-<pid>-*` in `tmpDir`) left behind by processes
 * that no longer run, e.g. a run killed with SIGKILL. A folder is removed only when its pid is
 * not running here and it was last modified at least `minAgeMs` ago: a process in another pid
 * namespace (a container or sandbox sharing `/tmp`) is invisible in `/proc`, and its live folders
 * must survive. Folders of live processes (this one included) are kept. Only on Linux, where
 * `/proc` tells whether a pid runs; elsewhere it removes nothing.
 *
 * @param tmpDir Folder to sweep; default `TMPDIR`, else `/tmp` (where `Deno.makeTempDir`
 *   creates them).
 * @param options `minAgeMs` (default {@linkcode STALE_SESSION_MIN_AGE_MS}) and `now` (epoch ms,
 *   default the wall clock).
 * @returns Absolute paths removed, sorted.
 */
export async function removeStaleSessionFolders(
  tmpDir?: string,
  options: { readonly minAgeMs?: number; readonly now?: number } = {},
): Promise<string[]> {
  if (Deno.build.os !== "linux") return [];
  const dir = tmpDir ?? Deno.env.get("TMPDIR") ?? "/tmp";
  const minAgeMs = options.minAgeMs ?? STALE_SESSION_MIN_AGE_MS;
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!e.isDirectory || !e.name.startsWith(SESSION_FOLDER_PREFIX)) continue;
    const m = /^(\d+)-/.exec(e.name.slice(SESSION_FOLDER_PREFIX.length));
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === Deno.pid || processAlive(pid)) continue;
    const path = join(dir, e.name);
    try {
      const mtime = (await Deno.stat(path)).mtime?.getTime();
      if (mtime === undefined || now - mtime < minAgeMs) continue;
      await Deno.remove(path, { recursive: true });
      removed.push(path);
    } catch {
      // removed meanwhile, or not ours to remove
    }
  }
  return removed.sort();
}
