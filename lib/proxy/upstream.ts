/**
 * The proxy's upstream servers: connected SDK clients, their tools (listed again when an
 * upstream says its list changed), and call forwarding that never throws for an upstream fault.
 *
 * {@linkcode createUpstreamPool} takes clients that are already connected
 * (in-process servers over `InMemoryTransport`, or anything else);
 * `connectUpstreams` in `connect.ts` starts them from a servers config.
 *
 * @module
 */
import { z } from "zod";
import type { JsonObject, Tool } from "../catalog/types.ts";
import { listAll, type ListingClient } from "../mcp/list.ts";
import { toolFromListing } from "./tool_index.ts";
import { ToolListChangedNotificationSchema } from "../core/sdk.ts";
import { oneLine } from "../core/text.ts";

/** Default timeout of one forwarded call or listing, in ms. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/**
 * A `tools/call` result as it travels: `content` blocks, optional `isError`,
 * and any other fields (`structuredContent`, `_meta`, ...) kept as received.
 */
export interface ToolCallResult {
  /** Content blocks (`{type: "text", text}`, ...). */
  readonly content?: readonly JsonObject[];
  /** True when the tool reports a failure the agent can act on. */
  readonly isError?: boolean;
  /** Any other field, forwarded unchanged. */
  readonly [key: string]: unknown;
}

/**
 * What the pool needs of a connected MCP client; the SDK's `Client` (from
 * `@modelcontextprotocol/sdk/client/index.js`) satisfies it. Declared here so
 * the public surface does not depend on the SDK's types.
 */
export interface UpstreamClient extends ListingClient {
  /** Set by the pool: called when the connection closes. */
  onclose?: () => void;
  /** Ends the connection. */
  close(): Promise<void>;
  /**
   * Registers the handler of one server notification (the SDK `Client`'s); when the client has
   * it, the pool lists the upstream again on `notifications/tools/list_changed`.
   */
  setNotificationHandler?(schema: never, handler: () => void): void;
  /**
   * Asks the server to say when its tool list changes (lib/mcp/client.ts: a 2026-07-28 server
   * tells only a client that opened a `subscriptions/listen` stream for it).
   */
  watchToolList?(options?: { timeout?: number }): Promise<string>;
  /** The protocol revision negotiated (lib/mcp/client.ts), when the client knows it. */
  protocolVersion?(): string | undefined;
  /** The server's `instructions`, when it sent them. */
  getInstructions?(): string | undefined;
}

/** One upstream the pool should use: a connected client and how to shut it down. */
export interface UpstreamConnection {
  /** Server name (config key); tool ids are `name:tool`. */
  readonly name: string;
  /** A connected SDK client. */
  readonly client: UpstreamClient;
  /** Ends the connection and anything behind it (process tree, scratch folders). */
  readonly close: () => Promise<void>;
}

/** An upstream that could not be started or listed. */
export interface UpstreamFailure {
  /** Server name (config key). */
  readonly name: string;
  /** What went wrong, one line. */
  readonly message: string;
}

/** State of one upstream, for status output and reports. */
export interface UpstreamStatus {
  /** Server name. */
  readonly server: string;
  /** `ready` (listed, callable), `failed` (never became ready), `closed` (connection lost later). */
  readonly state: "ready" | "failed" | "closed";
  /** Tools listed (count; 0 unless it became ready). */
  readonly toolCount: number;
  /** Reason for `failed`/`closed`. */
  readonly message?: string;
  /** Protocol revision negotiated with it (`2026-07-28`, `2025-06-18`, ...), once connected. */
  readonly protocolVersion?: string;
  /** The `instructions` it sent, when it sent some. */
  readonly instructions?: string;
}

/** Options of {@linkcode createUpstreamPool}. */
export interface UpstreamPoolOptions {
  /**
   * Timeout of each listing page and each forwarded call, in ms.
   * @default {DEFAULT_UPSTREAM_TIMEOUT_MS}
   */
  readonly timeoutMs?: number;
  /** Upstreams that failed before a client existed (recorded as `failed`). */
  readonly failures?: readonly UpstreamFailure[];
  /** Monotonic clock (ms) for `listingMs`; default `performance.now`. */
  readonly now?: () => number;
}

/** Connected upstreams and their tools. */
export interface UpstreamPool {
  /**
   * Tools of every upstream that listed successfully, sorted by id; an upstream that sends
   * `notifications/tools/list_changed` is listed again and its tools replaced.
   */
  readonly tools: readonly Tool[];
  /**
   * Subscribes to changes of {@linkcode UpstreamPool.tools} (after an upstream's list changed
   * and was listed again).
   *
   * @param listener Called after each change.
   * @returns Unsubscribes.
   */
  onToolsChanged?(listener: () => void): () => void;
  /** Non-fatal findings while listing (lenient parses), in order. */
  readonly warnings: readonly string[];
  /** Wall time of listing every upstream's tools once, in parallel, at start (ms). */
  readonly listingMs: number;
  /**
   * Current state of each upstream, sorted by name.
   *
   * @returns One status per upstream.
   */
  statuses(): readonly UpstreamStatus[];
  /**
   * Forwards `tools/call` to the upstream that owns `server`.
   *
   * The upstream's result is returned exactly as received, `isError` included.
   * Upstream faults (unknown or failed server, closed connection, timeout,
   * JSON-RPC error) become an `isError` result whose text names the server,
   * the tool and the cause; this never rejects.
   *
   * @param server Upstream name.
   * @param tool Tool name on that upstream.
   * @param args Tool arguments.
   * @returns The `tools/call` result.
   */
  call(server: string, tool: string, args: JsonObject | undefined): Promise<ToolCallResult>;
  /**
   * Closes every upstream (errors ignored).
   *
   * @returns When all are closed.
   */
  close(): Promise<void>;
}

/**
 * The pool listing `tools` instead of its own (e.g. the same tools with overridden
 * descriptions, lib/catalog/overrides.ts); calls, statuses and closing go to `pool`.
 *
 * @param pool The pool.
 * @param tools Tools to list, searched and described in place of `pool.tools`.
 * @returns A pool over the same upstreams.
 */
export function withPoolTools(pool: UpstreamPool, tools: readonly Tool[]): UpstreamPool {
  // The given tools stand for the session: a later change of the upstreams' lists is not
  // passed on (no onToolsChanged).
  return {
    tools,
    warnings: pool.warnings,
    listingMs: pool.listingMs,
    statuses: () => pool.statuses(),
    call: (server, tool, args) => pool.call(server, tool, args),
    close: () => pool.close(),
  };
}

/** Any result object; kept exactly as received (unknown keys too). */
const AnyResult = z.looseObject({});

/**
 * An `isError` tool result with one text block.
 *
 * @param text Message for the agent.
 * @returns `{content: [{type: "text", text}], isError: true}`.
 */
export function errorResult(text: string): ToolCallResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Lists the tools of connected upstreams and builds the pool.
 *
 * An upstream whose `tools/list` fails is closed and recorded as `failed`;
 * the others are used. Listing runs in parallel.
 *
 * @param connections Connected upstreams (unique names, none containing `:`).
 * @param options Timeout (ms), earlier failures.
 * @returns The pool.
 * @throws {RangeError} When two upstreams share a name or a name contains `:`.
 */
export async function createUpstreamPool(
  connections: readonly UpstreamConnection[],
  options: UpstreamPoolOptions = {},
): Promise<UpstreamPool> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const names = new Set<string>();
  for (const c of [...connections, ...(options.failures ?? [])]) {
    if (names.has(c.name)) throw new RangeError(`Upstream name "${c.name}" appears twice`);
    if (c.name === "" || c.name.includes(":")) {
      throw new RangeError(`Upstream name "${c.name}" must be non-empty and contain no ":"`);
    }
    names.add(c.name);
  }
  interface Entry {
    connection: UpstreamConnection;
    state: UpstreamStatus["state"];
    message?: string;
    toolCount: number;
    /** Its tools as last listed. */
    tools: Tool[];
  }
  const entries = new Map<string, Entry>();
  const failed = new Map<string, string>();
  for (const f of options.failures ?? []) failed.set(f.name, f.message);
  const warnings: string[] = [];
  let tools: Tool[] = [];
  const listeners = new Set<() => void>();
  const now = options.now ?? (() => performance.now());
  /** An upstream's listed items as tools (lenient), with what was wrong with them. */
  const toTools = (name: string, items: readonly JsonObject[], into: string[]) => {
    const out: Tool[] = [];
    const seen = new Set<string>();
    for (const raw of items) {
      try {
        const { tool, warnings: w } = toolFromListing(name, raw);
        if (seen.has(tool.id)) {
          into.push(`${name}: tool "${tool.id}" listed twice; first kept`);
          continue;
        }
        seen.add(tool.id);
        out.push(tool);
        into.push(...w.map((x) => `${name}: ${x}`));
      } catch (error) {
        into.push(`${name}: ${oneLine(error)}`);
      }
    }
    return out;
  };
  const gather = () => {
    tools = [...entries.values()].flatMap((e) => e.tools)
      .sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
  const listingStarted = now();
  const listed = await Promise.all(connections.map(async (connection) => {
    // Asked before the first listing, so a change after it is told (an upstream that cannot
    // tell stays listed once, with a warning).
    const watch = await connection.client.watchToolList?.({ timeout: timeoutMs })
      .then(() => undefined, (error) => `subscriptions/listen failed: ${oneLine(error)}`);
    try {
      const page = await listAll(connection.client, "tools/list", { requestTimeoutMs: timeoutMs });
      return {
        connection,
        items: page.items,
        warnings: watch === undefined ? page.warnings : [...page.warnings, watch],
      };
    } catch (error) {
      return { connection, error: `tools/list failed: ${oneLine(error)}` };
    }
  }));
  const listingMs = now() - listingStarted;
  for (const result of listed) {
    const { connection } = result;
    if ("error" in result) {
      failed.set(connection.name, result.error!);
      await connection.close().catch(() => {});
      continue;
    }
    const entry: Entry = { connection, state: "ready", toolCount: 0, tools: [] };
    for (const w of result.warnings) warnings.push(`${connection.name}: ${w}`);
    entry.tools = toTools(connection.name, result.items, warnings);
    entry.toolCount = entry.tools.length;
    entries.set(connection.name, entry);
    // The upstream's list changed: list it again (one listing at a time per upstream) and
    // replace its tools; a failed listing keeps the last ones, with a warning.
    let relisting: Promise<void> = Promise.resolve();
    connection.client.setNotificationHandler?.(
      ToolListChangedNotificationSchema as never,
      () => {
        relisting = relisting.then(async () => {
          if (entry.state !== "ready") return;
          try {
            const page = await listAll(connection.client, "tools/list", {
              requestTimeoutMs: timeoutMs,
            });
            entry.tools = toTools(connection.name, page.items, warnings);
            entry.toolCount = entry.tools.length;
          } catch (error) {
            warnings.push(
              `${connection.name}: tools/list after list_changed failed: ${oneLine(error)}`,
            );
            return;
          }
          gather();
          for (const listener of [...listeners]) listener();
        });
      },
    );
    const previous = connection.client.onclose;
    connection.client.onclose = () => {
      previous?.();
      if (entry.state === "ready") {
        entry.state = "closed";
        entry.message = "the connection to the upstream closed";
      }
    };
  }
  gather();

  return {
    get tools() {
      return tools;
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    warnings,
    listingMs,
    statuses() {
      const out: UpstreamStatus[] = [];
      for (const [server, e] of entries) {
        const protocolVersion = e.connection.client.protocolVersion?.();
        const instructions = e.connection.client.getInstructions?.();
        out.push({
          server,
          state: e.state,
          toolCount: e.toolCount,
          ...(e.message === undefined ? {} : { message: e.message }),
          ...(protocolVersion === undefined ? {} : { protocolVersion }),
          ...(instructions === undefined ? {} : { instructions }),
        });
      }
      for (const [server, message] of failed) {
        out.push({ server, state: "failed", toolCount: 0, message });
      }
      return out.sort((a, b) => a.server < b.server ? -1 : a.server > b.server ? 1 : 0);
    },
    async call(server, tool, args) {
      const entry = entries.get(server);
      const label = `${server}:${tool}`;
      if (entry === undefined) {
        const why = failed.get(server);
        return errorResult(
          why === undefined
            ? `Unknown server "${server}" in tool "${label}"`
            : `Upstream "${server}" is unavailable (${why}); cannot call "${label}"`,
        );
      }
      if (entry.state !== "ready") {
        return errorResult(
          `Upstream "${server}" is unavailable (${entry.message}); cannot call "${label}"`,
        );
      }
      try {
        const result = await entry.connection.client.request(
          { method: "tools/call", params: { name: tool, arguments: args ?? {} } },
          AnyResult,
          { timeout: timeoutMs },
        );
        return result as ToolCallResult;
      } catch (error) {
        return errorResult(`Upstream "${server}" failed on "${label}": ${oneLine(error)}`);
      }
    },
    async close() {
      await Promise.all([...entries.values()].map((e) => e.connection.close().catch(() => {})));
      for (const e of entries.values()) {
        if (e.state === "ready") {
          e.state = "closed";
          e.message = "closed by the proxy";
        }
      }
    },
  };
}
