/**
 * Calls a discovery tool over MCP streamable HTTP, once per query, and keeps
 * the exact response text and the client-side latency of each call. The I/O
 * edge of lib/live: network and clock.
 *
 * Faults never abort the run; each becomes the query's `outcome`:
 * - `tool_error`: the tool answered with `isError: true`;
 * - `no_text`: the result has no text content;
 * - `timeout`: no answer within the timeout;
 * - `connection_refused`: the endpoint refused or could not be reached;
 * - `session_dropped`: the server forgot the session (HTTP 404) or closed
 *   the connection; the next query reconnects with a new session;
 * - `protocol_error`: any other JSON-RPC or HTTP error.
 * Text that is not JSON is still a response (`ok`); the attribution step
 * counts it as `other` and flags it.
 *
 * @module
 */
import { z } from "zod";
import type { JsonObject } from "../catalog/types.ts";
import { StreamableHTTPClientTransportV2 } from "../core/sdk.ts";
import { createMcpClient, endHttpSession, type McpClient, mcpErrorKind } from "../mcp/client.ts";
import { oneLine } from "../core/text.ts";

/** Why a discovery call produced no usable response. */
export type CallOutcome =
  | "ok"
  | "tool_error"
  | "no_text"
  | "timeout"
  | "connection_refused"
  | "session_dropped"
  | "protocol_error";

/** One discovery call. */
export interface DiscoveryCall {
  /** `ok` or the fault (see the module doc). */
  readonly outcome: CallOutcome;
  /** Text content blocks of the result, exactly as received, joined with "\n" (`""` when none). */
  readonly text: string;
  /** Client-side wall time of the call (ms), from sending the request to parsing the answer. */
  readonly latencyMs: number;
  /** One-line cause, for outcomes other than `ok`. */
  readonly message?: string;
}

/** Where and how to call the discovery tool. */
export interface DiscoveryTarget {
  /** Streamable HTTP endpoint URL. */
  readonly url: string;
  /** Extra request headers (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Name of the discovery tool.
   * @default {"retrieve_tools"}
   */
  readonly tool?: string;
  /**
   * Argument that carries the query text.
   * @default {"query"}
   */
  readonly queryArg?: string;
  /**
   * Timeout per call (and per connect), in ms.
   * @default {30000}
   */
  readonly timeoutMs?: number;
}

/** An open discovery session that reconnects after a dropped session. */
export interface DiscoverySession {
  /**
   * Calls the discovery tool with `{[queryArg]: query, ...extraArgs}`.
   *
   * @param query Query text.
   * @param extraArgs Further arguments (e.g. `{limit: 10, detail: "compact"}`).
   * @returns The call record; never rejects.
   */
  discover(query: string, extraArgs?: JsonObject): Promise<DiscoveryCall>;
  /**
   * `tools/list` of the endpoint (all pages), with its latency.
   *
   * @returns The raw tool objects and the wall time (ms), or the failure.
   */
  listTools(): Promise<
    | { readonly ok: true; readonly tools: readonly JsonObject[]; readonly latencyMs: number }
    | { readonly ok: false; readonly outcome: CallOutcome; readonly message: string }
  >;
  /**
   * What the endpoint said of itself when the session opened.
   *
   * @returns The negotiated protocol revision and its `instructions` (each absent when unknown).
   */
  server(): { readonly protocolVersion?: string; readonly instructions?: string };
  /**
   * Closes the session (a streamable HTTP session is ended on the endpoint with `DELETE`).
   *
   * @returns When closed.
   */
  close(): Promise<void>;
}

const AnyResult = z.looseObject({});

function classify(error: unknown): CallOutcome {
  const kind = mcpErrorKind(error);
  if (kind === "timeout") return "timeout";
  if (kind === "closed") return "session_dropped";
  // v1's transport puts the HTTP status in `code`, v2's in `data.status`.
  const code = (error as { code?: unknown }).code;
  const status = (error as { data?: { status?: unknown } }).data?.status;
  const message = oneLine(error);
  if (code === 404 || status === 404 || /session not found|unknown session/i.test(message)) {
    return "session_dropped";
  }
  if (
    /ECONNREFUSED|connection refused|fetch failed|error sending request|tcp connect error/i.test(
      message,
    )
  ) {
    return "connection_refused";
  }
  if (/timed? ?out/i.test(message)) return "timeout";
  return "protocol_error";
}

/**
 * Opens a discovery session (connecting lazily, on the first call).
 *
 * @param target Endpoint, headers, tool name, query argument, timeout (ms).
 * @param now Clock in ms (default `performance.now`), injectable for tests.
 * @returns The session.
 */
export function openDiscoverySession(
  target: DiscoveryTarget,
  now: () => number = () => performance.now(),
): DiscoverySession {
  const timeoutMs = target.timeoutMs ?? 30_000;
  const tool = target.tool ?? "retrieve_tools";
  const queryArg = target.queryArg ?? "query";
  let client: McpClient | undefined;
  let transport: InstanceType<typeof StreamableHTTPClientTransportV2> | undefined;
  let seen: { protocolVersion?: string; instructions?: string } = {};

  // Either protocol era (lib/mcp/client.ts): a gateway of the 2026-07-28 revision too.
  const connect = async (): Promise<McpClient> => {
    if (client !== undefined) return client;
    const c = createMcpClient();
    const t = new StreamableHTTPClientTransportV2(new URL(target.url), {
      requestInit: { headers: { ...target.headers } },
    });
    await c.connect(t, { timeout: timeoutMs });
    c.onclose = () => {
      if (client === c) client = undefined;
    };
    client = c;
    transport = t;
    const protocolVersion = c.protocolVersion();
    const instructions = c.getInstructions();
    seen = {
      ...(protocolVersion === undefined ? {} : { protocolVersion }),
      ...(instructions === undefined ? {} : { instructions }),
    };
    return c;
  };
  const drop = async () => {
    const c = client, t = transport;
    client = undefined;
    transport = undefined;
    await endHttpSession(t, 2_000);
    await c?.close().catch(() => {});
  };

  return {
    async discover(query, extraArgs = {}) {
      const started = now();
      const elapsed = () => now() - started;
      try {
        const c = await connect();
        const result = await c.request(
          {
            method: "tools/call",
            params: { name: tool, arguments: { ...extraArgs, [queryArg]: query } },
          },
          AnyResult,
          { timeout: timeoutMs },
        ) as JsonObject;
        const latencyMs = elapsed();
        const content = Array.isArray(result.content) ? result.content as JsonObject[] : [];
        const texts = content.filter((b) => b.type === "text" && typeof b.text === "string")
          .map((b) => b.text as string);
        const text = texts.join("\n");
        if (result.isError === true) {
          return { outcome: "tool_error", text, latencyMs, message: text.slice(0, 300) };
        }
        if (texts.length === 0) {
          return { outcome: "no_text", text, latencyMs, message: "the result has no text content" };
        }
        return { outcome: "ok", text, latencyMs };
      } catch (error) {
        const latencyMs = elapsed();
        const outcome = classify(error);
        if (outcome === "session_dropped" || outcome === "connection_refused") await drop();
        return { outcome, text: "", latencyMs, message: oneLine(error) };
      }
    },
    async listTools() {
      const started = now();
      try {
        const c = await connect();
        const tools: JsonObject[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await c.request(
            cursor === undefined
              ? { method: "tools/list" }
              : { method: "tools/list", params: { cursor } },
            AnyResult,
            { timeout: timeoutMs },
          ) as JsonObject;
          tools.push(...(Array.isArray(page.tools) ? page.tools as JsonObject[] : []));
          cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
          pages++;
        } while (cursor !== undefined && pages < 1000);
        return { ok: true, tools, latencyMs: now() - started };
      } catch (error) {
        const outcome = classify(error);
        if (outcome === "session_dropped" || outcome === "connection_refused") await drop();
        return { ok: false, outcome, message: oneLine(error) };
      }
    },
    server: () => seen,
    close: drop,
  };
}
