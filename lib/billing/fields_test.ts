import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import o200kData from "js-tiktoken/ranks/o200k_base";
import {
  addFields,
  attributeToolsText,
  attributeToolsValue,
  attributeToolsValues,
  FIELD_NAMES,
  type ToolsValue,
} from "./fields.ts";
import {
  captureInstructionsOfBytes,
  eachWireServerOfBytes,
  wireServers,
  wireServersOfBytes,
} from "./wire.ts";
import type { CatalogFormat, JsonObject } from "../catalog/types.ts";

const reference = new Tiktoken(o200kData);
const jsCount = (text: string) => reference.encode(text, [], []).length;
const sum = (f: Record<string, number | undefined>) =>
  FIELD_NAMES.reduce((s, k) => s + (f[k] ?? 0), 0);

Deno.test("attributeToolsText(): totals are js-tiktoken's, fields and envelope add up exactly", () => {
  const text = '[{"name":"search_issues","title":"Search","description":"Search GitHub issues ' +
    'by query","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},' +
    '"annotations":{"readOnlyHint":true},"_meta":{"x":1},"icons":[],"extra":"e"},' +
    '{"name":"ping","description":"","inputSchema":{"type":"object"}}]';
  const a = attributeToolsText(text, "o200k_base");
  assert.equal(a.tokens, jsCount(text));
  assert.equal(a.bytes, new TextEncoder().encode(text).length);
  assert.equal(a.items.length, 2);
  assert.equal(a.items[0].tokens + a.items[1].tokens + a.envelope, a.tokens);
  for (const item of a.items) assert.equal(sum(item.fields), item.tokens);
  // The name member `"name":"ping"` alone, tokenized inside the text: its tokens start at the
  // member, so its count is that of the member where the tokenizer cannot merge across `{`/`,`.
  assert.equal(a.items[1].fields.name, jsCount('"name":"ping"'));
  for (const f of ["title", "annotations", "_meta", "icons", "other"] as const) {
    assert.ok((a.items[0].fields[f] ?? 0) > 0, f);
  }
  // Independently: js-tiktoken's tokens, each credited to the item holding its first byte
  // (the text is ASCII, so characters are bytes).
  const second = text.indexOf(',{"name":"ping"') + 1;
  let at = 0;
  const credited = [0, 0, 0]; // envelope, item 0, item 1
  for (const t of reference.encode(text, [], [])) {
    credited[at >= second && at < text.length - 1 ? 2 : at >= 1 && at < second - 1 ? 1 : 0]++;
    at += reference.decode([t]).length;
  }
  assert.deepEqual([a.envelope, a.items[0].tokens, a.items[1].tokens], credited);
});

Deno.test("wire counts follow the received key order: a reordered catalog counts as sent", () => {
  const received = '[{"inputSchema":{"required":["path"],"type":"object","properties":{"path":' +
    '{"description":"File path","type":"string"}}},"description":"Read a file.","name":"read"}]';
  const sorted = JSON.stringify(
    JSON.parse(received),
    (_, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1))
        : v,
  );
  assert.notEqual(received, sorted);
  const capture = JSON.stringify({
    format: "mcpmeter-capture",
    servers: [{ server: "fs", tools: JSON.parse(sorted), toolsWire: received }],
  });
  const [w] = wireServers(capture, "mcpmeter-capture");
  assert.equal(w.order, "received");
  assert.equal(w.text, received);
  assert.equal(attributeToolsText(w.text, "o200k_base").tokens, jsCount(received));
  // Without toolsWire the sorted tools are what is left, and said so.
  const old = JSON.stringify({ servers: [{ server: "fs", tools: JSON.parse(sorted) }] });
  const [o] = wireServers(old, "mcpmeter-capture");
  assert.equal(o.order, "sorted");
  assert.equal(attributeToolsText(o.text, "o200k_base").tokens, jsCount(sorted));
});

Deno.test("wireServers(): a raw result or JSON-RPC response keeps literals, escapes and order", () => {
  const tools =
    '[ {"name": "a", "description": "caf\\u00e9",\n "inputSchema": {"z": 1.50, "a": 1e2}} ]';
  for (
    const file of [`{"tools": ${tools}}`, `{"jsonrpc":"2.0","id":1,"result":{"tools":${tools}}}`]
  ) {
    const [w] = wireServers(file, "mcp-tools-list", "srv");
    assert.equal(w.server, "srv");
    assert.equal(
      w.text,
      '[{"name":"a","description":"caf\\u00e9","inputSchema":{"z":1.50,"a":1e2}}]',
    );
  }
});

Deno.test("wireServers(): a bare array of MCP tools is the received tools array", () => {
  const [w] = wireServers('[ {"name": "a", "inputSchema": {"z": 1.50}} ]', "mcp-tools-list", "s");
  assert.deepEqual(w, {
    server: "s",
    text: '[{"name":"a","inputSchema":{"z":1.50}}]',
    order: "received",
  });
});

Deno.test("wireServers(): a provider's definitions are rebuilt as the tools/list items they come from", () => {
  // Name, description and schema as written (escape, literal, member order); provider fields,
  // the wrapper and built-in tools left out; one server, named by the caller.
  const item = '{"name":"a","description":"caf\\u00e9","inputSchema":{"z":1.50,"a":1}}';
  const expected = [{ server: "s", text: `[${item},{"name":"b"}]`, order: "reconstructed" }];
  const files: [CatalogFormat, string][] = [
    [
      "anthropic-messages",
      '{"model": "m", "tools": [{"name": "a", "description": "caf\\u00e9", "input_schema": {"z": 1.50, "a": 1}, "cache_control": {"type": "ephemeral"}}, {"type": "web_search_20250305", "name": "web_search"}, {"name": "b", "strict": true}]}',
    ],
    [
      "openai-chat-completions",
      '{"tools": [{"type": "function", "function": {"name": "a", "description": "caf\\u00e9", "parameters": {"z": 1.50, "a": 1}, "strict": true}}, {"type": "function", "function": {"name": "b"}}]}',
    ],
    [
      "openai-responses",
      '[{"type": "function", "name": "a", "description": "caf\\u00e9", "parameters": {"z": 1.50, "a": 1}, "strict": false}, {"type": "web_search"}, {"type": "function", "name": "b"}]',
    ],
    [
      "gemini",
      '{"tools": [{"functionDeclarations": [{"name": "a", "description": "caf\\u00e9", "parametersJsonSchema": {"z": 1.50, "a": 1}}, {"name": "b", "behavior": "BLOCKING"}]}, {"googleSearch": {}}]}',
    ],
  ];
  for (const [format, file] of files) {
    assert.deepEqual(wireServers(file, format, "s"), expected, format);
    const bytes = new TextEncoder().encode(file);
    assert.deepEqual(wireServersOfBytes(bytes, format, "s"), expected, format);
  }
});

Deno.test("wireServers(): LiveMCPBench rows are rebuilt as tools/list items, per server", () => {
  const file = JSON.stringify({
    tool_count: 3,
    tools: [
      { server: "s1", tool: "t1", description: "d1", inputSchema: { type: "object" } },
      { server: "s2", tool: "t2", description: "d2" },
      { server: "s1", tool: "t3", description: "d3" },
    ],
  });
  const w = wireServers(file, "livemcpbench");
  assert.deepEqual(w.map((x) => [x.server, x.order]), [["s1", "reconstructed"], [
    "s2",
    "reconstructed",
  ]]);
  assert.equal(
    w[0].text,
    '[{"name":"t1","description":"d1","inputSchema":{"type":"object"}},{"name":"t3","description":"d3"}]',
  );
});

Deno.test("attributeToolsText(): Gemini declarations, envelope holds the wrapper", () => {
  const text =
    '[{"functionDeclarations":[{"name":"a","description":"x"},{"name":"b","description":"y"}]}]';
  const a = attributeToolsText(text, "o200k_base", "gemini");
  assert.equal(a.tokens, jsCount(text));
  assert.equal(a.items.length, 2);
  assert.equal(sum(addFields(...a.items.map((i) => i.fields))) + a.envelope, a.tokens);
  assert.ok(a.envelope >= jsCount('[{"functionDeclarations":[') - 1);
});

Deno.test("toCaptureFile() keeps a server's instructions, and the wire layer reads them", async () => {
  const { toCaptureFile } = await import("../mcp/capture_file.ts");
  const base = { transport: "stdio", warnings: [], pages: {}, captureMs: 1, runPaths: [] } as const;
  const file = toCaptureFile([
    { ...base, server: "s", outcome: "ok", tools: [{ name: "t" }], instructions: "Use t first." },
  ], { id: "x", version: "1", source: {} });
  const [w] = wireServers(JSON.stringify(file), "mcpmeter-capture");
  assert.equal(w.instructions, "Use t first.");
  assert.equal(w.text, '[{"name":"t"}]');
});

/**
 * Independently: js-tiktoken's tokens of an ASCII `text`, each credited to the member (given by
 * its exact text, found with indexOf after the previous one) holding its first character, else to
 * the item holding it (its envelope), else to the text's envelope.
 */
function creditByHand(
  text: string,
  items: readonly string[],
  members: readonly (readonly [item: number, field: string, literal: string])[],
) {
  let from = 0;
  const itemSpans = items.map((literal) => {
    const start = text.indexOf(literal, from);
    from = start + literal.length;
    return [start, from];
  });
  from = 0;
  const memberSpans = members.map(([item, field, literal]) => {
    const start = text.indexOf(literal, Math.max(from, itemSpans[item][0]));
    from = start + literal.length;
    return { item, field, start, end: from };
  });
  const out = {
    envelope: 0,
    items: items.map(() => ({ tokens: 0, fields: {} as Record<string, number> })),
  };
  let at = 0;
  for (const t of reference.encode(text, [], [])) {
    const item = itemSpans.findIndex(([s, e]) => at >= s && at < e);
    if (item < 0) out.envelope++;
    else {
      const m = memberSpans.find((m) => m.item === item && at >= m.start && at < m.end);
      const field = m?.field ?? "envelope";
      out.items[item].tokens++;
      out.items[item].fields[field] = (out.items[item].fields[field] ?? 0) + 1;
    }
    at += reference.decode([t]).length;
  }
  return out;
}

Deno.test("attributeToolsText(): literals that JSON.parse would rewrite are attributed as written", () => {
  // 1.50 and \u0065 do not survive JSON.parse and JSON.stringify: the lossless parser places them.
  const text = '[{"name":"scale_image","description":"Scales the image at the given path by ' +
    'a factor, keeping its aspect ratio.","inputSchema":{"type":"object","properties":{"factor":' +
    '{"type":"number","default":1.50,"description":"Scal\\u0065 factor, from 0.1 to 10"}}},' +
    '"constructor":"x"},{"name":"ping","description":"Checks that the server answers at all."}]';
  const a = attributeToolsText(text, "o200k_base");
  const want = creditByHand(text, [
    text.slice(1, text.indexOf(',{"name":"ping"')),
    text.slice(text.indexOf('{"name":"ping"'), -1),
  ], [
    [0, "name", '"name":"scale_image"'],
    [0, "description", text.slice(text.indexOf('"description"'), text.indexOf(',"inputSchema"'))],
    [0, "inputSchema", text.slice(text.indexOf('"inputSchema"'), text.indexOf(',"constructor"'))],
    [0, "other", '"constructor":"x"'],
    [1, "name", '"name":"ping"'],
    [1, "description", '"description":"Checks that the server answers at all."'],
  ]);
  assert.equal(a.tokens, jsCount(text));
  assert.equal(a.envelope, want.envelope);
  assert.deepEqual(a.items.map((i) => i.tokens), want.items.map((i) => i.tokens));
  assert.deepEqual(a.items.map((i) => ({ ...i.fields })), want.items.map((i) => i.fields));
});

Deno.test("attributeToolsValue(): the figures of attributeToolsText on its JSON text", () => {
  const description = "Searches the issues of a repository by a free-text query and filters.";
  const parameters = {
    type: "object",
    properties: { q: { type: "string", description: "Free-text query, GitHub's syntax." } },
  };
  const chat: JsonObject[] = [
    { type: "function", function: { name: "search", description, parameters, strict: false } },
    { type: "function", function: { name: "get", description: "Gets one issue.", parameters } },
  ];
  const text = JSON.stringify(chat);
  const a = attributeToolsValue(chat, "o200k_base");
  assert.deepEqual(a, attributeToolsText(text, "o200k_base"));
  // By hand: the `function` member is looked into; `"type":"function"` and `strict` are the item's.
  const want = creditByHand(text, [JSON.stringify(chat[0]), JSON.stringify(chat[1])], [
    [0, "name", '"name":"search"'],
    [0, "description", `"description":${JSON.stringify(description)}`],
    [0, "inputSchema", `"parameters":${JSON.stringify(parameters)}`],
    [0, "envelope", '"strict":false'],
    [1, "name", '"name":"get"'],
    [1, "description", '"description":"Gets one issue."'],
    [1, "inputSchema", `"parameters":${JSON.stringify(parameters)}`],
  ]);
  assert.equal(a.envelope, want.envelope);
  assert.deepEqual(a.items.map((i) => ({ ...i.fields })), want.items.map((i) => i.fields));
  const gemini: JsonObject[] = [{
    functionDeclarations: [{ name: "search", description, parameters }],
  }];
  assert.deepEqual(
    attributeToolsValue(gemini, "o200k_base", "gemini"),
    attributeToolsText(JSON.stringify(gemini), "o200k_base", "gemini"),
  );
});

Deno.test("attributeToolsValues(): texts written in step count as each written alone", () => {
  const description = "Searches the issues of a repository by a free-text query and filters.";
  const parameters = {
    type: "object",
    properties: { q: { type: "string", description: "Free-text query, GitHub's syntax — café." } },
  };
  const other = { type: "object", properties: { id: { type: "integer" } } };
  // The same schema object and description in several formats, and texts of unequal lengths.
  const values: ToolsValue[] = [
    { value: [{ name: "search", description, input_schema: parameters }], items: "array" },
    {
      value: [
        { type: "function", function: { name: "search", description, parameters } },
        { type: "function", function: { name: "get", description, parameters: other } },
      ],
      items: "array",
    },
    {
      value: [{
        functionDeclarations: [
          { name: "search", description, parameters },
          { name: "get", description: "Gets one issue.", parameters: other },
          { name: "ping", description },
        ],
      }],
      items: "gemini",
    },
    { value: [], items: "array" },
  ];
  const tokenizers = ["o200k_base", "cl100k_base"] as const;
  const got = attributeToolsValues(values, tokenizers);
  values.forEach(({ value, items }, v) => {
    tokenizers.forEach((tok, t) => {
      assert.deepEqual(got[v][t], attributeToolsText(JSON.stringify(value), tok, items));
    });
  });
});

Deno.test("wireServersOfBytes(): a capture read server by server gives wireServers() of its text", () => {
  const utf8 = new TextEncoder();
  const tool = {
    name: "read",
    description: "Lit un fichier — café 😀",
    inputSchema: { type: "object" },
  };
  const wire = JSON.stringify([{ name: "read", description: 'Lit "un" fichier', inputSchema: {} }]);
  const files = [
    // Pretty-printed, a repeated key (the last wins), an escaped key, instructions, a server
    // without toolsWire, numbers and literals around the members read.
    `\uFEFF{ "format": "mcpmeter-capture", "n": 1.5e3, "ok": true, "servers": [\n` +
    `  {"server": "a", "toolsWire": "[]", "tools": [], "toolsWire": ${JSON.stringify(wire)},\n` +
    `   "instructions": "Use \\"read\\" first ☃", "x": [null, {"y": "]}"}]},\n` +
    `  {"server": "b", "tools": [${JSON.stringify(tool)}], "toolCount": 1},\n` +
    `  {"serv\\u0065r": 7, "tools\\u0057ire": "[{}]"}\n ] }\n`,
    JSON.stringify({ format: "mcpmeter-capture", servers: [] }),
    JSON.stringify({ format: "mcpmeter-capture" }),
    // Not laid out as a capture the scan follows: decoded whole, same answer (or error).
    JSON.stringify({ servers: [{ server: "a", toolsWire: "[]" }, 3] }),
    JSON.stringify({ servers: null }),
    // A repeated servers member: the last one is read, as JSON.parse keeps it.
    '{"servers": 3, "servers": [{"server": "a", "toolsWire": "[]"}]}',
    '{"servers": [{"server": "a", "toolsWire": "[]"}], "servers": [{"server": "b"}]}',
    '{"servers": [{"server": "a", "toolsWire": "[]"}], "servers": [7]}',
  ];
  for (const file of files) {
    const text = file.replace(/^\uFEFF/, "");
    let want: unknown;
    try {
      want = wireServers(text, "mcpmeter-capture");
    } catch (error) {
      want = (error as Error).constructor;
    }
    let got: unknown;
    try {
      got = wireServersOfBytes(utf8.encode(file), "mcpmeter-capture");
    } catch (error) {
      got = (error as Error).constructor;
    }
    assert.deepEqual(got, want, file.slice(0, 60));
  }
  // By hand: the first file's servers.
  const [a, b, c] = wireServersOfBytes(utf8.encode(files[0]), "mcpmeter-capture");
  assert.deepEqual(a, {
    server: "a",
    text: wire,
    order: "received",
    instructions: 'Use "read" first ☃',
  });
  assert.deepEqual(b, { server: "b", text: JSON.stringify([tool]), order: "sorted" });
  assert.deepEqual(c, { server: "7", text: "[{}]", order: "received" });
  // Other formats: the text decoded whole.
  const list = '{"tools": [{"name": "a", "inputSchema": {"z": 1.50}}]}';
  assert.deepEqual(
    wireServersOfBytes(utf8.encode(list), "mcp-tools-list", "s"),
    wireServers(list, "mcp-tools-list", "s"),
  );
});

Deno.test("captureInstructionsOfBytes(): the servers' non-empty instructions, as JSON.parse reads them", () => {
  const utf8 = new TextEncoder();
  const files = [
    // Pretty-printed, escaped keys, a repeated key (the last wins), an empty and a non-string
    // value, a schema member named instructions (not a server's).
    `\uFEFF{ "format": "mcpmeter-capture", "servers": [\n` +
    `  {"server": "a", "instructions": "old", "tools": [{"x": {"instructions": "no"}}],\n` +
    `   "instruction\\u0073" : "Use \\"read\\" first ☃"},\n` +
    `  {"server": "b", "instructions": ""},\n` +
    `  {"\\u0073erver": 7, "instructions": 3},\n` +
    `  {"server": "d", "x": "]}", "instructions": "Tools of d."}\n ] }\n`,
    JSON.stringify({ format: "mcpmeter-capture", servers: [] }),
    JSON.stringify({ format: "mcpmeter-capture" }),
    // Not laid out as a capture the scan follows: decoded whole.
    JSON.stringify({ servers: [{ server: "a", instructions: "A." }, 3] }),
  ];
  const byHand = [
    new Map([["a", 'Use "read" first ☃'], ["d", "Tools of d."]]),
    new Map(),
    new Map(),
    new Map([["a", "A."]]),
  ];
  for (const [i, file] of files.entries()) {
    assert.deepEqual(captureInstructionsOfBytes(utf8.encode(file)), byHand[i], file.slice(0, 60));
  }
  assert.throws(() => captureInstructionsOfBytes(utf8.encode('{"servers": [')), SyntaxError);
});

Deno.test("eachWireServerOfBytes(): a capture's servers decoded one at a time, as taken", () => {
  // The second server's toolsWire is not a JSON string ("\x"): the first comes out before it fails.
  const file =
    '{"servers": [{"server": "a", "toolsWire": "[]"}, {"server": "b", "toolsWire": "\\x"}]}';
  const servers = eachWireServerOfBytes(new TextEncoder().encode(file), "mcpmeter-capture");
  assert.deepEqual(servers.next().value, { server: "a", text: "[]", order: "received" });
  assert.throws(() => servers.next(), SyntaxError);
});

Deno.test("wireServers(): a schema nested 5,000 levels deep is written whole, not a stack overflow", () => {
  // Valid JSON the catalog parser reads at any depth; the wire writer recursed and overflowed.
  const depth = 5000;
  const open = '{"p": [ {"q": 1.50,\n "r": ';
  const file = `{"tools": [{"name": "d", "inputSchema": ${open.repeat(depth)}0${
    "} ] }".repeat(depth)
  }}]}`;
  const [w] = wireServers(file, "mcp-tools-list", "s");
  const compact = `${'{"p":[{"q":1.50,"r":'.repeat(depth)}0${"}]}".repeat(depth)}`;
  assert.equal(w.text, `[{"name":"d","inputSchema":${compact}}]`);
});
