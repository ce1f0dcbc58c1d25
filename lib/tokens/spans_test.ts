import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { RegionTally, tokenByteOffsets, tokenRegions } from "./spans.ts";
import { createTokenizer, TOKENIZER_NAMES } from "./tokenizers.ts";
import { createPiecewiseTokenizer } from "./piecewise.ts";
import { corpusTexts, exists, LIVEMCPTOOL_PATH } from "./_corpus_texts.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

const SAMPLES = [
  "",
  "hello world",
  '{"tools":[{"name":"fs:read_file","description":"Read a file","score":1.25}]}',
  "héllo wörld — naïve café",
  "emoji 😀😀 and flags 🇫🇷, CJK 日本語のテキスト, Hangul 한국어",
  "special-token text <|endoftext|> and <|fim_prefix|> stays plain",
  "tabs\tand\nnew\r\nlines   with    runs of spaces",
  "lone surrogate \uD800 here",
];

const utf8 = new TextEncoder();

const tiktoken = {
  cl100k_base: new Tiktoken(cl100kRanks),
  o200k_base: new Tiktoken(o200kRanks),
};

/**
 * Independent check with js-tiktoken: same token count, and every token that
 * decodes to whole characters on its own has that many UTF-8 bytes between its
 * start offset and the next one.
 */
function checkAgainstTiktoken(text: string, name: "cl100k_base" | "o200k_base"): number {
  const enc = tiktoken[name];
  const ids = enc.encode(text, [], []);
  const spans = tokenByteOffsets(text, name);
  assert.equal(spans.starts.length, ids.length, `${name} token count of ${JSON.stringify(text)}`);
  let checked = 0;
  for (let i = 0; i < ids.length; i++) {
    const piece = enc.decode([ids[i]]);
    if (piece.includes("\uFFFD")) continue;
    const end = i + 1 < ids.length ? spans.starts[i + 1] : spans.byteLength;
    assert.equal(end - spans.starts[i], utf8.encode(piece).length, `${name} token ${i} length`);
    checked++;
  }
  return checked;
}

Deno.test("tokenByteOffsets() splits 'hello world' into 'hello' and ' world'", () => {
  for (const name of TOKENIZER_NAMES) {
    const spans = tokenByteOffsets("hello world", name);
    assert.deepEqual(spans.starts, [0, 5]);
    assert.equal(spans.byteLength, 11);
    assert.equal(spans.name, name);
  }
});

Deno.test("tokenByteOffsets() returns no tokens for the empty text", () => {
  assert.deepEqual(tokenByteOffsets("", "cl100k_base"), {
    name: "cl100k_base",
    starts: [],
    byteLength: 0,
  });
});

Deno.test("tokenByteOffsets() pieces concatenate back to the text's bytes", () => {
  for (const name of TOKENIZER_NAMES) {
    for (const text of SAMPLES) {
      const spans = tokenByteOffsets(text, name);
      const bytes = utf8.encode(text);
      assert.equal(spans.byteLength, bytes.length);
      // Strictly increasing, starting at 0, every piece non-empty.
      spans.starts.forEach((s, i) => {
        if (i === 0) assert.equal(s, 0);
        else assert.ok(s > spans.starts[i - 1], `${name}: offsets must increase`);
      });
      const pieces = spans.starts.map((s, i) =>
        bytes.slice(s, i + 1 < spans.starts.length ? spans.starts[i + 1] : bytes.length)
      );
      const joined = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of pieces) {
        joined.set(p, at);
        at += p.length;
      }
      assert.deepEqual(joined, bytes);
      assert.equal(spans.starts.length, createTokenizer(name).count(text));
    }
  }
});

Deno.test("tokenByteOffsets() agrees with js-tiktoken's token lengths", () => {
  for (const name of TOKENIZER_NAMES) {
    let checked = 0;
    for (const text of SAMPLES) checked += checkAgainstTiktoken(text, name);
    assert.ok(checked > 40, `expected many clean prefixes, checked ${checked}`);
  }
});

Deno.test("tokenByteOffsets() splits a multi-byte character across tokens", () => {
  // "😀" is 4 UTF-8 bytes; in cl100k_base it is encoded as more than one token,
  // so some token starts inside the character.
  const spans = tokenByteOffsets("😀", "cl100k_base");
  assert.ok(spans.starts.length > 1);
  assert.equal(spans.byteLength, 4);
});

Deno.test({
  name: "tokenByteOffsets() agrees with js-tiktoken on LiveMCPBench tool texts",
  ignore: !exists(LIVEMCPTOOL_PATH),
  fn() {
    const texts = corpusTexts(LIVEMCPTOOL_PATH).slice(0, 200);
    for (const text of texts) checkAgainstTiktoken(text, "o200k_base");
  },
});

Deno.test("tokenByteOffsets() throws RangeError for an unknown encoding", () => {
  assert.throws(() => tokenByteOffsets("x", "p50k_base" as "cl100k_base"), RangeError);
});

/** UTF-8 offset of UTF-16 position `p` of `text` (not inside a surrogate pair). */
const byteAt = (text: string, p: number) => utf8.encode(text.slice(0, p)).length;

/** Per region, the tokens starting in it (and those holding a non-ASCII byte), from the starts. */
function regionsFromStarts(text: string, name: "cl100k_base" | "o200k_base", cuts: number[]) {
  const { starts, byteLength } = tokenByteOffsets(text, name);
  const bytes = utf8.encode(text);
  const byteCuts = cuts.map((p) => byteAt(text, p));
  const tokens = new Array(cuts.length + 1).fill(0);
  const nonAscii = new Array(cuts.length + 1).fill(0);
  starts.forEach((s, k) => {
    let r = 0;
    while (r < byteCuts.length && byteCuts[r] <= s) r++;
    tokens[r]++;
    const end = k + 1 < starts.length ? starts[k + 1] : byteLength;
    if (bytes.slice(s, end).some((b) => b >= 0x80)) nonAscii[r]++;
  });
  return { tokens, nonAscii, byteLength };
}

Deno.test("tokenRegions() credits each token to the region of its first byte (hand-computed)", () => {
  // cl100k_base: "hello" at 0, " world" at 5. A cut inside "hello" moves nothing; a cut at 5
  // starts the region of " world"; a cut at 6 (inside " world") leaves it in the region before.
  assert.deepEqual([...tokenRegions("hello world", "cl100k_base", [3, 5]).tokens], [1, 0, 1]);
  assert.deepEqual([...tokenRegions("hello world", "cl100k_base", [6]).tokens], [2, 0]);
  assert.deepEqual([...tokenRegions("hello world", "cl100k_base", []).tokens], [2]);
  assert.deepEqual([...tokenRegions("hello world", "cl100k_base", [0, 0, 11]).tokens], [
    0,
    0,
    2,
    0,
  ]);
  // "a😀" is 3 cl100k_base tokens (js-tiktoken: ids 64, 76460, 222): "a" (byte 0), F0 9F 98
  // (bytes 1-3), 80 (byte 4); the last two hold non-ASCII bytes. Cuts are code units: 1 is
  // byte 1; 2 falls inside the surrogate pair and stands for its end (byte 5).
  const emoji = tokenRegions("a😀", "cl100k_base", [1, 2], { nonAscii: true });
  assert.deepEqual([...emoji.tokens], [1, 2, 0]);
  assert.deepEqual([...emoji.nonAscii!], [0, 2, 0]);
  assert.equal(emoji.byteLength, 5);
  // o200k_base splits "café au" as "c", "afé" (bytes 1-4: "é" is two), " au" (byte 5 on). Code
  // unit 4 is byte 5, where " au" starts; code unit 5 is byte 6, inside it (as byte 5 would not be).
  assert.deepEqual([...tokenRegions("café au", "o200k_base", [4]).tokens], [2, 1]);
  assert.deepEqual([...tokenRegions("café au", "o200k_base", [5]).tokens], [3, 0]);
  assert.deepEqual([...tokenRegions("", "o200k_base", [0]).tokens], [0, 0]);
});

Deno.test(
  "tokenRegions() equals the token starts tallied by region, on samples and random cuts",
  FULL_TIER_ONLY,
  () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const texts = [
      ...SAMPLES,
      '[{"name":"read_file","description":"Lit un fichier — naïve café 日本語","inputSchema":' +
      '{"type":"object","properties":{"path":{"type":"string"}}}},{"name":"x","description":"😀"}]',
      ...(exists(LIVEMCPTOOL_PATH) ? [corpusTexts(LIVEMCPTOOL_PATH).slice(0, 300).join(",")] : []),
    ];
    for (const name of TOKENIZER_NAMES) {
      for (const text of texts) {
        for (let trial = 0; trial < 20; trial++) {
          const k = Math.floor(next() * Math.min(text.length + 2, trial < 10 ? 8 : 400));
          const cuts = Array.from({ length: k }, () => {
            const p = Math.floor(next() * (text.length + 1));
            const inPair = p > 0 && p < text.length && /[\uDC00-\uDFFF]/.test(text[p]) &&
              /[\uD800-\uDBFF]/.test(text[p - 1]);
            return inPair ? p + 1 : p;
          }).sort((a, b) => a - b);
          const want = regionsFromStarts(text, name, cuts);
          const got = tokenRegions(text, name, cuts, { nonAscii: true });
          assert.deepEqual([...got.tokens], want.tokens, `${name} ${cuts.length} cuts`);
          assert.deepEqual([...got.nonAscii!], want.nonAscii, `${name} non-ASCII`);
          assert.equal(got.byteLength, want.byteLength);
          assert.deepEqual([...tokenRegions(text, name, cuts).tokens], want.tokens);
          // Known strings: every 97-character slice at a random start, as the member values of a
          // tools text would be; skipping their middles changes nothing.
          const known = [];
          for (let at = Math.floor(next() * 50); at + 97 <= text.length; at += 97 + 40) {
            known.push({ at, text: text.slice(at, at + 97) });
          }
          const withKnown = tokenRegions(text, name, cuts, { known });
          assert.deepEqual(
            [...withKnown.tokens],
            want.tokens,
            `${name} with ${known.length} known`,
          );
          const both = tokenRegions(text, name, cuts, { known, nonAscii: true });
          assert.deepEqual([...both.nonAscii!], want.nonAscii, `${name} known and non-ASCII`);
        }
      }
    }
  },
);

Deno.test("countRegions(): a known range is used only where the pieces meet it and no cut is inside", () => {
  const tok = createPiecewiseTokenizer("cl100k_base");
  const text = "hello world again"; // "hello" [0, 5), " world" [5, 11), " again" [11, 17)
  assert.equal(tok.count(text), 3);
  // [0, 5) with a made-up count of 7: used (the count shows it was trusted).
  assert.deepEqual([...tok.countRegions(text, [], { known: [0, 5, 7] }).tokens], [9]);
  // A cut inside the range: counted as usual.
  assert.deepEqual([...tok.countRegions(text, [3], { known: [0, 5, 7] }).tokens], [1, 2]);
  // A range starting where no piece starts (inside "hello"): counted as usual.
  assert.deepEqual([...tok.countRegions(text, [], { known: [2, 11, 7] }).tokens], [3]);
  // A cut at the range's end is not inside it: used, and the next region counts on.
  assert.deepEqual([...tok.countRegions(text, [11], { known: [5, 11, 4] }).tokens], [5, 1]);
});

Deno.test("tokenRegions() refuses cuts out of order", () => {
  assert.throws(() => tokenRegions("hello", "o200k_base", [3, 2]), RangeError);
});

Deno.test("RegionTally: a text written in parts and cut at hard cuts counts as tokenRegions of the whole text", () => {
  let seed = 11;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const tools = Array.from(
    { length: 12 },
    (_, i) =>
      `{"name":"tool_${i}","description":"Reads the file at the given path — naïve café ${i}",` +
      `"inputSchema":{"type":"object","properties":{"path":{"type":"string","description":` +
      `"Path of the file to read, relative to the root 日本語"}}}}`,
  ).join(",");
  const texts = [
    ...SAMPLES,
    `[${tools}]`,
    `<functions>\n${tools.replaceAll("},{", "}</function>\n<function>{")}\n</functions>`,
    ...(exists(LIVEMCPTOOL_PATH) ? [corpusTexts(LIVEMCPTOOL_PATH).slice(0, 200).join(",")] : []),
  ];
  for (const name of TOKENIZER_NAMES) {
    for (const text of texts) {
      for (let trial = 0; trial < 10; trial++) {
        // Parts at random places; a region (label 0-4) and a chance to cut at some of their starts.
        const at = [
          ...new Set(
            Array.from(
              { length: 1 + Math.floor(next() * 60) },
              () => Math.floor(next() * text.length),
            ),
          ),
        ].sort((a, b) => a - b).filter((p) =>
          p > 0 && !(/[\uDC00-\uDFFF]/.test(text[p]) && /[\uD800-\uDBFF]/.test(text[p - 1]))
        );
        const bounds = [0, ...at, text.length];
        const want = new Map<number, [number, number]>();
        const cuts: number[] = [];
        const labels = [9];
        const got = new Map<number, [number, number]>();
        const tally = new RegionTally(
          name,
          (label, tokens, wide) => {
            const [t, w] = got.get(label) ?? [0, 0];
            got.set(label, [t + tokens, w + wide]);
          },
          9,
          { nonAscii: true },
        );
        for (let k = 0; k + 1 < bounds.length; k++) {
          if (k > 0 && next() < 0.4) {
            const label = Math.floor(next() * 5);
            cuts.push(bounds[k]);
            labels.push(label);
            tally.region(label);
          }
          if (next() < 0.5) tally.mayCut();
          tally.put(text.slice(bounds[k], bounds[k + 1]), next() < 0.5);
        }
        const total = tally.finish();
        const whole = tokenRegions(text, name, cuts, { nonAscii: true });
        whole.tokens.forEach((t, r) => {
          if (t === 0) return;
          const [a, b] = want.get(labels[r]) ?? [0, 0];
          want.set(labels[r], [a + t, b + whole.nonAscii![r]]);
        });
        const sorted = (m: Map<number, [number, number]>) => [...m].sort((x, y) => x[0] - y[0]);
        assert.deepEqual(sorted(got), sorted(want), `${name} ${JSON.stringify(text.slice(0, 40))}`);
        assert.equal(total.tokens, whole.tokens.reduce((a, b) => a + b, 0));
        assert.equal(total.byteLength, whole.byteLength);
      }
    }
  }
});
