import assert from "node:assert/strict";
import type { Tool } from "../catalog/types.ts";
import { docWords } from "./_doc_words.ts";
import { docsFromTools, sharedDocs } from "./docs.ts";

const TOOLS: Tool[] = [
  { id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open an issue" },
  {
    id: "gh:list_pulls",
    server: "gh",
    name: "listPulls",
    description: "List the pull requests, pull by pull",
    inputSchema: { type: "object", properties: { repo: { type: "string" } } },
  },
];

Deno.test("sharedDocs() gives docsFromTools' plain documents, built once per tools array", () => {
  const plain = sharedDocs(TOOLS);
  assert.deepEqual(plain.docs, docsFromTools(TOOLS));
  assert.deepEqual([...plain.ids], ["gh:create_issue", "gh:list_pulls"]);
  assert.equal(plain.docs[1].params, '{"properties":{"repo":{"type":"string"}},"type":"object"}');
  assert.equal(sharedDocs(TOOLS), plain, "the same documents again");
  // Another array (an overridden corpus is one) has its own documents.
  const copy = [...TOOLS];
  assert.notEqual(sharedDocs(copy), plain);
  assert.deepEqual(sharedDocs(copy).docs, plain.docs);
});

Deno.test("sharedDocs() throws as docsFromTools does, and keeps nothing then", () => {
  const twice = [TOOLS[0], TOOLS[0]];
  assert.throws(() => sharedDocs(twice), /id "gh:create_issue" appears twice/);
  assert.throws(() => sharedDocs(twice), /appears twice/);
});

Deno.test("docWords() numbers the content words of names and descriptions, repeats kept", () => {
  const docs = sharedDocs(TOOLS).docs;
  const table = docWords(docs);
  assert.equal(docWords(docs), table, "made once per document array");
  const text = (field: "name" | "description", d: number) => {
    const { starts, ids } = table[field];
    return [...ids.slice(starts[d], starts[d + 1])].map((i) => table.words[i]).join(" ");
  };
  // Split at snake_case and camelCase, lower-cased, stop words ("an", "the", "by") dropped.
  assert.equal(text("name", 0), "create issue");
  assert.equal(text("description", 0), "open issue");
  assert.equal(text("name", 1), "list pulls");
  assert.equal(text("description", 1), "list pull requests pull pull");
  // One vocabulary, in first-seen order: names and descriptions, document by document (the
  // stop words are numbered too, and never among a field's words).
  assert.deepEqual(table.words, [
    "create",
    "issue",
    "open",
    "an",
    "list",
    "pulls",
    "the",
    "pull",
    "requests",
    "by",
  ]);
});
