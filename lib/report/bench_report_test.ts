import assert from "node:assert/strict";
import Ajv from "ajv";
import { REPORT_SCHEMA_VERSION, upgradeBenchReport } from "./bench_report.ts";
import { oneToolBenchReport, tinyBenchReport } from "../../testing/report.ts";
import { renderDashboard } from "./dashboard.ts";
import { RESULT_DECIMALS, stableJson } from "../core/json.ts";

Deno.test("measureCatalogCost() output validates against report.schema.json", async () => {
  const schema = JSON.parse(
    await Deno.readTextFile(new URL("./report.schema.json", import.meta.url)),
  );
  const ajv = new Ajv.default({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  const report: Record<string, unknown> = JSON.parse(
    stableJson(tinyBenchReport(), { decimals: RESULT_DECIMALS }),
  );
  assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
  // A report missing a required section must not validate.
  delete report.modes;
  assert.equal(validate(report), false);
});

Deno.test("measureCatalogCost() is byte-deterministic for a seed", () => {
  assert.equal(
    stableJson(tinyBenchReport(), { decimals: RESULT_DECIMALS }),
    stableJson(tinyBenchReport(), { decimals: RESULT_DECIMALS }),
  );
});

Deno.test("renderDashboard() is self-contained, has the charts and no NaN", () => {
  const html = renderDashboard(tinyBenchReport());
  assert.ok(html.startsWith("<!doctype html>"));
  assert.ok((html.match(/<svg/g) ?? []).length >= 3, "expected the size chart and two bar charts");
  assert.doesNotMatch(html, /<script|<link|src="http|NaN/);
  assert.match(html, /retrieve_tools|proxy/);
  assert.equal(html, renderDashboard(tinyBenchReport()));
});

Deno.test("upgradeBenchReport() turns version-1 percents into version-2 fractions", () => {
  const v1 = {
    schemaVersion: 1,
    modes: [{ mode: "proxy", savingsWithSchemas: 0.9995 }],
    arms: [{ arm: "compact_sig", savingsPct: 74.5, savingsToolCount: 3 }, {
      arm: "tscg",
      skipped: true,
    }],
    toolResults: {
      provenance: { tokens: "measured", savingsPct: "computed" },
      rows: [{ payloadId: "p", savingsPct: -200 }],
      summary: [{ class: "all", savingsPct: 37.5, minSavingsPct: -4, maxSavingsPct: null }],
    },
  };
  const v2 = upgradeBenchReport(v1) as unknown as typeof v1 & Record<string, unknown>;
  assert.equal(v2.schemaVersion, REPORT_SCHEMA_VERSION);
  assert.deepEqual(v2.modes, v1.modes, "mode savings were fractions already");
  assert.deepEqual(v2.arms, [{ arm: "compact_sig", savings: 0.745, savingsToolCount: 3 }, {
    arm: "tscg",
    skipped: true,
  }]);
  assert.deepEqual(v2.toolResults, {
    provenance: { tokens: "measured", savings: "computed" },
    rows: [{ payloadId: "p", savings: -2 }],
    summary: [{ class: "all", savings: 0.375, minSavings: -0.04, maxSavings: null }],
  });
  const current = { schemaVersion: REPORT_SCHEMA_VERSION, modes: [] };
  assert.equal(upgradeBenchReport(current), current, "a current report is returned as is");
  assert.throws(
    () => upgradeBenchReport({ schemaVersion: 9 }),
    new RangeError(
      `Cannot read a bench report of schemaVersion 9: expected 1 to ${REPORT_SCHEMA_VERSION}`,
    ),
  );
});

Deno.test("renderDashboard() says where a mode pays off without reading the smallest sample as a break-even", () => {
  // 78 tools, the smallest sample (5 tools) already costs >= 5 × 4 = 20 tokens > the 8-token proxy.
  const tiny = renderDashboard(tinyBenchReport());
  assert.match(tiny, /at every sampled size \(5 to 78 tools\)/);
  assert.doesNotMatch(tiny, /pays off from/);
  // One tool (4 tokens) never pays off for the 8-token proxy; an average tool mix breaks even
  // at ceil(8 / 4) = 2 tools.
  const one = renderDashboard(oneToolBenchReport());
  assert.match(one, /at no sampled size \(1 tool\)/);
  assert.match(one, /<td[^>]*>2<\/td>/);
});

Deno.test("renderDashboard() says what a negative saving means under the modes table", () => {
  // The one-tool report's proxy costs 8 tokens against 4 direct: a saving of −100%.
  const html = renderDashboard(oneToolBenchReport());
  assert.match(html, /a negative saving: the mode costs that much more than direct/);
});
