/**
 * A {@linkcode ToolHost} over real MCP servers: each server runs as a `lib/mcp` stdio session
 * (throwaway HOME, process-tree isolation, killed with its tree on close), and the model sees
 * their tools under the agent's exposure mode:
 *
 * - `direct`: every listed tool, names and schemas normalized for the provider
 *   ({@linkcode exposeTools});
 * - `proxy`: the reference discovery proxy (`lib/proxy`) runs in process, linked to an MCP
 *   client by the SDK's `InMemoryTransport`, its upstreams being the agent's servers; the model
 *   sees exactly the proxy's `tools/list` (`retrieve_tools`, `describe_tool`, `call_tool`) and
 *   every call goes over MCP to the proxy;
 * - `code`: `retrieve_tools` (the proxy's BM25 index, compact signatures) and `run_code` (a
 *   sandboxed Deno program whose `tools.call` reaches the servers, see `run_code.ts`);
 * - `anthropic_search`, `openai_search`: the tools of `direct`, deferred behind the provider's
 *   tool search ({@linkcode ToolHost.toolSearch}: every tool but the agent's `alwaysLoad` ones;
 *   for OpenAI one namespace per server, described by the server's `instructions`).
 *
 * Upstream calls made through `call_tool` or `run_code` are reported in `ToolOutput.calls`.
 *
 * @module
 */

import { checkStructuredContent } from "../mcp/structured.ts";
import { toolFilter, type ToolLists } from "./tool_filter.ts";
import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import {
  applyToolOverrides,
  type OverridesApplied,
  type ToolOverrides,
  toolOverridesSha256,
} from "../catalog/overrides.ts";
import { listAll, type ListingClient } from "../mcp/list.ts";
import type { ServerEntry } from "../mcp/config.ts";
import {
  type McpSession,
  openRemoteSession,
  openStdioSession,
  SessionStartError,
} from "../mcp/session.ts";
import { CLIENT_INFO } from "../mcp/client_info.ts";
import { Client, InMemoryTransport } from "../core/sdk.ts";
import { createProxyCore, createProxyServer } from "../proxy/server.ts";
import { createToolIndex } from "../proxy/tool_index.ts";
import { createUpstreamPool, type UpstreamPool, withPoolTools } from "../proxy/upstream.ts";
import type { Exposure, ProviderKind, ToolSearchConfig } from "./types.ts";
import type { ToolSearchSetup } from "../catalog/sent_search.ts";
import {
  type ExposedTool,
  exposeTools,
  type HostOverrides,
  type ListedTool,
  MAX_PROVIDER_TOOL_NAME,
  type RoutedCall,
  type ToolHost,
  type ToolOutput,
} from "./tools.ts";
import {
  checkCodeArguments,
  CODE_TOOL_DEFINITIONS,
  codeRetrieveText,
  resolveToolName,
} from "./code_tools.ts";
import { runCode } from "./run_code.ts";
import { oneLine } from "../core/text.ts";

/** Default timeout of server start, `tools/list` and each `tools/call`, ms. */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** Default `run_code` time limit when the model gives no `timeout_ms`, ms (the schema's default). */
export const DEFAULT_RUN_CODE_TIMEOUT_MS = 30_000;

export { CODE_SERVER_NAME, PROXY_SERVER_NAME } from "./tools.ts";
import { CODE_SERVER_NAME, PROXY_SERVER_NAME, type ServerHello } from "./tools.ts";

/** A tool host that owns server processes. */
export interface McpToolHost extends ToolHost {
  /** Non-fatal findings from listing. */
  readonly warnings: readonly string[];
  /** Stops every server (killing its process tree) and removes the throwaway folders. */
  close(): Promise<void>;
}

/**
 * One server to start or connect to: its unexpanded config entry (stdio, or remote over
 * streamable HTTP / SSE) and variables for it (e.g. `BIN`).
 */
export interface McpServerSpec {
  /** Config entry, `${VAR}`s not yet expanded. */
  readonly entry: ServerEntry;
  /** Variables for this entry only, winning over `env` (e.g. `BIN`, `DATA`). */
  readonly vars?: Readonly<Record<string, string>>;
}

/** Options of {@linkcode openMcpHost}. */
export interface OpenMcpHostOptions {
  /** How the model sees the tools. */
  readonly exposure: Exposure;
  /** Provider whose rules names and schemas follow; default `anthropic`. */
  readonly provider?: ProviderKind;
  /** Timeout of server start and of each MCP request, ms; default {@linkcode DEFAULT_MCP_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Variables for `${VAR}` expansion of every entry (e.g. the environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Config source name for error messages. */
  readonly source?: string;
  /**
   * The agent's tool allow and deny lists (`server:tool` globs): under `direct` the tools the
   * model is offered, under `proxy`/`code` the upstream tools the proxy searches and calls.
   * Absent: every listed tool.
   */
  readonly tools?: ToolLists;
  /**
   * Tool-description overrides, applied to the servers' listing before the allow/deny lists:
   * under `direct` to the definitions the model is offered, under `proxy`/`code` to the
   * upstream catalog the proxy indexes and describes. Absent: the tools as listed.
   */
  readonly overrides?: ToolOverrides;
  /** Monotonic clock (ms) for call and listing durations; default `performance.now`. */
  readonly now?: () => number;
  /** Under a search exposure: the variant and the tools kept loaded (the agent's `toolSearch`). */
  readonly toolSearch?: ToolSearchConfig;
}

/** A server that could not be started or listed. */
export class McpHostError extends Error {
  /** Config key of the server. */
  readonly server: string;
  /**
   * Builds the error.
   *
   * @param server Config key.
   * @param message One line.
   */
  constructor(server: string, message: string) {
    super(`MCP server "${server}": ${message}`);
    this.name = "McpHostError";
    this.server = server;
  }
}

/** Any result object; kept as received. */
const AnyResult = z.looseObject({});

type CallResult = { content?: unknown; isError?: unknown; structuredContent?: unknown };

function outputOf(result: CallResult, outputSchema?: JsonObject): ToolOutput {
  // What a real SDK client rejects (no or invalid structuredContent for a declared
  // outputSchema) is an error the model sees, with its kind in the record.
  const broken = checkStructuredContent(outputSchema, result);
  if (broken !== undefined) {
    return {
      text: `tool result rejected: ${broken.message}`,
      isError: true,
      resultError: broken.kind,
    };
  }
  return {
    text: contentText((result.content ?? []) as JsonValue),
    isError: result.isError === true,
  };
}

async function callOver(
  client: ListingClient,
  name: string,
  args: JsonValue,
  timeout: number,
  signal?: AbortSignal,
  outputSchema?: JsonObject,
): Promise<ToolOutput> {
  try {
    const result = await client.request(
      { method: "tools/call", params: { name, arguments: (args ?? {}) as JsonObject } },
      AnyResult,
      { timeout, ...(signal ? { signal } : {}) },
    );
    return outputOf(result as CallResult, outputSchema);
  } catch (e) {
    return { text: `tool call failed: ${oneLine(e)}`, isError: true };
  }
}

async function listTools(
  server: string,
  client: ListingClient,
  timeout: number,
): Promise<{ listed: ListedTool[]; warnings: string[] }> {
  try {
    const page = await listAll(client, "tools/list", { requestTimeoutMs: timeout });
    return {
      listed: page.items.map((item) => ({ server, item })),
      warnings: page.warnings.map((w) => `${server}: ${w}`),
    };
  } catch (e) {
    throw new McpHostError(server, `tools/list failed: ${oneLine(e)}`);
  }
}

/**
 * Starts the given servers, lists their tools and exposes them under `exposure`.
 *
 * Servers start in parallel as `lib/mcp` sessions. A stdio server gets environment `PATH`, a
 * throwaway `HOME`, `TMPDIR`, `NODE_NO_WARNINGS=1` and the entry's own `env` (nothing else of
 * this process, so no API key reaches a server). A remote server (`url`) is reached over
 * streamable HTTP (SSE for `"type": "sse"`, or as the fallback of an entry without `type`),
 * `url` and `headers` expanded from `env` and the entry's `vars`, secret header values kept out
 * of errors and results (see `openRemoteSession` in lib/mcp/session.ts). The connected sessions
 * then go to {@linkcode hostSessions}.
 *
 * @param servers Servers in the order their tools are offered.
 * @param options Exposure, provider, timeout (ms), variables.
 * @returns The host; call `close()` when done.
 * @throws {McpHostError} When a server fails to start or list (every started one is stopped
 *   first).
 * @throws {RangeError} When a server is named like the in-process hosts
 *   ({@linkcode PROXY_SERVER_NAME}, {@linkcode CODE_SERVER_NAME}).
 */
export async function openMcpHost(
  servers: readonly McpServerSpec[],
  options: OpenMcpHostOptions,
): Promise<McpToolHost> {
  const timeout = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  checkReservedNames(servers.map(({ entry }) => entry.name));
  const started = await Promise.allSettled(
    servers.map(({ entry, vars }) =>
      entry.kind === "remote"
        ? openRemoteSession(entry, {
          timeoutMs: timeout,
          env: { ...options.env, ...vars },
          ...(options.source ? { source: options.source } : {}),
        })
        : openStdioSession(entry, {
          timeoutMs: timeout,
          ...(options.env ? { env: options.env } : {}),
          ...(vars ? { vars } : {}),
          ...(options.source ? { source: options.source } : {}),
        })
    ),
  );
  const sessions = started.flatMap((s) => s.status === "fulfilled" ? [s.value] : []);
  const failed = started.findIndex((s) => s.status === "rejected");
  if (failed >= 0) {
    await Promise.all(sessions.map((s) => s.close()));
    const reason = (started[failed] as PromiseRejectedResult).reason;
    // A SessionStartError already names the server: keep only its cause.
    const why = reason instanceof SessionStartError
      ? reason.message.replace(/^Cannot start MCP server "[^"]*": /, "")
      : oneLine(reason);
    throw new McpHostError(servers[failed].entry.name, `cannot start: ${oneLine(why)}`);
  }
  return await hostSessions(sessions, options);
}

function checkReservedNames(names: readonly string[]): void {
  for (const name of names) {
    if (name === PROXY_SERVER_NAME || name === CODE_SERVER_NAME) {
      throw new RangeError(`Cannot host server "${name}": the name is reserved`);
    }
  }
}

/**
 * Lists the tools of already connected servers and exposes them under `exposure`: the core of
 * {@linkcode openMcpHost} without the process start, for sessions connected any other way (an
 * in-process server over the SDK's `InMemoryTransport`, a remote session, ...). The host owns
 * the sessions: its `close()` closes them, and so does a failure here.
 *
 * @param sessions Connected servers in the order their tools are offered (their `name` is the
 *   `server` of each tool).
 * @param options Exposure, provider, timeout of each MCP request (ms), tool lists, overrides,
 *   clock; `env` and `source` are not used (they are for starting servers).
 * @returns The host; call `close()` when done.
 * @throws {McpHostError} When a server fails to list (every session is closed first).
 * @throws {RangeError} When a session is named like the in-process hosts
 *   ({@linkcode PROXY_SERVER_NAME}, {@linkcode CODE_SERVER_NAME}).
 */
export async function hostSessions(
  sessions: readonly McpSession[],
  options: OpenMcpHostOptions,
): Promise<McpToolHost> {
  const host = await exposeSessions(sessions, options);
  return { ...host, servers: sessions.map(serverHello) };
}

/** What a connected server said of itself (its client knows when it is mcpmeter's). */
function serverHello(session: McpSession): ServerHello {
  const c = session.client as Partial<{
    protocolVersion(): string | undefined;
    getInstructions(): string | undefined;
    getServerVersion(): unknown;
  }>;
  const protocolVersion = c.protocolVersion?.();
  const instructions = c.getInstructions?.();
  const serverInfo = c.getServerVersion?.();
  return {
    server: session.name,
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
    ...(typeof instructions === "string" ? { instructions } : {}),
    ...(serverInfo !== null && typeof serverInfo === "object"
      ? { serverInfo: serverInfo as JsonObject }
      : {}),
  };
}

async function exposeSessions(
  sessions: readonly McpSession[],
  options: OpenMcpHostOptions,
): Promise<McpToolHost> {
  const timeout = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  const provider = options.provider ?? "anthropic";
  const now = options.now ?? (() => performance.now());
  const closeSessions = () => Promise.all(sessions.map((s) => s.close())).then(() => {});
  try {
    checkReservedNames(sessions.map((s) => s.name));
  } catch (e) {
    await closeSessions();
    throw e;
  }
  const keep = toolFilter(options.tools);
  const overrides = options.overrides;
  try {
    if (options.exposure === "direct") {
      return await withOverrides(
        await directHost(sessions, provider, timeout, keep, overrides),
        overrides,
      );
    }
    if (options.exposure === "anthropic_search" || options.exposure === "openai_search") {
      const host = await directHost(sessions, provider, timeout, keep, overrides);
      return await withOverrides(
        { ...host, toolSearch: searchSetup(host.tools, sessions, options) },
        overrides,
      );
    }
    const listed = await createUpstreamPool(
      sessions.map((s) => ({ name: s.name, client: s.client, close: s.close })),
      { timeoutMs: timeout, now },
    );
    const applied = overrides === undefined
      ? undefined
      : applyToolOverrides(listed.tools, overrides);
    const full = applied === undefined ? listed : withPoolTools(listed, applied.tools);
    const pool = checkedPool(options.tools === undefined ? full : filteredPool(full, keep));
    const down = pool.statuses().find((s) => s.state !== "ready");
    if (down !== undefined) {
      await pool.close();
      throw new McpHostError(down.server, down.message ?? "not ready");
    }
    const host = options.exposure === "proxy"
      ? await proxyHost(pool, provider, timeout, now)
      : codeHost(pool, provider, now);
    return await withOverrides(host, overrides, applied);
  } catch (e) {
    await closeSessions();
    throw e;
  }
}

/**
 * The host with its overrides record: the document's sha256, what was applied and what named
 * nothing (`applied` absent: the direct host's own, set by {@linkcode directHost}).
 */
async function withOverrides(
  host: McpToolHost & { applied?: OverridesApplied },
  overrides: ToolOverrides | undefined,
  applied: OverridesApplied | undefined = host.applied,
): Promise<McpToolHost> {
  const { applied: _drop, ...rest } = host;
  if (overrides === undefined || applied === undefined) return rest;
  const record: HostOverrides = {
    sha256: await toolOverridesSha256(overrides),
    ...(overrides.file === undefined ? {} : { file: overrides.file }),
    applied: applied.applied,
    problems: applied.problems,
  };
  return {
    ...rest,
    overrides: record,
    warnings: [...rest.warnings, ...applied.problems.map((p) => `overrides: ${p.message}`)],
  };
}

/**
 * The pool whose calls are checked against each tool's `outputSchema` as real MCP clients do:
 * a result with no or invalid `structuredContent` reaches the proxy (and the model) as an
 * `isError` result saying why.
 */
function checkedPool(pool: UpstreamPool): UpstreamPool {
  const schemas = new Map(
    pool.tools.flatMap((t) =>
      t.outputSchema === undefined ? [] : [[`${t.server}\u0000${t.name}`, t.outputSchema] as const]
    ),
  );
  if (schemas.size === 0) return pool;
  return {
    ...pool,
    tools: pool.tools,
    warnings: pool.warnings,
    listingMs: pool.listingMs,
    statuses: () => pool.statuses(),
    close: () => pool.close(),
    async call(server, tool, args) {
      const result = await pool.call(server, tool, args);
      const broken = checkStructuredContent(schemas.get(`${server}\u0000${tool}`), result);
      if (broken === undefined) return result;
      return {
        content: [{ type: "text", text: `tool result rejected: ${broken.message}` }],
        isError: true,
      };
    },
  };
}

/** The pool with only the tools `keep` lets through: listed, searched and callable. */
function filteredPool(
  pool: UpstreamPool,
  keep: (server: string, tool: string) => boolean,
): UpstreamPool {
  return {
    ...pool,
    tools: pool.tools.filter((t) => keep(t.server, t.name)),
    warnings: pool.warnings,
    listingMs: pool.listingMs,
    statuses: () => pool.statuses(),
    close: () => pool.close(),
    call(server, tool, args) {
      if (keep(server, tool)) return pool.call(server, tool, args);
      return Promise.resolve({
        content: [{ type: "text", text: `tool ${server}:${tool} is not offered to this agent` }],
        isError: true,
      });
    },
  };
}

/**
 * Listed tools with the overrides applied to their `tools/list` items (only the fields an
 * override replaced change), and what was applied.
 */
function overrideListed(
  listed: readonly ListedTool[],
  overrides: ToolOverrides,
): { listed: ListedTool[]; applied: OverridesApplied } {
  const tools: Tool[] = listed.map(({ server, item }) => {
    const schema = item.inputSchema;
    return {
      id: `${server}:${String(item.name ?? "")}`,
      server,
      name: String(item.name ?? ""),
      ...(typeof item.title === "string" ? { title: item.title } : {}),
      description: typeof item.description === "string" ? item.description : "",
      ...(schema !== null && typeof schema === "object" && !Array.isArray(schema)
        ? { inputSchema: schema as JsonObject }
        : {}),
    };
  });
  const applied = applyToolOverrides(tools, overrides);
  const fieldsOf = new Map(applied.applied.map((a) => [a.toolId, a.fields]));
  return {
    listed: listed.map((l, i) => {
      const t = applied.tools[i];
      const fields = fieldsOf.get(t.id);
      if (fields === undefined) return l;
      return {
        server: l.server,
        item: {
          ...l.item,
          ...(fields.includes("title") ? { title: t.title! } : {}),
          ...(fields.includes("description") ? { description: t.description } : {}),
          ...(fields.some((f) => f.startsWith("parameters."))
            ? { inputSchema: t.inputSchema! }
            : {}),
        },
      };
    }),
    applied,
  };
}

/** Longest namespace description sent (characters): a server's `instructions` are cut here. */
export const MAX_NAMESPACE_DESCRIPTION = 1024;

/**
 * How a search exposure defers the exposed tools: every tool but those the agent's
 * `toolSearch.alwaysLoad` globs name; Anthropic's variant (`bm25` by default); for OpenAI one
 * namespace per server, named like a tool the provider accepts, described by the server's
 * `instructions` (cut at {@linkcode MAX_NAMESPACE_DESCRIPTION} characters) or, without them,
 * `Tools of the MCP server "NAME".`.
 */
function searchSetup(
  tools: readonly ExposedTool[],
  sessions: readonly McpSession[],
  options: OpenMcpHostOptions,
): ToolSearchSetup {
  const loaded = toolFilter({ allow: [...(options.toolSearch?.alwaysLoad ?? [])] });
  const always = options.toolSearch?.alwaysLoad === undefined
    ? () => false
    : (t: ExposedTool) => loaded(t.server, t.tool);
  const deferred = tools.filter((t) => !always(t)).map((t) => t.spec.name);
  if (options.exposure === "anthropic_search") {
    return {
      kind: options.toolSearch?.variant === "regex" ? "anthropic_regex" : "anthropic_bm25",
      deferred,
    };
  }
  const taken = new Set<string>();
  const namespaces = sessions.map((s) => {
    const instructions = (s.client as { getInstructions?: () => string | undefined })
      .getInstructions?.();
    const text = typeof instructions === "string" ? instructions.trim() : "";
    const base = s.name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, MAX_PROVIDER_TOOL_NAME - 3) ||
      "server";
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return {
      name,
      description: text === ""
        ? `Tools of the MCP server ${JSON.stringify(s.name)}.`
        : text.slice(0, MAX_NAMESPACE_DESCRIPTION),
      tools: tools.filter((t) => t.server === s.name).map((t) => t.spec.name),
    };
  }).filter((ns) => ns.tools.length > 0);
  return { kind: "openai", deferred, namespaces };
}

async function directHost(
  sessions: readonly McpSession[],
  provider: ProviderKind,
  timeout: number,
  keep: (server: string, tool: string) => boolean = () => true,
  overrides?: ToolOverrides,
): Promise<McpToolHost & { applied?: OverridesApplied }> {
  let all: ListedTool[] = [];
  const warnings: string[] = [];
  for (const s of sessions) {
    const l = await listTools(s.name, s.client, timeout);
    all.push(...l.listed);
    warnings.push(...l.warnings);
  }
  let applied: OverridesApplied | undefined;
  if (overrides !== undefined) ({ listed: all, applied } = overrideListed(all, overrides));
  const listed = all.filter((t) => keep(t.server, String(t.item.name)));
  const byServer = new Map(sessions.map((s) => [s.name, s.client]));
  const outputSchemas = new Map<string, JsonObject>();
  for (const { server, item } of listed) {
    const schema = item.outputSchema;
    if (schema !== null && typeof schema === "object" && !Array.isArray(schema)) {
      outputSchemas.set(`${server}\u0000${String(item.name)}`, schema as JsonObject);
    }
  }
  return {
    tools: exposeTools(listed, provider),
    warnings,
    ...(applied === undefined ? {} : { applied }),
    close: () => Promise.all(sessions.map((s) => s.close())).then(() => {}),
    call: (tool, args, signal) =>
      callOver(
        byServer.get(tool.server)!,
        tool.tool,
        args,
        timeout,
        signal,
        outputSchemas.get(`${tool.server}\u0000${tool.tool}`),
      ),
  };
}

/** Records upstream calls into the store of the exposed call that caused them. */
function recordingPool(
  pool: UpstreamPool,
  store: AsyncLocalStorage<RoutedCall[]>,
  now: () => number,
): UpstreamPool {
  return {
    ...pool,
    tools: pool.tools,
    warnings: pool.warnings,
    listingMs: pool.listingMs,
    async call(server, tool, args) {
      const started = now();
      const result = await pool.call(server, tool, args);
      store.getStore()?.push({
        tool: `${server}:${tool}`,
        args: (args ?? {}) as JsonValue,
        ms: now() - started,
        isError: result.isError === true,
      });
      return result;
    },
  };
}

async function proxyHost(
  pool: UpstreamPool,
  provider: ProviderKind,
  timeout: number,
  now: () => number,
): Promise<McpToolHost> {
  const store = new AsyncLocalStorage<RoutedCall[]>();
  const core = createProxyCore(recordingPool(pool, store, now));
  const server = createProxyServer(core);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ ...CLIENT_INFO }, { capabilities: {} });
  const close = async () => {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
    await pool.close();
  };
  try {
    await client.connect(clientSide, { timeout });
    const l = await listTools(PROXY_SERVER_NAME, client as unknown as ListingClient, timeout);
    return {
      tools: exposeTools(l.listed, provider),
      warnings: [...pool.warnings, ...l.warnings],
      close,
      async call(tool, args, signal) {
        const calls: RoutedCall[] = [];
        const out = await store.run(
          calls,
          () => callOver(client as unknown as ListingClient, tool.tool, args, timeout, signal),
        );
        return calls.length > 0 ? { ...out, calls } : out;
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}

function codeHost(pool: UpstreamPool, provider: ProviderKind, now: () => number): McpToolHost {
  const index = createToolIndex(pool.tools);
  const tools = exposeTools(
    CODE_TOOL_DEFINITIONS.map((item) => ({ server: CODE_SERVER_NAME, item })),
    provider,
  );
  return {
    tools,
    warnings: pool.warnings,
    close: () => pool.close(),
    async call(tool: ExposedTool, args: JsonValue, signal?: AbortSignal): Promise<ToolOutput> {
      const invalid = checkCodeArguments(tool.tool, args);
      if (invalid !== undefined) return { text: invalid, isError: true };
      const a = (args ?? {}) as {
        query?: string;
        limit?: number;
        code?: string;
        timeout_ms?: number;
      };
      if (tool.tool === "retrieve_tools") {
        const hits = index.search(a.query!, a.limit ?? 10);
        return { text: codeRetrieveText(hits, index.get), isError: false };
      }
      const calls: RoutedCall[] = [];
      const result = await runCode({
        code: a.code!,
        timeoutMs: a.timeout_ms ?? DEFAULT_RUN_CODE_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
        call: async (name, callArgs) => {
          const target = resolveToolName(index.tools, name);
          if (target === undefined) {
            return {
              text:
                `Unknown or ambiguous tool "${name}": use a name from retrieve_tools (server:tool)`,
              isError: true,
            };
          }
          const started = now();
          const r = await pool.call(target.server, target.name, callArgs as JsonObject);
          const out = outputOf(r);
          calls.push({
            tool: target.id,
            args: callArgs,
            ms: now() - started,
            isError: out.isError,
          });
          return out;
        },
      });
      return {
        text: result.output,
        isError: result.isError,
        ...(calls.length ? { calls } : {}),
        ...(result.limit === undefined ? {} : { limit: result.limit }),
      };
    },
  };
}

/**
 * Text of an MCP `content` array: text parts joined by newlines; images, audio and resources
 * summarized in brackets.
 *
 * @param content `CallToolResult.content`.
 * @returns Text for the model.
 *
 * @example Usage
 * ```ts
 * import { contentText } from "./mcp_host.ts";
 * const text = contentText([{ type: "text", text: "a" }, { type: "image", mimeType: "image/png" }]);
 * if (text !== "a\n[image image/png]") throw new Error(text);
 * ```
 */
export function contentText(content: JsonValue): string {
  if (!Array.isArray(content)) return "";
  return (content as JsonObject[]).map((part) => {
    if (part?.type === "text") return String(part.text ?? "");
    if (part?.type === "resource") {
      const r = part.resource as JsonObject | undefined;
      return typeof r?.text === "string" ? r.text : `[resource ${String(r?.uri ?? "")}]`;
    }
    return `[${String(part?.type)} ${String(part?.mimeType ?? "")}]`.replace(" ]", "]");
  }).join("\n");
}
