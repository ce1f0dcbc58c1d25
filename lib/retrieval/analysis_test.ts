import assert from "node:assert/strict";
import { identifierTokens, isStopWord, standardTokens, wordSegments } from "./_analysis.ts";
import { ENGLISH_STOP_WORDS } from "./_stop_en.ts";

Deno.test("identifierTokens() splits camelCase, snake_case, kebab-case and acronyms", () => {
  const plain = { stem: false, stopWords: false };
  assert.deepEqual(identifierTokens("listPullRequests", plain), ["list", "pull", "requests"]);
  assert.deepEqual(identifierTokens("get_s3_object", plain), ["get", "s3", "object"]);
  assert.deepEqual(identifierTokens("HTTPServer-config", plain), ["http", "server", "config"]);
  assert.deepEqual(identifierTokens("github.create_issue", plain), ["github", "create", "issue"]);
});

Deno.test("identifierTokens() drops stop words and stems with Porter2 when asked", () => {
  const t = identifierTokens("Search the repositories for branches", {
    stem: true,
    stopWords: true,
  });
  // Porter2: repositories → repositori, branches → branch
  assert.deepEqual(t, ["search", "repositori", "branch"]);
});

Deno.test("wordSegments() keeps `_`, `.` and `:` between letters inside one word (UAX #29 WB6/7, WB13a/b)", () => {
  assert.deepEqual(wordSegments("create_issue on github.com"), [
    "create_issue",
    "on",
    "github.com",
  ]);
  assert.deepEqual(wordSegments("gh:create_issue"), ["gh:create_issue"]);
  assert.deepEqual(wordSegments("Use the API. Then"), ["Use", "the", "API", "Then"]);
  assert.deepEqual(wordSegments("version 3.5, it's"), ["version", "3.5", "it's"]);
});

Deno.test("standardTokens() lower-cases and removes English stop words, no stemming", () => {
  assert.deepEqual(standardTokens("Lists ALL the Issues of a repo"), ["lists", "issues", "repo"]);
  assert.equal(ENGLISH_STOP_WORDS.size, 174);
});

Deno.test("isStopWord() is the stop list's membership, its shape filter letting every stop word through", () => {
  for (const word of ENGLISH_STOP_WORDS) assert.ok(isStopWord(word), word);
  const others = [
    "",
    "server",
    "issue",
    "thee",
    "aa",
    "ab",
    "Ï",
    "élan",
    "a".repeat(20),
    "mightn't",
  ];
  for (const word of others) assert.equal(isStopWord(word), ENGLISH_STOP_WORDS.has(word), word);
  assert.equal(ENGLISH_STOP_WORDS.size, 174);
});
