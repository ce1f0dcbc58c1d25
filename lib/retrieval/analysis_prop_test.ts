import assert from "node:assert/strict";
import fc from "fast-check";
import {
  asciiWordSegments,
  identifierTokens,
  identifierWordsByRegex,
  scannedIdentifierWords,
  segmenterWords,
  wordSegments,
} from "./_analysis.ts";

Deno.test("asciiWordSegments() agrees with Intl.Segmenter + WB6/7 repair on ASCII text", () => {
  const alphabet = [..."aZq09_.:',; -\"{}[]/\\@#\n"];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
      const text = chars.join("");
      assert.deepEqual(asciiWordSegments(text), segmenterWords(text), JSON.stringify(text));
    }),
    { numRuns: 5000, seed: 42 },
  );
});

Deno.test("asciiWordSegments() agrees on real-looking tool text", () => {
  const samples = [
    '{"properties":{"path":{"description":"Absolute path, e.g. /tmp/a.txt","type":"string"}}}',
    "Create a new issue in a GitHub repository. Use owner/repo (v1.2.3, 1,000 max; it's fine).",
    "get_file_contents: Get contents of a file or directory from a GitLab project's default branch",
  ];
  for (const s of samples) assert.deepEqual(asciiWordSegments(s), segmenterWords(s));
});

Deno.test("wordSegments() agrees with Intl.Segmenter on mixed ASCII / non-ASCII text", () => {
  const alphabet = [
    ..."aZ09_.:' -{}\"",
    "é",
    "💡",
    "日本",
    "\u00a0",
    "\u3000",
    "\u0301",
    "ß",
    "\n",
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
      const text = chars.join("");
      assert.deepEqual(wordSegments(text), segmenterWords(text), JSON.stringify(text));
    }),
    { numRuns: 5000, seed: 7 },
  );
});

Deno.test("scannedIdentifierWords() agrees with the camelCase regular expressions on ASCII text", () => {
  const alphabet = [..."aAbBzZ09_-. :'/\"{}\n", "HTTP", "Server", "getURL", "v2"];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), (chars) => {
      const text = chars.join("");
      assert.deepEqual(
        scannedIdentifierWords(text),
        identifierWordsByRegex(text),
        JSON.stringify(text),
      );
    }),
    { numRuns: 5000, seed: 42 },
  );
});

Deno.test("identifierTokens() agrees with the regular expressions on text with non-ASCII characters", () => {
  // Separators the scanner takes (dash, curly quote, emoji, lone surrogate, arrow) and letters or
  // numbers it leaves to the regular expressions (é, Σ, the title-case ǅ, Ⅻ, Arabic digit, 𝐀),
  // and Ⓐ, which is no letter but lower-cases to ⓐ.
  const alphabet = [
    ..."aAbZ09_- .",
    "—",
    "’",
    "💡",
    "\uD800",
    "→",
    "é",
    "Σ",
    "ǅ",
    "Ⅻ",
    "١",
    "𝐀",
    "Ⓐ",
  ];
  let scanned = 0;
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }), (chars) => {
      const text = chars.join("");
      if (scannedIdentifierWords(text) !== undefined) scanned++;
      assert.deepEqual(
        identifierTokens(text, { stopWords: false, stem: false }),
        identifierWordsByRegex(text),
        JSON.stringify(text),
      );
    }),
    { numRuns: 5000, seed: 7 },
  );
  assert.ok(scanned > 100, `the scanner took ${scanned} of 5000 texts`);
  assert.deepEqual(scannedIdentifierWords("Read—a fileName 💡 now"), [
    "read",
    "a",
    "file",
    "name",
    "now",
  ]);
  assert.equal(scannedIdentifierWords("café"), undefined);
});

Deno.test("identifierTokens() on ASCII equals the regular-expression words, stop words and stems applied", () => {
  const samples = [
    "listPullRequests HTTPServer get_file_contents XMLHttpRequest2FA iOS ABCdEF a1B",
    '{"properties":{"repoOwner":{"type":"string","description":"The owner of the repo"}}}',
    "Search the web. Use it for news, articles and the latest OpenAI/GPT-4o releases.",
  ];
  for (const text of samples) {
    const words = identifierWordsByRegex(text);
    assert.deepEqual(identifierTokens(text, { stopWords: false, stem: false }), words);
    const kept = identifierTokens(text, { stopWords: true, stem: false });
    assert.ok(kept.length < words.length && kept.every((w) => words.includes(w)), text);
  }
  assert.deepEqual(
    identifierTokens("HTTPServer listPullRequests", { stopWords: true, stem: true }),
    ["http", "server", "list", "pull", "request"],
  );
});
