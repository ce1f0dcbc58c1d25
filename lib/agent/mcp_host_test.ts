// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { JsonObject } from "../catalog/types.ts";
import type { StdioServerEntry } from "../mcp/config.ts";
import {
  CODE_SERVER_NAME,
  hostSessions,
  McpHostError,
  type McpToolHost,
  openMcpHost,
  type OpenMcpHostOptions,
  PROXY_SERVER_NAME,
} from "./mcp_host.ts";
import {
  COUNTS_SERVER,
  liveProcessesWith,
  type MemoryServerDef,
  memorySession,
  NOTES_SERVER,
} from "../../testing/mcp.ts";
import proxyDefs from "../../fixtures/proxies/reference_proxy.tools.json" with { type: "json" };

const LONG = "notes.search_every_note_in_the_workspace_by_keyword_and_return_the_matching_lines";

function server(name: string, marker: string): { entry: StdioServerEntry } {
  return {
    entry: {
      kind: "stdio",
      name,
      command: "node",
      args: [
        fileURLToPath(new URL("../../fixtures/mcp/serve_with_child.mjs", import.meta.url)),
        marker,
      ],
      env: {},
      meta: { extra: {} },
    },
  };
}

async function gone(marker: string): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    if (liveProcessesWith(marker).length === 0) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/**
 * A host over one in-process server (SDK Server over InMemoryTransport, the fixture's tools):
 * the protocol logic without a process. Asserts that `close()` closed the session.
 */
async function withMemoryHost(
  def: MemoryServerDef,
  name: string,
  options: OpenMcpHostOptions,
  fn: (host: McpToolHost) => Promise<void>,
) {
  const session = await memorySession(name, def);
  const host = await hostSessions([session], options);
  try {
    await fn(host);
  } finally {
    await host.close();
  }
  assert.ok(session.closed() >= 1, "close() did not close the session");
}

const withHost = (
  exposure: "direct" | "proxy" | "code",
  fn: (host: McpToolHost) => Promise<void>,
) => withMemoryHost(NOTES_SERVER, "notes", { exposure, provider: "openai" }, fn);

Deno.test("openMcpHost(direct): provider-safe names route to the original tool", async () => {
  await withHost("direct", async (host) => {
    assert.deepEqual(host.tools.map((t) => [t.spec.name, `${t.server}:${t.tool}`]), [
      ["notes_search_every_note_in_the_workspace_by_keyword_and_060b6840", `notes:${LONG}`],
      ["echo", "notes:echo"],
    ]);
    const out = await host.call(host.tools[0], { keyword: "x" });
    assert.deepEqual(out, { text: 'searched: {"keyword":"x"}', isError: false });
  });
});

Deno.test("openMcpHost(proxy): the model sees the proxy's three tools; call_tool reaches the server and is attributed", async () => {
  await withHost("proxy", async (host) => {
    // Exactly the definitions file, in order, routed to the in-process proxy.
    assert.deepEqual(
      host.tools.map((t) => [t.spec.name, t.server, t.spec.description]),
      proxyDefs.tools.map((d) => [d.name, PROXY_SERVER_NAME, d.description]),
    );
    assert.deepEqual(host.tools[0].spec.inputSchema, proxyDefs.tools[0].inputSchema);
    const [retrieve, , callTool] = host.tools;
    const found = JSON.parse((await host.call(retrieve, { query: "echo the message" })).text);
    assert.equal(found.tools[0].name, "notes:echo");
    // Concurrent calls: each gets exactly the upstream call it caused.
    const outs = await Promise.all(
      ["a", "b", "c"].map((message) =>
        host.call(callTool, { name: "notes:echo", arguments: { message } })
      ),
    );
    assert.deepEqual(outs.map((o) => o.text), ["echo: a", "echo: b", "echo: c"]);
    assert.deepEqual(
      outs.map((o) => o.calls?.map((c) => [c.tool, c.args, c.isError])),
      ["a", "b", "c"].map((message) => [["notes:echo", { message }, false]]),
    );
    // A bare unique name works too; an unknown one is an error result with no upstream call.
    assert.equal(
      (await host.call(callTool, { name: "echo", arguments: { message: "x" } })).text,
      "echo: x",
    );
    const unknown = await host.call(callTool, { name: "notes:nope", arguments: {} });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.calls, undefined);
  });
});

Deno.test("openMcpHost(code): retrieve_tools gives signatures, run_code calls the server from a sandboxed program", async () => {
  await withHost("code", async (host) => {
    assert.deepEqual(host.tools.map((t) => `${t.server}:${t.spec.name}`), [
      `${CODE_SERVER_NAME}:retrieve_tools`,
      `${CODE_SERVER_NAME}:run_code`,
    ]);
    const [retrieve, run] = host.tools;
    const found = JSON.parse((await host.call(retrieve, { query: "echo message", limit: 1 })).text);
    assert.deepEqual(found.tools.map((t: { signature: string }) => t.signature), [
      "echo(message:string)",
    ]);
    const out = await host.call(run, {
      code: [
        'const parts = [await tools.call("notes:echo", { message: "one" }), await tools.call("echo", { message: "two" })];',
        'console.log(parts.join(" | "));',
      ].join("\n"),
    });
    assert.equal(out.text, "echo: one | echo: two");
    assert.equal(out.isError, false);
    assert.deepEqual(out.calls?.map((c) => [c.tool, c.args]), [
      ["notes:echo", { message: "one" }],
      ["notes:echo", { message: "two" }],
    ]);
    const bad = await host.call(run, { code: 'await tools.call("nope:x", {})' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /Unknown or ambiguous tool "nope:x"/);
    const slow = await host.call(run, {
      code: "await new Promise((r) => setTimeout(r, 30_000));",
      timeout_ms: 300,
    });
    assert.deepEqual(slow, {
      text: "run_code: stopped at the wall-time limit (300 ms)",
      isError: true,
      limit: { name: "wall_ms", value: 300 },
    });
    const invalid = await host.call(run, { code: "1", timeout_ms: 5 });
    assert.deepEqual(invalid, {
      text: "Invalid arguments for run_code: arguments/timeout_ms must be >= 100",
      isError: true,
    });
  });
});

Deno.test("openMcpHost(): a server that cannot start is an McpHostError and nothing is left running", async () => {
  const marker = `mcpmeter-host-fail-${crypto.randomUUID()}`;
  const missing = server("broken", marker);
  await assert.rejects(
    openMcpHost([server("ok", marker), {
      entry: { ...missing.entry, command: "no-such-command-mcpmeter" },
    }], { exposure: "proxy" }),
    (e: unknown) =>
      e instanceof McpHostError && e.server === "broken" && /not found/.test(e.message),
  );
  assert.ok(await gone(marker));
});

/** The stdio fixture whose tools (good, bare, wrong) declare an outputSchema and break it. */
const COUNTS: StdioServerEntry = {
  kind: "stdio",
  name: "counts",
  command: Deno.execPath(),
  args: [
    "run",
    "--quiet",
    "--config",
    fileURLToPath(new URL("../../deno.json", import.meta.url)),
    fileURLToPath(new URL("../../fixtures/mcp/output_schema_server.ts", import.meta.url)),
  ],
  env: {},
  meta: { extra: {} },
};

Deno.test("openMcpHost() over the real stdio fixtures: the in-process twins' tools and results; close() kills the whole tree", async () => {
  // The process concern, once: real stdio servers (one with a child), started in parallel and
  // killed with their tree. It also pins the in-process twins the other tests use to the
  // fixtures they stand for: the same exposed tools and the same results.
  const marker = `mcpmeter-host-real-${crypto.randomUUID()}`;
  const options: OpenMcpHostOptions = { exposure: "direct", provider: "openai" };
  const host = await openMcpHost([server("notes", marker), { entry: COUNTS }], options);
  const twins = await hostSessions([
    await memorySession("notes", NOTES_SERVER),
    await memorySession("counts", COUNTS_SERVER),
  ], options);
  try {
    assert.ok(liveProcessesWith(marker).length >= 2, "the server and its child run");
    assert.deepEqual(twins.tools, host.tools);
    assert.deepEqual(host.tools.map((t) => `${t.server}:${t.tool}`), [
      `notes:${LONG}`,
      "notes:echo",
      "counts:good",
      "counts:bare",
      "counts:wrong",
    ]);
    const args: JsonObject[] = [{ keyword: "x" }, { message: "hi" }, {}, {}, {}];
    for (const [i, tool] of host.tools.entries()) {
      assert.deepEqual(await twins.call(twins.tools[i], args[i]), await host.call(tool, args[i]));
    }
  } finally {
    await Promise.all([host.close(), twins.close()]);
  }
  assert.ok(await gone(marker), "a server process survived close()");
});

Deno.test("direct exposure: a result that breaks its tool's outputSchema is an error of that kind", async () => {
  await withMemoryHost(
    COUNTS_SERVER,
    "counts",
    { exposure: "direct", provider: "openai" },
    async (host) => {
      const byName = new Map(host.tools.map((t) => [t.tool, t]));
      const good = await host.call(byName.get("good")!, {});
      assert.deepEqual(good, { text: "3 things", isError: false });
      const bare = await host.call(byName.get("bare")!, {});
      assert.deepEqual(bare, {
        text: "tool result rejected: the tool declares an outputSchema but its result has no " +
          "structuredContent (MCP clients reject such a result)",
        isError: true,
        resultError: "missing_structured_content",
      });
      const wrong = await host.call(byName.get("wrong")!, {});
      assert.equal(wrong.resultError, "invalid_structured_content");
      assert.match(wrong.text, /at \/count: must be integer \(type\)$/);
    },
  );
});

Deno.test("openMcpHost(): the agent's allow and deny lists decide which tools are offered", async () => {
  // The server lists good, bare and wrong.
  await withMemoryHost(COUNTS_SERVER, "counts", {
    exposure: "direct",
    provider: "openai",
    tools: { allow: ["counts:g*", "counts:w*"], deny: ["counts:wrong"] },
  }, (host) => {
    assert.deepEqual(host.tools.map((t) => `${t.server}:${t.tool}`), ["counts:good"]);
    return Promise.resolve();
  });
});

Deno.test("openMcpHost(proxy): a result that breaks its tool's outputSchema comes back as an error saying why", async () => {
  await withMemoryHost(
    COUNTS_SERVER,
    "counts",
    { exposure: "proxy", provider: "openai" },
    async (host) => {
      const callTool = host.tools.find((t) => t.tool === "call_tool")!;
      const good = await host.call(callTool, { name: "counts:good", arguments: {} });
      assert.equal(good.isError, false);
      assert.match(good.text, /3 things/);
      const bare = await host.call(callTool, { name: "counts:bare", arguments: {} });
      assert.equal(bare.isError, true);
      assert.match(
        bare.text,
        /tool result rejected: the tool declares an outputSchema but its result has no structuredContent/,
      );
    },
  );
});

Deno.test("hostSessions(): a session named like an in-process host is refused and closed", async () => {
  const session = await memorySession(PROXY_SERVER_NAME, NOTES_SERVER);
  await assert.rejects(
    hostSessions([session], { exposure: "direct" }),
    (e: unknown) =>
      e instanceof RangeError &&
      e.message === `Cannot host server "${PROXY_SERVER_NAME}": the name is reserved`,
  );
  assert.equal(session.closed(), 1);
});
