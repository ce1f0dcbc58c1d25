import assert from "node:assert/strict";
import { tinyCostLayers as block } from "../../testing/report.ts";
import {
  billedHeadlines,
  billedText,
  fieldShares,
  fieldSharesChart,
  heaviestServers,
  layerBars,
  layersChart,
  layerTable,
  renderCostLayers,
} from "./cost_layers_view.ts";
import { headlessDocument } from "./dashboard.ts";

Deno.test("billedText(): measured, estimated with its interval, or not measured with why", () => {
  const rows = block().rows;
  assert.equal(billedText(rows[11]), "1,500 measured (claude-x)");
  assert.equal(billedText(rows[12]), "640 [500–900] estimated");
  assert.equal(billedText(rows[13]), "not measured: 401 refused");
});

Deno.test("billedHeadlines(): the provider's count first, else the estimate; the rest beside it", () => {
  const heads = billedHeadlines(block());
  assert.deepEqual(heads.map((h) => [h.provider, h.billed.tokens, h.others.length]), [
    ["anthropic", 1500, 1], // the measured row, the estimate beside it
    ["openai", 640, 1], // the estimate; the refused count beside it
    ["gemini", 810, 0],
  ]);
  assert.equal(heads[0].sent?.tokens, 600);
  assert.equal(heads[1].sent?.format, "openai-responses");
  assert.equal(heads[2].wire?.tokens, 700);
});

Deno.test("layerTable(): the catalog, then the heaviest servers, layer by layer", () => {
  const b = block();
  assert.deepEqual(heaviestServers(b, "c"), ["b", "z", "a"]);
  assert.deepEqual(heaviestServers(b, "c", 1), ["b"]);
  const rows = layerTable(b, "c", 2);
  assert.deepEqual(rows.map((r) => r.scope), ["whole catalog", "b", "z"]);
  assert.deepEqual(rows[0], {
    scope: "whole catalog",
    wire: 700,
    "Anthropic sent": 600,
    "Anthropic billed": "1,500 measured (claude-x)",
    "OpenAI sent": 650,
    "OpenAI billed": "640 [500–900] estimated",
    "Gemini sent": 800,
    "Gemini billed": "810 [690–1,050] estimated",
    "OpenAI Chat Completions sent": 640,
  });
  assert.equal(rows[1]["Anthropic billed"], "420 [380–470] estimated");
  assert.equal(rows[1]["Anthropic sent"], 250);
  assert.equal(rows[2]["Gemini billed"], "");
});

Deno.test("layerBars() and fieldShares(): the catalog's bars and each field's share, by hand", () => {
  const b = block();
  assert.deepEqual(layerBars(b, "c").map((x) => [x.label, x.value, x.low, x.high, x.provenance]), [
    ["received (wire)", 700, 700, 700, "measured"],
    ["Anthropic sent", 600, 600, 600, "measured"],
    ["Anthropic billed", 1500, 1500, 1500, "measured"],
    ["OpenAI sent", 650, 650, 650, "measured"],
    ["OpenAI billed", 640, 500, 900, "estimated"],
    ["Gemini sent", 800, 800, 800, "measured"],
    ["Gemini billed", 810, 690, 1050, "estimated"],
  ]);
  const shares = fieldShares(b, "c");
  // wire: 70/700 = 10%, 210/700 = 30%, 420/700 = 60%; Anthropic: 60/600 = 10%, 540/600 = 90%.
  assert.deepEqual(
    shares.filter((s) => s.label === "received (wire)").map((s) => [s.field, s.share]),
    [["name", 10], ["description", 30], ["inputSchema", 60]],
  );
  assert.deepEqual(
    shares.filter((s) => s.label === "sent: Anthropic Messages").map((s) => [s.field, s.share]),
    [["name", 10], ["inputSchema", 90]],
  );
  const document = headlessDocument();
  const chart = fieldSharesChart(shares, { document });
  for (const f of ["name", "description", "inputSchema"]) assert.ok(chart.outerHTML.includes(f), f);
  // One segment per field and text: 3 of the wire text, 2 of Anthropic's (the others have none).
  assert.equal(chart.querySelectorAll('g[aria-label="bar"] rect').length, 5);
  const bars = layersChart(layerBars(b, "c"), { document }).outerHTML;
  assert.ok(bars.includes("640 est.") && bars.includes("1,500") && !bars.includes("1,500 est."));
});

Deno.test("renderCostLayers(): the first number on the section is a billed figure, with its provenance", () => {
  const html = renderCostLayers(block(), headlessDocument());
  const text = html.replace(/<style[\s\S]*?<\/style>/g, "").replace(/<[^>]+>/g, " ");
  assert.equal(text.match(/\d[\d,]*/)?.[0], "1,500");
  assert.match(
    text,
    /1,500\s+tokens\s+billed by Anthropic for\s+c\s*, measured by Anthropic's token count for\s+claude-x/,
  );
  assert.match(text, /640\s+tokens \[500–900\] billed by OpenAI/);
  assert.match(html, /also <code>gpt-x<\/code> not measured: 401 refused/);
  assert.match(text, /Count requests: 10 planned, 4 sent, 6 answered from the cache/);
  assert.match(text, /Calibration of the estimates: test calibration/);
  // An estimate made for a named model says which, as the console does.
  const b = block();
  const rows = b.rows.filter((r) => !(r.provider === "anthropic" && r.provenance === "measured"))
    .map((r) =>
      r.provider === "anthropic" && r.layer === "billed" && r.server === null
        ? { ...r, model: "claude-y" }
        : r
    );
  const estimated = renderCostLayers({ ...b, rows }, headlessDocument()).replace(/<[^>]+>/g, " ");
  assert.match(
    estimated,
    /1,200\s+tokens \[1,000–1,400\] billed by Anthropic for\s+c\s*, estimated for\s+claude-y\s+\(calibration test calibration\)/,
  );
});
