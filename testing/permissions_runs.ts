// Permission cases of the tasks that read runs, and of the judge's calibration and the MAVERIK
// import (tasks/permissions_test.ts runs them in this order, last): merge, report, gate and
// forecast read what the agents case wrote (testing/permissions_agents.ts).
import assert from "node:assert/strict";
import { join } from "node:path";
import * as P from "./permissions.ts";

const { argv, assertRan, KEY, OUT, READ_ANYWHERE, ROOT, task } = P;

const READ = { read: READ_ANYWHERE };

/** The cases of the tasks that read runs, calibrate and import-maverik. */
export const RUN_CASES: Readonly<Record<string, P.PermissionCase>> = {
  merge: {
    unscoped: READ,
    run: async () => {
      const args = `--out ${OUT}/merged ${OUT}/runs/shard-1 ${OUT}/runs/shard-2`;
      assertRan("merge", await task("merge", argv(args)));
    },
  },
  report: {
    unscoped: {
      read: READ_ANYWHERE,
      run: "headless Chromium for --pdf and --png",
      env: "puppeteer-core reads its configuration from the environment",
    },
    run: async () => {
      const page = `--runs ${OUT}/runs --out ${OUT}/compare/dashboard.html`;
      assertRan("report", await task("report", argv(page)));
      // The PDF path: finding and driving headless Chromium under the task's permissions.
      if (!await Deno.stat("/usr/bin/chromium").then(() => true, () => false)) {
        if (Deno.env.get("CI")) throw new Error("CI needs /usr/bin/chromium for report --pdf");
        console.warn("skipped report --pdf: /usr/bin/chromium is not installed");
        return;
      }
      const pdf = `--runs ${OUT}/runs --dashboard agent-comparison --out ${OUT}/report
        --pdf ${OUT}/report.pdf`;
      assertRan("report", await task("report", argv(pdf)));
      const bytes = await Deno.readFile(join(ROOT, OUT, "report.pdf"));
      assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
    },
  },
  gate: {
    unscoped: READ,
    run: async ({ elsewhere }) => {
      // The Markdown summary goes where CI asks ($GITHUB_STEP_SUMMARY lives outside the checkout).
      const args = `--baseline ${OUT}/runs/shard-1 --candidate ${OUT}/merged
        --junit ${OUT}/gate.junit.xml --markdown ${elsewhere}/summary.md`;
      assertRan("gate", await task("gate", argv(args)), [0, 1]);
      assert.match(await Deno.readTextFile(join(elsewhere, "summary.md")), /\S/);
    },
  },
  forecast: {
    unscoped: READ,
    run: async () => {
      const r = await task("forecast", argv(`--run ${OUT}/merged --questions 1000`));
      assertRan("forecast", r);
      assert.match(r.stdout, /1,000 questions like the suite's/);
    },
  },
  "import-maverik": {
    unscoped: READ,
    run: async ({ elsewhere }) => {
      const r = await task(
        "import-maverik",
        argv(`--from fixtures/maverik/basic --out ${elsewhere}/maverik`),
      );
      assertRan("import-maverik", r);
      assert.match(r.stdout, /imported 2 agents/);
    },
  },
  "calibrate-tokens": {
    unscoped: {
      read: READ_ANYWHERE,
      net: "the providers' count endpoints at any *_BASE_URL",
      env: "the providers' key and base-URL variables",
    },
    run: async ({ elsewhere }) => {
      // A local server speaking Anthropic's count_tokens: 50 tokens, plus 10 per tools byte/100.
      const server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {} },
        async (r) => {
          const body = await r.json();
          const extra = body.tools ? 300 + Math.round(JSON.stringify(body.tools).length / 3) : 0;
          return Response.json({ input_tokens: 50 + extra });
        },
      );
      try {
        const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
        // The corpus read from, and the calibration written to, a folder under the home folder.
        await Deno.copyFile(
          join(ROOT, "fixtures/corpora/reference_v1.tools.json"),
          `${elsewhere}/c.json`,
        );
        const args =
          `--provider anthropic --model claude-test --sample 6 --corpus ${elsewhere}/c.json
          --out ${elsewhere}/tokcal.json`;
        const r = await task("calibrate-tokens", argv(args), {
          env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: base },
        });
        assertRan("calibrate-tokens", r);
        const written = JSON.parse(await Deno.readTextFile(join(elsewhere, "tokcal.json")));
        assert.equal(written.entries[0].models, "^claude-test$");
      } finally {
        await server.shutdown();
      }
    },
  },
  calibrate: {
    unscoped: {
      read: READ_ANYWHERE,
      net: "the judge model's endpoint (any base URL)",
      env: "${VAR} in a model registry names any variable",
    },
    run: async ({ models }) => {
      const args = `--suite fixtures/suites/memory_graph.json
        --labels fixtures/labels/memory_graph.labels.json --judge judge --models ${models}
        --env-file ${OUT}/none.env --out ${OUT}/calibration`;
      assertRan("calibrate", await task("calibrate", argv(args), { env: { K: KEY } }));
      const written = JSON.parse(
        await Deno.readTextFile(join(ROOT, OUT, "calibration", "memory-graph--judge.json")),
      );
      assert.equal(written.scored, 8);
    },
  },
};
