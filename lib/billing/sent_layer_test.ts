import assert from "node:assert/strict";
import { sentText, shapesOf, shapeTools } from "./sent_layer.ts";
import { parseCatalog } from "../catalog/parse.ts";
import type { Tool } from "../catalog/types.ts";

const tools: Tool[] = [
  { id: "fs:read.file", server: "fs", name: "read.file", description: "Read a file" },
  {
    id: "fs:write",
    server: "fs",
    name: "write",
    description: "Write",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  },
];

Deno.test("shapesOf() gives shapeTools()'s shapes, each dialect shaped once", () => {
  const shapes = shapesOf(tools);
  for (const format of ["anthropic-messages", "openai-responses", "gemini"] as const) {
    assert.deepEqual(shapes(format), shapeTools(tools, format));
    assert.equal(shapes(format), shapes(format));
  }
  // The two OpenAI formats share one dialect, so one shaping.
  assert.equal(shapes("openai-chat-completions"), shapes("openai-responses"));
  assert.equal(shapes("anthropic-messages")[0].name, "read_file");
});

Deno.test("sentText() of a capture sends each schema in the key order the server sent it", () => {
  // `deno task capture` writes `tools` with sorted keys and `toolsWire` as received; an MCP
  // client passes the schema on as received (JSON.parse keeps member order), and Anthropic's
  // tool is {name, description, input_schema}. Counted either way, the same tool differs by a
  // few tokens (chrome-devtools-mcp 1.1.1: 4,456 sorted, 4,476 received, o200k_base).
  const sorted = {
    description: "Read a file",
    inputSchema: { properties: { path: { type: "string" } }, required: ["path"], type: "object" },
    name: "read",
  };
  const received = '{"name":"read","description":"Read a file","inputSchema":' +
    '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}';
  const capture = JSON.stringify({
    format: "mcpmeter-capture",
    formatVersion: 1,
    id: "c",
    version: "1",
    source: {},
    serverCount: 1,
    toolCount: 1,
    servers: [{ server: "fs", toolCount: 1, tools: [sorted], toolsWire: `[${received}]` }],
  });
  assert.equal(
    sentText(parseCatalog(capture).tools, "anthropic-messages"),
    '[{"name":"read","description":"Read a file","input_schema":' +
      '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]',
  );
});
