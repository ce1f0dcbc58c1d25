import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { tokenByteOffsets } from "./spans.ts";
import { createTokenizer, TOKENIZER_NAMES } from "./tokenizers.ts";
import { corpusTexts, exists, LIVEMCPTOOL_PATH } from "./_corpus_texts.ts";

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
