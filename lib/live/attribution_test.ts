import assert from "node:assert/strict";
import fc from "fast-check";
import { createTokenizer } from "../tokens/tokenizers.ts";
import {
  attributeResponse,
  componentSpans,
  RESPONSE_COMPONENTS,
  type TokenBoundaries,
} from "./attribution.ts";

const utf8 = new TextEncoder();

/** One token per UTF-8 byte. */
const perByte: TokenBoundaries = (text) => {
  const n = utf8.encode(text).length;
  return { starts: Array.from({ length: n }, (_, i) => i), byteLength: n };
};

/** Tokens of exactly `size` bytes (the last may be shorter). */
const chunks = (size: number): TokenBoundaries => (text) => {
  const n = utf8.encode(text).length;
  return { starts: Array.from({ length: Math.ceil(n / size) }, (_, i) => i * size), byteLength: n };
};

Deno.test("attributeResponse() counts bytes per component with a per-byte tokenizer", () => {
  // {"description":"hi","score":1}: description member = 13 + 1 + 4 = 18 bytes,
  // score member = 7 + 1 + 1 = 9 bytes, other = "{" "," "}" = 3 bytes.
  const a = attributeResponse('{"description":"hi","score":1}', perByte);
  assert.deepEqual(a.components, {
    input_schemas: 0,
    descriptions: 18,
    usage_instructions: 0,
    metadata: 9,
    other: 3,
  });
  assert.equal(a.tokens, 30);
  assert.equal(a.bytes, 30);
  assert.equal(a.json, true);
});

Deno.test("attributeResponse() credits a token to the span holding its first byte", () => {
  // 5-byte tokens start at bytes 0,5,10,15,20,25. The description member spans
  // bytes [1,19), the score member [20,29): 0 → other; 5,10,15 → descriptions;
  // 20,25 → metadata (the token at 15 also covers the "," at 19: first byte wins).
  const a = attributeResponse('{"description":"hi","score":1}', chunks(5));
  assert.deepEqual(a.components, {
    input_schemas: 0,
    descriptions: 3,
    usage_instructions: 0,
    metadata: 2,
    other: 1,
  });
  assert.equal(a.tokens, 6);
});

Deno.test("attributeResponse() maps UTF-16 spans to UTF-8 bytes", () => {
  // é is 2 bytes, 😀 is 4 (a surrogate pair in UTF-16): the description member
  // is 13 + 1 + 1 + 2 + 4 + 1 = 22 bytes; "{" and "}" are other.
  const a = attributeResponse('{"description":"é😀"}', perByte);
  assert.equal(a.bytes, 24);
  assert.equal(a.components.descriptions, 22);
  assert.equal(a.components.other, 2);
});

Deno.test("componentSpans() classifies by key, outermost member wins", () => {
  const text = JSON.stringify({
    tools: [{
      name: "fs:read",
      inputSchema: { type: "object", properties: { p: { description: "path" } } },
      annotations: { readOnlyHint: true },
      signature: "read(p:string)",
    }],
    result: { usage_instructions: "call call_tool", total: 1 },
    _meta: { x: 1 },
  });
  const got = componentSpans(text).spans.map((s) => [text.slice(s.start, s.end), s.component]);
  assert.deepEqual(got, [
    ['"name":"fs:read"', "metadata"],
    [
      '"inputSchema":{"type":"object","properties":{"p":{"description":"path"}}}',
      "input_schemas",
    ],
    ['"annotations":{"readOnlyHint":true}', "metadata"],
    ['"signature":"read(p:string)"', "input_schemas"],
    ['"usage_instructions":"call call_tool"', "usage_instructions"],
    ['"total":1', "metadata"],
    ['"_meta":{"x":1}', "metadata"],
  ]);
});

Deno.test("attributeResponse() puts non-JSON text wholly in other, with a warning", () => {
  const text = "Found 2 tools:\n- fs:read_file\n- fs:write_file";
  const a = attributeResponse(text, "cl100k_base");
  assert.equal(a.json, false);
  assert.equal(a.components.other, a.tokens);
  assert.equal(a.tokens, createTokenizer("cl100k_base").count(text));
  assert.equal(a.warnings.length, 1);
  assert.match(a.warnings[0], /not JSON .*line 1 column 1/);
});

Deno.test("attributeResponse() components sum to the token count of the text (property)", () => {
  const tok = createTokenizer("o200k_base");
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 4 }),
      fc.constantFrom("description", "inputSchema", "usage", "name", "tools", "x"),
      fc.boolean(),
      (value, key, pretty) => {
        const text = JSON.stringify({ [key]: value, tools: [value] }, null, pretty ? 2 : 0);
        const a = attributeResponse(text, "o200k_base");
        const sum = RESPONSE_COMPONENTS.reduce((n, k) => n + a.components[k], 0);
        return a.json && sum === a.tokens && a.tokens === tok.count(text);
      },
    ),
    { seed: 20261130, numRuns: 300 },
  );
});

Deno.test("attributeResponse() with cl100k_base on a realistic response", () => {
  const text = JSON.stringify({
    tools: [{
      name: "github:create_issue",
      server: "github",
      description: "Create a new issue in a GitHub repository",
      inputSchema: {
        type: "object",
        properties: { owner: { type: "string" }, repo: { type: "string" } },
        required: ["owner", "repo"],
      },
      score: 7.1234,
    }],
    usage: "Call call_tool with name and arguments.",
  });
  const a = attributeResponse(text, "cl100k_base");
  assert.equal(a.tokens, createTokenizer("cl100k_base").count(text));
  const sum = RESPONSE_COMPONENTS.reduce((n, k) => n + a.components[k], 0);
  assert.equal(sum, a.tokens);
  // The schema is the largest part; every component except other is present.
  assert.ok(a.components.input_schemas > a.components.descriptions);
  for (const k of RESPONSE_COMPONENTS) assert.ok(a.components[k] > 0, k);
});
