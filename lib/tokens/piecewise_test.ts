import assert from "node:assert/strict";
import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kData from "js-tiktoken/ranks/cl100k_base";
import o200kData from "js-tiktoken/ranks/o200k_base";
import { createPretokenizer, scanCl100k, scanO200k, splitPieces } from "./_pretokenize.ts";
import { createPiecewiseTokenizer } from "./piecewise.ts";
import { TOKENIZER_NAMES } from "./tokenizers.ts";
import type { TokenizerName } from "./types.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

const DATA = { cl100k_base: cl100kData, o200k_base: o200kData };
const SCAN = { cl100k_base: scanCl100k, o200k_base: scanO200k };
const reference = {
  cl100k_base: new Tiktoken(cl100kData),
  o200k_base: new Tiktoken(o200kData),
};
// js-tiktoken's own id → bytes table (a runtime field its types keep internal).
const tokenBytes = {
  cl100k_base: (reference.cl100k_base as unknown as { textMap: Map<number, Uint8Array> }).textMap,
  o200k_base: (reference.o200k_base as unknown as { textMap: Map<number, Uint8Array> }).textMap,
};
const refCount = (name: TokenizerName, text: string) => reference[name].encode(text, [], []).length;

// Units chosen to hit every branch of the split patterns and their Unicode
// classes: letters by case (Lu, Ll, Lt, Lm, Lo), combining marks (M), digits
// inside and outside ASCII (Nd, No), ASCII and Unicode white space, CR/LF,
// contractions, slashes, lone surrogates, astral characters, special-token text.
const UNITS = [
  "a",
  "b",
  "s",
  "t",
  "e",
  "l",
  "v",
  "r",
  "Z",
  "A",
  "E",
  "L",
  "'",
  "’",
  " ",
  " ",
  "\t",
  "\v",
  "\f",
  "\n",
  "\r",
  "\r\n",
  "!",
  "/",
  "{",
  "}",
  '"',
  ":",
  ",",
  "_",
  "-",
  ".",
  "1",
  "7",
  "0",
  "é",
  "É",
  "ß",
  "İ",
  "\u0301",
  "\u0300",
  "ǅ",
  "ʰ",
  "々",
  "中",
  "日本",
  "한",
  "٣",
  "²",
  "½",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\u200b",
  "\ufeff",
  "😀",
  "🇫🇷",
  "\uD800",
  "\uDC00",
  "<|endoftext|>",
  "\u0000",
  "\u007f",
];
const unit = fc.constantFrom(...UNITS);
const text = fc.oneof(
  fc.string({ unit, maxLength: 60 }),
  // Runs: one unit repeated, so long pieces and long white-space runs appear.
  fc.array(fc.tuple(unit, fc.integer({ min: 1, max: 40 })), { maxLength: 6 })
    .map((runs) => runs.map(([u, k]) => u.repeat(k)).join("")),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);

for (const name of TOKENIZER_NAMES) {
  Deno.test(`${name}: the pre-tokenizer splits exactly as js-tiktoken's regex`, () => {
    const split = createPretokenizer(SCAN[name], DATA[name].pat_str);
    const regex = new RegExp(DATA[name].pat_str, "ug");
    fc.assert(
      fc.property(text, (t) => {
        assert.deepEqual(splitPieces(split, t), [...t.matchAll(regex)].map((m) => m[0]));
      }),
      { numRuns: 2000, seed: 16 },
    );
  });

  Deno.test(`${name}: piecewise counts equal js-tiktoken on random strings`, () => {
    const tok = createPiecewiseTokenizer(name);
    fc.assert(
      fc.property(text, (t) => {
        assert.equal(tok.count(t), refCount(name, t), JSON.stringify(t));
        // A fresh counter (empty memo) gives the same count.
        assert.equal(createPiecewiseTokenizer(name).count(t), refCount(name, t));
      }),
      { numRuns: 600, seed: 14 },
    );
  });

  Deno.test(`${name}: long pieces (heap merge) count as js-tiktoken`, FULL_TIER_ONLY, () => {
    const tok = createPiecewiseTokenizer(name);
    const inputs = [
      "a".repeat(65),
      "a".repeat(500),
      "ab".repeat(400),
      "Z".repeat(300),
      "!".repeat(300),
      "!?".repeat(300) + "\n".repeat(50),
      " ".repeat(800) + "x",
      "\n".repeat(900),
      " \n".repeat(300),
      "1".repeat(500),
      "é".repeat(300),
      "中".repeat(200),
      "😀".repeat(150),
      "supercalifragilisticexpialidocious".repeat(12),
    ];
    for (const input of inputs) {
      assert.equal(
        tok.count(input),
        refCount(name, input),
        `${input.slice(0, 12)}… x${input.length}`,
      );
    }
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("a", "b", "c", "e", "r", "s", "t"),
          minLength: 65,
          maxLength: 400,
        }),
        (t) => assert.equal(tok.count(t), refCount(name, t)),
      ),
      { numRuns: 60, seed: 4 },
    );
  });

  Deno.test(`${name}: tokenStarts are js-tiktoken's token boundaries`, () => {
    const tok = createPiecewiseTokenizer(name);
    const utf8 = new TextEncoder();
    fc.assert(
      fc.property(text, (t) => {
        const ids = reference[name].encode(t, [], []);
        // Boundaries from the reference: cumulative byte lengths of its tokens.
        const expected: number[] = [];
        let at = 0;
        for (const id of ids) {
          expected.push(at);
          at += tokenBytes[name].get(id)?.length ?? 0;
        }
        assert.equal(at, utf8.encode(t).length);
        assert.deepEqual(tok.tokenStarts(t), expected);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
}

// Non-ASCII units the wide scanners decide themselves (CJK, kana, Hangul,
// letters by case in several scripts, fullwidth and typographic punctuation,
// symbols, emoji with a variation selector) beside the ones they leave to the
// regex (non-ASCII digits and spaces, combining marks) and ASCII around them.
const WIDE_UNITS = [
  "中",
  "文件",
  "获取",
  "カ",
  "ー",
  "ひ",
  "한국",
  "々",
  "ʰ",
  "ǅ",
  "Ä",
  "ä",
  "Ø",
  "ñ",
  "ß",
  "İ",
  "Σ",
  "σ",
  "Д",
  "д",
  "ה",
  "ع",
  "，",
  "。",
  "、",
  "（",
  "）",
  "：",
  "→",
  "•",
  "—",
  "’",
  "“",
  "”",
  "…",
  "⚠️",
  "\ufe0f",
  "😀",
  "𝐀",
  "𝐚",
  "\u0301",
  "٣",
  "²",
  "\u00a0",
  "\u3000",
  "a",
  "A",
  "Z",
  "z",
  "'",
  "'s",
  "'S",
  "1",
  " ",
  "  ",
  "\n",
  "\r\n",
  "!",
  "/",
  '"',
  "_",
  "-",
];
const wideText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...WIDE_UNITS), maxLength: 40 }),
  fc.array(fc.tuple(fc.constantFrom(...WIDE_UNITS), fc.integer({ min: 1, max: 12 })), {
    maxLength: 6,
  }).map((runs) => runs.map(([u, k]) => u.repeat(k)).join("")),
);

for (const name of TOKENIZER_NAMES) {
  Deno.test(`${name}: past ASCII the pre-tokenizer splits as the regex, across Unicode`, () => {
    // Every two-byte code point (Latin, Greek, Cyrillic, Hebrew, Arabic, most
    // combining marks), every 3rd up to U+3400 (Indic scripts, symbols, CJK
    // punctuation, kana), every 13th of the rest of the BMP (CJK, Hangul,
    // fullwidth forms) and every 997th astral one (emoji, math letters), in
    // contexts that reach every branch of the wide scanners: inside and after
    // ASCII letters of either case, after punctuation and spaces, before a
    // contraction, digits and newlines.
    const split = createPretokenizer(SCAN[name], DATA[name].pat_str);
    const regex = new RegExp(DATA[name].pat_str, "ug");
    const contexts = [
      "X",
      "XX",
      " X",
      "aXa",
      "AXa",
      "AXA",
      "X's",
      "!X!",
      " !X",
      "1X",
      "X\n",
      "  Xa",
    ];
    for (
      let cp = 0x80;
      cp < 0x110000;
      cp += cp < 0x800 ? 1 : cp < 0x3400 ? 3 : cp < 0x10000 ? 13 : 997
    ) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      for (const c of contexts) {
        const t = c.replaceAll("X", ch);
        const want = [...t.matchAll(regex)].map((m) => m[0]);
        const got = splitPieces(split, t);
        if (got.length !== want.length || got.some((p, i) => p !== want[i])) {
          assert.deepEqual(got, want, `U+${cp.toString(16)} in ${JSON.stringify(c)}`);
        }
      }
    }
  });

  Deno.test(`${name}: text past ASCII splits and counts as js-tiktoken`, FULL_TIER_ONLY, () => {
    const split = createPretokenizer(SCAN[name], DATA[name].pat_str);
    const regex = new RegExp(DATA[name].pat_str, "ug");
    const tok = createPiecewiseTokenizer(name);
    fc.assert(
      fc.property(wideText, (t) => {
        assert.deepEqual(splitPieces(split, t), [...t.matchAll(regex)].map((m) => m[0]));
        assert.equal(tok.count(t), refCount(name, t), JSON.stringify(t));
        assert.deepEqual(tok.tokenStarts(t).length, refCount(name, t));
      }),
      { numRuns: 1500, seed: 23 },
    );
  });
}

Deno.test("piecewise: counts the cookbook example and survives clear()", () => {
  // "tiktoken is great!" is 6 tokens in cl100k_base and o200k_base (OpenAI cookbook).
  for (const name of TOKENIZER_NAMES) {
    const tok = createPiecewiseTokenizer(name);
    assert.equal(tok.count("tiktoken is great!"), 6);
    tok.clear();
    assert.equal(tok.count("tiktoken is great!"), 6);
    assert.equal(tok.count(""), 0);
  }
  assert.throws(() => createPiecewiseTokenizer("gpt2" as "cl100k_base"), RangeError);
});

Deno.test("piecewise: both memos stay exact while they grow and start over", FULL_TIER_ONLY, () => {
  // 300,000 distinct pieces (" " + a letter string) push each memo past its
  // 262,144-piece limit, so it grows, rehashes and is emptied on the way: the
  // short memo (ASCII pieces of up to eight chars: " " + up to five letters)
  // and the hashed one (the same words + "inging", nine chars or more).
  // Each piece counted a second time right after (a memo hit) must give the
  // count of its first time (a merge), and a sample equals js-tiktoken.
  const letters = "etaoinshrdlucmfwypvbgkqjxz";
  const word = (i: number) => {
    let w = "";
    for (let k = i + 1; k > 0; k = Math.floor(k / 26)) w += letters[k % 26];
    return " " + w;
  };
  for (const [name, suffix] of TOKENIZER_NAMES.flatMap((n) => [[n, ""], [n, "inging"]] as const)) {
    const tok = createPiecewiseTokenizer(name);
    for (let i = 0; i < 300_000; i++) {
      const w = word(i) + suffix;
      if (i === 299_999) assert.ok(suffix === "" ? w.length <= 8 : w.length > 8, w);
      const first = tok.count(w);
      if (tok.count(w) !== first) {
        assert.fail(`${name}: ${JSON.stringify(w)} counted ${first} then not`);
      }
      if (i % 600 === 0) assert.equal(first, refCount(name, w), JSON.stringify(w));
    }
  }
});

Deno.test("piecewise: pieces with the same memo hash keep their own counts", () => {
  // Pairs of 7-letter pieces whose FNV-1a hashes collide (found by brute force;
  // the collision is asserted below) and whose token counts differ, so a memo
  // that trusted its hash would return the first piece's count for the second.
  // FNV-1a hashes equal after equal suffixes too, so the pairs + "ing" (ten
  // letters, past the short memo's eight) collide in the hashed memo.
  const sevens = [["eeitmow", "fnlnwtu"], ["tycdrdn", "ufosfna"], ["sodmcof", "omyrrwa"]];
  const pairs = [...sevens, ...sevens.map(([a, b]) => [a + "ing", b + "ing"])];
  const fnv = (s: string) => {
    let h = 0x811c9dc5 | 0;
    for (let j = 0; j < s.length; j++) h = Math.imul(h ^ s.charCodeAt(j), 16777619);
    return h;
  };
  for (const name of TOKENIZER_NAMES) {
    const tok = createPiecewiseTokenizer(name);
    for (const [a, b] of pairs) {
      assert.equal(fnv(a), fnv(b));
      assert.notEqual(refCount(name, a), refCount(name, b));
      assert.equal(tok.count(a), refCount(name, a));
      assert.equal(tok.count(b), refCount(name, b));
      assert.equal(tok.count(`${a} ${b}`), refCount(name, `${a} ${b}`));
    }
  }
});

Deno.test("piecewise: short pieces that pack to the same chars keep their own counts", () => {
  // The short memo packs a piece's chars one byte each, so "!!!" and "!!!\0"
  // (NUL is punctuation: one piece) have the same packed ints and differ only
  // in length; each must keep its own count, in either order, as js-tiktoken.
  const groups = [["!!!", "!!!\0", "!!!\0\0"], ["{\0\0\0", "{\0\0\0\0\0\0\0", "{"]];
  for (const name of TOKENIZER_NAMES) {
    for (const group of groups) {
      for (const order of [group, [...group].reverse()]) {
        const tok = createPiecewiseTokenizer(name);
        for (const piece of order) {
          assert.equal(tok.count(piece), refCount(name, piece), JSON.stringify(piece));
          assert.equal(tok.count(piece), refCount(name, piece), JSON.stringify(piece));
        }
      }
    }
  }
});

Deno.test("piecewise: a text after a longer one, and one past the shared scratch bytes, count as js-tiktoken", () => {
  // The counter reads each text's UTF-8 bytes from one scratch array shared by
  // every counter; bytes a longer text left behind must never be read as part
  // of a shorter text, and a text too large for the scratch array (over 1.4 M
  // chars) gets its own bytes. Non-ASCII pieces of two to eight bytes go to
  // the short memo by their bytes ("é" two, "中" three, "😀" four).
  const unit = "Ünïcödé 中文 😀 tools: fetch_url(https://x.y/z?q=1)\r\n  it's 2024!\n";
  const big = unit.repeat(Math.ceil(1_500_000 / unit.length));
  assert.ok(big.length > (1 << 22) / 3, `${big.length}`);
  for (const name of TOKENIZER_NAMES) {
    // The unit repeats with no piece across the seams (checked), so the big
    // text's count is the unit's times the repetitions.
    assert.equal(refCount(name, unit.repeat(3)), 3 * refCount(name, unit));
    const tok = createPiecewiseTokenizer(name);
    const long = unit.repeat(40) + "x";
    const texts = [long, "é", "中", "😀x", "a", unit, "é", "中中", long.slice(0, 999), "'s", ""];
    for (const t of texts) {
      assert.equal(tok.count(t), refCount(name, t), JSON.stringify(t.slice(0, 20)));
    }
    assert.equal(tok.count(big), (big.length / unit.length) * refCount(name, unit));
    for (const t of texts) {
      assert.equal(tok.count(t), refCount(name, t), JSON.stringify(t.slice(0, 20)));
    }
  }
});
