// Permission cases of the agent, run and report tasks, run in this order after the catalog
// tasks (agents writes the runs that merge, sweep, report, gate and forecast read).
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  argv,
  assertRan,
  KEY,
  OUT,
  type PermissionCase,
  ROOT,
  serving,
  task,
} from "./_permissions_testing.ts";

const AGENT_NEEDS = {
  net: "model endpoints (any base URL) and remote MCP servers",
  run: "starts the stdio servers of a config (any command) and run_code's Deno",
  env: "${VAR} in model registries and servers configs names any variable",
};
const SCRIPTED = { env: { K: KEY } };
const AGENT_FLAGS = `--install-dir .scratch/servers --env-file ${OUT}/none.env`;

/** The agent, run and report tasks' cases. */
export const AGENT_CASES: Readonly<Record<string, PermissionCase>> = {
  serve: {
    unscoped: AGENT_NEEDS,
    run: async () => {
      const r = await serving(
        "serve",
        argv(`--port 0 --config ${OUT}/serve-config --results ${OUT}/serve`),
        /(http:\/\/127\.0\.0\.1:\d+)/,
        async ([, url]) => {
          const res = await fetch(`${url}/`);
          assert.equal(res.status, 200);
          await res.body?.cancel();
        },
      );
      assertRan("serve", r, [0, 130, 143]);
    },
  },
  "demo-agents": {
    unscoped: {
      run: "starts the fixture servers (node) and run_code's Deno",
      env:
        "the agent flow expands ${VAR} in model registries and servers configs from the environment",
    },
    run: async () =>
      assertRan(
        "demo-agents",
        await task("demo-agents", argv(`--out ${OUT}/demo --repetitions 1`)),
      ),
  },
  agents: {
    unscoped: AGENT_NEEDS,
    run: async ({ models }) => {
      for (const shard of ["1/2", "2/2"]) {
        const args = `--suite fixtures/suites/fs_basics.json --agents fs-terse-sequential
          --models ${models} ${AGENT_FLAGS} --shard ${shard} --out ${OUT}/runs
          --run-id shard-${shard[0]}`;
        assertRan("agents", await task("agents", argv(args), SCRIPTED));
      }
    },
  },
  merge: {
    run: async () => {
      const args = `--out ${OUT}/merged ${OUT}/runs/shard-1 ${OUT}/runs/shard-2`;
      assertRan("merge", await task("merge", argv(args)));
    },
  },
  sweep: {
    unscoped: { run: "runs deno task agents (Deno) for each configuration" },
    run: async ({ models }) => {
      const args = `--base fs-terse-sequential --vary loop=sequential,parallel
        --suite fixtures/suites/fs_basics.json --models ${models} ${AGENT_FLAGS}
        --out ${OUT}/runs --run-id sweep`;
      assertRan("sweep", await task("sweep", argv(args), SCRIPTED));
    },
  },
  chat: {
    unscoped: AGENT_NEEDS,
    run: async ({ models }) => {
      const args = `--agent fs-terse-sequential --models ${models} ${AGENT_FLAGS}`;
      const stdin = "How many lines does todo.txt have?\n/exit\n";
      assertRan("chat", await task("chat", argv(args), { stdin, ...SCRIPTED }));
    },
  },
  report: {
    unscoped: {
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
    run: async () => {
      const args = `--baseline ${OUT}/runs/shard-1 --candidate ${OUT}/merged
        --junit ${OUT}/gate.junit.xml`;
      assertRan("gate", await task("gate", argv(args)), [0, 1]);
    },
  },
  forecast: {
    run: async () => {
      const r = await task("forecast", argv(`--run ${OUT}/merged --questions 1000`));
      assertRan("forecast", r);
      assert.match(r.stdout, /1,000 questions like the suite's/);
    },
  },
  "import-maverik": {
    run: async () => {
      const r = await task(
        "import-maverik",
        argv(`--from fixtures/maverik/basic --out ${OUT}/maverik`),
      );
      assertRan("import-maverik", r);
      assert.match(r.stdout, /imported 2 agents/);
    },
  },
  calibrate: {
    unscoped: {
      net: "the judge model's endpoint (any base URL)",
      env: "${VAR} in a model registry names any variable",
    },
    run: async ({ models }) => {
      const args = `--suite fixtures/suites/memory_graph.json
        --labels fixtures/labels/memory_graph.labels.json --judge judge --models ${models}
        --env-file ${OUT}/none.env --out ${OUT}/calibration`;
      assertRan("calibrate", await task("calibrate", argv(args), SCRIPTED));
      const written = JSON.parse(
        await Deno.readTextFile(join(ROOT, OUT, "calibration", "memory-graph--judge.json")),
      );
      assert.equal(written.scored, 8);
    },
  },
};
