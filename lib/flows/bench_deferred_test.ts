import assert from "node:assert/strict";
import { meanRetrieveTokens } from "./bench_deferred.ts";
import type { Tool } from "../catalog/types.ts";
import { retrieveResponseText } from "../proxy/responses.ts";
import { createDefaultTokenizer } from "../tokens/default_tokenizer.ts";

Deno.test("meanRetrieveTokens: the tokenizers' counts of each whole response, averaged", () => {
  const schema = {
    properties: { path: { description: "File path.", type: "string" } },
    type: "object",
  };
  const tools: Tool[] = [
    ["fs", "read", 'Read a file\'s text: UTF-8, 10 MB at most, "quoted".'],
    ["fs", "write", "Write text to a file, creating it and its folders when missing."],
    ["web", "fetch", "Fetch a page and return its text, links kept as Markdown."],
  ].map(([server, name, description]) => ({
    id: `${server}:${name}`,
    server,
    name,
    description,
    inputSchema: schema,
  }));
  const tokenizers = [createDefaultTokenizer("cl100k_base"), createDefaultTokenizer("o200k_base")];
  // Two per response: [read, write] and [fetch, read] (the last wraps to the start).
  const byId = new Map(tools.map((t) => [t.id, t]));
  const texts = [[0, 1], [2, 0]].map((ids) =>
    retrieveResponseText(
      ids.map((i) => ({ id: tools[i].id, score: 1 })),
      (id) => byId.get(id),
      "full",
    )
  );
  assert.deepEqual(
    meanRetrieveTokens(tools, 2, tokenizers),
    tokenizers.map((tok) => (tok.count(texts[0]) + tok.count(texts[1])) / 2),
  );
  assert.deepEqual(meanRetrieveTokens([], 2, tokenizers), [0, 0]);
});
