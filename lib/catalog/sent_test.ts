import assert from "node:assert/strict";
import { type SentTool, sentTools } from "./sent.ts";

// Two tools; the schema's keys are deliberately out of sorted order (the renderer keeps them).
const tools: SentTool[] = [
  {
    name: "read",
    description: "Read a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  { name: "ping", description: "", inputSchema: { type: "object" } },
];

Deno.test("sentTools() renders the Anthropic Messages tools value", () => {
  assert.equal(
    JSON.stringify(sentTools(tools, "anthropic-messages")),
    '[{"name":"read","description":"Read a file","input_schema":{"type":"object","properties":' +
      '{"path":{"type":"string"}},"required":["path"]}},' +
      '{"name":"ping","description":"","input_schema":{"type":"object"}}]',
  );
  assert.equal(
    JSON.stringify(
      sentTools(tools, "anthropic-messages", { strict: true, deferLoading: ["ping"] }),
    ),
    '[{"name":"read","description":"Read a file","input_schema":{"type":"object","properties":' +
      '{"path":{"type":"string"}},"required":["path"]},"strict":true},' +
      '{"name":"ping","description":"","input_schema":{"type":"object"},"strict":true,' +
      '"defer_loading":true}]',
  );
});

Deno.test("sentTools() renders Chat Completions function tools, strict only when configured", () => {
  assert.equal(
    JSON.stringify(sentTools(tools.slice(1), "openai-chat-completions")),
    '[{"type":"function","function":{"name":"ping","description":"","parameters":{"type":"object"}}}]',
  );
  assert.equal(
    JSON.stringify(sentTools(tools.slice(1), "openai-chat-completions", { strict: false })),
    '[{"type":"function","function":{"name":"ping","description":"","parameters":' +
      '{"type":"object"},"strict":false}}]',
  );
});

Deno.test("sentTools() renders Responses function tools with strict always written", () => {
  assert.equal(
    JSON.stringify(sentTools(tools.slice(1), "openai-responses")),
    '[{"type":"function","name":"ping","description":"","parameters":{"type":"object"},' +
      '"strict":false}]',
  );
  assert.equal(
    JSON.stringify(
      sentTools(tools.slice(1), "openai-responses", {
        strict: true,
        deferLoading: new Set(["ping"]),
      }),
    ),
    '[{"type":"function","name":"ping","description":"","parameters":{"type":"object"},' +
      '"strict":true,"defer_loading":true}]',
  );
});

Deno.test("sentTools() renders one Gemini functionDeclarations tool, each schema as parametersJsonSchema", () => {
  // Gemini CLI and @google/genai's mcpToTool send every MCP tool's schema, even an empty one,
  // as parametersJsonSchema; Gemini has no strict flag.
  assert.equal(
    JSON.stringify(sentTools(tools, "gemini", { strict: true })),
    '[{"functionDeclarations":[{"name":"read","description":"Read a file","parametersJsonSchema":' +
      '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},' +
      '{"name":"ping","description":"","parametersJsonSchema":{"type":"object"}}]}]',
  );
  assert.deepEqual(sentTools([], "gemini"), []);
  assert.deepEqual(sentTools([], "anthropic-messages"), []);
});

Deno.test("sentTools() refuses deferral where the format has none, unknown names and formats", () => {
  assert.throws(
    () => sentTools(tools, "openai-chat-completions", { deferLoading: ["ping"] }),
    /Cannot defer tools in format "openai-chat-completions": deferred loading exists in anthropic-messages and openai-responses only/,
  );
  assert.throws(
    () => sentTools(tools, "anthropic-messages", { deferLoading: ["nope"] }),
    /Cannot defer "nope": no such tool/,
  );
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => sentTools(tools, "bedrock" as any),
    /Cannot render tools for format "bedrock" as it is not known/,
  );
});
