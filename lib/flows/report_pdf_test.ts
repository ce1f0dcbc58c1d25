// test:quick skips this file: its tests start processes (deno task test runs them).
// PDF export in real Chromium (Debian chromium through puppeteer-core): runReport with a
// dashboard and `pdf` writes a PDF that pdfinfo opens, with one page per section for a fixture
// dashboard whose sections each fit a page, and no chart cut across pages (each chart's title
// and its footer line are on the same page, read back with pdftotext). Skipped with a reason
// when chromium or poppler-utils is missing; a failure when CI is set. The CLI's Chromium-missing
// line and exit code are tested in tasks/report_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeSyntheticRun } from "../../testing/synthetic_runs.ts";
import { findChromium } from "../report/io.ts";
import { runReport } from "./report.ts";

const dec = new TextDecoder();
const has = (bin: string) => {
  try {
    return new Deno.Command(bin, { args: ["-v"], stdout: "null", stderr: "null" }).outputSync()
      .code !== 127;
  } catch {
    return false;
  }
};
const missing = [
  ...(findChromium() === null ? ["chromium"] : []),
  ...(has("pdfinfo") && has("pdftotext") ? [] : ["pdfinfo/pdftotext (poppler-utils)"]),
];
if (missing.length > 0) {
  if (Deno.env.get("CI")) {
    throw new Error(
      `CI: ${missing.join(", ")} missing (apt-get install -y chromium poppler-utils)`,
    );
  }
  console.error(`report_pdf_test: skipped, ${missing.join(" and ")} not installed`);
}

async function run(cmd: string, args: string[]) {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function pages(pdf: string): Promise<string[]> {
  const info = await run("pdfinfo", [pdf]);
  assert.equal(info.code, 0, info.stderr);
  const n = Number(/Pages:\s+(\d+)/.exec(info.stdout)![1]);
  assert.match(info.stdout, /Page size:\s+59[45]\.\d* x 841\.\d* pts \(A4\)/);
  const out: string[] = [];
  for (let p = 1; p <= n; p++) {
    out.push((await run("pdftotext", ["-f", String(p), "-l", String(p), pdf, "-"])).stdout);
  }
  return out;
}

async function fixture(dir: string) {
  const runs = join(dir, "runs");
  for (
    const [runId, startedAt] of [["r1", "2025-03-01T10:00:00Z"], ["r2", "2025-03-08T10:00:00Z"]]
  ) {
    await writeSyntheticRun(runs, {
      runId,
      startedAt,
      cases: ["c1", "c2", "c3", "c4"],
      repetitions: 2,
      agents: [
        {
          id: "alpha",
          outcome: (c, r) => ({
            passed: (c + r) % 3 !== 0,
            costUsd: 0.002 + c / 1000,
            tools: ["fs:read"],
          }),
        },
        { id: "beta", outcome: (c) => ({ passed: c !== 2, costUsd: 0.001, wallMs: 1500 }) },
      ],
    });
  }
  const dashboards = join(dir, "dashboards");
  await Deno.mkdir(dashboards);
  // Three sections, each small enough for one page: three pages.
  await Deno.writeTextFile(
    join(dashboards, "pdf-three.json"),
    JSON.stringify({
      id: "pdf-three",
      title: "Three sections",
      sections: [
        {
          title: "One",
          visualizations: [{ ref: "agent-average-correctness" }, { ref: "agent-average-duration" }],
        },
        { title: "Two", visualizations: [{ ref: "metrics-by-agent" }] },
        { title: "Three", visualizations: [{ ref: "cost-vs-correctness" }] },
      ],
    }),
  );
  // One long section of nine 300 px trend charts: it must flow over pages without a cut.
  const refs = [
    "correctness",
    "duration",
    "input-tokens",
    "output-tokens",
    "tool-calls",
    "context-window",
    "token-cost",
    "tool-cost",
    "overall-cost",
  ];
  await Deno.writeTextFile(
    join(dashboards, "pdf-long.json"),
    JSON.stringify({
      id: "pdf-long",
      title: "Long section",
      sections: [{
        title: "Trends",
        visualizations: refs.map((r, i) => ({
          ref: `runs-over-time-${r}`,
          title: `Figure ${String.fromCharCode(65 + i)}`,
        })),
      }],
    }),
  );
  return { runs, dashboards, refs };
}

Deno.test({
  name:
    "runReport({pdf}): pdfinfo opens an A4 file, one page per section of the fixture dashboard, no chart split across pages",
  ignore: missing.length > 0,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-pdf-" });
    try {
      const { runs, dashboards, refs } = await fixture(dir);
      const report = (dashboard: string, pdf: string) =>
        runReport(
          {
            runs: [runs],
            filter: {},
            dashboard,
            dashboardsDir: dashboards,
            out: join(dir, dashboard),
            pdf,
          },
          { progress: () => {} },
        );
      const three = join(dir, "three.pdf");
      assert.ok((await report("pdf-three", three)).written.includes(three));
      const p3 = await pages(three);
      assert.equal(p3.length, 3, "one page per section");
      assert.match(p3[0], /One/);
      assert.match(p3[1], /Metrics by agent/);
      assert.match(p3[2], /Cost against correctness/);

      const long = join(dir, "long.pdf");
      assert.ok((await report("pdf-long", long)).written.includes(long));
      const pl = await pages(long);
      assert.ok(
        pl.length >= 3,
        `nine 300 px charts need three A4 pages at least, got ${pl.length}`,
      );
      refs.forEach((r, i) => {
        const title = `Figure ${String.fromCharCode(65 + i)}`;
        const top = pl.findIndex((t) => t.includes(title));
        const foot = pl.findIndex((t) => t.includes(`runs-over-time-${r}`));
        assert.ok(top >= 0 && foot >= 0, `${title} printed`);
        assert.equal(foot, top, `${title} starts on page ${top + 1} and ends on page ${foot + 1}`);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
