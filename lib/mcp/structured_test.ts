import assert from "node:assert/strict";
import { checkStructuredContent } from "./structured.ts";

const schema = {
  type: "object",
  properties: { count: { type: "integer" }, items: { type: "array", items: { type: "string" } } },
  required: ["count"],
};

Deno.test("checkStructuredContent() accepts what the SDK client accepts", () => {
  assert.equal(checkStructuredContent(schema, { structuredContent: { count: 2 } }), undefined);
  // No outputSchema: anything goes.
  assert.equal(checkStructuredContent(undefined, { content: [] } as never), undefined);
  // Error results are exempt, as in the SDK's Client.callTool.
  assert.equal(checkStructuredContent(schema, { isError: true }), undefined);
});

Deno.test("checkStructuredContent() names a missing or invalid structuredContent", () => {
  assert.deepEqual(checkStructuredContent(schema, {}), {
    kind: "missing_structured_content",
    message: "the tool declares an outputSchema but its result has no structuredContent " +
      "(MCP clients reject such a result)",
  });
  assert.deepEqual(checkStructuredContent(schema, { structuredContent: { count: "3" } }), {
    kind: "invalid_structured_content",
    message: "structuredContent does not match the tool's outputSchema at /count: " +
      "must be integer (type)",
  });
  assert.deepEqual(
    checkStructuredContent(schema, { structuredContent: { count: 1, items: ["a", 2] } }),
    {
      kind: "invalid_structured_content",
      message: "structuredContent does not match the tool's outputSchema at /items/1: " +
        "must be string (type)",
    },
  );
  assert.deepEqual(
    checkStructuredContent(schema, { structuredContent: {} })?.message,
    "structuredContent does not match the tool's outputSchema at the top level: " +
      "must have required property 'count' (required)",
  );
  assert.equal(
    checkStructuredContent({ type: "nonsense-type" }, { structuredContent: {} })?.kind,
    "invalid_output_schema",
  );
});
