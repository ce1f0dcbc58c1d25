import assert from "node:assert/strict";
import { CatalogError } from "./errors.ts";
import { parseCatalog } from "./parse.ts";

/** Assert `fn` throws a CatalogError with these fields and a message containing each snippet. */
function assertCatalogError(
  fn: () => unknown,
  expected: { path?: string; toolId?: string; field?: string; includes?: string[] },
): CatalogError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof CatalogError, `expected a CatalogError, got ${caught}`);
  const err = caught as CatalogError;
  if ("path" in expected) assert.equal(err.path, expected.path);
  assert.equal(err.toolId, expected.toolId, `toolId in: ${err.message}`);
  assert.equal(err.field, expected.field, `field in: ${err.message}`);
  for (const s of expected.includes ?? []) {
    assert.ok(err.message.includes(s), `"${s}" not in: ${err.message}`);
  }
  assert.ok(!err.message.includes("\n"), "message is one line");
  return err;
}

// --- mcpmeter capture ------------------------------------------------------------------------

const CAPTURE = `{
  "format": "mcpmeter-capture",
  "formatVersion": 1,
  "id": "tiny_v1",
  "version": "1",
  "source": {"task": "capture", "sdk": "1.32.2"},
  "serverCount": 2,
  "toolCount": 3,
  "servers": [
    {
      "server": "time",
      "package": "@x/time",
      "version": "1.0.0",
      "toolCount": 1,
      "tools": [
        {"name": "now", "inputSchema": {"type": "object", "properties": {"tz": {"type": "string", "default": "UTC"}}}}
      ]
    },
    {
      "server": "fs",
      "toolCount": 2,
      "tools": [
        {
          "name": "write",
          "title": "Write file",
          "description": "Write a file to disk.",
          "inputSchema": {"type": "object", "properties": {"ratio": {"type": "number", "maximum": 0.10}}},
          "outputSchema": {"type": "object"},
          "annotations": {"destructiveHint": true},
          "_meta": {"x": 1}
        },
        {"name": "read", "description": null, "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"}}
      ],
      "prompts": [{"name": "p"}]
    }
  ]
}
`;

Deno.test("capture format: tools sorted by id, fields kept, literals kept, warnings aggregated", () => {
  const c = parseCatalog(CAPTURE, { path: "fixtures/tiny.tools.json" });
  assert.equal(c.id, "tiny_v1");
  assert.equal(c.version, "1");
  assert.deepEqual(c.provenance, {
    format: "mcpmeter-capture",
    path: "fixtures/tiny.tools.json",
    source: { task: "capture", sdk: "1.32.2" },
  });
  assert.deepEqual(c.tools.map((t) => t.id), ["fs:read", "fs:write", "time:now"]);
  const [read, write, now] = c.tools;
  assert.equal(read.description, "");
  assert.equal(read.server, "fs");
  assert.equal(read.name, "read");
  assert.deepEqual(write, {
    id: "fs:write",
    server: "fs",
    name: "write",
    title: "Write file",
    description: "Write a file to disk.",
    inputSchema: { type: "object", properties: { ratio: { type: "number", maximum: 0.1 } } },
    inputSchemaCanonical:
      '{"properties":{"ratio":{"maximum":0.10,"type":"number"}},"type":"object"}',
    outputSchema: { type: "object" },
    annotations: { destructiveHint: true },
  });
  assert.equal(
    now.inputSchemaCanonical,
    '{"properties":{"tz":{"default":"UTC","type":"string"}},"type":"object"}',
  );
  // `_meta` is an MCP Tool field: left out of the tool without a warning.
  assert.deepEqual(c.warnings, [
    'field "inputSchema" has only "$schema" (no type or properties): 1 tool (fs:read)',
  ]);
});

Deno.test("tools/list: MCP's _meta, icons and execution are left out quietly, any other field with a warning", () => {
  const c = parseCatalog(
    JSON.stringify({
      tools: [{
        name: "t",
        inputSchema: { type: "object" },
        _meta: { a: 1 },
        icons: [{ src: "https://example.com/i.png" }],
        execution: { taskSupport: "optional" },
        "x-vendor": true,
      }],
    }),
    { path: "srv.json" },
  );
  assert.deepEqual(Object.keys(c.tools[0]).sort(), [
    "description",
    "id",
    "inputSchema",
    "inputSchemaCanonical",
    "name",
    "server",
  ]);
  assert.deepEqual(c.warnings, ['dropped field "x-vendor": 1 tool (srv:t)']);
});

/** A one-server capture as `deno task capture` writes it: `tools` keys sorted, `toolsWire` as received. */
function wireCapture(tools: unknown[], toolsWire: string): string {
  return JSON.stringify({
    format: "mcpmeter-capture",
    formatVersion: 1,
    id: "wired",
    version: "1",
    source: {},
    serverCount: 1,
    toolCount: tools.length,
    servers: [{ server: "fs", toolCount: tools.length, tools, toolsWire }],
  });
}

// The read tool as the file sorts it, and the order the server sent (MCP spec examples put
// `type` before `properties`, as most SDKs do).
const SORTED_READ = {
  description: "Read a file",
  inputSchema: { properties: { path: { type: "string" } }, required: ["path"], type: "object" },
  name: "read",
};
const RECEIVED_READ = '{"name":"read","description":"Read a file","inputSchema":' +
  '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}';

Deno.test("capture format: a server's toolsWire gives each tool's received key order, as the server sent it", () => {
  const corpus = parseCatalog(wireCapture([SORTED_READ], `[${RECEIVED_READ}]`));
  assert.deepEqual(corpus.warnings, []);
  assert.deepEqual(Object.keys(corpus.tools[0].inputSchema ?? {}), [
    "type",
    "properties",
    "required",
  ]);
  assert.equal(
    JSON.stringify(corpus.tools[0].inputSchema),
    '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}',
  );
});

Deno.test("capture format: a toolsWire that no longer matches tools is not read, with a warning", () => {
  const edited = { ...SORTED_READ, description: "Read one file" };
  const cases: [string, string][] = [
    [`[${RECEIVED_READ}]`, '"toolsWire" differs from "tools" at tools[0]'],
    ["[]", '"toolsWire" holds 0 tools, "tools" 1'],
    ["[{", '"toolsWire" is not valid JSON'],
    ['{"tools":[]}', '"toolsWire" is not a JSON array (got object)'],
  ];
  for (const [wire, why] of cases) {
    const corpus = parseCatalog(wireCapture([edited], wire));
    assert.equal(corpus.tools[0].description, "Read one file");
    assert.deepEqual(Object.keys(corpus.tools[0].inputSchema ?? {}), [
      "properties",
      "required",
      "type",
    ]);
    assert.equal(corpus.warnings.length, 1);
    assert.ok(corpus.warnings[0].startsWith(`servers[0] ("fs"): ${why}`), corpus.warnings[0]);
    assert.ok(
      corpus.warnings[0].endsWith('; the key order of "tools" is read'),
      corpus.warnings[0],
    );
  }
});

Deno.test("capture format: header counts must agree with the rows", () => {
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"serverCount": 2', '"serverCount": 3'), { path: "c.json" }),
    {
      path: "c.json",
      field: "serverCount",
      includes: ['"c.json"', "says 3 but the file has 2 servers"],
    },
  );
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"toolCount": 3', '"toolCount": 4'), { path: "c.json" }),
    { field: "toolCount", includes: ["says 4 but the file has 3 tools"] },
  );
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"toolCount": 2', '"toolCount": 1'), { path: "c.json" }),
    { field: "toolCount", includes: ['servers[1] ("fs") says 1 but the file has 2 tools'] },
  );
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"toolCount": 2', '"toolCount": "2"'), { path: "c.json" }),
    { field: "toolCount", includes: ["of servers[1] is not a non-negative integer (got string"] },
  );
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"toolCount": 3,', ""), { path: "c.json" }),
    { field: "toolCount", includes: ["is missing"] },
  );
});

Deno.test("capture format: a server listing one tool name twice keeps both, the second as #2", () => {
  const corpus = parseCatalog(CAPTURE.replace('"name": "read"', '"name": "write"'));
  assert.deepEqual(corpus.tools.map((t) => [t.id, t.name, t.description]), [
    ["fs:write", "write", "Write a file to disk."],
    // The second definition, in listing order: description null became "".
    ["fs:write#2", "write", ""],
    ["time:now", "now", ""],
  ]);
  assert.ok(
    corpus.warnings.includes(
      "the server lists this tool name more than once; later definitions kept with ids ending " +
        "in #2, #3, ... in listing order: 1 tool (fs:write)",
    ),
    corpus.warnings.join("\n"),
  );
  // A third copy is #3.
  const three = parseCatalog(
    JSON.stringify({
      tools: [{ name: "a" }, { name: "a", description: "2" }, { name: "a", description: "3" }],
    }),
    { server: "s" },
  );
  assert.deepEqual(three.tools.map((t) => [t.id, t.description]), [
    ["s:a", ""],
    ["s:a#2", "2"],
    ["s:a#3", "3"],
  ]);
});

Deno.test("a repeated name's #2 id skips an id another tool's own name already gives", () => {
  // A server listing "read" twice and a tool named "read#2" gave two tools the id s:read#2.
  const ids = (names: string[]) =>
    parseCatalog(
      JSON.stringify({ tools: names.map((name, i) => ({ name, description: `${i}` })) }),
      {
        server: "s",
      },
    ).tools.map((t) => [t.id, t.name, t.description]);
  assert.deepEqual(ids(["read", "read", "read#2"]), [
    ["s:read", "read", "0"],
    ["s:read#2", "read#2", "2"],
    ["s:read#3", "read", "1"],
  ]);
  assert.deepEqual(ids(["read#2", "read", "read", "read"]), [
    ["s:read", "read", "1"],
    ["s:read#2", "read#2", "0"],
    ["s:read#3", "read", "2"],
    ["s:read#4", "read", "3"],
  ]);
});

Deno.test("capture format: version, duplicate servers and unknown format are errors", () => {
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"formatVersion": 1', '"formatVersion": 2')),
    {
      path: "<memory>",
      field: "formatVersion",
      includes: ["only version 1 is supported"],
    },
  );
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"server": "time"', '"server": "fs"')),
    { field: "server", includes: ['"fs" appears twice (servers[0] and servers[1])'] },
  );
  assertCatalogError(
    () => parseCatalog(CAPTURE.replace('"format": "mcpmeter-capture"', '"format": "other"')),
    { field: "format", includes: ['expected "mcpmeter-capture"'] },
  );
  // A "servers" list that is no capture is told what a capture is.
  assertCatalogError(
    () => parseCatalog('{"servers": [{"server": "a", "tools": [{"name": "x"}]}]}'),
    { field: "formatVersion", includes: ['is missing: a top-level "servers" list is read as'] },
  );
});

// --- mcpproxy corpus -------------------------------------------------------------------------

// The shape of mcpproxy-go's specs/065-evaluation-foundation/datasets/corpus_v1.json (trimmed).
const MCPPROXY = `{
  "generated_from": {"note": "frozen corpus", "source": "GET /api/v1/tools"},
  "tools": [
    {"description": "Shows the commit logs", "server": "git", "tool": "git_log", "tool_id": "git:git_log"},
    {"description": "Adds file contents to the staging area", "server": "git", "tool": "git_add", "tool_id": "git:git_add"}
  ],
  "version": "corpus_v1"
}`;

Deno.test("mcpproxy corpus: name+description rows, generated_from as source", () => {
  const c = parseCatalog(MCPPROXY, { path: "bench/corpus_v1.json" });
  assert.equal(c.provenance.format, "mcpproxy-corpus");
  assert.equal(c.id, "corpus_v1");
  assert.equal(c.version, "corpus_v1");
  assert.deepEqual(c.provenance.source, { note: "frozen corpus", source: "GET /api/v1/tools" });
  assert.deepEqual(c.tools, [
    {
      id: "git:git_add",
      server: "git",
      name: "git_add",
      description: "Adds file contents to the staging area",
    },
    { id: "git:git_log", server: "git", name: "git_log", description: "Shows the commit logs" },
  ]);
  assert.deepEqual(c.warnings, []);
});

Deno.test("mcpproxy corpus: schema as object or as a JSON string keeps its literals", () => {
  const text = JSON.stringify({
    tools: [
      { tool_id: "a:x", server: "a", tool: "x", description: "d", schema: { type: "object" } },
      {
        tool_id: "a:y",
        server: "a",
        tool: "y",
        description: "d",
        schema: '{"type":"object","maximum":1e3}',
      },
    ],
  });
  const c = parseCatalog(text);
  assert.equal(c.provenance.format, "mcpproxy-corpus");
  assert.equal(c.version, "unversioned");
  assert.equal(c.id, "catalog");
  assert.equal(c.tools[0].inputSchemaCanonical, '{"type":"object"}');
  assert.equal(c.tools[1].inputSchemaCanonical, '{"maximum":1e3,"type":"object"}');
  assert.deepEqual(c.tools[1].inputSchema, { type: "object", maximum: 1000 });
});

Deno.test("mcpproxy corpus: invalid schema string, non-object schema, wrong tool_id", () => {
  const row = { tool_id: "a:x", server: "a", tool: "x", description: "d" };
  assertCatalogError(
    () =>
      parseCatalog(JSON.stringify({ tools: [{ ...row, schema: '{"type":' }] }), { path: "p.json" }),
    {
      toolId: "a:x",
      field: "schema",
      includes: ["is a string that is not valid JSON", "offset 8"],
    },
  );
  assertCatalogError(
    () => parseCatalog(JSON.stringify({ tools: [{ ...row, schema: "[1]" }] })),
    { toolId: "a:x", field: "schema", includes: ["is not an object (got array [1])"] },
  );
  // The JSON text "null": the message said "(got null null)".
  assertCatalogError(
    () => parseCatalog(JSON.stringify({ tools: [{ ...row, schema: "null" }] })),
    { toolId: "a:x", field: "schema", includes: ["is not an object (got null)"] },
  );
  assertCatalogError(
    () => parseCatalog(JSON.stringify({ tools: [{ ...row, tool_id: "a:z" }] })),
    { toolId: "a:z", field: "tool_id", includes: ['is "a:z" but "server" and "tool" give "a:x"'] },
  );
  assertCatalogError(
    () => parseCatalog(JSON.stringify({ tools: [row, row] })),
    { toolId: "a:x", field: "tool_id", includes: ["tools[0] and tools[1]"] },
  );
});

// --- LiveMCPBench ----------------------------------------------------------------------------

const LIVE = {
  server_count: 2,
  source: { dataset: "ICIP/LiveMCPBench" },
  tool_count: 3,
  tools: [
    {
      server: "b",
      tool: "t1",
      description: "  padded description  ",
      inputSchema: { type: "object" },
    },
    { server: "a", tool: "t2", description: null },
    { server: "a", tool: "t3", description: "x" },
  ],
  version: "livemcptool@test",
};

Deno.test("livemcpbench: counts checked, null description becomes empty, whitespace kept with a warning", () => {
  const c = parseCatalog(JSON.stringify(LIVE), { path: "corpora/livemcptool/tools.json" });
  assert.equal(c.provenance.format, "livemcpbench");
  assert.equal(c.id, "livemcptool");
  assert.equal(c.version, "livemcptool@test");
  assert.deepEqual(c.tools.map((t) => t.id), ["a:t2", "a:t3", "b:t1"]);
  assert.equal(c.tools[0].description, "");
  assert.equal(c.tools[2].description, "  padded description  ");
  assert.deepEqual(c.warnings, [
    'field "description" has leading or trailing whitespace (kept as is): 1 tool (b:t1)',
  ]);
});

Deno.test("livemcpbench: header counts that disagree with the rows are errors", () => {
  assertCatalogError(
    () => parseCatalog(JSON.stringify({ ...LIVE, tool_count: 4 }), { path: "l.json" }),
    { field: "tool_count", includes: ["says 4 but the file has 3 tools"] },
  );
  assertCatalogError(
    () => parseCatalog(JSON.stringify({ ...LIVE, server_count: 3 }), { path: "l.json" }),
    { field: "server_count", includes: ["says 3 but the file has 2 distinct servers"] },
  );
  assertCatalogError(
    () => parseCatalog(JSON.stringify({ ...LIVE, server_count: 1.5 })),
    { field: "server_count", includes: ["is not a non-negative integer (got number 1.5)"] },
  );
});

// --- raw tools/list --------------------------------------------------------------------------

Deno.test("tools/list: server from options or the file stem, nextCursor warned", () => {
  const text = JSON.stringify({
    tools: [{ name: "echo", description: "Echo the input back.", inputSchema: { type: "object" } }],
    nextCursor: "page2",
  });
  const a = parseCatalog(text, { server: "everything" });
  assert.equal(a.provenance.format, "mcp-tools-list");
  assert.equal(a.tools[0].id, "everything:echo");
  assert.equal(a.id, "catalog");
  assert.deepEqual(a.warnings, [
    '"nextCursor" is set (string "page2"): this file holds one page of a paged tools/list result',
  ]);
  const b = parseCatalog(text, { path: "/tmp/x/filesystem.tools.json" });
  assert.equal(b.tools[0].id, "filesystem:echo");
  assert.equal(b.id, "filesystem");
  assert.throws(() => parseCatalog(text), TypeError);
  // An empty tools/list is a valid (empty) catalog.
  assert.deepEqual(parseCatalog('{"tools": []}', { server: "s" }).tools, []);
});

Deno.test("tools/list: null inputSchema is absent with a warning; wrong types are errors", () => {
  const c = parseCatalog(JSON.stringify({ tools: [{ name: "n", inputSchema: null }] }), {
    server: "s",
  });
  assert.equal(c.tools[0].inputSchema, undefined);
  assert.equal(c.tools[0].inputSchemaCanonical, undefined);
  assert.deepEqual(c.warnings, ['field "inputSchema" is null (treated as absent): 1 tool (s:n)']);
  const bad = (tool: unknown) => () =>
    parseCatalog(JSON.stringify({ tools: [tool] }), {
      server: "s",
      path: "s.json",
      format: "mcp-tools-list",
    });
  assertCatalogError(bad({ name: "n", inputSchema: [] }), {
    toolId: "s:n",
    field: "inputSchema",
    includes: [
      'Cannot load catalog "s.json": tool "s:n" field "inputSchema" is not an object (got array [])',
    ],
  });
  assertCatalogError(bad({ name: "n", description: 5 }), {
    toolId: "s:n",
    field: "description",
    includes: ["is not a string (got number 5)"],
  });
  assertCatalogError(bad({ name: "n", title: false }), { toolId: "s:n", field: "title" });
  assertCatalogError(bad({ name: "n", annotations: "x" }), { toolId: "s:n", field: "annotations" });
  assertCatalogError(bad({ name: "n", outputSchema: 1 }), { toolId: "s:n", field: "outputSchema" });
  assertCatalogError(bad({ name: "   " }), {
    toolId: "tools[0]",
    field: "name",
    includes: ['is empty ("   ")'],
  });
  assertCatalogError(bad({ name: 7 }), { toolId: "tools[0]", field: "name" });
  assertCatalogError(bad("tool"), {
    toolId: "tools[0]",
    field: undefined,
    includes: ["is not an object"],
  });
});

// --- detection and file-level errors ---------------------------------------------------------

Deno.test("format detection picks each format from its content; explicit format wins", () => {
  assert.equal(parseCatalog(CAPTURE).provenance.format, "mcpmeter-capture");
  assert.equal(parseCatalog(MCPPROXY).provenance.format, "mcpproxy-corpus");
  assert.equal(parseCatalog(JSON.stringify(LIVE)).provenance.format, "livemcpbench");
  // LiveMCPBench rows without headers.
  const rows = JSON.stringify({ tools: [{ server: "a", tool: "b", description: "" }] });
  assert.equal(parseCatalog(rows).provenance.format, "livemcpbench");
  assert.equal(
    parseCatalog('{"tools":[{"name":"x"}]}', { server: "s" }).provenance.format,
    "mcp-tools-list",
  );
  // Forcing a format that does not fit gives that format's errors.
  assertCatalogError(() => parseCatalog(rows, { format: "mcpproxy-corpus" }), {
    toolId: "a:b",
    field: "tool_id",
    includes: ["is missing"],
  });
  assertCatalogError(() => parseCatalog('{"tools": [{"description": "x"}]}'), {
    field: "tools",
    includes: ["cannot tell the catalog format"],
  });
  assertCatalogError(() => parseCatalog('{"items": []}'), {
    field: "tools",
    includes: ["is missing"],
  });
  assert.throws(() => parseCatalog("{}", { format: "yaml" as never }), TypeError);
});

Deno.test("file-level errors: invalid JSON, trailing bytes, a top level that is no catalog", () => {
  assertCatalogError(() => parseCatalog('{"tools": []} x', { path: "t.json" }), {
    path: "t.json",
    includes: [
      'Cannot load catalog "t.json": is not valid JSON: Unexpected "x" after the JSON value',
      "offset 14",
    ],
  });
  assertCatalogError(() => parseCatalog('"tools"', { path: "t.json" }), {
    includes: ["top level is not a JSON object or array (got string)"],
  });
  // A bare array is a list of tools (provider_tools_test.ts); the corpora formats are objects.
  assertCatalogError(() => parseCatalog("[]", { path: "t.json", format: "livemcpbench" }), {
    includes: ["top level is not a JSON object (got array)"],
  });
  const err = assertCatalogError(() => parseCatalog('{"tools": [}'), {
    includes: ["is not valid JSON"],
  });
  assert.ok(err.cause instanceof SyntaxError);
});

Deno.test("corpus id: options.id, then the file's id, then the file stem", () => {
  assert.equal(parseCatalog(CAPTURE, { id: "mine" }).id, "mine");
  assert.equal(parseCatalog(CAPTURE, { path: "a/b.json" }).id, "tiny_v1");
  assert.equal(parseCatalog(MCPPROXY, { path: "a/b.json" }).id, "b");
  assert.equal(parseCatalog(MCPPROXY, { path: "C:\\data\\bench.json" }).id, "bench");
  assert.equal(parseCatalog(MCPPROXY, { path: "tools.json" }).id, "tools");
  assertCatalogError(() => parseCatalog(CAPTURE.replace('"id": "tiny_v1"', '"id": 3')), {
    field: "id",
  });
});

Deno.test("a tools/list response pasted with its JSON-RPC envelope is read as its result; an error response fails", () => {
  // What a user copies out of a wire log or the MCP Inspector: the whole response, not `result`.
  const result = {
    tools: [{
      name: "get_time",
      description: "Returns the time.",
      inputSchema: { type: "object" },
    }],
  };
  const envelope = JSON.stringify({ jsonrpc: "2.0", id: 7, result });
  for (const corpus of [parseCatalog(envelope, { path: "dir/clock.json" })]) {
    assert.equal(corpus.provenance.format, "mcp-tools-list");
    // The corpus is the bare result's, and the envelope's request id is not its id.
    assert.equal(corpus.id, "clock");
    assert.deepEqual(corpus.tools.map((t) => t.id), ["clock:get_time"]);
    assert.deepEqual(
      corpus.tools,
      parseCatalog(JSON.stringify(result), { path: "dir/clock.json" }).tools,
    );
    assert.deepEqual(corpus.warnings, [
      'is a JSON-RPC response: read as its "result" (the tools/list result inside the envelope)',
    ]);
  }
  assertCatalogError(
    () =>
      parseCatalog(
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}',
        { server: "s" },
      ),
    { includes: ['is a JSON-RPC error response ("Method not found"): it holds no tools'] },
  );
  assertCatalogError(() => parseCatalog('{"jsonrpc":"2.0","id":1,"result":[]}', { server: "s" }), {
    includes: ['is a JSON-RPC message without a "result" object'],
  });
});
