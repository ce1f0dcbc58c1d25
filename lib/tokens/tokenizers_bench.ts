// Token counting speed per backend, as ratios in the same run:
//   deno bench -A lib/tokens/tokenizers_bench.ts
//
// - "<name> catalog": one pass over every LiveMCPBench tool text. js-tiktoken is
//   the baseline; `piecewise` counts with a fresh instance per iteration (its
//   memo starts empty, so nothing carries over between passes); gpt-tokenizer
//   keeps its module-level merge cache across iterations (it cannot be cleared
//   per instance), which favours it.
// - "<name> adversarial 2k": 2,000 repeated characters (one piece), where the
//   backends' quadratic merge shows; js-tiktoken is the baseline.
// - "<name> adversarial 1M / 10 MB": piecewise alone (the quadratic backends
//   take minutes): one character repeated 10⁵ and 10⁶ times (letters,
//   punctuation, spaces, newlines), and a 10 MB description made of catalog
//   text. 10⁵ against 10⁶ shows the growth is near-linear.
import { createTokenizer, TOKENIZER_NAMES } from "./tokenizers.ts";
import { createPiecewiseTokenizer } from "./piecewise.ts";
import { corpusTexts, exists, LIVEMCPTOOL_PATH, REFERENCE_PATH } from "./_corpus_texts.ts";

const catalogPath = exists(LIVEMCPTOOL_PATH) ? LIVEMCPTOOL_PATH : REFERENCE_PATH;
const texts = corpusTexts(catalogPath);
const label = catalogPath === LIVEMCPTOOL_PATH ? "LiveMCPBench" : "reference_v1";

/** About `bytes` UTF-16 units of catalog text, tool after tool. */
function description(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const t = texts[i % texts.length];
    parts.push(t);
    size += t.length + 1;
  }
  return parts.join(" ").slice(0, bytes);
}

for (const name of TOKENIZER_NAMES) {
  const reference = createTokenizer(name, "js-tiktoken");
  const total = texts.reduce((sum, t) => sum + reference.count(t), 0);
  const gpt = createTokenizer(name, "gpt-tokenizer");
  for (const t of texts) gpt.count(t); // warm-up
  const group = `${name} catalog`;
  Deno.bench({
    name: `${name} js-tiktoken (${label}: ${texts.length} tools, ${total} tokens per pass)`,
    group,
    baseline: true,
    fn() {
      for (const t of texts) reference.count(t);
    },
  });
  Deno.bench({
    name: `${name} gpt-tokenizer (its merge cache stays warm across passes)`,
    group,
    fn() {
      for (const t of texts) gpt.count(t);
    },
  });
  Deno.bench({
    name: `${name} piecewise (fresh instance per pass)`,
    group,
    fn() {
      const tok = createPiecewiseTokenizer(name);
      for (const t of texts) tok.count(t);
    },
  });

  const small = "a".repeat(2000);
  for (const backend of ["js-tiktoken", "gpt-tokenizer", "piecewise"] as const) {
    const tok = createTokenizer(name, backend);
    Deno.bench({
      name: `${name} ${backend} "a" x 2,000`,
      group: `${name} adversarial 2k`,
      baseline: backend === "js-tiktoken",
      n: 5,
      warmup: 1,
      fn() {
        if (backend === "piecewise") createPiecewiseTokenizer(name).count(small);
        else tok.count(small);
      },
    });
  }

  const big: [string, string][] = [
    ['"a" x 100,000', "a".repeat(100_000)],
    ['"a" x 1,000,000', "a".repeat(1_000_000)],
    ['"!" x 1,000,000', "!".repeat(1_000_000)],
    ['" " x 1,000,000', " ".repeat(1_000_000)],
    ['"\\n" x 1,000,000', "\n".repeat(1_000_000)],
    ['"é" x 1,000,000', "é".repeat(1_000_000)],
    ["10 MB description (catalog text)", description(10_000_000)],
  ];
  for (const [what, input] of big) {
    Deno.bench({
      name: `${name} piecewise ${what}`,
      group: `${name} adversarial 1M / 10 MB`,
      n: 2,
      warmup: 0,
      fn() {
        createPiecewiseTokenizer(name).count(input);
      },
    });
  }
}
