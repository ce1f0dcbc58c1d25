// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task forecast end to end on a synthetic run folder: the JSON figures against hand
// arithmetic, re-pricing under a price file, and exit 2 with one readable line on bad input.
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeSyntheticRun } from "../testing/synthetic_runs.ts";

async function forecast(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./forecast.ts", import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "forecast CLI: figures from a run folder, re-priced by a price file, exit 2 on bad input",
  sanitizeResources: false,
  async fn(t) {
    const root = await Deno.makeTempDir({ prefix: "mcpmeter-forecast-cli-" });
    try {
      // Two cases × two repetitions; case 0 costs $0.001, case 1 $0.003 (recorded, no prices
      // in run.json), 100 input and 20 output tokens, 1,000 ms each; case 1 calls fs:read.
      const dir = await writeSyntheticRun(root, {
        runId: "r",
        startedAt: "2025-01-01T00:00:00Z",
        cases: ["c0", "c1"],
        repetitions: 2,
        agents: [{
          id: "a",
          outcome: (c) => ({
            passed: true,
            costUsd: c === 0 ? 0.001 : 0.003,
            tools: c === 0 ? [] : ["fs:read"],
          }),
        }, { id: "b", outcome: () => ({ passed: true }) }],
      });
      await t.step("text output states the assumption and the interval", async () => {
        const r = await forecast(["--run", dir, "--questions", "1000", "--agent", "a"]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stdout,
          /suite \/ a: 1,000 questions like the suite's \(from 4 records: 2 cases/,
        );
        assert.match(r.stdout, /USD {5}total \$2\.00 \[/);
        assert.match(
          r.stdout,
          /estimated: \[95% interval.*seed 0, 2000 resamples\]; assumes future questions are like the suite's/,
        );
        assert.doesNotMatch(r.stdout, /suite \/ b:/);
        assert.doesNotMatch(r.stdout, /simulated/);
      });
      await t.step("a run whose model is simulated says so on the USD line", async () => {
        const sim = await writeSyntheticRun(join(root, "sim"), {
          runId: "s",
          startedAt: "2025-01-01T00:00:00Z",
          cases: ["c0"],
          repetitions: 1,
          agents: [{ id: "a", outcome: () => ({ passed: true, costUsd: 0.001 }) }],
          models: [{
            id: "m",
            simulated: true,
            pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
          }],
        });
        const r = await forecast(["--run", sim, "--questions", "10"]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stdout,
          /^ {2}USD {5}total .*\(simulated: a scripted model answered the run/m,
        );
      });
      await t.step("--json: mean cost × N, tokens × N, wall × N, seed recorded", async () => {
        const r = await forecast(["--run", dir, "--questions", "1000", "--json", "--seed", "9"]);
        assert.equal(r.code, 0, r.stderr);
        const doc = JSON.parse(r.stdout);
        assert.equal(doc.provenance, "estimated");
        assert.deepEqual(doc.forecasts.map((f: { agentId: string }) => f.agentId), ["a", "b"]);
        const a = doc.forecasts[0];
        assert.equal(a.seed, 9);
        // (0.001 + 0.001 + 0.003 + 0.003) / 4 = 0.002 per question → $2
        assert.equal(a.usd.total.total, 2);
        assert.equal(a.usd.agent.total, 2);
        assert.equal(a.usd.tool.total, 0);
        assert.ok(a.usd.total.lo >= 1 && a.usd.total.lo < 2 && a.usd.total.hi > 2);
        assert.equal(a.tokens.input.total, 100_000);
        assert.equal(a.wallMs.total, 1_000_000);
        // b: every record the same → a point interval
        const b = doc.forecasts[1];
        assert.equal(b.usd.total.lo, 1);
        assert.equal(b.usd.total.hi, 1);
      });
      await t.step("--price-file prices tool calls (and models the run named)", async () => {
        const prices = join(root, "prices.json");
        await Deno.writeTextFile(
          prices,
          JSON.stringify({
            models: [{ id: "m", pricing: { inputUsdPerMTok: 10, outputUsdPerMTok: 50 } }],
            toolPrices: { "fs:read": 0.5 },
          }),
        );
        const r = await forecast([
          "--run",
          dir,
          "--questions",
          "100",
          "--agent",
          "a",
          "--price-file",
          prices,
          "--json",
        ]);
        assert.equal(r.code, 0, r.stderr);
        const a = JSON.parse(r.stdout).forecasts[0];
        // agent: 100 × $10/M + 20 × $50/M = $0.002 per question → $0.20; tool: 2 of 4 records
        // call fs:read at $0.5 → $0.25 per question → $25
        assert.ok(Math.abs(a.usd.agent.total - 0.2) < 1e-9, String(a.usd.agent.total));
        assert.ok(Math.abs(a.usd.tool.total - 25) < 1e-9, String(a.usd.tool.total));
        assert.equal(a.prices.source, "override");
      });
      await t.step("bad input exits 2 with one line naming it", async () => {
        const badJson = join(root, "bad.json");
        await Deno.writeTextFile(badJson, "{ not json");
        const badShape = join(root, "shape.json");
        await Deno.writeTextFile(badShape, JSON.stringify({ models: [{ id: "m", pricing: {} }] }));
        // Prices for a model and a tool this run never used: it would re-price nothing.
        const other = join(root, "other.json");
        await Deno.writeTextFile(
          other,
          JSON.stringify({
            models: [{ id: "zz", pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 } }],
            toolPrices: { "x:y": 1 },
          }),
        );
        const torn = join(root, "torn");
        await Deno.mkdir(torn);
        await Deno.copyFile(join(dir, "run.json"), join(torn, "run.json"));
        await Deno.writeTextFile(join(torn, "cases.jsonl"), "{oops}\n");
        const cases: [string[], RegExp][] = [
          [["--questions", "5"], /--run DIR is required/],
          [["--run", dir], /--questions N is required/],
          [["--run", dir, "--questions", "0"], /--questions must be a positive integer, got "0"/],
          [
            ["--run", join(root, "nope"), "--questions", "5"],
            /Cannot use run ".*nope\/run.json": file not found/,
          ],
          [["--run", torn, "--questions", "5"], /cases.jsonl": line 1 is not JSON/],
          [["--run", dir, "--questions", "5", "--agent", "zz"], /agent "zz": run "r" has a, b/],
          [["--run", dir, "--questions", "5", "--price-file", badJson], /price file ".*bad.json"/],
          [
            ["--run", dir, "--questions", "5", "--price-file", badShape],
            /field "models\[0\].pricing.inputUsdPerMTok" is required/,
          ],
          [["--run", dir, "--questions", "5", "--bogus"], /unknown flag --bogus/],
          [
            ["--run", dir, "--questions", "5", "--price-file", other],
            /--price-file .*other\.json re-prices nothing in run "r": it prices models "zz" and 1 tool; the run uses models ".+" and tools "fs:read"$/m,
          ],
        ];
        for (const [args, message] of cases) {
          const r = await forecast(args);
          assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
          assert.match(r.stderr, message);
          assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
          assert.match(r.stderr, /^mcpmeter forecast: error: /);
        }
      });
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "forecast CLI: an agent whose every record is an infrastructure error is listed as not forecast (exit 2 when it is all there is); an unfinished run and some errors warn",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "mcpmeter-forecast-basis-" });
    try {
      // Agent "down" never reached its model (every case a model error, passed null); agent
      // "ok" answered case c0 and timed out on c1. The run stopped with 4 of 6 planned records.
      const dir = await writeSyntheticRun(root, {
        runId: "half",
        startedAt: "2025-01-01T00:00:00Z",
        cases: ["c0", "c1"],
        repetitions: 1,
        status: "running",
        agents: [
          { id: "down", outcome: () => ({ passed: null, error: "model", costUsd: 0 }) },
          {
            id: "ok",
            outcome: (c) =>
              c === 0
                ? { passed: true, costUsd: 0.002 }
                : { passed: null, error: "timeout", costUsd: 0.001 },
          },
        ],
      });
      const runJson = join(dir, "run.json");
      const doc = JSON.parse(await Deno.readTextFile(runJson));
      doc.plannedCases = 6;
      await Deno.writeTextFile(runJson, JSON.stringify(doc));

      // Every agent: "ok" is forecast, "down" is listed with why it is not; exit 0.
      const all = await forecast(["--run", dir, "--questions", "10"]);
      assert.equal(all.code, 0, all.stderr);
      assert.match(all.stdout, /^suite \/ ok: 10 questions like the suite's/m);
      assert.match(
        all.stdout,
        /^suite \/ down: not forecast: all 2 records are infrastructure errors \(model\), so nothing measured what answering costs$/m,
      );
      assert.doesNotMatch(all.stdout, /^suite \/ down: 10 questions/m);
      assert.match(
        all.stderr,
        /^mcpmeter forecast: warning: agent "down" is not forecast: all 2 records are infrastructure errors \(model\), so nothing measured what answering costs; fix the cause and rerun it$/m,
      );
      const json = await forecast(["--run", dir, "--questions", "10", "--json"]);
      assert.equal(json.code, 0, json.stderr);
      const jdoc = JSON.parse(json.stdout);
      assert.deepEqual(jdoc.forecasts.map((f: { agentId: string }) => f.agentId), ["ok"]);
      assert.deepEqual(jdoc.notForecast, [{
        agentId: "down",
        reason:
          "all 2 records are infrastructure errors (model), so nothing measured what answering costs",
      }]);

      // Only "down" asked for: nothing can be forecast, exit 2 with one line.
      const down = await forecast(["--run", dir, "--questions", "10", "--agent", "down"]);
      assert.equal(down.code, 2, down.stderr);
      assert.match(
        down.stderr,
        /^mcpmeter forecast: error: Cannot forecast run "half": agent "down": all 2 records are infrastructure errors \(model\), so nothing measured what answering costs; fix the cause and rerun, or pick another agent with --agent$/m,
      );
      assert.equal(down.stdout, "");

      const ok = await forecast(["--run", dir, "--questions", "10", "--agent", "ok", "--json"]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(
        ok.stderr,
        /warning: run "half" has status "running" \(4 of 6 planned case records\): the forecast rests on the cases it has; finish it with deno task agents --resume half/,
      );
      assert.match(
        ok.stderr,
        /warning: agent "ok": 1 of 2 records are infrastructure errors \(timeout\); they count at what they cost/,
      );
      // (0.002 + 0.001) / 2 per question × 10 = $0.015: the error still counts at its cost.
      const f = JSON.parse(ok.stdout).forecasts[0];
      assert.ok(Math.abs(f.usd.total.total - 0.015) < 1e-12, String(f.usd.total.total));
      // A run whose every agent has only infrastructure errors: exit 2, naming each.
      const dead = await writeSyntheticRun(join(root, "dead"), {
        runId: "dead",
        startedAt: "2025-01-01T00:00:00Z",
        cases: ["c0"],
        repetitions: 1,
        agents: [
          { id: "x", outcome: () => ({ passed: null, error: "model", costUsd: 0 }) },
          { id: "y", outcome: () => ({ passed: null, error: "timeout", costUsd: 0 }) },
        ],
      });
      const none = await forecast(["--run", dead, "--questions", "10"]);
      assert.equal(none.code, 2, none.stderr);
      assert.match(
        none.stderr,
        /^mcpmeter forecast: error: Cannot forecast any agent of run "dead": agent "x": its one record is an infrastructure error \(model\), so nothing measured what answering costs; agent "y": its one record is an infrastructure error \(timeout\), so nothing measured what answering costs; fix the cause and rerun$/m,
      );
      assert.equal(none.stderr.trim().split("\n").length, 1, none.stderr);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
