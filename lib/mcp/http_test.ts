import assert from "node:assert/strict";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseServersConfig, type RemoteServerEntry } from "./config.ts";
import { captureRemoteServer } from "./http.ts";
import { listAll } from "./list.ts";
import { NOTES_SERVER, sessionfulHttpServer } from "../../testing/mcp.ts";
import { openRemoteSession, SessionStartError } from "./session.ts";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  Server,
  SSEServerTransport,
  StreamableHTTPServerTransport,
} from "../core/sdk.ts";

function mcpServer(): InstanceType<typeof Server> {
  const server = new Server({ name: "http-fixture", version: "2.0.0" }, {
    capabilities: { tools: {} },
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "ping", description: "Replies pong.", inputSchema: { type: "object" } }],
  }));
  return server;
}

/** A real HTTP server speaking streamable HTTP (stateless) at /mcp, or legacy SSE at /sse + /messages. */
async function listen(
  kind: "streamable-http" | "sse",
): Promise<{ url: string; close: () => Promise<void> }> {
  const sse = new Map<string, InstanceType<typeof SSEServerTransport>>();
  const http: HttpServer = createServer(async (req, res) => {
    if (kind === "streamable-http" && req.url === "/mcp") {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = mcpServer();
      res.on("close", () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
      return;
    }
    if (kind === "sse" && req.method === "GET" && req.url === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      sse.set(transport.sessionId, transport);
      res.on("close", () => sse.delete(transport.sessionId));
      await mcpServer().connect(transport);
      return;
    }
    if (kind === "sse" && req.method === "POST" && req.url?.startsWith("/messages")) {
      const id = new URL(req.url, "http://x").searchParams.get("sessionId") ?? "";
      await sse.get(id)?.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const path = kind === "sse" ? "/sse" : "/mcp";
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function remote(spec: Record<string, unknown>): RemoteServerEntry {
  return parseServersConfig({ mcpServers: { r: spec } } as never).servers[0] as RemoteServerEntry;
}

Deno.test("a streamable HTTP server is captured", async () => {
  const server = await listen("streamable-http");
  try {
    const record = await captureRemoteServer(remote({ url: server.url, type: "http" }), {
      timeoutMs: 5_000,
    });
    assert.equal(record.outcome, "ok", record.message);
    assert.equal(record.transport, "streamable-http");
    assert.deepEqual(record.tools, [{
      name: "ping",
      description: "Replies pong.",
      inputSchema: { type: "object" },
    }]);
    assert.deepEqual(record.serverInfo, { name: "http-fixture", version: "2.0.0" });
    // The negotiated MCP revision, a date such as 2025-06-18, as stdio captures record it.
    assert.match(record.protocolVersion ?? "", /^\d{4}-\d{2}-\d{2}$/);
  } finally {
    await server.close();
  }
});

Deno.test("without a type, an SSE-only server is reached through the SSE fallback", async () => {
  const server = await listen("sse");
  try {
    const record = await captureRemoteServer(remote({ url: "${BASE}" }), {
      timeoutMs: 5_000,
      env: { BASE: server.url },
    });
    assert.equal(record.outcome, "ok", record.message);
    assert.equal(record.transport, "sse");
    assert.match(record.protocolVersion ?? "", /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(record.tools.map((t) => t.name), ["ping"]);
    assert.equal(record.warnings.length, 1);
    assert.match(record.warnings[0], /^streamable-http failed: /);
  } finally {
    await server.close();
  }
});

Deno.test("a refused connection is spawn_failed", async () => {
  const server = await listen("streamable-http");
  const url = server.url;
  await server.close();
  const record = await captureRemoteServer(remote({ url, type: "http" }), { timeoutMs: 5_000 });
  assert.equal(record.outcome, "spawn_failed");
  assert.match(record.message ?? "", /^cannot connect: /);
});

for (const kind of ["streamable-http", "sse"] as const) {
  Deno.test(`openRemoteSession() keeps a ${kind} client until close()`, async () => {
    const server = await listen(kind);
    try {
      const session = await openRemoteSession(
        remote({ url: "${BASE}", type: kind === "sse" ? "sse" : "http" }),
        { timeoutMs: 5_000, env: { BASE: server.url } },
      );
      try {
        assert.equal(session.name, "r");
        for (let i = 0; i < 2; i++) {
          const page = await listAll(session.client, "tools/list", { requestTimeoutMs: 5_000 });
          assert.deepEqual(page.items.map((t) => t.name), ["ping"]);
        }
      } finally {
        await session.close();
        await session.close();
      }
    } finally {
      await server.close();
    }
  });
}

Deno.test("openRemoteSession() on a refused connection throws SessionStartError saying it was refused", async () => {
  const server = await listen("streamable-http");
  const url = server.url;
  await server.close();
  await assert.rejects(
    openRemoteSession(remote({ url, type: "http" }), { timeoutMs: 5_000 }),
    (error: unknown) =>
      error instanceof SessionStartError && error.server === "r" &&
      // The cause, not only "fetch failed": the port answered nothing.
      /^Cannot start MCP server "r": initialize failed: fetch failed \(.*Connection refused/
        .test(error.message),
  );
});

Deno.test("a server that echoes the Authorization header in its error leaves no secret in the record", async () => {
  // Answers every request with 401 and the request's Authorization header in the body.
  const http: HttpServer = createServer((req, res) => {
    res.writeHead(401, { "content-type": "text/plain" }).end(
      `bad credentials: ${req.headers.authorization}`,
    );
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  try {
    const record = await captureRemoteServer(
      remote({
        url: `http://127.0.0.1:${port}/mcp`,
        type: "http",
        headers: { Authorization: "Bearer ${SERVICE_TOKEN}" },
      }),
      { timeoutMs: 5_000, env: { SERVICE_TOKEN: "tok-0123456789abcdef" } },
    );
    assert.equal(record.outcome, "protocol_error");
    // The 401 body reached the message (so the redaction had something to do)...
    assert.match(record.message!, /bad credentials: \[REDACTED\]/);
    // ...and the token is nowhere in the record.
    assert.ok(!JSON.stringify(record).includes("tok-0123456789abcdef"), record.message);
  } finally {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});

Deno.test("openRemoteSession() without a type reaches an SSE-only server through the fallback", async () => {
  const server = await listen("sse");
  try {
    const session = await openRemoteSession(remote({ url: server.url }), { timeoutMs: 5_000 });
    try {
      const page = await listAll(session.client, "tools/list", { requestTimeoutMs: 5_000 });
      assert.deepEqual(page.items.map((t) => t.name), ["ping"]);
    } finally {
      await session.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("openRemoteSession() replaces a secret header a tool echoes in its result", async () => {
  const token = "tok-echo-0123456789abcdef";
  // A streamable HTTP server whose one tool answers with the request's Authorization header.
  const http: HttpServer = createServer(async (req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = new Server({ name: "echo", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "whoami", inputSchema: { type: "object" } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: "text", text: `you sent ${req.headers.authorization}` }],
    }));
    res.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  try {
    const session = await openRemoteSession(
      remote({
        url: `http://127.0.0.1:${port}/mcp`,
        type: "http",
        headers: { Authorization: "Bearer ${SERVICE_TOKEN}" },
      }),
      { timeoutMs: 5_000, env: { SERVICE_TOKEN: token } },
    );
    try {
      const viaCall = await session.client.callTool({ name: "whoami", arguments: {} });
      assert.deepEqual(viaCall.content, [{ type: "text", text: "you sent [REDACTED]" }]);
      const viaRequest = await session.client.request(
        { method: "tools/call", params: { name: "whoami", arguments: {} } },
        CallToolResultSchema,
      );
      assert.ok(!JSON.stringify(viaRequest).includes(token));
      assert.match(JSON.stringify(viaRequest), /you sent \[REDACTED\]/);
    } finally {
      await session.close();
    }
  } finally {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});

Deno.test("a session or capture of a sessionful streamable HTTP server ends its session with DELETE when closed", async () => {
  const server = sessionfulHttpServer(NOTES_SERVER);
  try {
    const session = await openRemoteSession(remote({ url: server.url, type: "http" }), {
      timeoutMs: 5_000,
    });
    const listed = await listAll(session.client, "tools/list", { requestTimeoutMs: 5_000 });
    assert.ok(listed.items.length > 0);
    assert.equal(server.opened.length, 1);
    assert.deepEqual(server.deleted, []);
    await session.close();
    assert.deepEqual(server.deleted, server.opened, "the session was ended on the server");
    const record = await captureRemoteServer(remote({ url: server.url, type: "http" }), {
      timeoutMs: 5_000,
    });
    assert.equal(record.outcome, "ok", record.message);
    assert.equal(server.opened.length, 2);
    assert.deepEqual(server.deleted, server.opened);
  } finally {
    await server.close();
  }
});
