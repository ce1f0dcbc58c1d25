import assert from "node:assert/strict";
import { barChart, labelMargin, savingsBySizeChart } from "./figures.ts";
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

Deno.test("barChart() puts a negative bar's label left of the bar's end, clear of the bar and the axis", () => {
  // A savings chart of a one-tool catalog: two arms cost more than the baseline.
  const data = [
    { label: "compact_sig", value: 47.1 },
    { label: "markdown", value: 11.8 },
    { label: "minified_json", value: -52.9 },
    { label: "tron_dedup", value: -82.4 },
  ];
  const svg = barChart(data, { document: headlessDocument(), valueLabel: "savings %" }).outerHTML;
  const x = (t: string) => Number(/translate\(([-\d.]+),/.exec(t)![1]);
  const rects = [...svg.matchAll(/<rect ([^>]*)\/>/g)].map((m) => ({
    x: Number(/ x="([-\d.]+)"/.exec(m[1])![1]),
    width: Number(/width="([-\d.]+)"/.exec(m[1])![1]),
    fill: /fill="([^"]+)"/.exec(m[1])![1],
  }));
  const groups = [
    ...svg.matchAll(
      /<g transform="translate\((-?\d+),[\d.]+\)" text-anchor="(start|end)" aria-label="text">(.*?)<\/g>/g,
    ),
  ];
  const labels = groups.flatMap((g) =>
    [...g[3].matchAll(/<text transform="([^"]+)"[^>]*>([^<]+)<\/text>/g)].map((t) => ({
      text: t[2],
      x: x(t[1]) + Number(g[1]),
      anchor: g[2],
    }))
  );
  // Bars are drawn largest first: compact_sig, markdown, minified_json, tron_dedup.
  assert.deepEqual(labels.map((l) => [l.text, l.anchor]), [
    ["47.1", "start"],
    ["11.8", "start"],
    ["-52.9", "end"],
    ["-82.4", "end"],
  ]);
  for (const [i, l] of labels.entries()) {
    const bar = rects[i];
    if (l.anchor === "start") {
      assert.ok(l.x >= bar.x + bar.width, `${l.text} starts at ${l.x}, inside its bar`);
    } else {
      // Ends left of the bar's left end; its text (about 6 px a character) stays right of the
      // 260 px axis margin, where the category labels are.
      assert.ok(l.x <= bar.x, `${l.text} ends at ${l.x}, inside its bar (${bar.x})`);
      assert.ok(l.x - 6 * l.text.length >= 260, `${l.text} reaches the axis: ${l.x}`);
    }
  }
  assert.deepEqual(rects.map((r) => r.fill), ["steelblue", "steelblue", "#c8553d", "#c8553d"]);
});
