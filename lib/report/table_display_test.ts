// How dashboard tables read: headers in words with their unit, one number format per column,
// and bar labels written as the axis writes its ticks.
import assert from "node:assert/strict";
import { columnLabel, columnNumberFormat, renderViz } from "./dashboard_page.ts";
import { barChart, barLabel } from "./figures.ts";
import { headlessDocument } from "./dashboard.ts";
import { htmlTable } from "./_table.ts";
import type { Visualization } from "./viz/types.ts";

Deno.test("columnLabel() writes snake_case keys in words with their unit; other keys as they are", () => {
  assert.equal(columnLabel("input_tokens"), "input tokens");
  assert.equal(columnLabel("token_cost_usd"), "token cost (USD)");
  assert.equal(columnLabel("duration_ms"), "duration (ms)");
  assert.equal(columnLabel("runs"), "runs");
  assert.equal(columnLabel("all-terse-parallel__tools-all"), "all-terse-parallel__tools-all");
  assert.equal(columnLabel("recall@10"), "recall@10");
});

Deno.test("columnNumberFormat() gives a column one format: separators, the same decimals on every row", () => {
  const f = (values: unknown[]) => values.map((v) => columnNumberFormat(values)(v as number));
  // Integers only: separators, no decimals.
  assert.deepEqual(f([6144, 234697, 12]), ["6,144", "234,697", "12"]);
  // Mixed, smallest non-zero ≥ 100: one decimal everywhere (it showed 4,590.3 beside 6144).
  assert.deepEqual(f([4590.25, 6144, 1455.333]), ["4,590.3", "6,144.0", "1,455.3"]);
  // From 1 up: two decimals.
  assert.deepEqual(f([3.667, 2, 93.17]), ["3.67", "2.00", "93.17"]);
  // Below 1: two significant digits of the smallest, at most 6 decimals.
  assert.deepEqual(f([0.0164, 0.0049, 0.0348]), ["0.0164", "0.0049", "0.0348"]);
  assert.deepEqual(f([0.000067, 0]), ["0.000067", "0.000000"]);
});

Deno.test("a table visualization shows labelled headers and one format per column; the CSV keeps keys and raw values", () => {
  const viz: Visualization = {
    id: "t",
    title: "T",
    layout: "full",
    render: () => ({
      type: "table",
      rows: [
        { agent: "a", input_tokens: 4590.25, tool_calls: 2, token_cost_usd: 0.0164 },
        { agent: "b", input_tokens: 6144, tool_calls: 3.667, token_cost_usd: 0.0049 },
      ],
    }),
  };
  const out = renderViz(viz, [], { document: headlessDocument(), name: "t" });
  const heads = [...out.html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
  assert.deepEqual(heads, ["agent", "input tokens", "tool calls", "token cost (USD)"]);
  const cells = [...out.html.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(cells, ["4,590.3", "2.00", "0.0164", "6,144.0", "3.67", "0.0049"]);
  assert.equal(
    out.export?.text,
    "agent,input_tokens,tool_calls,token_cost_usd\na,4590.25,2,0.0164\nb,6144,3.667,0.0049\n",
  );
});

Deno.test("bar labels carry thousands separators, as the axis ticks do", () => {
  assert.equal(barLabel(234697), "234,697");
  assert.equal(barLabel(-52.94), "-52.9");
  const svg = barChart([{ label: "direct", value: 234697 }, { label: "proxy", value: 1206 }], {
    document: headlessDocument(),
    valueLabel: "tokens",
  }).outerHTML;
  assert.match(svg, />234,697<\/text>/);
  assert.match(svg, />1,206<\/text>/);
  assert.doesNotMatch(svg, />234697</);
});

Deno.test("htmlTable(): number columns get separators and one count of decimals, empty cells a dash, headers the label given", () => {
  const out = htmlTable(
    [
      { suite: "s", mean_input_tokens: 11132, pass_rate_lo95: 0.5, saved: null },
      { suite: "t", mean_input_tokens: 1892, pass_rate_lo95: 0.701, saved: null },
    ],
    {},
    { label: columnLabel },
  );
  const heads = [...out.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
  assert.deepEqual(heads, ["suite", "mean input tokens", "pass rate lo95", "saved"]);
  const cells = [...out.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(cells, ["s", "11,132", "0.500", "–", "t", "1,892", "0.701", "–"]);
  // Without a label the keys show as they are.
  assert.match(htmlTable([{ a_b: 1 }]), /<th[^>]*>a_b<\/th>/);
});
