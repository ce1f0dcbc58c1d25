// Token counting speed per backend over the LiveMCPBench corpus:
//   deno bench -A lib/tokens/tokenizers_bench.ts
import { createTokenizer, TOKENIZER_NAMES } from "./tokenizers.ts";
import { corpusTexts, exists, LIVEMCPTOOL_PATH } from "./_corpus_texts.ts";

if (!exists(LIVEMCPTOOL_PATH)) {
  console.warn(`skipped: ${LIVEMCPTOOL_PATH.pathname} is absent`);
} else {
  const texts = corpusTexts(LIVEMCPTOOL_PATH);
  for (const name of TOKENIZER_NAMES) {
    for (const backend of ["js-tiktoken", "gpt-tokenizer"] as const) {
      const tok = createTokenizer(name, backend);
      let total = 0;
      for (const text of texts) total += tok.count(text); // warm-up
      Deno.bench({
        name: `${name} ${backend} (${texts.length} tools, ${total} tokens per pass)`,
        group: name,
        baseline: backend === "js-tiktoken",
        fn() {
          for (const text of texts) tok.count(text);
        },
      });
    }
  }
}
