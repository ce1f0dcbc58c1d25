/**
 * Captures one remote MCP server over streamable HTTP, falling back to the
 * legacy SSE transport when the entry has no `type` and streamable HTTP fails
 * to initialize (the fallback the MCP spec recommends for old servers).
 *
 * @module
 */

import { SSEClientTransportV2, StreamableHTTPClientTransportV2 } from "../core/sdk.ts";
import { expandServerEntry, type RemoteServerEntry } from "./config.ts";
import { DEFAULT_SERVER_TIMEOUT_MS, MAX_WARNINGS_PER_SERVER } from "./stdio.ts";
import {
  type CaptureOptionsBase,
  type CaptureResult,
  captureSession,
  recordBase,
  redactResult,
} from "./_capture.ts";
import { checkTimeoutMs } from "./_launch.ts";
import { WarningSink } from "./_text.ts";
import { oneLine } from "../core/text.ts";
import { entrySecrets } from "./secrets.ts";
import { mcpErrorText } from "./client.ts";
import type { CaptureTransport, ServerCaptureRecord } from "./types.ts";

/** Options of {@linkcode captureRemoteServer}. */
export type RemoteCaptureOptions = CaptureOptionsBase;

/**
 * Connects to a remote server, lists it and disconnects. Never throws for
 * server faults: a refused connection is `spawn_failed`, an HTTP or JSON-RPC
 * error is `protocol_error`, no answer in time is `timeout`.
 *
 * Secrets stay out of the record: the values of headers with secret names (the same rule
 * as for variables, `isSecretName` in lib/core/secrets.ts: `Authorization`, `X-Api-Key`, `Cookie`,
 * ...) and of such variables that `url` or `headers` reference are replaced by `[REDACTED]`
 * in `message` and `warnings` (a server may echo them in an error body).
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
  const base = recordBase(entry);
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
    record = {
      ...base,
      ...await attempt(expanded, kind, timeoutMs, options.settleMs),
      transport: kind,
    };
    if (record.outcome === "ok" || record.phase !== "initialize") break;
    earlier.push(`${kind} failed: ${record.message}`);
  }
  const final = record!;
  const withEarlier = final.outcome === "ok" && earlier.length > 0
    ? { ...final, warnings: [...earlier, ...final.warnings] }
    : final;
  return redactResult(withEarlier, remoteSecrets(entry, expanded, options.env ?? {}));
}

/**
 * Values of a remote entry that must not reach a record or a log: its secrets by the one rule of
 * `lib/mcp/secrets.ts` (`entrySecrets`: secret-named header values with and without a scheme
 * such as `Bearer `, every `${VAR}` the url or headers resolve, secrets in the url).
 *
 * @param entry The unexpanded entry.
 * @param _expanded The same entry with `${VAR}`s expanded (the rule expands it itself).
 * @param env The variables it was expanded from.
 * @returns Secret values (duplicates possible; short ones are ignored by the redaction).
 */
export function remoteSecrets(
  entry: RemoteServerEntry,
  _expanded: RemoteServerEntry,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  return entrySecrets(entry, env);
}

async function attempt(
  entry: RemoteServerEntry,
  kind: CaptureTransport,
  timeoutMs: number,
  settleMs: number | undefined,
): Promise<CaptureResult> {
  const url = new URL(entry.url);
  const requestInit = { headers: { ...entry.headers } };
  // The v2 SDK's transports: the v1 ones send no MCP-Protocol-Version header, which a server of
  // the 2026-07-28 revision requires (lib/mcp/client.ts).
  const transport = kind === "sse"
    ? new SSEClientTransportV2(url, { requestInit })
    : new StreamableHTTPClientTransportV2(url, { requestInit });
  let phase: "initialize" | "tools/list" = "initialize";
  return await captureSession(transport, new WarningSink(MAX_WARNINGS_PER_SERVER), {
    timeoutMs,
    settleMs,
    phase: () => phase,
    onListing: () => phase = "tools/list",
    failure: (error, fields) => {
      const text = oneLine(mcpErrorText(error));
      if (phase === "initialize" && /ECONNREFUSED|fetch failed|ENOTFOUND|connect/i.test(text)) {
        return { ...fields, outcome: "spawn_failed", message: `cannot connect: ${text}` };
      }
      return { ...fields, outcome: "protocol_error", message: `${phase}: ${text}` };
    },
    closeMs: 2_000,
  });
}
