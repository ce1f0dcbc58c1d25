// Tool definitions written for a provider's API, and bare arrays of MCP tools, read by
// parseCatalog: each expected corpus is written out by hand from the file beside it.
import assert from "node:assert/strict";
import { CatalogError } from "./errors.ts";
import { catalogCarriesSchemas } from "./lint.ts";
import { parseCatalog } from "./parse.ts";
import type { Corpus } from "./types.ts";

/** The conversion warning's fixed middle, as the module doc words it. */
const RECONSTRUCTED =
  "converted to MCP tools: the wire layer (what the client received) is reconstructed as the " +
  "MCP tools/list these definitions would come from, not measured; provider fields steer the " +
  "provider, are not part of a tool's cost, and are dropped";

function catalogError(fn: () => unknown): CatalogError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof CatalogError, `expected a CatalogError, got ${e}`);
    assert.ok(!e.message.includes("\n"), "one-line message");
    return e;
  }
  throw new Error("no error thrown");
}

Deno.test("Anthropic Messages request body: input_schema read as inputSchema, built-in tool skipped", () => {
  const text = `{
  "model": "claude-sonnet-x",
  "max_tokens": 1024,
  "tools": [
    {
      "name": "read_file",
      "description": "Read a file.",
      "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "number", "maximum": 1.50}}, "required": ["path"]},
      "cache_control": {"type": "ephemeral"}
    },
    {"type": "custom", "name": "now", "description": "The time.", "input_schema": {"type": "object"}, "strict": true, "input_examples": [{}]},
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 5}
  ],
  "messages": [{"role": "user", "content": "hi"}]
}`;
  const expected: Corpus = {
    id: "claude",
    version: "unversioned",
    provenance: { format: "anthropic-messages", path: "dir/claude.json" },
    tools: [
      {
        id: "claude:now",
        server: "claude",
        name: "now",
        description: "The time.",
        inputSchema: { type: "object" },
        inputSchemaCanonical: '{"type":"object"}',
      },
      {
        id: "claude:read_file",
        server: "claude",
        name: "read_file",
        description: "Read a file.",
        inputSchema: {
          type: "object",
          properties: { path: { type: "string" }, limit: { type: "number", maximum: 1.5 } },
          required: ["path"],
        },
        // The literal 1.50 as written, keys sorted.
        inputSchemaCanonical:
          '{"properties":{"limit":{"maximum":1.50,"type":"number"},"path":{"type":"string"}},' +
          '"required":["path"],"type":"object"}',
      },
    ],
    warnings: [
      "read as Anthropic Messages API tools (input_schema -> inputSchema), " + RECONSTRUCTED +
      " (cache_control, strict, type)",
      "skipped 1 provider built-in tool (no function definition to read as an MCP tool): " +
      'tools[2] (web_search_20250305 "web_search")',
      'dropped field "input_examples": 1 tool (claude:now)',
    ],
  };
  assert.deepEqual(parseCatalog(text, { path: "dir/claude.json" }), expected);
});

Deno.test("OpenAI Chat Completions tools: function.parameters read as inputSchema", () => {
  const text = JSON.stringify({
    model: "gpt-x",
    messages: [],
    tools: [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather for a city.",
          parameters: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
      { type: "function", function: { name: "ping" }, index: 1 },
    ],
  });
  const expected: Corpus = {
    id: "chat",
    version: "unversioned",
    provenance: { format: "openai-chat-completions", path: "chat.json" },
    tools: [
      {
        id: "wx:get_weather",
        server: "wx",
        name: "get_weather",
        description: "Weather for a city.",
        inputSchema: {
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
          additionalProperties: false,
        },
        inputSchemaCanonical:
          '{"additionalProperties":false,"properties":{"city":{"type":"string"}},' +
          '"required":["city"],"type":"object"}',
      },
      // No parameters: a function without arguments, as OpenAI reads it.
      { id: "wx:ping", server: "wx", name: "ping", description: "" },
    ],
    warnings: [
      "read as OpenAI Chat Completions function tools (function.parameters -> inputSchema), " +
      RECONSTRUCTED + " (strict, type)",
      `dropped field "index" of the tool's wrapper: 1 tool (wx:ping)`,
    ],
  };
  assert.deepEqual(parseCatalog(text, { path: "chat.json", server: "wx" }), expected);
});

Deno.test("OpenAI Chat Completions' deprecated functions parameter: the definitions alone", () => {
  const corpus = parseCatalog(
    '{"model": "gpt-x", "functions": [{"name": "f", "description": "F.", "parameters": {"type": "object"}}]}',
    { server: "s" },
  );
  assert.equal(corpus.provenance.format, "openai-chat-completions");
  assert.deepEqual(corpus.tools, [{
    id: "s:f",
    server: "s",
    name: "f",
    description: "F.",
    inputSchema: { type: "object" },
    inputSchemaCanonical: '{"type":"object"}',
  }]);
});

Deno.test("Anthropic's MCP connector: servers the provider lists itself are said not measured", () => {
  const corpus = parseCatalog(
    '{"tools": [{"name": "a", "input_schema": {}}], "mcp_servers": [{"type": "url", "url": "https://x.test/mcp", "name": "x"}]}',
    { server: "s" },
  );
  assert.ok(
    corpus.warnings.includes(
      'the request names 1 remote MCP server ("mcp_servers") whose tools the provider fetches ' +
        "itself: they are not in the file and not measured",
    ),
    corpus.warnings.join("\n"),
  );
});

Deno.test("OpenAI Responses function tools, a bare array: built-in and MCP tools skipped", () => {
  const text = `[
  {"type": "function", "name": "search_docs", "description": "Search the docs.",
   "parameters": {"type": "object", "properties": {"q": {"type": "string"}, "k": {"type": "integer", "default": 1e1}}},
   "strict": false, "defer_loading": true},
  {"type": "web_search"},
  {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp"}
]`;
  const expected: Corpus = {
    id: "responses",
    version: "unversioned",
    provenance: { format: "openai-responses", path: "responses.json" },
    tools: [{
      id: "responses:search_docs",
      server: "responses",
      name: "search_docs",
      description: "Search the docs.",
      inputSchema: {
        type: "object",
        properties: { q: { type: "string" }, k: { type: "integer", default: 10 } },
      },
      inputSchemaCanonical:
        '{"properties":{"k":{"default":1e1,"type":"integer"},"q":{"type":"string"}},"type":"object"}',
    }],
    warnings: [
      "read as OpenAI Responses API function tools (parameters -> inputSchema), " +
      RECONSTRUCTED + " (defer_loading, strict, type)",
      "skipped 2 provider built-in tools (no function definition to read as an MCP tool): " +
      "[1] (web_search), [2] (mcp)",
    ],
  };
  assert.deepEqual(parseCatalog(text, { path: "responses.json" }), expected);
});

Deno.test("OpenAI Responses namespaces (tool search): their function tools are read, in order", () => {
  const text = JSON.stringify({
    model: "gpt-x",
    tools: [
      { type: "function", name: "a", parameters: { type: "object" } },
      {
        type: "namespace",
        name: "crm",
        description: "Customer records.",
        tools: [
          { type: "function", name: "b", description: "B.", defer_loading: true },
          { type: "web_search" },
        ],
      },
      { type: "tool_search" },
    ],
  });
  const corpus = parseCatalog(text, { server: "s" });
  assert.equal(corpus.provenance.format, "openai-responses");
  assert.deepEqual(corpus.tools, [
    {
      id: "s:a",
      server: "s",
      name: "a",
      description: "",
      inputSchema: { type: "object" },
      inputSchemaCanonical: '{"type":"object"}',
    },
    { id: "s:b", server: "s", name: "b", description: "B." },
  ]);
  assert.deepEqual(corpus.warnings.slice(1), [
    "skipped 2 provider built-in tools (no function definition to read as an MCP tool): " +
    "tools[1].tools[1] (web_search), tools[2] (tool_search)",
    "read the function tools of 1 OpenAI namespace as tools of the one server (a namespace's " +
    "name and description belong to no tool and are dropped): crm",
  ]);
});

Deno.test("Gemini request body: functionDeclarations, parameters or parametersJsonSchema", () => {
  const text = JSON.stringify({
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    tools: [
      {
        functionDeclarations: [
          {
            name: "set_light",
            description: "Set the light.",
            parameters: { type: "OBJECT", properties: { level: { type: "NUMBER" } } },
            behavior: "NON_BLOCKING",
          },
          { name: "now", parametersJsonSchema: { type: "object", properties: {} } },
        ],
      },
      { googleSearch: {} },
    ],
  });
  const expected: Corpus = {
    id: "gem",
    version: "unversioned",
    provenance: { format: "gemini", path: "gem.json" },
    tools: [
      {
        id: "gem:now",
        server: "gem",
        name: "now",
        description: "",
        inputSchema: { type: "object", properties: {} },
        inputSchemaCanonical: '{"properties":{},"type":"object"}',
      },
      {
        id: "gem:set_light",
        server: "gem",
        name: "set_light",
        description: "Set the light.",
        inputSchema: { type: "OBJECT", properties: { level: { type: "NUMBER" } } },
        inputSchemaCanonical: '{"properties":{"level":{"type":"NUMBER"}},"type":"OBJECT"}',
      },
    ],
    warnings: [
      "read as Gemini function declarations (parameters or parametersJsonSchema -> inputSchema), " +
      RECONSTRUCTED + " (behavior)",
      "skipped 1 provider built-in tool (no function definition to read as an MCP tool): " +
      "tools[1] (googleSearch)",
      'field "parameters" names types in capitals (OpenAPI style, e.g. "OBJECT"): kept as ' +
      "written, though JSON Schema (and MCP) spell them in lower case: 1 tool (gem:set_light)",
    ],
  };
  assert.deepEqual(parseCatalog(text, { path: "gem.json" }), expected);
});

Deno.test("Gemini: one Tool object, and the snake_case spellings", () => {
  const tool = parseCatalog(
    '{"functionDeclarations": [{"name": "a", "description": "Does a.", "parameters": {"type": "object"}}]}',
    { server: "s" },
  );
  assert.equal(tool.provenance.format, "gemini");
  assert.deepEqual(tool.tools, [{
    id: "s:a",
    server: "s",
    name: "a",
    description: "Does a.",
    inputSchema: { type: "object" },
    inputSchemaCanonical: '{"type":"object"}',
  }]);
  const snake = parseCatalog(
    '{"tools": [{"function_declarations": [{"name": "a", "description": "Does a.", "parameters_json_schema": {"type": "object"}}]}]}',
    { server: "s" },
  );
  assert.equal(snake.provenance.format, "gemini");
  assert.deepEqual(snake.tools, tool.tools);
});

Deno.test("a bare array of MCP tools reads as one server's tools/list result", () => {
  const corpus = parseCatalog(
    '[{"name": "read", "description": "Read.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]',
    { path: "fs.json" },
  );
  assert.deepEqual(corpus, {
    id: "fs",
    version: "unversioned",
    provenance: { format: "mcp-tools-list", path: "fs.json" },
    tools: [{
      id: "fs:read",
      server: "fs",
      name: "read",
      description: "Read.",
      inputSchema: { type: "object" },
      inputSchemaCanonical: '{"type":"object"}',
      annotations: { readOnlyHint: true },
    }],
    warnings: ['top level is an array: read as the "tools" of one server\'s tools/list result'],
  });
});

Deno.test("a repeated name in a provider catalog keeps both definitions, as in tools/list", () => {
  const corpus = parseCatalog(
    '{"tools": [{"name": "a", "input_schema": {"type": "object"}}, {"name": "a", "input_schema": {"type": "object", "title": "2"}}]}',
    { server: "s" },
  );
  assert.deepEqual(corpus.tools.map((t) => [t.id, t.inputSchemaCanonical]), [
    ["s:a", '{"type":"object"}'],
    ["s:a#2", '{"title":"2","type":"object"}'],
  ]);
});

Deno.test("ambiguity: two schema fields on a row fail, naming the tool; --format picks one", () => {
  const text =
    '{"tools": [{"name": "read", "inputSchema": {"type": "object"}, "input_schema": {"type": "object", "title": "A"}}]}';
  const err = catalogError(() => parseCatalog(text, { path: "srv.json" }));
  assert.equal(err.toolId, "srv:read");
  assert.equal(err.field, "input_schema");
  assert.ok(
    err.message.includes('at tools[0] has both "inputSchema" and "input_schema"'),
    err.message,
  );
  // Named, each format reads its own field and drops the other with a warning.
  const anthropic = parseCatalog(text, { path: "srv.json", format: "anthropic-messages" });
  assert.equal(anthropic.tools[0].inputSchemaCanonical, '{"title":"A","type":"object"}');
  assert.ok(anthropic.warnings.includes('dropped field "inputSchema": 1 tool (srv:read)'));
  const mcp = parseCatalog(text, { path: "srv.json", format: "mcp-tools-list" });
  assert.equal(mcp.tools[0].inputSchemaCanonical, '{"type":"object"}');
  assert.deepEqual(mcp.warnings, ['dropped field "input_schema": 1 tool (srv:read)']);
});

Deno.test("ambiguity: parameters without a type is OpenAI's or Gemini's; --format says which", () => {
  const text = '{"tools": [{"name": "f", "description": "F.", "parameters": {"type": "object"}}]}';
  const err = catalogError(() => parseCatalog(text, { server: "s" }));
  assert.equal(err.toolId, "s:f");
  assert.equal(err.field, undefined);
  assert.ok(err.message.includes("--format openai-responses or --format gemini"), err.message);
  const openai = parseCatalog(text, { server: "s", format: "openai-responses" });
  const gemini = parseCatalog(text, { server: "s", format: "gemini" });
  assert.deepEqual(openai.tools, gemini.tools);
  assert.deepEqual(openai.tools, [{
    id: "s:f",
    server: "s",
    name: "f",
    description: "F.",
    inputSchema: { type: "object" },
    inputSchemaCanonical: '{"type":"object"}',
  }]);
  // Beside a typed Responses function, the untyped one is read as one too.
  const mixed = parseCatalog(
    '[{"type": "function", "name": "g", "parameters": {}}, {"name": "f", "parameters": {}}]',
    { server: "s" },
  );
  assert.equal(mixed.provenance.format, "openai-responses");
  assert.deepEqual(mixed.tools.map((t) => t.id), ["s:f", "s:g"]);
});

Deno.test("ambiguity: rows of two shapes, Gemini's two schema fields, a Chat tool without function", () => {
  const mixed = catalogError(() =>
    parseCatalog(
      '[{"name": "a", "input_schema": {}}, {"type": "function", "function": {"name": "b"}}]',
      { server: "s" },
    )
  );
  assert.equal(mixed.field, "tools");
  assert.ok(
    mixed.message.includes('[1] ("b") is an OpenAI Chat Completions tool') &&
      mixed.message.includes('but [0] ("a") is an Anthropic Messages API tool'),
    mixed.message,
  );
  const mcpAndAnthropic = catalogError(() =>
    parseCatalog(
      '{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b", "input_schema": {}}]}',
      {
        server: "s",
      },
    )
  );
  assert.ok(
    mcpAndAnthropic.message.includes('tools[1] ("b") is an Anthropic'),
    mcpAndAnthropic.message,
  );

  const gemini = catalogError(() =>
    parseCatalog(
      '{"functionDeclarations": [{"name": "f", "parameters": {}, "parametersJsonSchema": {}}]}',
      { server: "s" },
    )
  );
  assert.equal(gemini.toolId, "s:f");
  assert.equal(gemini.field, "parametersJsonSchema");
  assert.ok(gemini.message.includes("at functionDeclarations[0] has both"), gemini.message);

  const chat = catalogError(() =>
    parseCatalog('{"tools": [{"type": "function", "name": "f"}]}', {
      server: "s",
      format: "openai-chat-completions",
    })
  );
  assert.equal(chat.toolId, "s:f");
  assert.equal(chat.field, "function");
  assert.ok(chat.message.includes("is not a Chat Completions function tool"), chat.message);
});

Deno.test("a request whose tools are all provider built-ins fails: none is an MCP tool", () => {
  // Anthropic's web search tool and its MCP connector toolset: named or not, neither is a
  // function definition; read as MCP tools they were measured as tools of the catalog.
  const e = catalogError(() =>
    parseCatalog(
      '{"model": "m", "tools": [{"type": "web_search_20250305", "name": "web_search"}, ' +
        '{"type": "mcp_toolset", "mcp_server_name": "x"}]}',
      { server: "s" },
    )
  );
  assert.equal(e.field, "tools");
  assert.equal(
    e.message,
    'Cannot load catalog "<memory>": field "tools" holds only provider built-in tools ' +
      '(tools[0] (web_search_20250305 "web_search"), tools[1] (mcp_toolset)), no function ' +
      "definition: nothing to read as an MCP tool",
  );
  // A bare array of them: the top level is at fault.
  const bare = catalogError(() =>
    parseCatalog('[{"type": "web_search"}, {"type": "code_interpreter"}]', { server: "s" })
  );
  assert.equal(bare.field, undefined);
  assert.equal(
    bare.message,
    'Cannot load catalog "<memory>": top level holds only provider built-in tools ' +
      "([0] (web_search), [1] (code_interpreter)), no function definition: nothing to read as " +
      "an MCP tool",
  );
  // Beside a definition, a built-in is skipped as before.
  const one = parseCatalog(
    '[{"type": "web_search_20250305", "name": "web_search"}, {"name": "f", "input_schema": {}}]',
    { server: "s" },
  );
  assert.deepEqual(one.tools.map((t) => t.id), ["s:f"]);
});

Deno.test("one definition saved alone, or a request without tools, fails saying what the file is", () => {
  // What LangChain's convert_to_openai_tool returns for one tool: one Chat Completions tool.
  const one = catalogError(() =>
    parseCatalog(
      '{"type": "function", "function": {"name": "multiply", "parameters": {"type": "object"}}}',
      { server: "s" },
    )
  );
  assert.equal(
    one.message,
    'Cannot load catalog "<memory>": top level is one tool definition (an OpenAI Chat ' +
      'Completions tool ({"type": "function", "function": {...}})), not a catalog: put it in ' +
      "an array, [{...}], to read it as a catalog of one tool",
  );
  // A Gemini request with no tools: its "contents" say it is a request.
  const bare = catalogError(() =>
    parseCatalog('{"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}', { server: "s" })
  );
  assert.equal(bare.field, "tools");
  assert.equal(
    bare.message,
    'Cannot load catalog "<memory>": field "tools" is missing: the file is a model request ' +
      "without tools, so it holds no tool to measure",
  );
  // A package.json-like object (a name, no schema) is no tool definition: the old message.
  const other = catalogError(() => parseCatalog('{"name": "pkg", "version": "1.0.0"}'));
  assert.ok(other.message.includes("cannot tell the catalog format"), other.message);
});

Deno.test("provider formats need a server name, as a tools/list result does", () => {
  assert.throws(
    () => parseCatalog('{"tools": [{"name": "a", "input_schema": {}}]}'),
    (e: unknown) =>
      e instanceof TypeError && e.message.includes("anthropic-messages catalog without a server"),
  );
});

Deno.test("a tool without a schema is a lint finding where the provider requires one (Anthropic)", () => {
  const text = (format: string) =>
    format === "anthropic-messages"
      ? '{"tools": [{"name": "ping", "description": "Ping."}]}'
      : '{"tools": [{"type": "function", "function": {"name": "ping", "description": "Ping."}}]}';
  const anthropic = parseCatalog(text("anthropic-messages"), {
    server: "s",
    format: "anthropic-messages",
  });
  const openai = parseCatalog(text("openai-chat-completions"), { server: "s" });
  assert.equal(catalogCarriesSchemas(anthropic), true);
  // OpenAI: leaving parameters out defines a function with no arguments.
  assert.equal(catalogCarriesSchemas(openai), false);
});
