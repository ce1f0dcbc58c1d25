import assert from "node:assert/strict";
import { crossingPhrase, crossoverPhrase, leftOutSizesNote, savingsPhrase } from "./wording.ts";
import type { CrossoverRow } from "../modes/catalog_cost.ts";
import type { ScalingRow } from "../modes/scaling.ts";

Deno.test("savingsPhrase() words a negative saving as costing more, never 'saves -N%'", () => {
  const two = (v: number) => `${(v * 100).toFixed(2)}%`;
  // A one-tool catalog of 17 tokens against a 328-token proxy: 1 − 328/17 = −18.2941...
  assert.equal(savingsPhrase(1 - 328 / 17, two), "costs 1,829.41% more");
  assert.equal(savingsPhrase(1 - 233 / 17, two), "costs 1,270.59% more");
  assert.equal(savingsPhrase(1 - 328 / 607923, two), "saves 99.95%");
  assert.equal(savingsPhrase(-0.116, (v) => `${(v * 100).toFixed(1)}%`), "costs 11.6% more");
  assert.equal(savingsPhrase(0, two), "costs the same");
  // Thousands grouped in the integer part only: 1 − 123457/1 = −123456 = 12,345,600%.
  assert.equal(savingsPhrase(-123456, two), "costs 12,345,600.00% more");
  // The default format is percentText's (one decimal, two near 0% and 100%).
  assert.equal(savingsPhrase(0.9996), "saves 99.96%");
  assert.equal(savingsPhrase(-0.5), "costs 50.0% more");
});

const row = (targetSize: number, directTokens: number, full = false): ScalingRow => ({
  corpusId: "c",
  tokenizer: "t",
  targetSize,
  full,
  draws: full ? 1 : 5,
  meanToolCount: targetSize,
  meanServerCount: 1,
  directTokens,
  proxyTokens: 300,
  codeTokens: 200,
  proxySavings: 1 - 300 / directTokens,
  codeSavings: 1 - 200 / directTokens,
  provenance: "computed",
});
const crossover = (mode: "proxy" | "code", measuredSize: number | null): CrossoverRow => ({
  corpusId: "c",
  tokenizer: "t",
  mode,
  measuredSize,
  estimatedSize: 1,
  provenance: { measuredSize: "computed", estimatedSize: "estimated" },
});

Deno.test("crossoverPhrase() never reads the smallest sampled size as a break-even", () => {
  // Direct 400 tokens at 5 tools > proxy 300: every sampled size pays off.
  const every = [row(5, 400), row(10, 800), row(1389, 607923, true)];
  assert.equal(
    crossoverPhrase(crossover("proxy", 5), every),
    "at every sampled size (5 to 1,389 tools)",
  );
  // Proxy 300: 5 and 10 tools do not pay off (250, 280), 20 does (310), so do the rest.
  const between = [row(5, 250), row(10, 280), row(20, 310), row(50, 900, true)];
  assert.equal(
    crossoverPhrase(crossover("proxy", 20), between),
    "from 20 tools (break-even between 10 and 20 tools)",
  );
  // Code mode (200 tokens) on the same rows: every size pays off.
  assert.equal(
    crossoverPhrase(crossover("code", 5), between),
    "at every sampled size (5 to 50 tools)",
  );
  // A one-tool catalog (17 tokens): its one row is the full corpus, and it does not pay off.
  assert.equal(
    crossoverPhrase(crossover("proxy", null), [row(1, 17, true)]),
    "at no sampled size (1 tool)",
  );
  assert.equal(
    crossoverPhrase(crossover("proxy", 1), [row(1, 400, true)]),
    "at the one sampled size (1 tool)",
  );
  // Not monotonic: 10 pays off (310), 20 does not (290), 50 does.
  const bumpy = [row(5, 250), row(10, 310), row(20, 290), row(50, 900, true)];
  assert.equal(
    crossoverPhrase(crossover("proxy", 10), bumpy),
    "from 10 tools (break-even between 5 and 10 tools; not at every larger size)",
  );
  const early = [row(5, 310), row(10, 290), row(50, 900, true)];
  assert.equal(
    crossoverPhrase(crossover("proxy", 5), early),
    "at the smallest sampled size (5 tools) but not at every larger one (5 to 50 tools)",
  );
  // Rows of another corpus or tokenizer are not used.
  assert.equal(crossoverPhrase({ ...crossover("proxy", 5), tokenizer: "u" }, every), "not sampled");
});

Deno.test("crossingPhrase: the last or first whole number of searches on the mode's side", () => {
  // Start 100 vs 300 tokens, 80 vs 20 per search: equal at 100 + 80s = 300 + 20s, s = 200/60 =
  // 3.33, so the mode is cheaper at 0-3 searches.
  assert.equal(
    crossingPhrase({ searches: 200 / 60, cheaperAtStart: "mode" }),
    "cheaper up to 3 searches",
  );
  // A whole-number crossing costs the same there: 4 is on neither side.
  assert.equal(crossingPhrase({ searches: 4, cheaperAtStart: "mode" }), "cheaper up to 3 searches");
  assert.equal(crossingPhrase({ searches: 1.5, cheaperAtStart: "mode" }), "cheaper up to 1 search");
  assert.equal(
    crossingPhrase({ searches: 0.1, cheaperAtStart: "mode" }),
    "cheaper only with no search",
  );
  assert.equal(
    crossingPhrase({ searches: 7651.2, cheaperAtStart: "mode" }),
    "cheaper up to 7,651 searches",
  );
  assert.equal(
    crossingPhrase({ searches: 2.25, cheaperAtStart: "other" }),
    "cheaper from 3 searches",
  );
  assert.equal(crossingPhrase({ searches: 0.5, cheaperAtStart: "other" }), "cheaper from 1 search");
  assert.equal(crossingPhrase({ searches: 3, cheaperAtStart: "other" }), "cheaper from 4 searches");
  assert.equal(crossingPhrase({ searches: null, cheaperAtStart: "mode" }), "always cheaper");
  assert.equal(crossingPhrase({ searches: null, cheaperAtStart: "other" }), "never cheaper");
  assert.equal(
    crossingPhrase({ searches: null, cheaperAtStart: "equal" }),
    "as dear with no search",
  );
});

Deno.test("leftOutSizesNote() names the sizes below the corpus size that have no row", () => {
  // A 14-tool capture (servers of 12 and 2 tools): sizes 5 and 10 drew all 14 and have no row.
  assert.equal(
    leftOutSizesNote("mine", 14, [{ targetSize: 14 }], [5, 10, 20, 50]),
    "mine: sizes 5 and 10 not sampled: every draw of whole servers took all 14 tools",
  );
  assert.equal(
    leftOutSizesNote("c", 30, [{ targetSize: 5 }, { targetSize: 30 }], [20, 5, 10, 100]),
    "c: sizes 10 and 20 not sampled: every draw of whole servers took all 30 tools",
  );
  assert.equal(
    leftOutSizesNote("c", 8, [{ targetSize: 8 }], [5, 10]),
    "c: size 5 not sampled: every draw of whole servers took all 8 tools",
  );
  // Every size below the corpus size has its row (1,389 tools, all seven sampled).
  const all = [5, 10, 20, 50, 100, 200, 500];
  assert.equal(
    leftOutSizesNote("ref", 1389, [...all, 1389].map((targetSize) => ({ targetSize })), all),
    null,
  );
});
