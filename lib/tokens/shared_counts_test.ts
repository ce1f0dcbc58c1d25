// sharedCounts against independent encoders: a text counted with known strings (found, not
// found, repeated, out of order, next to quotes, spaces, \r\n and digits) has the tokens of the
// text counted whole by js-tiktoken on adversarial strings (lib/encodings/shared_counting_test.ts
// checks it on the reference corpus's renderings).
import assert from "node:assert/strict";
import fc from "fast-check";
import { groupCounts, sharedCounts } from "./shared_counts.ts";
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

Deno.test("sharedCounts counts a text holding known strings, or given in parts, as the text counted whole", () => {
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
          // The same texts from their parts, the known strings marked.
          const parts = [[a, k1, b, k2], [a, k2, b, k1], [k1, k1, a], [a, b], [k2]];
          for (const p of parts) {
            const known = p.map((x) => x === k1 || x === k2);
            const want = reference[i].count(p.join(""));
            assert.equal(shared.countJoin(p, known), want, JSON.stringify(p));
          }
        }
      },
    ),
    { seed: 20261202, numRuns: 250 },
  );
});

Deno.test("sharedCounts is one memo per tokenizer, and the plain count for an unmarked one", () => {
  const [tok] = fresh();
  assert.equal(sharedCounts(tok), sharedCounts(tok));
  const calls: string[] = [];
  const double: Tokenizer = { name: "cl100k_base", count: (t) => (calls.push(t), t.length) };
  const text = "read_file\nReads the file at the given path and returns its contents.";
  assert.equal(sharedCounts(double).count(text, [text.slice(10)]), text.length);
  assert.deepEqual(calls, [text]);
  assert.equal(sharedCounts(double).countJoin(["read_file\n", text.slice(10)], [false, true]), 68);
  assert.deepEqual(calls, [text, text]);
  assert.equal(sharedCounts(double).size, 0);
});

Deno.test("groupCounts counts texts with known strings and spans as js-tiktoken counts them", () => {
  const tokenizers = fresh();
  const group = groupCounts(tokenizers)!;
  fc.assert(
    fc.property(
      textArb,
      textArb,
      textArb,
      textArb,
      fc.array(fc.nat(), { maxLength: 8 }),
      (a: string, known1: string, b: string, known2: string, cuts: number[]) => {
        const k1 = known1 + " and some description words, 12 of them.";
        const k2 = '{"properties":{"q":{"type":"string"}}' + known2;
        const texts = [a + k1 + b + k2, a + k2 + b + k1, k1 + k1 + a, a + b, k2, ""];
        const out = [0, 0];
        for (const text of texts) {
          const want = reference.map((r) => r.count(text));
          group.countKnown(text, [group.known(k1), group.known(k2)], out);
          assert.deepEqual(out, want, JSON.stringify(text));
          group.countKnown(text, [group.known(k2), group.known(k1), group.known(undefined)], out);
          assert.deepEqual(out, want, JSON.stringify(text));
          // Spans between sorted cut points, every other one given its count.
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y);
          const starts: number[] = [];
          const ends: number[] = [];
          for (let i = 0; i + 1 < at.length; i += 2) {
            starts.push(at[i]);
            ends.push(at[i + 1]);
          }
          const spanWant = starts.map((s, i) =>
            reference.map((r) => r.count(text.slice(s, ends[i])))
          );
          const known = spanWant.map((w, i) => (i % 2 === 0 ? w : undefined));
          const spans: number[] = [];
          const total = [0, 0];
          group.countSpans(text, starts, ends, known, spans, total);
          assert.deepEqual(total, want, JSON.stringify(text));
          assert.deepEqual(spans, spanWant.flat(), JSON.stringify(text));
        }
      },
    ),
    { seed: 20261202, numRuns: 250 },
  );
});

Deno.test("groupCounts is one group per list of marked tokenizers, none for an unmarked one", () => {
  const tokenizers = fresh();
  assert.equal(groupCounts(tokenizers), groupCounts([...tokenizers]));
  assert.notEqual(groupCounts(tokenizers), groupCounts([tokenizers[1], tokenizers[0]]));
  const double: Tokenizer = { name: "cl100k_base", count: (t) => t.length };
  assert.equal(groupCounts([tokenizers[0], double]), undefined);
  assert.equal(groupCounts([]), undefined);
  // A known string's middle tokens are each tokenizer's sharedCounts memo's.
  const description = "Reads the file at the given path and returns its contents as text.";
  const known = groupCounts(tokenizers)!.known(description)!;
  assert.equal(known.text, description);
  assert.equal(known.first, 5); // "Reads" | " the"
  assert.equal(known.last, description.length - 1); // before the final "."
  assert.deepEqual(
    known.tokens,
    reference.map((r) => r.count(description.slice(known.first, known.last))),
  );
  assert.equal(sharedCounts(tokenizers[0]).size, 1);
  assert.equal(groupCounts(tokenizers)!.known("too short"), null);
});

Deno.test("groupCounts.knownEscaped counts JSON renderings of a string as js-tiktoken counts them", () => {
  const tokenizers = fresh();
  const group = groupCounts(tokenizers)!;
  const ESCAPED = [
    '"',
    "\\",
    "\n",
    "\r\n",
    "\t",
    "\u0001",
    "\ud800",
    "\udc00x",
    "😀",
    '\\"',
    "\n\n",
  ];
  const pieceArb = fc.oneof(fc.constantFrom(...PIECES), fc.constantFrom(...ESCAPED));
  const stringArb = fc.oneof(
    fc.string({ maxLength: 120, unit: "binary" }),
    fc.array(pieceArb, { maxLength: 50 }).map((p) => p.join("")),
  );
  fc.assert(
    fc.property(stringArb, textArb, textArb, (body: string, a: string, b: string) => {
      const s = `Reads ${body} and returns the file's contents, 12 lines.`;
      const known = group.knownEscaped(s);
      const json = JSON.stringify(s);
      if (json.slice(1, -1) === s) return assert.equal(known, null);
      assert.notEqual(known, null);
      assert.equal(known!.text, json.slice(1, -1));
      const middle = known!.text.slice(known!.first, known!.last);
      assert.deepEqual(known!.tokens, reference.map((r) => r.count(middle)), json);
      const out = [0, 0];
      for (const text of [`{"description":${json}}`, a + json + b, json]) {
        group.countKnown(text, [group.known(s), known, group.known(undefined)], out);
        assert.deepEqual(out, reference.map((r) => r.count(text)), JSON.stringify(text));
      }
    }),
    { seed: 20261203, numRuns: 300 },
  );
});
