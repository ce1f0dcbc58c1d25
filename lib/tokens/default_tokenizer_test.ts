import assert from "node:assert/strict";
import { createDefaultTokenizer, isTokenizerName, TOKENIZER_NAMES } from "./default_tokenizer.ts";
import { piecewiseEncoding } from "./joins.ts";
import { createTokenizer } from "./tokenizers.ts";

Deno.test("createDefaultTokenizer() is createTokenizer()'s default: piecewise, marked, same names and errors", () => {
  assert.deepEqual(TOKENIZER_NAMES, ["cl100k_base", "o200k_base"]);
  assert.equal(isTokenizerName("o200k_base"), true);
  assert.equal(isTokenizerName("p50k_base"), false);
  for (const name of TOKENIZER_NAMES) {
    const tok = createDefaultTokenizer(name);
    assert.equal(tok.name, name);
    assert.equal(piecewiseEncoding(tok), name);
    // The OpenAI cookbook's example: 6 tokens in both encodings.
    assert.equal(tok.count("tiktoken is great!"), 6);
  }
  const message = (f: () => unknown) => {
    try {
      f();
    } catch (error) {
      assert.ok(error instanceof RangeError);
      return error.message;
    }
    assert.fail("expected a RangeError");
  };
  assert.equal(
    message(() => createDefaultTokenizer("p50k_base" as "cl100k_base")),
    message(() => createTokenizer("p50k_base" as "cl100k_base")),
  );
});
