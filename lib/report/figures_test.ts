import assert from "node:assert/strict";
import { labelMargin } from "./figures.ts";
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
