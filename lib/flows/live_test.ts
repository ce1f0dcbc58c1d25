import assert from "node:assert/strict";
import type { JsonObject } from "../catalog/types.ts";
import { serveProxyHttp } from "../proxy/http.ts";
import { createProxyCore, type ProxyCore } from "../proxy/server.ts";
import { createUpstreamPool } from "../proxy/upstream.ts";
import { runLive } from "./live.ts";

const GOLDEN = {
  queries: [
    { id: "q-ok", query: "read a file", labels: [{ tool_id: "fs:read_file", relevance: 2 }] },
    { id: "q-error", query: "error please", labels: [{ tool_id: "fs:read_file", relevance: 2 }] },
    {
      id: "q-text",
      query: "plain text please",
      labels: [{ tool_id: "fs:read_file", relevance: 2 }],
    },
    { id: "q-hang", query: "hang please", labels: [{ tool_id: "fs:read_file", relevance: 2 }] },
    { id: "q-drop", query: "drop me", labels: [{ tool_id: "fs:read_file", relevance: 2 }] },
    { id: "q-after", query: "write a file", labels: [{ tool_id: "fs:write_file", relevance: 2 }] },
  ],
};

const OK_TEXT = JSON.stringify({
  tools: [
    { name: "fs:read_file", description: "Read a file", inputSchema: { type: "object" } },
    { name: "fs:write_file", description: "Write a file" },
  ],
});

/** A discovery endpoint that misbehaves on purpose, depending on the query. */
async function faultyCore(): Promise<ProxyCore> {
  const base = createProxyCore(await createUpstreamPool([]));
  return {
    ...base,
    handle(_name: string, args: JsonObject | undefined) {
      const q = String(args?.query ?? "");
      if (q.startsWith("error")) {
        return Promise.resolve({
          content: [{ type: "text", text: "index offline" }],
          isError: true,
        });
      }
      if (q.startsWith("plain")) {
        return Promise.resolve({
          content: [{ type: "text", text: "1. fs:read_file\n2. fs:write_file" }],
        });
      }
      // Answers long after the client's 500 ms timeout.
      if (q.startsWith("hang")) {
        return new Promise((resolve) =>
          setTimeout(() => resolve({ content: [{ type: "text", text: OK_TEXT }] }), 1_500)
        );
      }
      return Promise.resolve({ content: [{ type: "text", text: OK_TEXT }] });
    },
  };
}

Deno.test("runLive() records each fault as a per-query failure row and completes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-live-test-" });
  const golden = `${dir}/golden.json`;
  await Deno.writeTextFile(golden, JSON.stringify(GOLDEN));
  const proxy = serveProxyHttp(await faultyCore());
  // A front door that answers 404 (session forgotten) to the "drop me" call.
  const front = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const body = req.method === "POST" ? await req.text() : undefined;
    if (body?.includes("drop me")) {
      return new Response(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32001, message: "Session not found" },
          id: null,
        }),
        {
          status: 404,
          headers: { "content-type": "application/json" },
        },
      );
    }
    const headers = new Headers(req.headers);
    headers.delete("host");
    return await fetch(proxy.url, { method: req.method, headers, body });
  });
  try {
    const block = await runLive({
      endpoint: `http://127.0.0.1:${front.addr.port}/mcp`,
      golden,
      timeoutMs: 500,
    });
    assert.equal(block.target.kind, "endpoint");
    assert.equal(block.queries.used, 6);
    const causes = Object.fromEntries(block.queries.failures.map((f) => [f.queryId, f.outcome]));
    assert.deepEqual(causes, {
      "q-error": "tool_error",
      "q-hang": "timeout",
      "q-drop": "session_dropped",
    });
    assert.equal(block.queries.failed, 3);
    assert.match(
      block.queries.failures.find((f) => f.queryId === "q-error")!.message,
      /index offline/,
    );
    // The non-JSON answer is a response: counted, all `other`, flagged.
    const text = block.responseCost.perQuery.find((r) => r.queryId === "q-text")!;
    assert.equal(text.json, false);
    assert.equal(text.components.other, text.tokens);
    assert.equal(block.responseCost.nonJson, 1);
    assert.ok(block.warnings.some((w) => w.includes("q-text") && w.includes("not JSON")));
    // The session came back after the drop.
    assert.equal(block.responseCost.perQuery.find((r) => r.queryId === "q-after")?.outcome, "ok");
    assert.equal(block.responseCost.n, 3);
    // No direct catalog was given: break-even is withheld with the reason.
    assert.match((block.breakEven as { reason: string }).reason, /direct menu is unknown/);
  } finally {
    // The proxy first: it ends the streams the front door is relaying.
    await proxy.shutdown();
    await front.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runLive() against a refused endpoint gives connection_refused rows", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-live-test-" });
  const golden = `${dir}/golden.json`;
  await Deno.writeTextFile(golden, JSON.stringify({ queries: GOLDEN.queries.slice(0, 2) }));
  // Bind and release a port so nothing listens on it.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  try {
    const block = await runLive({
      endpoint: `http://127.0.0.1:${port}/mcp`,
      golden,
      timeoutMs: 2_000,
    });
    assert.deepEqual(block.queries.failures.map((f) => f.outcome), [
      "connection_refused",
      "connection_refused",
    ]);
    assert.equal(block.queries.failed, 2);
    assert.equal(block.responseCost.n, 0);
    assert.equal(block.latencyMs, null);
    assert.ok(block.warnings.some((w) => w.startsWith("tools/list of the endpoint failed")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runLive() keeps a key passed in the endpoint URL out of the block", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-live-test-" });
  const golden = `${dir}/golden.json`;
  await Deno.writeTextFile(golden, JSON.stringify({ queries: GOLDEN.queries.slice(0, 1) }));
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  try {
    const block = await runLive({
      endpoint: `http://127.0.0.1:${port}/mcp?api_key=sk-live-0123456789&profile=dev`,
      golden,
      timeoutMs: 2_000,
    });
    assert.equal(block.target.url, `http://127.0.0.1:${port}/mcp?api_key=[REDACTED]&profile=dev`);
    assert.ok(!JSON.stringify(block).includes("sk-live-0123456789"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
