import assert from "node:assert/strict";
import {
  Client,
  ErrorCode,
  InMemoryTransport,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  Server,
} from "../core/sdk.ts";
import { PaginationError } from "./errors.ts";
import { listAll, listChangeWatcher, listServer, MAX_LIST_PAGES } from "./list.ts";
import { watchToolListChanges } from "./_capture.ts";

type ServerType = InstanceType<typeof Server>;

/** Connects a real SDK Client to a real SDK Server over the in-memory transport pair. */
async function connect(
  capabilities: Record<string, object>,
  setup: (server: ServerType) => void,
): Promise<{ client: InstanceType<typeof Client>; close: () => Promise<void> }> {
  const server = new Server({ name: "fixture", version: "1.0.0" }, { capabilities });
  setup(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities: {} });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

const tool = (name: string) => ({
  name,
  description: `Tool ${name}.`,
  inputSchema: { type: "object" as const },
});

Deno.test("tools/list is followed over 3 pages, every tool captured in order", async () => {
  // Pages: [t1 t2 t3] -> cursor "p2" -> [t4 t5 t6] -> cursor "p3" -> [t7], no cursor.
  const pages: Record<string, { tools: ReturnType<typeof tool>[]; nextCursor?: string }> = {
    "": { tools: ["t1", "t2", "t3"].map(tool), nextCursor: "p2" },
    p2: { tools: ["t4", "t5", "t6"].map(tool), nextCursor: "p3" },
    p3: { tools: ["t7"].map(tool) },
  };
  const cursorsSeen: (string | undefined)[] = [];
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      cursorsSeen.push(request.params?.cursor);
      return pages[request.params?.cursor ?? ""];
    });
  });
  try {
    const list = await listAll(client, "tools/list", { requestTimeoutMs: 5_000 });
    assert.deepEqual(list.items.map((t) => t.name), ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]);
    assert.equal(list.pages, 3);
    assert.deepEqual(cursorsSeen, [undefined, "p2", "p3"]);
    assert.deepEqual(list.warnings, []);
    // Items are kept exactly as sent.
    assert.deepEqual(list.items[6], {
      name: "t7",
      description: "Tool t7.",
      inputSchema: { type: "object" },
    });
  } finally {
    await close();
  }
});

Deno.test("a cursor that never advances is a PaginationError, not a hang", async () => {
  let calls = 0;
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => {
      calls += 1;
      return { tools: [tool(`t${calls}`)], nextCursor: "same" };
    });
  });
  try {
    await assert.rejects(
      listAll(client, "tools/list", { requestTimeoutMs: 5_000 }),
      (error: unknown) => {
        assert.ok(error instanceof PaginationError);
        assert.equal(
          error.message,
          'tools/list pagination stopped after 2 page(s): cursor "same" repeated',
        );
        assert.equal(error.pages, 2);
        return true;
      },
    );
    assert.equal(calls, 2);
  } finally {
    await close();
  }
});

Deno.test("an endless list of fresh cursors stops at the page limit", async () => {
  // Default limit: MAX_LIST_PAGES = 1,000 pages.
  let endless = 0;
  const first = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => {
      endless += 1;
      return { tools: [], nextCursor: `c${endless}` };
    });
  });
  try {
    await assert.rejects(
      listAll(first.client, "tools/list", { requestTimeoutMs: 5_000 }),
      /tools\/list pagination stopped after 1000 page\(s\): more than 1000 pages/,
    );
    assert.equal(endless, MAX_LIST_PAGES);
    assert.equal(MAX_LIST_PAGES, 1000);
  } finally {
    await first.close();
  }
  // An explicit, smaller limit.
  let calls = 0;
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => {
      calls += 1;
      return { tools: [], nextCursor: `c${calls}` };
    });
  });
  try {
    await assert.rejects(
      listAll(client, "tools/list", { requestTimeoutMs: 5_000, maxPages: 4 }),
      /tools\/list pagination stopped after 4 page\(s\): more than 4 pages/,
    );
    assert.equal(calls, 4);
  } finally {
    await close();
  }
});

Deno.test("a schema the strict SDK parser rejects is captured leniently with a warning", async () => {
  // As the reference gitlab server does: inputSchema holds only $schema.
  const gitlabLike = {
    name: "create_issue",
    description: "Create an issue",
    inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" },
  };
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [gitlabLike] }) as never);
  });
  try {
    // The SDK's own listTools() rejects this result...
    await assert.rejects(client.listTools());
    // ...the lenient list keeps it verbatim.
    const listing = await listServer(client, { requestTimeoutMs: 5_000 });
    assert.deepEqual(listing.tools, [gitlabLike]);
    assert.equal(listing.warnings.length, 1);
    assert.match(
      listing.warnings[0],
      /^tools\/list page 1: the SDK's strict result schema rejects it at tools\[0\]\.inputSchema\.type: .*captured leniently$/,
    );
  } finally {
    await close();
  }
});

Deno.test("prompts and resources are listed where advertised; their failure is a warning", async () => {
  const { client, close } = await connect({ tools: {}, prompts: {}, resources: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool("a"), tool("a")] }));
    server.setRequestHandler(ListPromptsRequestSchema, () => ({
      prompts: [{ name: "review", description: "Review code" }],
    }));
    server.setRequestHandler(ListResourcesRequestSchema, () => {
      throw new Error("database unreachable");
    });
  });
  try {
    const listing = await listServer(client, { requestTimeoutMs: 5_000 });
    assert.deepEqual(listing.tools.map((t) => t.name), ["a", "a"]);
    assert.deepEqual(listing.prompts, [{ name: "review", description: "Review code" }]);
    assert.equal(listing.resources, undefined);
    assert.deepEqual(listing.pages, { "tools/list": 1, "prompts/list": 1 });
    assert.deepEqual(listing.warnings, [
      'tools/list: tool name "a" appears 2 times',
      "resources/list failed (ignored): MCP error -32603: database unreachable",
    ]);
  } finally {
    await close();
  }
});

Deno.test("lists are not requested where not advertised", async () => {
  // Were prompts/list or resources/list sent, this server would answer
  // "Method not found" and a warning would appear.
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  });
  try {
    const listing = await listServer(client, { requestTimeoutMs: 5_000 });
    assert.deepEqual(listing, { tools: [], pages: { "tools/list": 1 }, warnings: [] });
  } finally {
    await close();
  }
});

Deno.test("the per-request timeout is passed to the SDK", async () => {
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => new Promise<never>(() => {}));
  });
  try {
    await assert.rejects(
      listAll(client, "tools/list", { requestTimeoutMs: 50 }),
      (error: unknown) => error instanceof McpError && error.code === ErrorCode.RequestTimeout,
    );
  } finally {
    await close();
  }
});

Deno.test("invalid timeouts are RangeErrors", async () => {
  const { client, close } = await connect({ tools: {} }, () => {});
  try {
    await assert.rejects(listAll(client, "tools/list", { requestTimeoutMs: 0 }), RangeError);
  } finally {
    await close();
  }
});

Deno.test("a server without the tools capability that answers tools/list with -32601 has no tools, keeping its prompts", async () => {
  const { client, close } = await connect({ prompts: {} }, (server) => {
    // No tools handler: the SDK server answers tools/list with -32601 (method not found).
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [{ name: "p1" }] }));
  });
  try {
    const listing = await listServer(client, { requestTimeoutMs: 5_000 });
    assert.deepEqual(listing.tools, []);
    assert.deepEqual(listing.prompts, [{ name: "p1" }]);
    assert.deepEqual(listing.pages, { "tools/list": 0, "prompts/list": 1 });
    assert.deepEqual(listing.warnings, [
      'no tools: the server does not advertise the "tools" capability and answers tools/list ' +
      "with -32601 (method not found)",
    ]);
  } finally {
    await close();
  }
});

Deno.test("a server that advertises tools and answers -32601 is still a failure", async () => {
  const { client, close } = await connect({ tools: {} }, () => {});
  try {
    await assert.rejects(
      listServer(client, { requestTimeoutMs: 5_000 }),
      (e: unknown) => e instanceof McpError && e.code === ErrorCode.MethodNotFound,
    );
  } finally {
    await close();
  }
});

/** A server that declares tools.listChanged, lists `initial` at first, then changes its list. */
async function changingServer(initial: string[], changes: string[][], delayMs: number) {
  let current = initial;
  const server = new Server({ name: "late", version: "1.0.0" }, {
    capabilities: { tools: { listChanged: true } },
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: current.map(tool) }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities: {} });
  const changes$ = watchToolListChanges(client);
  server.oninitialized = async () => {
    for (const next of changes) {
      await new Promise((r) => setTimeout(r, delayMs));
      current = next;
      await server.sendToolListChanged();
    }
  };
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    changes: changes$,
    close: async () => (await client.close(), await server.close()),
  };
}

Deno.test("tools/list is read again on notifications/tools/list_changed until the list settles", async () => {
  // Lists nothing at first (still starting), then two changes 30 ms apart.
  const { client, changes, close } = await changingServer([], [["a"], ["a", "b"]], 30);
  try {
    const listing = await listServer(client, { requestTimeoutMs: 5_000, changes, settleMs: 300 });
    assert.deepEqual(listing.tools.map((t) => t.name), ["a", "b"]);
    assert.equal(changes.seen(), 2);
    assert.equal(listing.warnings.length, 1);
    assert.match(
      listing.warnings[0],
      /^tools\/list_changed received 2 time\(s\): tools\/list read [23] times, the last list \(2 tools\) kept; settle window 300 ms$/,
    );
  } finally {
    await close();
  }
});

Deno.test("without list_changed within the settle window, one listing is kept and nothing is warned", async () => {
  const { client, changes, close } = await changingServer(["a"], [], 0);
  try {
    const listing = await listServer(client, { requestTimeoutMs: 5_000, changes, settleMs: 50 });
    assert.deepEqual(listing.tools.map((t) => t.name), ["a"]);
    assert.deepEqual(listing.warnings, []);
  } finally {
    await close();
  }
});

Deno.test("listChangeWatcher() resolves false after the window and on abort", async () => {
  const w = listChangeWatcher();
  assert.equal(await w.waitBeyond(0, 10), false);
  const controller = new AbortController();
  const waiting = w.waitBeyond(0, 10_000, controller.signal);
  controller.abort();
  assert.equal(await waiting, false);
  w.notify();
  assert.equal(await w.waitBeyond(0, 10_000), true);
  assert.equal(await w.waitBeyond(1, 5), false);
});

Deno.test("tools/list items keep the key order the server sent (the wire layer counts it)", async () => {
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{
        inputSchema: { type: "object" as const, properties: { b: {}, a: {} } },
        description: "d",
        name: "n",
        annotations: { readOnlyHint: true },
      }],
    }));
  });
  try {
    const list = await listAll(client, "tools/list", { requestTimeoutMs: 5_000 });
    assert.equal(
      JSON.stringify(list.items),
      '[{"inputSchema":{"type":"object","properties":{"b":{},"a":{}}},"description":"d",' +
        '"name":"n","annotations":{"readOnlyHint":true}}]',
    );
  } finally {
    await close();
  }
});

Deno.test("a tools/list item without a string name still fails the lenient schema", async () => {
  const { client, close } = await connect({ tools: {} }, (server) => {
    server.setRequestHandler(
      ListToolsRequestSchema,
      () => ({ tools: [{ description: "no name" }] }),
    );
  });
  try {
    await assert.rejects(
      () => listAll(client, "tools/list", { requestTimeoutMs: 5_000 }),
      /an item needs a string name/,
    );
  } finally {
    await close();
  }
});
