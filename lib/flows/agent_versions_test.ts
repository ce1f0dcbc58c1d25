// Agent versions through the flows: cut version 1 and 2 of an agent (agentVersionsCommand()),
// run a@1, a@2 and the live configuration against mcpmeter's scripted local model (Anthropic
// wire format) with runAgents(), then runReport({ compare }): the KPI deltas, p-values and
// "underpowered" flags are the values computed by hand below.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  messageReply,
  type ReceivedRequest,
  startScriptedModelServer,
  writeScriptedRegistry,
} from "../agent/_scripted_model_server.ts";
import { newcombeInterval } from "../stats/newcombe.ts";
import { runAgentsForTest } from "../../testing/agents.ts";
import { agentVersionsCommand } from "./agents.ts";
import { denoFlowIo } from "./io.ts";
import { runReport } from "./report.ts";

const quiet = { ...denoFlowIo(), progress: () => {} };

// v1 answers case c1 right only, with 1000 input / 100 output tokens per turn; v2 answers c1
// and c2 right with 600 / 50. Pricing: $3 / $15 per million input / output tokens.
function policy(req: ReceivedRequest) {
  const text = JSON.stringify(req.body);
  const v2 = text.includes("PROMPT-V2");
  const q = /question (c\d)/.exec(text)?.[1];
  const right = v2 ? q === "c1" || q === "c2" : q === "c1";
  return messageReply("anthropic", {
    text: right ? "yes" : "no",
    usage: v2 ? { input: 600, output: 50 } : { input: 1000, output: 100 },
  });
}

Deno.test("agent versions: cut v1 and v2, run a@1, a@2 and live with the scripted model; runReport({ compare }) shows the hand-computed deltas", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-versions-" });
  const server = startScriptedModelServer(policy);
  try {
    const agents = join(dir, "agents");
    await Deno.mkdir(join(agents, "prompts"), { recursive: true });
    await Deno.writeTextFile(join(agents, "prompts", "p.md"), "PROMPT-V1: answer yes or no.");
    await Deno.writeTextFile(
      join(agents, "a.json"),
      JSON.stringify({
        id: "a",
        description: "versioned agent",
        model: "m",
        systemPromptFile: "prompts/p.md",
        mcpServers: [],
        maxIterations: 4,
      }),
    );
    const models = await writeScriptedRegistry(join(dir, "models.json"), [{
      id: "m",
      provider: "anthropic",
      baseUrl: server.url,
      keyVar: "SCRIPTED_KEY",
      pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
    }]);
    const servers = join(dir, "servers.json");
    await Deno.writeTextFile(servers, JSON.stringify({ mcpServers: {} }));
    const suite = join(dir, "suite.json");
    await Deno.writeTextFile(
      suite,
      JSON.stringify({
        id: "s",
        description: "three yes/no cases",
        cases: ["c1", "c2", "c3"].map((id) => ({
          id,
          question: `question ${id}`,
          criterion: { type: "contains", values: ["yes"] },
        })),
      }),
    );

    const cut = () => agentVersionsCommand({ agentsDir: agents, cut: "a" }, quiet);
    const cut1 = await cut();
    assert.deepEqual(cut1.stdout, ["1"]);
    const v1 = JSON.parse(await Deno.readTextFile(join(agents, "versions", "a", "1.json")));
    assert.equal(v1.config.systemPrompt, "PROMPT-V1: answer yes or no."); // prompt inlined
    // Cutting an unchanged configuration writes nothing.
    const again = await cut();
    assert.deepEqual(again.stdout, ["1"]);
    assert.match(again.stderr.join("\n"), /unchanged since version 1/);
    await Deno.writeTextFile(join(agents, "prompts", "p.md"), "PROMPT-V2: answer yes or no.");
    assert.deepEqual((await cut()).stdout, ["2"]);

    const runs = join(dir, "runs");
    const common = {
      suite,
      agentsDir: agents,
      models,
      servers,
      repetitions: 2,
      out: runs,
      env: { SCRIPTED_KEY: "not-a-key" },
    };
    for (const [sel, runId] of [["a@1", "r1"], ["a@2", "r2"], ["a", "r3"]]) {
      const r = await runAgentsForTest({ ...common, agents: [sel], runId });
      assert.equal(r.code, 0, r.stderr);
    }
    // A version that does not exist is refused with the versions known.
    await assert.rejects(
      runAgentsForTest({ ...common, agents: ["a@7"], runId: "r9" }),
      /has no version 7 .*versions: 1, 2/,
    );

    const run1 = JSON.parse(await Deno.readTextFile(join(runs, "r1", "run.json")));
    const run3 = JSON.parse(await Deno.readTextFile(join(runs, "r3", "run.json")));
    assert.deepEqual(run1.agentVersions["a@1"], {
      agentId: "a",
      version: 1,
      snapshotSha256: v1.sha256,
      equalsVersion: null,
    });
    const v2 = JSON.parse(await Deno.readTextFile(join(agents, "versions", "a", "2.json")));
    // The live configuration now is version 2, and its run says so.
    assert.deepEqual(run3.agentVersions.a, {
      agentId: "a",
      version: null,
      snapshotSha256: v2.sha256,
      equalsVersion: 2,
    });
    const cases1 = (await Deno.readTextFile(join(runs, "r1", "cases.jsonl"))).trim().split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(cases1.length, 6);
    assert.ok(cases1.every((c) => c.agentId === "a@1"));

    const out = join(dir, "cmp");
    const cmp = await runReport({ runs: [runs], filter: {}, compare: "a", out }, quiet);
    // By hand. Pass rate: v1 2/6, v2 4/6 → +33.3 pt (+100%). Cost per case: v1 1000×3e-6 +
    // 100×15e-6 = 0.0045, v2 600×3e-6 + 50×15e-6 = 0.00255 → −0.00195 (−43.3%). Input tokens
    // 1000 → 600 (−40%). Tool calls 0 → 0 (neutral). n = 3 cases: the smallest two-sided p is
    // 2^(1−3) = 0.25 ≥ 0.05, so every KPI is underpowered. Pass-rate p: per-case rates
    // [1,0,0] → [1,1,0], d = [0,1,0]: every sign vector has |T| = 1, p = 1. Cost p: d is the
    // same −0.00195 for each case; only the two all-same-sign vectors reach |T|, p = 2/8.
    const lines = cmp.stdout.join("\n").split("\n");
    const line = (label: string, after: string) =>
      lines.slice(lines.findIndex((l) => l.startsWith(after))).find((l) =>
        l.trim().startsWith(label)
      )!;
    assert.match(
      line("Pass rate", "v2 vs v1"),
      /33\.3% → +66\.7% +\+33\.3 pt \(\+100\.0%\) +better +p = 1\.0/,
    );
    assert.match(line("Pass rate", "v2 vs v1"), /underpowered at this n \(3 cases\)/);
    assert.match(
      line("USD per case", "v2 vs v1"),
      /\$0\.004500 → +\$0\.002550 +−\$0\.001950 \(−43\.3%\) +better +p = 0\.25/,
    );
    assert.match(
      line("Input tokens per case", "v2 vs v1"),
      /1,000 → +600 +−400 \(−40\.0%\) +better/,
    );
    assert.match(line("Tool calls per case", "v2 vs v1"), /0\.00 → +0\.00 +±0\.00 +neutral/);
    assert.match(lines.join("\n"), /regressed cases: none|no case regressed/);

    const csv = (await Deno.readTextFile(join(out, "compare.csv"))).trim().split("\n");
    const head = csv[0].split(",");
    const rows = csv.slice(1).map((l) =>
      Object.fromEntries(l.split(",").map((v, i) => [head[i], v]))
    );
    assert.deepEqual(rows.map((r) => [r.version, r.is_baseline, r.source_run_id]), [
      ["v1", "true", "r1"],
      ["v2", "false", "r2"],
      ["live = v2", "false", "r3"],
    ]);
    assert.equal(Number(rows[0].pass_rate), 2 / 6);
    assert.equal(Number(rows[1].overall_cost_usd), 0.00255);
    assert.equal(Number(rows[0].input_tokens), 1000);
    const page = await Deno.readTextFile(join(out, "index.html"));
    assert.match(page, /Compare versions: a on s/);
    // Tokens are scripted: identical every repetition; the interval of the pass-rate delta is the
    // Newcombe interval of 4/6 against 2/6.
    assert.match(page, /identical every repetition/);
    const nw = newcombeInterval(4, 6, 2, 6);
    assert.ok(
      page.includes(
        `95% [${nw.lo >= 0 ? "+" : "−"}${Math.abs(nw.lo * 100).toFixed(1)}, +${
          (nw.hi * 100).toFixed(1)
        }] pt`,
      ),
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
