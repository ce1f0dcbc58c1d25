import assert from "node:assert/strict";
import fc from "fast-check";
import { asciiWordSegments, segmenterWords, wordSegments } from "./_analysis.ts";

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
