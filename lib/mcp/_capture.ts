/**
 * The parts of a capture record that do not depend on the transport (private to lib/mcp),
 * shared by the stdio (`stdio.ts`) and remote (`http.ts`) captures: the client they list
 * with, the record of a completed listing, the `timeout` outcome, and secret redaction.
 *
 * @module
 */

import { ToolListChangedNotificationSchema } from "../core/sdk.ts";
import {
  createMcpClient,
  type EraNegotiation,
  type McpClient,
  mcpErrorKind,
  type McpTransport,
  PROBE_TIMEOUT_MS,
} from "./client.ts";
import type { JsonObject } from "../catalog/types.ts";
import {
  type ListChangeWatcher,
  listChangeWatcher,
  listServer,
  type ServerListing,
} from "./list.ts";
import type { WarningSink } from "./_text.ts";
import { oneLine } from "../core/text.ts";
import { Redactor } from "../core/secrets.ts";
import type { RunPath, ServerCaptureRecord } from "./types.ts";
import type { ServerEntry } from "./config.ts";
import { settleWithin } from "./_settle.ts";
import { endHttpSession } from "./client.ts";

/** A capture record before the caller adds `server`, `transport` and `runPaths`. */
export type CaptureResult = Omit<ServerCaptureRecord, "server" | "transport" | "runPaths">;

/** The fields every failed capture records, before its `outcome` and `message`. */
export type FailureFields = Omit<CaptureResult, "outcome" | "message">;

/** The SDK's report of an answer to its `server/discover` probe that came after it stopped waiting. */
const LATE_PROBE =
  /^Received a response for an unknown message ID: (\{.*"id":"server-discover-probe-\d+".*\})$/s;

/**
 * Keeps a transport error in the capture's sink: as a warning `transport: <one line of 200
 * chars at most>`, except a late answer to the era probe, which the SDK reports as an unknown
 * message id: that one is no fault of the server or the transport but mcpmeter's probe meeting
 * a server slow to answer (commonly one slow to start), so it is a note that says so.
 *
 * @param sink The capture's warnings and notes.
 * @param error What the transport or the client reported.
 */
export function keepTransportError(sink: WarningSink, error: unknown): void {
  const late = lateProbeNote(error);
  if (late === null) sink.add(`transport: ${oneLine(error, 200)}`);
  else sink.note(late);
}

/** The note for a late answer to the era probe, or null when `error` is not one. */
function lateProbeNote(error: unknown): string | null {
  const late = LATE_PROBE.exec(error instanceof Error ? error.message : String(error));
  if (late === null) return null;
  let notFound = false;
  try {
    notFound = (JSON.parse(late[1]) as { error?: { code?: unknown } }).error?.code === -32601;
  } catch { /* not JSON: said without the method-not-found detail */ }
  return `server/discover was answered after the probe's wait (at most ${PROBE_TIMEOUT_MS} ms) ` +
    `ran out${notFound ? ", with method not found (a 2025-era server)" : ""}; ` +
    "the client had gone on with initialize";
}

/**
 * A client for either protocol era (lib/mcp/client.ts) that keeps transport errors as warnings.
 *
 * @param warnings Where transport errors go ({@linkcode keepTransportError}).
 * @param negotiation How the era is found. @default {"auto"}
 * @returns An unconnected client.
 */
export function captureClient(
  warnings: WarningSink,
  negotiation: EraNegotiation = "auto",
): McpClient {
  const client = createMcpClient(negotiation);
  client.onerror = (error) => keepTransportError(warnings, error);
  return client;
}

/**
 * Counts the server's `notifications/tools/list_changed` on `client` (register it before
 * `connect`, so a notification sent right after `initialize` is not lost).
 *
 * @param client An unconnected SDK client.
 * @returns The watcher to pass to `listServer` as `changes`.
 */
export function watchToolListChanges(
  client: { setNotificationHandler(notification: never, handler: () => void): void },
): ListChangeWatcher {
  const watcher = listChangeWatcher();
  client.setNotificationHandler(ToolListChangedNotificationSchema as never, () => watcher.notify());
  return watcher;
}

/**
 * Records the protocol version the client negotiates on `transport`: the SDK's
 * `Client.connect` hands it to `transport.setProtocolVersion` after
 * `initialize`, for stdio, streamable HTTP and SSE alike.
 *
 * @param transport Any SDK client transport, before `connect`.
 * @returns A getter for the negotiated version (`undefined` until set).
 */
export function watchProtocolVersion(transport: object): () => string | undefined {
  // Stdio transports do not declare the hook; the client calls it when present.
  const t = transport as { setProtocolVersion?: (version: string) => void };
  let version: string | undefined;
  const original = t.setProtocolVersion?.bind(transport);
  t.setProtocolVersion = (v: string) => {
    version = v;
    original?.(v);
  };
  return () => version;
}

/**
 * The `ok` record of a capture whose listing completed; the listing's warnings join the
 * sink's (so they count against its limit).
 *
 * @param client The connected client (its `serverInfo`, `instructions` and negotiated protocol
 *   version).
 * @param listing What the server listed.
 * @param warnings The capture's warnings so far.
 * @param captureMs Wall time from spawn or connect to the end of the listing, in ms.
 * @param protocolVersion The negotiated MCP protocol version when the client cannot say (see
 *   {@linkcode watchProtocolVersion}).
 * @returns `outcome: "ok"` with tools, prompts, resources, pages, and `serverInfo`,
 *   `protocolVersion` and `instructions` when known.
 */
export function okResult(
  client: Pick<McpClient, "getServerVersion" | "getInstructions"> & Partial<McpClient>,
  listing: ServerListing,
  warnings: WarningSink,
  captureMs: number,
  watched?: string,
): CaptureResult {
  for (const warning of listing.warnings) warnings.add(warning);
  const protocolVersion = client.protocolVersion?.() ?? watched;
  const serverInfo = client.getServerVersion();
  const instructions = client.getInstructions();
  return {
    outcome: "ok",
    warnings: warnings.list(),
    ...warnings.notesField(),
    ...(serverInfo === undefined ? {} : { serverInfo: serverInfo as unknown as JsonObject }),
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(typeof instructions === "string" ? { instructions } : {}),
    tools: listing.tools,
    ...(listing.prompts === undefined ? {} : { prompts: listing.prompts }),
    ...(listing.resources === undefined ? {} : { resources: listing.resources }),
    pages: listing.pages,
    captureMs,
  };
}

/**
 * The `timeout` record of a failed capture, when it failed for lack of time: the overall
 * timer fired (`signal` aborted) or a request timed out (`McpError` `RequestTimeout`).
 *
 * @param error What `connect` or the listing threw.
 * @param signal The capture's overall abort signal.
 * @param timeoutMs The overall timeout, in ms (quoted in the message).
 * @param fields The failure's fields; `fields.phase` names what was awaited.
 * @returns The `timeout` record, or `undefined` when the failure is of another kind. Its message
 *   names the first transport error other than `closed` seen while waiting.
 */
export function timeoutResult(
  error: unknown,
  signal: AbortSignal,
  timeoutMs: number,
  fields: FailureFields,
): CaptureResult | undefined {
  const timedOut = signal.aborted ||
    mcpErrorKind(error) === "timeout";
  if (!timedOut) return undefined;
  // What the transport could not read while waiting (junk on stdout, say) is the likely reason
  // no answer came: named in the cause, which is what the reports print for a failed server.
  const unread = fields.warnings.find((w) =>
    w.startsWith("transport: ") && w !== "transport: closed"
  );
  return {
    ...fields,
    outcome: "timeout",
    message: `no complete answer within ${timeoutMs} ms (waiting for ${fields.phase})${
      unread === undefined ? "" : `; meanwhile ${unread}`
    }`,
  };
}

/**
 * A record with secrets removed from everything the server wrote into it (`tools`,
 * `instructions`, `serverInfo`, prompts, resources, `message`, `warnings`, `stderrTail`): a
 * server may echo its credentials in a tool's description as well as in an error. String by
 * string (lib/core/secrets.ts `Redactor`): the shape and every number are kept.
 *
 * @param record A capture record or result.
 * @param secrets Secret values, in any order, duplicates allowed; those shorter than 4
 *   characters are left alone.
 * @returns `record` itself when no secret can apply, else a redacted copy.
 */
export function redactResult<T extends CaptureResult>(record: T, secrets: readonly string[]): T {
  return new Redactor(secrets).json(record);
}

/**
 * The record of a server that could not be started: outcome `spawn_failed` at phase `spawn`,
 * nothing listed, no time spent.
 *
 * @param entry The config entry (name, package and version are copied).
 * @param message Why it could not start, one line.
 * @param runPaths Paths the attempt created (default none).
 * @returns The record.
 */
export function spawnFailedRecord(
  entry: ServerEntry,
  message: string,
  runPaths: readonly RunPath[] = [],
): ServerCaptureRecord {
  return {
    ...recordBase(entry, runPaths),
    transport: entry.kind === "stdio" ? "stdio" : "streamable-http",
    outcome: "spawn_failed",
    phase: "spawn",
    message,
    warnings: [],
    tools: [],
    pages: {},
    captureMs: 0,
    runPaths,
  };
}

/**
 * The fields of a capture record that come from its config entry: server name, pinned package
 * and version (when the entry has them), and the run's paths.
 *
 * @param entry The config entry.
 * @param runPaths Paths the run created. @default {[]}
 * @returns `{server, package?, version?, runPaths}`.
 */
export function recordBase(
  entry: ServerEntry,
  runPaths: readonly RunPath[] = [],
): Pick<ServerCaptureRecord, "server" | "package" | "version" | "runPaths"> {
  return {
    server: entry.name,
    ...(entry.meta.package === undefined ? {} : { package: entry.meta.package }),
    ...(entry.meta.version === undefined ? {} : { version: entry.meta.version }),
    runPaths,
  };
}

/** Options every capture takes, whatever the transport. */
export interface CaptureOptionsBase {
  /**
   * Overall timeout (ms): for stdio spawn + initialize + every list, for a remote server each
   * transport attempt. Default: the entry's `timeoutMs`, else `DEFAULT_SERVER_TIMEOUT_MS`.
   */
  readonly timeoutMs?: number;
  /**
   * Variables for `${VAR}` expansion (typically the caller's environment); for stdio, `HOME`,
   * `SCRATCH` and `TMPDIR` are always the run's own folders.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Config source name for error messages. */
  readonly source?: string;
  /**
   * Settle window for a server that declares `tools.listChanged`: how long to wait for a
   * `notifications/tools/list_changed` (and re-list) after each listing, in ms.
   * @default {DEFAULT_SETTLE_MS} (lib/mcp/list.ts)
   */
  readonly settleMs?: number;
}

/** What {@linkcode captureSession} needs besides the transport and the warning sink. */
export interface CaptureSessionOptions {
  /** Overall timeout of connecting and listing, in ms. */
  readonly timeoutMs: number;
  /** Settle window for `notifications/tools/list_changed`, in ms (the listing's default when absent). */
  readonly settleMs: number | undefined;
  /** The phase awaited now, named in a failure (the caller moves it on from spawn). */
  readonly phase: () => NonNullable<FailureFields["phase"]>;
  /** Called once `initialize` succeeded: the phase becomes `tools/list`. */
  readonly onListing: () => void;
  /** Awaited first when connecting or listing threw (a process's exit, so it can be recorded). */
  readonly settleFailure?: (error: unknown) => Promise<unknown>;
  /** Fields a failure records after the common ones (a process's stderr tail). */
  readonly failureExtras?: () => Partial<FailureFields>;
  /** The record of a failure that is not a timeout. */
  readonly failure: (error: unknown, fields: FailureFields) => CaptureResult;
  /** Longest wait for the client to close, in ms. */
  readonly closeMs: number;
  /** Runs before the client is closed (kill a process tree). */
  readonly beforeClose?: () => void;
  /** Awaited after the client closed (a process's exit). */
  readonly afterClose?: () => Promise<unknown>;
  /** How the client finds the server's era. @default {"auto"} */
  readonly negotiation?: EraNegotiation;
}

/**
 * One capture over one transport, whatever it is: a {@linkcode captureClient} that watches list
 * changes and the negotiated protocol version connects and lists the server under one deadline;
 * the record is `ok`, `timeout`, or what `options.failure` makes of the error; the client is
 * closed (bounded) in every case.
 *
 * @param transport An SDK client transport, not yet started.
 * @param warnings The capture's warnings.
 * @param options Timeout, settle window, phase, the failure's record and fields, cleanup.
 * @returns The capture result (never throws for server faults; `options.failure` decides).
 */
export async function captureSession(
  transport: McpTransport,
  warnings: WarningSink,
  options: CaptureSessionOptions,
): Promise<CaptureResult> {
  const { timeoutMs } = options;
  const client = captureClient(warnings, options.negotiation);
  // Errors of the transport are warnings from its start: while the client asks server/discover it
  // has not attached its own handler yet (the SDK passes them to the transport's), and once it has,
  // it passes them on to the client's too (each kept once).
  const seen = new WeakSet<object>();
  const warn = (error: unknown) => {
    if (typeof error === "object" && error !== null) {
      if (seen.has(error)) return;
      seen.add(error);
    }
    keepTransportError(warnings, error);
  };
  (transport as { onerror?: (error: Error) => void }).onerror = warn;
  client.onerror = warn;
  const changes = watchToolListChanges(client);
  const protocolVersion = watchProtocolVersion(transport);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("server timeout")), timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    await client.connect(transport, { timeout: timeoutMs, signal: controller.signal });
    // A 2026-07-28 server says its list changed only on a subscriptions/listen stream.
    await client.watchToolList({ timeout: timeoutMs }).catch((error) =>
      warnings.add(`subscriptions/listen failed: ${oneLine(error, 200)}`)
    );
    options.onListing();
    const listing = await listServer(client, {
      requestTimeoutMs: timeoutMs,
      signal: controller.signal,
      changes,
      ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    });
    return okResult(client, listing, warnings, elapsed(), protocolVersion());
  } catch (error) {
    const captureMs = elapsed();
    await options.settleFailure?.(error);
    const fields: FailureFields = {
      phase: options.phase(),
      warnings: warnings.list(),
      ...warnings.notesField(),
      tools: [],
      pages: {},
      captureMs,
      ...options.failureExtras?.(),
    };
    return timeoutResult(error, controller.signal, timeoutMs, fields) ??
      options.failure(error, fields);
  } finally {
    clearTimeout(timer);
    options.beforeClose?.();
    await endHttpSession(transport, options.closeMs);
    await settleWithin(client.close(), options.closeMs);
    await options.afterClose?.();
  }
}
