import assert from "node:assert/strict";
import cl100kData from "js-tiktoken/ranks/cl100k_base";
import o200kData from "js-tiktoken/ranks/o200k_base";
import gptCl100kRanks from "gpt-tokenizer/bpeRanks/cl100k_base";
import gptO200kRanks from "gpt-tokenizer/bpeRanks/o200k_base";
import { createTokenizer, gptRankArray, isTokenizerName, TOKENIZER_NAMES } from "./tokenizers.ts";
import { corpusTexts, exists, LIVEMCPTOOL_PATH, REFERENCE_PATH } from "./_corpus_texts.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

const BACKENDS = ["js-tiktoken", "gpt-tokenizer", "piecewise"] as const;

Deno.test("createTokenizer() counts the OpenAI cookbook examples", FULL_TIER_ONLY, async (t) => {
  // Counts published in the OpenAI cookbook "How to count tokens with tiktoken":
  // "tiktoken is great!" is 6 tokens in both cl100k_base and o200k_base.
  for (const backend of BACKENDS) {
    await t.step(backend, () => {
      for (const name of TOKENIZER_NAMES) {
        const tok = createTokenizer(name, backend);
        assert.equal(tok.name, name);
        assert.equal(tok.count("tiktoken is great!"), 6);
        assert.equal(tok.count(""), 0);
      }
    });
  }
});

Deno.test("createTokenizer() counts special-token text as plain text", () => {
  // As a control token <|endoftext|> is exactly 1 token; as plain text it is
  // several ordinary ones, and the backends must not throw on it.
  const counts = BACKENDS.map((backend) => createTokenizer("cl100k_base", backend))
    .map((tok) => tok.count("<|endoftext|>"));
  assert.ok(counts[0] > 1, `expected plain-text tokens, got ${counts[0]}`);
  assert.deepEqual(counts, BACKENDS.map(() => counts[0]));
});

Deno.test(
  "gptRankArray() rebuilds gpt-tokenizer's shipped rank arrays from js-tiktoken's ranks",
  FULL_TIER_ONLY,
  () => {
    // gpt-tokenizer's backend gets its ranks this way instead of importing them.
    assert.deepEqual(gptRankArray(cl100kData.bpe_ranks), gptCl100kRanks);
    assert.deepEqual(gptRankArray(o200kData.bpe_ranks), gptO200kRanks);
  },
);

Deno.test("createTokenizer() throws RangeError for unknown names", () => {
  assert.throws(() => createTokenizer("p50k_base" as "cl100k_base"), RangeError);
  assert.throws(() => createTokenizer("cl100k_base", "nope" as "js-tiktoken"), RangeError);
  assert.equal(isTokenizerName("o200k_base"), true);
  assert.equal(isTokenizerName("gpt2"), false);
});

for (
  const [label, path] of [["LiveMCPBench", LIVEMCPTOOL_PATH], [
    "reference_v1",
    REFERENCE_PATH,
  ]] as const
) {
  Deno.test({
    name: `tokenizer backends agree on every tool of the ${label} corpus`,
    ignore: !exists(path) || FULL_TIER_ONLY.ignore,
    fn() {
      const texts = corpusTexts(path);
      for (const name of TOKENIZER_NAMES) {
        const ref = createTokenizer(name, "js-tiktoken");
        const expected = texts.map((text) => ref.count(text));
        for (const backend of ["gpt-tokenizer", "piecewise"] as const) {
          const fast = createTokenizer(name, backend);
          const mismatches = texts.filter((text, i) => fast.count(text) !== expected[i]);
          assert.deepEqual(
            mismatches.map((m) => m.slice(0, 60)),
            [],
            `${name}: ${backend} disagrees with js-tiktoken`,
          );
        }
        // The whole corpus as one text (one counter, memo shared across tools).
        const sum = expected.reduce((a, b) => a + b, 0);
        const all = createTokenizer(name, "piecewise");
        assert.equal(texts.reduce((a, t) => a + all.count(t), 0), sum);
      }
    },
  });
}
if (!exists(LIVEMCPTOOL_PATH)) {
  console.warn(`skipped LiveMCPBench parity: ${LIVEMCPTOOL_PATH.pathname} is absent`);
}
