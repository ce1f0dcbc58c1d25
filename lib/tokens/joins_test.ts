// The hard-cut rule of joins.ts against js-tiktoken, the reference encoder: at every ASCII pair
// the rule accepts, in contexts that stretch each run across the cut, the tokens of the whole
// are the tokens of the two sides; and countSpans gives the direct counts.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  countSpans,
  isHardCut,
  isHardCutBetween,
  markPiecewise,
  piecewiseEncoding,
  shortCounts,
} from "./joins.ts";
import { createTokenizer, TOKENIZER_NAMES } from "./tokenizers.ts";
import type { Tokenizer } from "./types.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

const reference = TOKENIZER_NAMES.map((n) => createTokenizer(n, "js-tiktoken"));

// Contexts that extend the run on each side: letters, digits, white space, line breaks, a
// contraction, a slash, non-ASCII.
const BEFORE = ["", " 1", "é'", "\nx"];
const AFTER = ["", "ab's", "1 é", "\n\n/"];

Deno.test(
  "every ASCII pair the rule accepts is a piece boundary of both encodings in context",
  FULL_TIER_ONLY,
  () => {
    let accepted = 0;
    for (let a = 0; a < 128; a++) {
      for (let b = 0; b < 128; b++) {
        if (!isHardCutBetween(a, b)) continue;
        accepted++;
        const x = String.fromCharCode(a);
        const y = String.fromCharCode(b);
        for (const tok of reference) {
          for (const before of BEFORE) {
            for (const after of AFTER) {
              const left = before + x;
              const right = y + after;
              const whole = tok.count(left + right);
              if (whole !== tok.count(left) + tok.count(right)) {
                assert.fail(`${tok.name}: ${JSON.stringify(left)} | ${JSON.stringify(right)}`);
              }
            }
          }
        }
      }
    }
    assert.ok(accepted > 5000, `${accepted} pairs accepted`);
  },
);

Deno.test("the rule refuses the joins BPE merges across", () => {
  // Each pair: a concatenation whose tokens differ from its sides' added (js-tiktoken).
  const merging: [string, string][] = [
    ["ab", "cd"], // one letter run
    ["don", "'t"], // contraction
    ["12", "34"], // digits group in threes
    ["}", "\n\n"], // punctuation takes the line breaks
    [".", "foo"], // punctuation prefixes a word
    ["x ", "y"], // white space before a word
    ["}\n", "/"], // o200k_base: punctuation takes a trailing slash
  ];
  for (const [left, right] of merging) {
    assert.equal(isHardCut(left + right, left.length), false, `${left}|${right}`);
  }
  const o200k = reference[1];
  assert.notEqual(o200k.count("}\n/"), o200k.count("}\n") + o200k.count("/"));
  assert.notEqual(o200k.count("}\n\n"), o200k.count("}") + o200k.count("\n\n"));
  assert.equal(isHardCut("ab", 0), false);
  assert.equal(isHardCut("ab", 2), false);
  assert.equal(isHardCutBetween(0xe9, 0x31), false); // é then 1: non-ASCII is never judged
});

Deno.test("only tokenizers made by createTokenizer are marked as counting piece by piece", () => {
  for (const backend of ["piecewise", "js-tiktoken", "gpt-tokenizer"] as const) {
    assert.equal(piecewiseEncoding(createTokenizer("o200k_base", backend)), "o200k_base");
  }
  const double = { name: "cl100k_base", count: (t: string) => t.length };
  assert.equal(piecewiseEncoding(double), undefined);
  assert.equal(piecewiseEncoding(markPiecewise({ name: "words", count: () => 0 })), undefined);
});

const textArb = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "grapheme", maxLength: 120 }),
  fc.array(
    fc.constantFrom("name", "_", "\n", "\n\n", "{", '"', ":", "}", " ", "12", "'s", "é", "/", ","),
    { maxLength: 80 },
  ).map((parts) => parts.join("")),
);

Deno.test("countSpans equals the direct counts on random texts and spans", () => {
  const tokenizers: Tokenizer[] = [...TOKENIZER_NAMES.map((n) => createTokenizer(n)), {
    name: "chars",
    count: (t: string) => t.length,
  }];
  fc.assert(
    fc.property(
      textArb,
      fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
      (text: string, raw: [number, number][]) => {
        const cuts = raw.flat().map((n) => n % (text.length + 1)).sort((a, b) => a - b);
        const starts = cuts.filter((_, i) => i % 2 === 0);
        const ends = cuts.filter((_, i) => i % 2 === 1);
        starts.length = ends.length;
        for (const [i, tok] of tokenizers.entries()) {
          const ref = i < reference.length ? reference[i] : tok;
          const out = countSpans(tok, text, starts, ends);
          assert.equal(out.total, ref.count(text));
          assert.deepEqual(out.spans, starts.map((s, j) => ref.count(text.slice(s, ends[j]))));
        }
      },
    ),
    { seed: 20261201, numRuns: 300 },
  );
});

/** A small joined listing: three tool texts after a header, and where each lies in it. */
function joinedListing(crlf: boolean) {
  const tools = [
    'read_file\nRead a file.\n{"properties":{"path":{"type":"string"}},"type":"object"}',
    "list\nList entries",
    `write_file\nWrite 12 bytes${crlf ? "\r\n" : "\n"}{"type":"object"}`,
  ];
  const text = "# Tools\n\n" + tools.join("\n\n");
  const starts: number[] = [];
  const ends: number[] = [];
  let at = "# Tools\n\n".length;
  for (const t of tools) {
    starts.push(at);
    ends.push(at + t.length);
    at += t.length + 2;
  }
  return { tools, text, starts, ends };
}

Deno.test("countSpans on a joined listing: the tools' counts and the listing's", () => {
  const tok = createTokenizer("cl100k_base");
  const { tools, text, starts, ends } = joinedListing(false);
  const out = countSpans(tok, text, starts, ends);
  assert.equal(out.total, reference[0].count(text));
  assert.deepEqual(out.spans, tools.map((t) => reference[0].count(t)));
  assert.throws(() => countSpans(tok, text, [5, 2], [6, 3]), RangeError);
});

Deno.test("countSpans with known span counts gives the direct counts", () => {
  const tok = createTokenizer("cl100k_base");
  const { tools, text, starts, ends } = joinedListing(true);
  const counts = tools.map((t) => reference[0].count(t));
  const out = countSpans(tok, text, starts, ends, [counts[0], undefined, counts[2]]);
  assert.equal(out.total, reference[0].count(text));
  assert.deepEqual(out.spans, counts);
  // A known count is trusted: a wrong one moves the figures (so the path is taken).
  const wrong = countSpans(tok, text, starts, ends, [counts[0] + 1, undefined, counts[2]]);
  assert.equal(wrong.total, out.total + 1);
});

Deno.test("shortCounts() gives the tokenizer's count, from its memo for short texts", () => {
  for (const [i, name] of TOKENIZER_NAMES.entries()) {
    const count = shortCounts(createTokenizer(name));
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: "binary" }), (text: string) => {
        // Twice: the second time from the memo.
        for (let r = 0; r < 2; r++) assert.equal(count(text), reference[i].count(text), text);
      }),
      { seed: 20261208, numRuns: 400 },
    );
  }
  // An unmarked tokenizer is asked every time.
  const seen: string[] = [];
  const double: Tokenizer = { name: "cl100k_base", count: (t) => (seen.push(t), t.length) };
  const count = shortCounts(double);
  assert.equal(count("ab") + count("ab"), 4);
  assert.deepEqual(seen, ["ab", "ab"]);
});
