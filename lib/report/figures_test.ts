import assert from "node:assert/strict";
import { labelMargin, savingsBySizeChart } from "./figures.ts";
import { tokensChart } from "./compare_figures.ts";
import { headlessDocument } from "./mod.ts";

Deno.test("labelMargin() is 12 px + 6 px a character of the longest label, between min and 340", () => {
  assert.equal(labelMargin(["abc"]), 160); // 12 + 18 = 30, raised to the default 160
  assert.equal(labelMargin(["abc", "a".repeat(30)]), 192); // 12 + 180
  assert.equal(labelMargin(["a".repeat(52)], 240), 324); // 12 + 312
  assert.equal(labelMargin(["a".repeat(100)], 240), 340); // 612, capped
  assert.equal(labelMargin([], 240), 240);
});

Deno.test("tokensChart() leaves a long sweep agent id room on the left (it was cut at 240 px)", () => {
  const label = "all-terse-parallel__tools-fs-list_-fs-read_text_file"; // 52 characters
  const svg = tokensChart(
    [{ label, kind: "input", tokens: 1895 }, {
      label: "all-terse-code",
      kind: "input",
      tokens: 4590,
    }],
    { document: headlessDocument() },
  ).outerHTML;
  // The y-axis labels end at the left margin (right-aligned there): 12 + 6 × 52 = 324 px.
  assert.match(svg, /translate\(324,\d+\)" y="0\.32em">all-terse-parallel__tools/);
});

Deno.test("savingsBySizeChart() labels the x axis at 1, 2 and 5 of every decade the sizes span", () => {
  const sizes = [5, 10, 50, 100, 500, 1389];
  const rows = sizes.map((n) => ({
    corpusId: "c",
    tokenizer: "cl100k_base",
    targetSize: n,
    meanToolCount: n,
    meanServerCount: 1,
    draws: 1,
    full: n === 1389,
    directTokens: 300 * n,
    proxyTokens: 328,
    codeTokens: 233,
    proxySavings: 1 - 328 / (300 * n),
    codeSavings: 1 - 233 / (300 * n),
    provenance: "computed" as const,
  }));
  const svg = savingsBySizeChart(rows, { document: headlessDocument() }).outerHTML;
  const axis = /aria-label="x-axis tick label"[^>]*>(.*?)<\/g>/s.exec(svg)?.[1] ?? "";
  const labels = [...axis.matchAll(/>([\d,]+)<\/text>/g)].map((m) => m[1]);
  // Between 5 and 1,389: 5, 10, 20, 50, 100, 200, 500, 1,000 (by hand).
  assert.deepEqual(labels, ["5", "10", "20", "50", "100", "200", "500", "1,000"]);
});
