import assert from "node:assert/strict";
import { shapesOf, shapeTools } from "./sent_layer.ts";
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
