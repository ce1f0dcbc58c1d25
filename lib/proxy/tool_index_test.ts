import assert from "node:assert/strict";
import { createToolIndex, proxyRetriever } from "./tool_index.ts";

const TOOLS = [
  { id: "fs:read_file", server: "fs", name: "read_file", description: "Read a file from disk" },
  { id: "fs:write_file", server: "fs", name: "write_file", description: "Write a file to disk" },
  { id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open an issue" },
];

Deno.test("proxyRetriever() serves a registered retriever by name", () => {
  const index = createToolIndex(TOOLS, { retriever: proxyRetriever("tfidf_classic") });
  assert.equal(index.retriever.name, "tfidf_classic");
  // The exact tool name is a term query boosted 5 in tfidf_classic: it ranks first.
  assert.equal(index.search("write_file", 3)[0].id, "fs:write_file");
  assert.equal(createToolIndex(TOOLS).retriever.name, "bm25", "bm25 stays the default");
});

Deno.test("proxyRetriever() refuses retrievers the proxy cannot build, by their capabilities", () => {
  assert.throws(
    () => proxyRetriever("oracle"),
    new TypeError('Cannot serve retriever "oracle" from the proxy: it needs golden labels'),
  );
  assert.throws(() => proxyRetriever("nope"), RangeError);
});
