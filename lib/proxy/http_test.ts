// The proxy's HTTP listener refuses DNS rebinding, foreign origins and missing tokens on every
// request (initialize included), over real HTTP on a random loopback port.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "../core/sdk.ts";
import { rawRequest } from "../../testing/http.ts";
import { fakeUpstream, FS_TOOLS } from "../../testing/proxy.ts";
import { type ServeHttpOptions, serveProxyHttp } from "./http.ts";
import { createProxyCore } from "./server.ts";
import { createUpstreamPool } from "./upstream.ts";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
});
const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

async function withProxy(
  options: ServeHttpOptions,
  fn: (
    http: ReturnType<typeof serveProxyHttp>,
    refusals: string[],
    calls: unknown[],
  ) => Promise<void>,
) {
  const fs = await fakeUpstream({ name: "fs", tools: FS_TOOLS });
  const pool = await createUpstreamPool([fs]);
  const refusals: string[] = [];
  const http = serveProxyHttp(createProxyCore(pool), {
    ...options,
    onRefusal: (status, reason) => refusals.push(`${status} ${reason}`),
  });
  try {
    await fn(http, refusals, fs.calls);
  } finally {
    await http.shutdown();
    await pool.close();
  }
}

function message(body: string): string {
  return JSON.parse(body).error.message;
}

Deno.test("proxy HTTP refuses an initialize whose Host is not this server (DNS rebinding)", async () => {
  await withProxy({}, async (http, refusals) => {
    const port = http.port;
    for (const host of ["evil.example", `evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
      const r = await rawRequest(port, { host, headers: MCP_HEADERS, body: INITIALIZE });
      assert.equal(r.status, 403, host);
      assert.equal(
        message(r.body),
        `Refused: Host "${host}" is not this server (allowed: 127.0.0.1:${port}, ` +
          `localhost:${port}, [::1]:${port})`,
      );
    }
    const missing = await rawRequest(port, { host: null, headers: MCP_HEADERS, body: INITIALIZE });
    assert.equal(missing.status, 403);
    assert.equal(http.sessionCount(), 0, "no session was opened");
    assert.equal(refusals.length, 4);
    // The same initialize with this server's Host opens a session.
    const ok = await rawRequest(port, {
      host: `localhost:${port}`,
      headers: MCP_HEADERS,
      body: INITIALIZE,
    });
    assert.equal(ok.status, 200, ok.body);
    assert.equal(JSON.parse(ok.body).result.serverInfo.name, "mcpmeter-proxy");
    assert.equal(http.sessionCount(), 1);
  });
});

Deno.test("proxy HTTP refuses a foreign Host on an open session and on other paths too", async () => {
  await withProxy({}, async (http, _refusals, calls) => {
    const client = new Client({ name: "t", version: "1" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "call_tool", arguments: { name: "fs:read_file", arguments: { path: "x" } } },
    });
    const r = await rawRequest(http.port, {
      host: "evil.example",
      headers: {
        ...MCP_HEADERS,
        "Mcp-Session-Id": sessionId,
        "Mcp-Protocol-Version": "2025-06-18",
      },
      body: call,
    });
    assert.equal(r.status, 403);
    assert.deepEqual(calls, [], "the upstream was not reached");
    const other = await rawRequest(http.port, { method: "GET", path: "/", host: "evil.example" });
    assert.equal(other.status, 403, "checked before routing");
    await client.close();
  });
});

Deno.test("proxy HTTP refuses an Origin that is present and not allowed", async () => {
  await withProxy({ allowedOrigins: ["https://notebook.example"] }, async (http) => {
    const host = `127.0.0.1:${http.port}`;
    for (const origin of ["http://evil.example", "null", `http://localhost:${http.port + 1}`]) {
      const r = await rawRequest(http.port, {
        host,
        headers: { ...MCP_HEADERS, Origin: origin },
        body: INITIALIZE,
      });
      assert.equal(r.status, 403, origin);
      assert.equal(message(r.body), `Refused: Origin "${origin}" is not allowed`);
    }
    assert.equal(http.sessionCount(), 0);
    for (const origin of ["https://notebook.example", `http://127.0.0.1:${http.port}`]) {
      const r = await rawRequest(http.port, {
        host,
        headers: { ...MCP_HEADERS, Origin: origin },
        body: INITIALIZE,
      });
      assert.equal(r.status, 200, origin);
    }
  });
});

Deno.test("proxy HTTP refuses a missing or wrong bearer token and never echoes it", async () => {
  const token = "tok_9f2c41d7e0b84a55";
  await withProxy({ token }, async (http, refusals) => {
    const host = `127.0.0.1:${http.port}`;
    for (
      const authorization of [undefined, "Bearer wrong", `Bearer ${token.slice(0, -1)}`, token]
    ) {
      const headers: Record<string, string> = { ...MCP_HEADERS };
      if (authorization !== undefined) headers.Authorization = authorization;
      const r = await rawRequest(http.port, { host, headers, body: INITIALIZE });
      assert.equal(r.status, 401, String(authorization));
      assert.equal(r.headers["www-authenticate"], "Bearer");
      assert.ok(!r.body.includes(token.slice(4)), r.body);
    }
    assert.ok(refusals.every((line) => !line.includes(token.slice(4))), refusals.join("\n"));
    assert.equal(http.sessionCount(), 0);
    const ok = await rawRequest(http.port, {
      host,
      headers: { ...MCP_HEADERS, Authorization: `Bearer ${token}` },
      body: INITIALIZE,
    });
    assert.equal(ok.status, 200);
  });
});

Deno.test("proxy HTTP accepts a configured allowed host (a reverse proxy's name)", async () => {
  await withProxy({ allowedHosts: ["mcp.example.org"] }, async (http) => {
    const r = await rawRequest(http.port, {
      host: "mcp.example.org",
      headers: MCP_HEADERS,
      body: INITIALIZE,
    });
    assert.equal(r.status, 200);
    const other = await rawRequest(http.port, {
      host: "mcp.example.net",
      headers: MCP_HEADERS,
      body: INITIALIZE,
    });
    assert.equal(other.status, 403);
  });
});

Deno.test("serveProxyHttp refuses to bind off loopback without a token", async () => {
  const pool = await createUpstreamPool([]);
  assert.throws(
    () => serveProxyHttp(createProxyCore(pool), { hostname: "0.0.0.0" }),
    {
      name: "RangeError",
      message:
        "Binding 0.0.0.0 exposes the server beyond this machine: set a token (or bind 127.0.0.1)",
    },
  );
  await pool.close();
});
