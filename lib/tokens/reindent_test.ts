// ReindentedCounts against js-tiktoken, the reference encoder: the re-indented copy of a text,
// priced from the text's tokens and its line junctions, has the tokens of the copy counted whole,
// on adversarial texts (line breaks next to quotes, punctuation, spaces, digits, \r\n, slashes,
// blank lines); lib/encodings/shared_counting_test.ts checks it on TOON's own texts.
import assert from "node:assert/strict";
import fc from "fast-check";
import { ReindentedCounts } from "./reindent.ts";
import { createTokenizer, TOKENIZER_NAMES } from "./tokenizers.ts";

const reference = TOKENIZER_NAMES.map((n) => createTokenizer(n, "js-tiktoken"));

const PIECES = [
  "name",
  "type",
  ":",
  ": ",
  "\n",
  "\n\n",
  "\r\n",
  "  ",
  " ",
  "-",
  '"',
  "'s",
  "12",
  "345",
  "/",
  "{",
  "}",
  "[2]",
  ",",
  ".",
  "é",
  "\t",
  "x",
];
const textArb = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((p) => p.join("")),
);
const copyOf = (text: string, prefix: string, indent: string) =>
  prefix + text.replaceAll("\n", "\n" + indent);

Deno.test("ReindentedCounts prices a re-indented copy as the copy counted whole", () => {
  const layouts: [string, string][] = [["\n  - ", "    "], ["", "  "], ["- ", "\t"], ["x", ""]];
  for (const [i, name] of TOKENIZER_NAMES.entries()) {
    const tok = createTokenizer(name);
    const counters = layouts.map(([p, d]) => new ReindentedCounts(tok, p, d));
    fc.assert(
      fc.property(textArb, (text: string) => {
        for (const [j, [prefix, indent]] of layouts.entries()) {
          // Twice: the second time from memoized junctions.
          for (let r = 0; r < 2; r++) {
            assert.equal(
              counters[j].count(text, reference[i].count(text)),
              reference[i].count(copyOf(text, prefix, indent)),
              JSON.stringify([text, prefix, indent]),
            );
          }
        }
      }),
      { seed: 20261203, numRuns: 300 },
    );
  }
});

Deno.test("ReindentedCounts for both tokenizers at once gives each tokenizer's count", () => {
  const both = new ReindentedCounts(
    TOKENIZER_NAMES.map((n) => createTokenizer(n)),
    "\n  - ",
    "    ",
  );
  fc.assert(
    fc.property(textArb, (text: string) => {
      for (let r = 0; r < 2; r++) {
        assert.deepEqual(
          both.counts(text, reference.map((tok) => tok.count(text))),
          reference.map((tok) => tok.count(copyOf(text, "\n  - ", "    "))),
          JSON.stringify(text),
        );
      }
    }),
    { seed: 20261204, numRuns: 300 },
  );
  assert.throws(() => both.count("a", 1), RangeError);
});

Deno.test("ReindentedCounts counts the copy whole for an unmarked tokenizer", () => {
  const seen: string[] = [];
  const double = { name: "o200k_base", count: (t: string) => (seen.push(t), t.length) };
  const counter = new ReindentedCounts(double, "> ", "  ");
  assert.equal(counter.count("a\nb", 999), "> a\n  b".length);
  assert.deepEqual(seen, ["> a\n  b"]);
});
