/**
 * Captures one remote MCP server over streamable HTTP, falling back to the
 * legacy SSE transport when the entry has no `type` and streamable HTTP fails
 * to initialize (the fallback the MCP spec recommends for old servers).
 *
 * @module
 */

import {
  Client,
  ErrorCode,
  McpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from "../_sdk.ts";
import type { JsonObject } from "../catalog/types.ts";
import { expandServerEntry, type RemoteServerEntry } from "./config.ts";
import { listServer } from "./list.ts";
import { CLIENT_INFO, DEFAULT_SERVER_TIMEOUT_MS, MAX_WARNINGS_PER_SERVER } from "./stdio.ts";
import { checkTimeoutMs } from "./_launch.ts";
import { settleWithin } from "./_pool.ts";
import { oneLine, WarningSink } from "./_text.ts";
import type { CaptureTransport, ServerCaptureRecord } from "./types.ts";

/** Options of {@linkcode captureRemoteServer}. */
export interface RemoteCaptureOptions {
  /** Overall timeout (ms) per transport attempt; default: entry `timeoutMs`, else 30 s. */
  readonly timeoutMs?: number;
  /** Variables for `${VAR}` expansion in `url` and `headers`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Config source name for error messages. */
  readonly source?: string;
}

/**
 * Connects to a remote server, lists it and disconnects. Never throws for
 * server faults: a refused connection is `spawn_failed`, an HTTP or JSON-RPC
 * error is `protocol_error`, no answer in time is `timeout`.
 *
 * @param entry The (unexpanded) remote entry.
 * @param options Timeout (ms), variables.
 * @returns The capture record (`transport` says which transport was used).
 * @throws {RangeError} When `timeoutMs` is not a positive number.
 */
export async function captureRemoteServer(
  entry: RemoteServerEntry,
  options: RemoteCaptureOptions = {},
): Promise<ServerCaptureRecord> {
  const timeoutMs = checkTimeoutMs(
    options.timeoutMs ?? entry.meta.timeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS,
  );
  const base = {
    server: entry.name,
    ...(entry.meta.package === undefined ? {} : { package: entry.meta.package }),
    ...(entry.meta.version === undefined ? {} : { version: entry.meta.version }),
    runPaths: [],
  };
  let expanded: RemoteServerEntry;
  try {
    expanded = expandServerEntry(entry, options.env ?? {}, options.source) as RemoteServerEntry;
  } catch (error) {
    return {
      ...base,
      transport: entry.transport === "sse" ? "sse" : "streamable-http",
      outcome: "spawn_failed",
      message: oneLine(error),
      warnings: [],
      tools: [],
      pages: {},
      captureMs: 0,
    };
  }
  const attempts: CaptureTransport[] = expanded.transport === "sse"
    ? ["sse"]
    : expanded.transport === "streamable-http"
    ? ["streamable-http"]
    : ["streamable-http", "sse"];
  const earlier: string[] = [];
  let record: ServerCaptureRecord | undefined;
  for (const kind of attempts) {
    record = { ...base, ...await attempt(expanded, kind, timeoutMs), transport: kind };
    if (record.outcome === "ok" || record.phase !== "initialize") break;
    earlier.push(`${kind} failed: ${record.message}`);
  }
  const final = record!;
  if (final.outcome === "ok" && earlier.length > 0) {
    return { ...final, warnings: [...earlier, ...final.warnings] };
  }
  return final;
}

async function attempt(
  entry: RemoteServerEntry,
  kind: CaptureTransport,
  timeoutMs: number,
): Promise<Omit<ServerCaptureRecord, "server" | "transport" | "runPaths">> {
  const url = new URL(entry.url);
  const requestInit = { headers: { ...entry.headers } };
  const transport = kind === "sse"
    ? new SSEClientTransport(url, { requestInit })
    : new StreamableHTTPClientTransport(url, { requestInit });
  const warnings = new WarningSink(MAX_WARNINGS_PER_SERVER);
  const client = new Client({ ...CLIENT_INFO }, { capabilities: {} });
  client.onerror = (error) => warnings.add(`transport: ${oneLine(error, 200)}`);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("server timeout")), timeoutMs);
  const started = performance.now();
  let phase: "initialize" | "tools/list" = "initialize";
  try {
    await client.connect(transport, { timeout: timeoutMs, signal: controller.signal });
    phase = "tools/list";
    const listing = await listServer(client, {
      requestTimeoutMs: timeoutMs,
      signal: controller.signal,
    });
    const captureMs = Math.round(performance.now() - started);
    for (const warning of listing.warnings) warnings.add(warning);
    const serverInfo = client.getServerVersion();
    return {
      outcome: "ok",
      warnings: warnings.list(),
      ...(serverInfo === undefined ? {} : { serverInfo: serverInfo as unknown as JsonObject }),
      tools: listing.tools,
      ...(listing.prompts === undefined ? {} : { prompts: listing.prompts }),
      ...(listing.resources === undefined ? {} : { resources: listing.resources }),
      pages: listing.pages,
      captureMs,
    };
  } catch (error) {
    const captureMs = Math.round(performance.now() - started);
    const code = error instanceof McpError ? error.code : undefined;
    const common = { phase, warnings: warnings.list(), tools: [], pages: {}, captureMs };
    if (controller.signal.aborted || code === ErrorCode.RequestTimeout) {
      return {
        ...common,
        outcome: "timeout",
        message: `no complete answer within ${timeoutMs} ms (waiting for ${phase})`,
      };
    }
    const text = oneLine(error);
    if (phase === "initialize" && /ECONNREFUSED|fetch failed|ENOTFOUND|connect/i.test(text)) {
      return { ...common, outcome: "spawn_failed", message: `cannot connect: ${text}` };
    }
    return { ...common, outcome: "protocol_error", message: `${phase}: ${text}` };
  } finally {
    clearTimeout(timer);
    await settleWithin(client.close(), 2_000);
  }
}
