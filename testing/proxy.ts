// Test helpers (not part of the public surface): in-process upstream MCP
// servers built with the SDK's low-level Server, linked over InMemoryTransport.
import type { JsonObject } from "../lib/catalog/types.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  Client,
  InMemoryTransport,
  ListToolsRequestSchema,
  McpError,
  Server,
} from "../lib/core/sdk.ts";
import type { UpstreamConnection } from "../lib/proxy/upstream.ts";

/** What an in-process upstream does for one tool call. */
export type FakeBehaviour =
  | { readonly result: CallToolResult }
  | { readonly hang: true }
  | { readonly throwCode: number; readonly message: string };

/** An in-process upstream definition. */
export interface FakeUpstream {
  readonly name: string;
  /** Raw tools/list items. */
  readonly tools: readonly JsonObject[];
  /** Tool name → behaviour; default: a text result echoing the arguments. */
  readonly behaviours?: Readonly<Record<string, FakeBehaviour>>;
  /** Make tools/list fail with an error response. */
  readonly failList?: boolean;
}

/** Connects an in-process upstream; `server` is exposed so tests can close it. */
export async function fakeUpstream(
  def: FakeUpstream,
): Promise<UpstreamConnection & { readonly server: Server; readonly calls: JsonObject[] }> {
  const server = new Server({ name: def.name, version: "1.0.0" }, { capabilities: { tools: {} } });
  const calls: JsonObject[] = [];
  server.setRequestHandler(ListToolsRequestSchema, () => {
    if (def.failList) throw new McpError(-32603, "listing is broken");
    return { tools: def.tools as unknown as { name: string; inputSchema: { type: "object" } }[] };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls.push(request.params as unknown as JsonObject);
    const b = def.behaviours?.[request.params.name];
    if (b === undefined) {
      return {
        content: [{
          type: "text",
          text: `${def.name}:${request.params.name} ${
            JSON.stringify(request.params.arguments ?? {})
          }`,
        }],
      };
    }
    if ("hang" in b) return await new Promise<never>(() => {});
    if ("throwCode" in b) throw new McpError(b.throwCode, b.message);
    return b.result;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1" }, { capabilities: {} });
  await client.connect(clientSide);
  return {
    name: def.name,
    client,
    server,
    calls,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A client connected in-process to a proxy `Server`. */
export async function clientFor(server: Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test-agent", version: "1" }, { capabilities: {} });
  await client.connect(clientSide);
  return client;
}

/** Sample upstream tools used across tests. */
export const FS_TOOLS: readonly JsonObject[] = [
  {
    name: "read_file",
    description: "Read the complete contents of a file from disk",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string", description: "File path" } },
      required: ["path"],
    },
  },
  {
    name: "write_file",
    description: "Create a new file or overwrite an existing file with new content",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
  {
    name: "list_directory",
    description: "List the files and folders of a directory",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" } },
      required: ["path"],
    },
    outputSchema: {
      type: "object",
      properties: { entries: { type: "array", items: { type: "string" } } },
    },
    annotations: { readOnlyHint: true },
  },
];

/** Sample issue-tracker tools. */
export const GH_TOOLS: readonly JsonObject[] = [
  {
    name: "create_issue",
    description: "Open a new issue in a GitHub repository",
    inputSchema: {
      type: "object",
      properties: {
        owner: { type: "string" },
        repo: { type: "string" },
        title: { type: "string" },
        labels: { type: "array", items: { type: "string" } },
      },
      required: ["owner", "repo", "title"],
    },
  },
  {
    name: "create_pull_request",
    description: "Open a pull request to merge one branch into another",
    inputSchema: {
      type: "object",
      properties: {
        head: { type: "string" },
        base: { type: "string" },
        options: { type: "object", properties: { draft: { type: "boolean" } } },
      },
      required: ["head", "base"],
    },
  },
  {
    name: "read_file",
    description: "Read a file from a GitHub repository",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  },
];
