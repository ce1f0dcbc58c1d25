import assert from "node:assert/strict";
import { z } from "zod";
import type { JsonObject } from "../catalog/types.ts";
import { type Client, StreamableHTTPClientTransport } from "../core/sdk.ts";
import { Client as SdkClient } from "../core/sdk.ts";
import { clientFor, fakeUpstream, FS_TOOLS, GH_TOOLS } from "../../testing/proxy.ts";
import { serveProxyHttp } from "./http.ts";
import { createProxyCore, createProxyServer } from "./server.ts";
import { createUpstreamPool } from "./upstream.ts";

const AnyResult = z.looseObject({});
const DEFINITIONS_URL = new URL(
  "../../fixtures/proxies/reference_proxy.tools.json",
  import.meta.url,
);

/** A raw tools/call through the proxy, result kept exactly as the wire gave it. */
async function call(client: Client, name: string, args: JsonObject): Promise<JsonObject> {
  return await client.request(
    { method: "tools/call", params: { name, arguments: args } },
    AnyResult,
  ) as JsonObject;
}

function text(result: JsonObject): string {
  return (result.content as JsonObject[])[0].text as string;
}

const FORWARDED = {
  content: [{ type: "text" as const, text: "disk full" }],
  structuredContent: { code: 28 },
  isError: true,
  _meta: { "example.com/trace": "abc" },
};

async function setup(options: { timeoutMs?: number } = {}) {
  const fs = await fakeUpstream({
    name: "fs",
    tools: FS_TOOLS,
    behaviours: {
      write_file: { result: FORWARDED },
      list_directory: { hang: true },
    },
  });
  const gh = await fakeUpstream({
    name: "gh",
    tools: GH_TOOLS,
    behaviours: { create_issue: { throwCode: -32602, message: "repo not found" } },
  });
  const broken = await fakeUpstream({ name: "broken", tools: [], failList: true });
  const pool = await createUpstreamPool([fs, gh, broken], {
    timeoutMs: options.timeoutMs ?? 30_000,
    failures: [{ name: "dead", message: 'command "nope" not found or not executable' }],
  });
  const core = createProxyCore(pool);
  const client = await clientFor(createProxyServer(core));
  return { fs, gh, pool, core, client };
}

Deno.test("proxy tools/list serves the definitions file verbatim", async () => {
  const { client, pool } = await setup();
  const listed = await client.request({ method: "tools/list" }, AnyResult) as JsonObject;
  const file = JSON.parse(await Deno.readTextFile(DEFINITIONS_URL));
  assert.deepEqual(listed.tools, file.tools);
  await client.close();
  await pool.close();
});

Deno.test("proxy lists ready upstream tools and records failed upstreams", async () => {
  const { client, pool } = await setup();
  assert.deepEqual(pool.tools.map((t) => t.id), [
    "fs:list_directory",
    "fs:read_file",
    "fs:write_file",
    "gh:create_issue",
    "gh:create_pull_request",
    "gh:read_file",
  ]);
  const statuses = pool.statuses();
  assert.deepEqual(statuses.map((s) => [s.server, s.state, s.toolCount]), [
    ["broken", "failed", 0],
    ["dead", "failed", 0],
    ["fs", "ready", 3],
    ["gh", "ready", 3],
  ]);
  assert.match(statuses[0].message!, /tools\/list failed: .*listing is broken/);
  await client.close();
  await pool.close();
});

Deno.test("retrieve_tools full returns name, server, description, inputSchema, score", async () => {
  const { client, pool } = await setup();
  const result = await call(client, "retrieve_tools", {
    query: "read the contents of a file from disk",
  });
  assert.equal(result.isError, undefined);
  const body = JSON.parse(text(result));
  const first = body.tools[0];
  assert.equal(first.name, "fs:read_file");
  assert.deepEqual(Object.keys(first), ["name", "server", "description", "inputSchema", "score"]);
  assert.equal(first.server, "fs");
  assert.deepEqual(first.inputSchema, FS_TOOLS[0].inputSchema);
  assert.equal(typeof first.score, "number");
  assert.ok(body.tools.length <= 10);
  for (let i = 1; i < body.tools.length; i++) {
    assert.ok(body.tools[i - 1].score >= body.tools[i].score, "scores descend");
  }
  assert.equal(typeof body.usage, "string");
  await client.close();
  await pool.close();
});

Deno.test("retrieve_tools compact returns compact_sig signatures and honours limit", async () => {
  const { client, pool } = await setup();
  const result = await call(client, "retrieve_tools", {
    query: "open a pull request",
    limit: 1,
    detail: "compact",
  });
  const body = JSON.parse(text(result));
  assert.equal(body.tools.length, 1);
  // compact_sig: required params in `required` order, nested objects as obj.
  assert.deepEqual(body.tools[0], {
    name: "gh:create_pull_request",
    signature: "create_pull_request(head:string, base:string, options?:obj)",
    description: "Open a pull request to merge one branch into another",
    score: body.tools[0].score,
  });
  await client.close();
  await pool.close();
});

Deno.test("proxy rejects arguments that fail its published inputSchema", async (t) => {
  const { client, pool } = await setup();
  for (
    const [label, name, args, pattern] of [
      ["limit 0", "retrieve_tools", { query: "x", limit: 0 }, /arguments\/limit must be >= 1/],
      [
        "unknown detail",
        "retrieve_tools",
        { query: "x", detail: "tiny" },
        /detail.*"full","compact"/,
      ],
      ["missing query", "retrieve_tools", {}, /must have required property 'query'/],
      ["extra key", "retrieve_tools", { query: "x", k: 1 }, /additional properties \("k"\)/],
      ["empty ids", "describe_tool", { tool_ids: [] }, /tool_ids must NOT have fewer than 1/],
    ] as const
  ) {
    await t.step(label, async () => {
      const result = await call(client, name, args as JsonObject);
      assert.equal(result.isError, true);
      assert.match(text(result), pattern);
    });
  }
  await client.close();
  await pool.close();
});

Deno.test("describe_tool returns full definitions and names unknown ids", async () => {
  const { client, pool } = await setup();
  const result = await call(client, "describe_tool", {
    tool_ids: ["fs:list_directory", "nope:x", "fs:list_directory"],
  });
  const body = JSON.parse(text(result));
  const fsList = FS_TOOLS[2];
  assert.deepEqual(body, {
    tools: [{
      name: "fs:list_directory",
      server: "fs",
      description: fsList.description,
      inputSchema: fsList.inputSchema,
      outputSchema: fsList.outputSchema,
      annotations: fsList.annotations,
    }],
    unknown: ["nope:x"],
  });
  const none = await call(client, "describe_tool", { tool_ids: ["nope:x"] });
  assert.equal(none.isError, true);
  assert.match(text(none), /"nope:x"/);
  await client.close();
  await pool.close();
});

Deno.test("call_tool forwards the upstream result unchanged, isError included", async () => {
  const { client, pool, fs } = await setup();
  const result = await call(client, "call_tool", {
    name: "fs:write_file",
    arguments: { path: "/a", content: "b" },
  });
  assert.deepEqual(result, FORWARDED);
  assert.deepEqual(fs.calls.at(-1), {
    name: "write_file",
    arguments: { path: "/a", content: "b" },
  });
  // A bare name is accepted when exactly one upstream has it.
  const bare = await call(client, "call_tool", { name: "write_file", arguments: {} });
  assert.deepEqual(bare, FORWARDED);
  await client.close();
  await pool.close();
});

Deno.test("call_tool gives isError results naming unknown and ambiguous tools", async () => {
  const { client, pool } = await setup();
  const unknown = await call(client, "call_tool", { name: "fs:delete_everything" });
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /Unknown tool "fs:delete_everything"/);
  const ambiguous = await call(client, "call_tool", { name: "read_file" });
  assert.equal(ambiguous.isError, true);
  assert.match(text(ambiguous), /"fs:read_file", "gh:read_file"/);
  const notProxy = await call(client, "search", { query: "x" });
  assert.equal(notProxy.isError, true);
  assert.match(text(notProxy), /Unknown tool "search"/);
  await client.close();
  await pool.close();
});

Deno.test("call_tool turns upstream faults into isError results; the proxy keeps serving", async (t) => {
  const { client, pool, fs } = await setup({ timeoutMs: 300 });
  await t.step("JSON-RPC error from the upstream", async () => {
    const r = await call(client, "call_tool", { name: "gh:create_issue", arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /Upstream "gh" failed on "gh:create_issue": .*repo not found/);
  });
  await t.step("upstream that hangs", async () => {
    const r = await call(client, "call_tool", { name: "fs:list_directory", arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /Upstream "fs" failed on "fs:list_directory": .*timed out/i);
  });
  await t.step("upstream that went away", async () => {
    await fs.server.close();
    const r = await call(client, "call_tool", { name: "fs:read_file", arguments: { path: "x" } });
    assert.equal(r.isError, true);
    assert.match(text(r), /Upstream "fs" is unavailable \(the connection to the upstream closed\)/);
    assert.equal(pool.statuses().find((s) => s.server === "fs")?.state, "closed");
  });
  await t.step("other upstreams and discovery still work", async () => {
    const r = await call(client, "call_tool", { name: "gh:read_file", arguments: { path: "p" } });
    assert.equal(r.isError, undefined);
    assert.equal(text(r), 'gh:read_file {"path":"p"}');
    const found = await call(client, "retrieve_tools", { query: "open an issue" });
    assert.equal(JSON.parse(text(found)).tools[0].name, "gh:create_issue");
  });
  await client.close();
  await pool.close();
});

Deno.test("proxy serves streamable HTTP on 127.0.0.1 with an optional bearer token", async () => {
  const { pool, core } = await setup();
  const http = serveProxyHttp(core, { token: "s3cret-proxy-token" });
  try {
    assert.match(http.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const denied = await fetch(http.url, { method: "POST", body: "{}" });
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const client = new SdkClient({ name: "t", version: "1" }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { Authorization: "Bearer s3cret-proxy-token" } },
      }),
    );
    assert.equal(http.sessionCount(), 1);
    const listed = await client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name), [
      "retrieve_tools",
      "describe_tool",
      "call_tool",
    ]);
    const r = await call(client, "retrieve_tools", { query: "write content to a file" });
    assert.equal(JSON.parse(text(r)).tools[0].name, "fs:write_file");
    await client.close();
  } finally {
    await http.shutdown();
    await pool.close();
  }
});

Deno.test("call_tool forwards only to listed tools: an upstream's unlisted tool is never reached", async () => {
  // The upstream answers "admin_reset" although it does not list it.
  const fs = await fakeUpstream({
    name: "fs",
    tools: FS_TOOLS,
    behaviours: { admin_reset: { result: { content: [{ type: "text", text: "wiped" }] } } },
  });
  const pool = await createUpstreamPool([fs]);
  const client = await clientFor(createProxyServer(createProxyCore(pool)));
  for (const name of ["fs:admin_reset", "admin_reset", "fs:", ":read_file", "other:read_file"]) {
    const r = await call(client, "call_tool", { name, arguments: {} });
    assert.equal(r.isError, true, name);
    assert.match(text(r), /^Unknown tool/, name);
  }
  assert.deepEqual(fs.calls, [], "no call reached the upstream");
  await client.close();
  await pool.close();
});

Deno.test("call_tool cuts a result over the size cap and says so", async () => {
  const big = "é".repeat(3_000); // 6,000 bytes of UTF-8
  const fs = await fakeUpstream({
    name: "fs",
    tools: FS_TOOLS,
    behaviours: {
      read_file: {
        result: {
          content: [{ type: "text", text: "head" }, { type: "text", text: big }, {
            type: "text",
            text: "tail",
          }],
          structuredContent: { size: 6_000 },
        },
      },
    },
  });
  const pool = await createUpstreamPool([fs]);
  const client = await clientFor(
    createProxyServer(createProxyCore(pool, { maxResultBytes: 2_048 })),
  );
  const r = await call(client, "call_tool", { name: "fs:read_file", arguments: { path: "x" } });
  const content = r.content as JsonObject[];
  assert.ok(new TextEncoder().encode(JSON.stringify(r)).length <= 2_048);
  assert.equal(content.length, 3, "head, the cut block, the marker; tail left out");
  assert.equal(content[0].text, "head");
  assert.match(content[1].text as string, /^é+$/);
  const resultBytes = new TextEncoder().encode(JSON.stringify({
    content: [{ type: "text", text: "head" }, { type: "text", text: big }, {
      type: "text",
      text: "tail",
    }],
    structuredContent: { size: 6_000 },
  })).length;
  assert.equal(
    content[2].text,
    `[mcpmeter proxy: result cut to 2048 bytes; the upstream sent ${resultBytes} bytes]`,
  );
  assert.deepEqual((r._meta as JsonObject)["mcpmeter/truncated"], {
    limitBytes: 2_048,
    resultBytes,
  });
  assert.equal(r.structuredContent, undefined);
  // A small result is forwarded whole.
  const small = await call(client, "call_tool", { name: "fs:write_file", arguments: {} });
  assert.equal(text(small), "fs:write_file {}");
  await client.close();
  await pool.close();
});

Deno.test("the proxy never echoes a secret: describe_tool, results and upstream errors", async () => {
  const key = "sk-live-4f1d2e3c";
  const leaky = await fakeUpstream({
    name: "gh",
    tools: [{
      name: "whoami",
      description: `Shows the account of key ${key}`,
      inputSchema: { type: "object", properties: {} },
    }],
    behaviours: {
      whoami: { throwCode: -32603, message: `401 for Authorization: Bearer ${key}` },
    },
  });
  const pool = await createUpstreamPool([leaky]);
  const client = await clientFor(createProxyServer(createProxyCore(pool, { secrets: [key] })));
  const described = await call(client, "describe_tool", { tool_ids: ["gh:whoami"] });
  const found = await call(client, "retrieve_tools", { query: "account" });
  const failed = await call(client, "call_tool", { name: "gh:whoami", arguments: {} });
  for (const r of [described, found, failed]) {
    assert.ok(!JSON.stringify(r).includes(key), JSON.stringify(r));
    assert.ok(JSON.stringify(r).includes("[REDACTED]"), JSON.stringify(r));
  }
  assert.equal(failed.isError, true);
  await client.close();
  await pool.close();
});
