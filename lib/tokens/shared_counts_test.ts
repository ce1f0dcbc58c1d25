// sharedCounts against independent encoders: a text counted with known strings (found, not
// found, repeated, out of order, next to quotes, spaces, \r\n and digits) has the tokens of the
// text counted whole by js-tiktoken on adversarial strings, and by gpt-tokenizer (quicker on
// long texts) on every tool text of the reference corpus under several renderings.
import assert from "node:assert/strict";
import fc from "fast-check";
import { sharedCounts } from "./shared_counts.ts";
import { createTokenizer, TOKENIZER_NAMES } from "./tokenizers.ts";
import type { Tokenizer } from "./types.ts";

const reference = TOKENIZER_NAMES.map((n) => createTokenizer(n, "js-tiktoken"));

/** A fresh piecewise counter per call, so no memo is shared across tests. */
const fresh = () => TOKENIZER_NAMES.map((n) => createTokenizer(n));

// Pieces that stretch runs across every kind of cut: quotes beside punctuation, a space before a
// quote, CR LF, digits, contractions, a slash after a line break, non-ASCII.
const PIECES = [
  "name",
  "Read",
  "_",
  "\n",
  "\r\n",
  "\n\n",
  "{",
  '"',
  '":"',
  '\\"',
  ":",
  "}",
  " ",
  "  ",
  "12",
  "3456",
  "'s",
  "é",
  "日本",
  "/",
  ",",
  ".",
  ". ",
  "\t",
  "-1.5e3",
  "x",
  "(",
  ")",
  "|",
];
const textArb = fc.oneof(
  fc.string({ maxLength: 160 }),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((p) => p.join("")),
);

Deno.test("sharedCounts counts a text holding known strings as the text counted whole", () => {
  const tokenizers = fresh();
  fc.assert(
    fc.property(
      textArb,
      textArb,
      textArb,
      textArb,
      (a: string, known1: string, b: string, known2: string) => {
        // The known strings padded past the length looked for, in and out of the text.
        const k1 = known1 + " and some description words, 12 of them.";
        const k2 = '{"properties":{"q":{"type":"string"}}' + known2;
        const texts = [a + k1 + b + k2, a + k2 + b + k1, k1 + k1 + a, a + b, k2];
        for (const [i, tok] of tokenizers.entries()) {
          const shared = sharedCounts(tok);
          for (const text of texts) {
            const want = reference[i].count(text);
            assert.equal(shared.count(text, [k1, k2]), want, JSON.stringify(text));
            assert.equal(shared.count(text, [k2, k1, undefined]), want, JSON.stringify(text));
          }
        }
      },
    ),
    { seed: 20261202, numRuns: 250 },
  );
});

Deno.test("sharedCounts on the reference corpus: every tool text under three renderings", async () => {
  const { loadCatalog } = await import("../catalog/load.ts");
  const { schemaText } = await import("../catalog/canonical.ts");
  const corpus = await loadCatalog(
    new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url).pathname,
  );
  const tokenizers = fresh();
  const whole = TOKENIZER_NAMES.map((n) => createTokenizer(n, "gpt-tokenizer"));
  for (const tool of corpus.tools) {
    const schema = schemaText(tool);
    const known = [tool.description, schema];
    const texts = [
      `${tool.name}\n${tool.description}` + (schema === undefined ? "" : `\n${schema}`),
      `${tool.name}|${tool.description}|${schema ?? ""}`,
      `{"name":${JSON.stringify(tool.name)},"description":${
        JSON.stringify(tool.description)
      },"inputSchema":${schema ?? "{}"}}`,
    ];
    for (const [i, tok] of tokenizers.entries()) {
      for (const text of texts) {
        assert.equal(sharedCounts(tok).count(text, known), whole[i].count(text), tool.id);
      }
    }
  }
  // The memo holds each known string once per tokenizer, whatever the renderings.
  const distinct = new Set(
    corpus.tools.flatMap((t) => [t.description, schemaText(t)]).filter((s) =>
      s !== undefined && s.length >= 32
    ),
  );
  for (const tok of tokenizers) assert.equal(sharedCounts(tok).size, distinct.size);
});

Deno.test("sharedCounts is one memo per tokenizer, and the plain count for an unmarked one", () => {
  const [tok] = fresh();
  assert.equal(sharedCounts(tok), sharedCounts(tok));
  const calls: string[] = [];
  const double: Tokenizer = { name: "cl100k_base", count: (t) => (calls.push(t), t.length) };
  const text = "read_file\nReads the file at the given path and returns its contents.";
  assert.equal(sharedCounts(double).count(text, [text.slice(10)]), text.length);
  assert.deepEqual(calls, [text]);
  assert.equal(sharedCounts(double).size, 0);
});
