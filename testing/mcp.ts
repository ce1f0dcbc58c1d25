// Test helpers (not part of the public surface): in-process MCP servers with the tools of the
// stdio fixture servers, built with the SDK's low-level Server (which sends a listing and a
// result exactly as written, broken ones included) and linked to an SDK Client over
// InMemoryTransport. Tests that are not about the process or the network use these instead of
// spawning the fixture; a real-process test (lib/agent/mcp_host_test.ts) checks that each twin
// lists and answers what its fixture does.
import type { JsonObject } from "../lib/catalog/types.ts";
import {
  CallToolRequestSchema,
  Client,
  InMemoryTransport,
  ListToolsRequestSchema,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "../lib/core/sdk.ts";
import { CLIENT_INFO } from "../lib/mcp/client_info.ts";
import type { McpSession, SessionClient } from "../lib/mcp/session.ts";

/** A tool result as the in-process servers return it. */
type Result = { content: JsonObject[]; structuredContent?: JsonObject };

/** An in-process server definition: raw `tools/list` items and what `tools/call` returns. */
export interface MemoryServerDef {
  /** `serverInfo.name`. */
  readonly serverName: string;
  /** Raw `tools/list` items, sent as written. */
  readonly tools: readonly JsonObject[];
  /** The result of calling `name` with `args`. */
  readonly call: (name: string, args: JsonObject) => Result;
}

const LONG_NAME =
  "notes.search_every_note_in_the_workspace_by_keyword_and_return_the_matching_lines";

/**
 * The tools of `fixtures/mcp/serve_with_child.mjs` (without its child process and its `env`
 * echo, which are about the process): a dotted name over 64 characters with no `inputSchema`,
 * and `echo(message)`.
 */
export const NOTES_SERVER: MemoryServerDef = {
  serverName: "serve-with-child",
  tools: [
    {
      name: LONG_NAME,
      description: "Searches notes (a name with a dot, over 64 characters; no inputSchema).",
    },
    {
      name: "echo",
      description: "Returns the message.",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      },
    },
  ],
  call: (name, args) =>
    name === LONG_NAME
      ? { content: [{ type: "text", text: `searched: ${JSON.stringify(args)}` }] }
      : { content: [{ type: "text", text: `echo: ${args.message ?? ""}` }] },
};

const COUNT_SCHEMA = {
  type: "object",
  properties: { count: { type: "integer" } },
  required: ["count"],
};

/**
 * The tools of `fixtures/mcp/output_schema_server.ts`: `good`, `bare` and `wrong` declare an
 * `outputSchema`; `good` returns valid `structuredContent`, `bare` none, `wrong` a string count.
 */
export const COUNTS_SERVER: MemoryServerDef = {
  serverName: "output-schema",
  tools: ["good", "bare", "wrong"].map((name) => ({
    name,
    description: `Counts things (${name} result).`,
    inputSchema: { type: "object", properties: {} },
    outputSchema: COUNT_SCHEMA,
  })),
  call: (name) => {
    const content = [{ type: "text", text: "3 things" }];
    if (name === "good") return { content, structuredContent: { count: 3 } };
    if (name === "bare") return { content };
    return { content, structuredContent: { count: "three" } };
  },
};

/** A new SDK `Server` answering `tools/list` and `tools/call` from `def`. */
export function memoryServer(def: MemoryServerDef): Server {
  const server = new Server({ name: def.serverName, version: "1.0.0" }, {
    capabilities: { tools: {} },
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: def.tools as unknown as { name: string; inputSchema: { type: "object" } }[],
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (request) =>
      def.call(request.params.name, (request.params.arguments ?? {}) as JsonObject) as never,
  );
  return server;
}

/**
 * A session named `name` whose client reaches an in-process server over `InMemoryTransport`,
 * shaped like a `lib/mcp` session (`close()` is idempotent and closes both ends).
 *
 * @param name Session (config key) name.
 * @param def The server's tools and results.
 * @returns The connected session and how many times it was closed.
 */
export async function memorySession(
  name: string,
  def: MemoryServerDef,
): Promise<McpSession & { readonly closed: () => number }> {
  const server = memoryServer(def);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ ...CLIENT_INFO }, { capabilities: {} });
  await client.connect(clientSide);
  let closed = 0;
  return {
    name,
    client: client as unknown as SessionClient,
    closed: () => closed,
    close: async () => {
      closed += 1;
      if (closed > 1) return;
      await client.close();
      await server.close();
    },
  };
}

/**
 * Pids of live (not zombie) processes whose command line contains `marker`, read from /proc.
 *
 * @param marker Text to look for in `/proc/PID/cmdline`.
 * @returns The pids.
 */
export function liveProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const dir of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(dir.name)) continue;
    try {
      if (!Deno.readTextFileSync(`/proc/${dir.name}/cmdline`).includes(marker)) continue;
      const stat = Deno.readTextFileSync(`/proc/${dir.name}/stat`);
      if (!/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2))) found.push(Number(dir.name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** A sessionful streamable HTTP server ({@linkcode sessionfulHttpServer}) and what it saw. */
export interface SessionfulHttpServer {
  /** Endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Session ids it opened, in order. */
  readonly opened: string[];
  /** Session ids a client ended with `DELETE`, in order. */
  readonly deleted: string[];
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * A real streamable HTTP MCP server with sessions (the SDK's Web-standard transport, one
 * `Server` per session answering from `def`), recording the sessions opened and those a client
 * ended with `DELETE`, as the spec asks a client that no longer needs its session to do.
 *
 * @param def The server's tools and results.
 * @returns The listening server.
 */
export function sessionfulHttpServer(def: MemoryServerDef): SessionfulHttpServer {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const opened: string[] = [];
  const deleted: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const id = req.headers.get("mcp-session-id");
    if (id !== null) {
      const transport = sessions.get(id);
      if (transport === undefined) return new Response("unknown session", { status: 404 });
      if (req.method === "DELETE") deleted.push(id);
      return await transport.handleRequest(req);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sid) => {
        opened.push(sid);
        sessions.set(sid, transport);
      },
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    await memoryServer(def).connect(transport);
    return await transport.handleRequest(req);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    opened,
    deleted,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      await server.shutdown();
    },
  };
}
