import assert from "node:assert/strict";
import {
  anthropicBm25Entry,
  anthropicRegexEntry,
  argumentText,
  compileToolSearchPattern,
  openaiSearchEntry,
  regexPatternFor,
  searchByPattern,
  ToolSearchPatternError,
} from "./hosted_emulation.ts";
import { evaluateRetrieval } from "./evaluate.ts";
import { parseMcpproxyGolden } from "./golden.ts";
import type { RetrievalDoc, Retriever } from "./types.ts";

const doc = (id: string, description: string, params = ""): RetrievalDoc => ({
  id,
  name: id.slice(id.indexOf(":") + 1),
  server: id.slice(0, id.indexOf(":")),
  description,
  params,
});

const schema = (props: Record<string, string>) =>
  JSON.stringify({
    type: "object",
    properties: Object.fromEntries(
      Object.entries(props).map(([k, d]) => [k, { type: "string", description: d }]),
    ),
  });

Deno.test("argumentText: property names and descriptions at every depth; other text as is", () => {
  const nested = JSON.stringify({
    type: "object",
    properties: {
      filter: {
        type: "object",
        description: "Which rows",
        properties: { column: { type: "string", description: "Column name" } },
      },
      tags: { type: "array", items: { type: "object", properties: { label: { type: "string" } } } },
    },
  });
  assert.equal(argumentText(nested), "filter Which rows column Column name tags label");
  assert.equal(argumentText('{"type":"object"}'), "");
  assert.equal(argumentText("path:string, depth?:number"), "path:string, depth?:number");
  assert.equal(argumentText(""), "");
});

Deno.test("regexPatternFor: the documented rule, word by word", () => {
  // "How" and "do" and "I" and "the" are stop words; "in" is short; "emails" loses its s;
  // "address" keeps its double s; "gmail" repeats once.
  assert.equal(
    regexPatternFor("How do I search emails in Gmail by address? gmail"),
    "(?i)search|email|gmail|address",
  );
  assert.equal(regexPatternFor("is it on?"), null);
  // Cut at the last whole word within 200 characters: (?i) is 4, each 9-letter word 10 with |.
  const long = Array.from({ length: 30 }, (_, i) => `word${String(i).padStart(5, "0")}`).join(" ");
  const p = regexPatternFor(long)!;
  assert.ok(p.length <= 200, `${p.length}`);
  assert.equal(p.split("|").length, 19); // 4 + 9 + 18 × 10 = 193; one more would be 203
});

Deno.test("compileToolSearchPattern: (?i) is the i flag; errors carry Anthropic's codes", () => {
  assert.equal(compileToolSearchPattern("(?i)slack").flags, "iu");
  assert.ok(compileToolSearchPattern("(?i)slack").test("SLACK bot"));
  assert.ok(!compileToolSearchPattern("slack").test("SLACK bot"));
  assert.throws(
    () => compileToolSearchPattern("get_(data"),
    (e: unknown) => e instanceof ToolSearchPatternError && e.code === "invalid_pattern",
  );
  assert.throws(
    () => compileToolSearchPattern("a".repeat(201)),
    (e: unknown) => e instanceof ToolSearchPatternError && e.code === "pattern_too_long",
  );
});

Deno.test("searchByPattern: matches name, description and argument text; a name match counts twice", () => {
  const docs = [
    doc("gh:create_issue", "Open a new issue", schema({ title: "Issue title" })),
    doc("fs:read_file", "Read a file from disk", schema({ path: "Path of the file" })),
    doc("mail:send", "Send a message", schema({ attachment: "A file to attach" })),
    doc("db:query", "Run SQL", schema({ sql: "Statement" })),
  ];
  // "file": read_file in name and description (2), mail:send in argument text only (1).
  // "read": read_file (name, 2). Scores: read_file 4, send 1; create_issue, query none.
  assert.deepEqual(searchByPattern(docs, "(?i)read|file"), [
    { id: "fs:read_file", score: 4 },
    { id: "mail:send", score: 1 },
  ]);
  // Without (?i) the match is case-sensitive: "Run" matches, "run" does not.
  assert.deepEqual(searchByPattern(docs, "run").map((h) => h.id), []);
  assert.deepEqual(searchByPattern(docs, "Run").map((h) => h.id), ["db:query"]);
  // A pattern across alternatives (not a plain word) still matches: get_.*_data style.
  assert.deepEqual(searchByPattern(docs, "create_.*").map((h) => h.id), ["gh:create_issue"]);
  // Five at most.
  const many = Array.from({ length: 8 }, (_, i) => doc(`s:t${i}`, "a file"));
  assert.equal(searchByPattern(many, "file").length, 5);
});

const CORPUS_DOCS = [
  doc("fs:read_file", "Read the contents of a file", schema({ path: "File path" })),
  doc("fs:write_file", "Write text to a file", schema({ path: "File path", content: "Text" })),
  doc("fs:list_directory", "List a folder", schema({ path: "Folder path" })),
  doc("gh:create_issue", "Open an issue in a repository", schema({ title: "Title" })),
  doc("gh:search_code", "Search code", schema({ query: "Words to look for" })),
  doc("mail:send_email", "Send an email", schema({ to: "Recipient address" })),
  doc("mail:search_email", "Search mailbox", schema({ query: "Words in the mail" })),
];

function search(r: Retriever | Promise<Retriever>, q: string, k: number) {
  return (r as Retriever).search(q, k).map((h) => h.id);
}

Deno.test("anthropic_bm25 reads argument descriptions, not the server, and returns at most 5", () => {
  const r = anthropicBm25Entry.create(CORPUS_DOCS, { seed: 1 });
  // "recipient" is only in send_email's argument description.
  assert.deepEqual(search(r, "recipient", 10), ["mail:send_email"]);
  // "gh" is a server name: the hosted search never sees it.
  assert.deepEqual(search(r, "gh", 10), []);
  assert.equal(search(r, "file folder path text words search", 10).length, 5);
  assert.equal((r as Retriever).hosted?.kind, "emulated");
  assert.equal((r as Retriever).hosted?.tool, "tool_search_tool_bm25_20251119");
});

Deno.test("anthropic_regex searches the golden text through the rule, 5 at most", () => {
  const r = anthropicRegexEntry.create(CORPUS_DOCS, { seed: 1 });
  // Pattern (?i)send|email: send_email has both in its name (2 + 2), search_email "email" in its
  // name (2) and "mail" does not count; nothing else matches.
  assert.deepEqual((r as Retriever).search("send an email", 10), [
    { id: "mail:send_email", score: 4 },
    { id: "mail:search_email", score: 2 },
  ]);
  assert.deepEqual(search(r, "the a of", 10), []);
});

Deno.test("openai_search reads the server (namespace) but not the parameters; no cap", () => {
  const r = openaiSearchEntry.create(CORPUS_DOCS, { seed: 1 });
  // Both tools of namespace gh, and only they (the shorter document first, BM25's length norm).
  assert.deepEqual(search(r, "gh", 10), ["gh:search_code", "gh:create_issue"]);
  assert.deepEqual(search(r, "recipient", 10), []);
  const wide = Array.from({ length: 12 }, (_, i) => doc(`s:t${i}`, "a file"));
  assert.equal(search(openaiSearchEntry.create(wide, { seed: 1 }), "file", 10).length, 10);
});

Deno.test("an emulation's result row carries hosted info with its differences", () => {
  const golden = parseMcpproxyGolden(
    JSON.stringify({
      queries: [{
        id: "q1",
        query: "send email",
        labels: [{ tool_id: "mail:send_email", relevance: 2 }],
      }],
    }),
    { id: "g" },
  );
  const row = evaluateRetrieval({
    corpus: { id: "c", docs: CORPUS_DOCS },
    golden,
    retriever: "anthropic_regex",
    seed: 1,
    resamples: 10,
  });
  assert.equal(row.hosted?.kind, "emulated");
  assert.ok(row.hosted!.differences.length >= 3);
  assert.equal(row.metrics["recall@1"], 1);
  const plain = evaluateRetrieval({
    corpus: { id: "c", docs: CORPUS_DOCS },
    golden,
    retriever: "bm25",
    seed: 1,
    resamples: 10,
  });
  assert.equal(plain.hosted, undefined);
});
