/**
 * The demo runs: example agent runs without an API key, for notebooks 05 and 06, the workbench
 * and trying `deno task report` / `deno task gate`.
 *
 * The suites and MCP servers are the real fixtures (npm servers over stdio); only the model is
 * replaced, by mcpmeter's scripted local server that speaks the Anthropic Messages and OpenAI
 * Chat Completions wire formats and answers from the real tool output (`lib/agent/demo_policy.ts`;
 * token counts are counted from the real requests). Its models are marked `simulated`: their USD
 * figures are what the pricing would charge, and pages and reports say so.
 *
 * The demo's agents ({@linkcode DEMO_AGENTS}) are configured so they differ the way real agents
 * do, each through a real mechanism: the same agent on a cheaper model; behind the discovery
 * proxy; with a temperature (some repetitions answer without checking: flaky cases); with an
 * iteration budget too small for a read (iteration limits); told not to use tools (a low pass
 * rate, cheap); and one whose only server cannot start (infrastructure errors). They are written
 * to `<out>/config/` (agents and the model registry) on every call.
 *
 * One more run is a sweep over a lever ({@linkcode DEMO_SWEEP}): the same agent offered every
 * tool of its three servers, or only the four filesystem tools the fs_basics suite needs (a
 * `tools` allow-list), so notebook 06 and the comparison dashboard show what the lever moves.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { SCRIPTED_MODELS, scriptedEnv, startDemoModelServer } from "../agent/demo_policy.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { AGENTS_DEFAULTS, runAgents } from "./agents.ts";
import { prepareSweep } from "./sweep.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import { agentRows, type LoadedRun } from "../report/mod.ts";
import { loadRun } from "../report/io.ts";
import { counted } from "../core/text.ts";

const TERSE = "You answer questions using the available tools. Be terse: reply with the answer " +
  "only, no explanation.";

/** One demo agent: how it differs, and its configuration (`agent.schema.json`). */
const agent = (id: string, description: string, fields: Record<string, unknown>) => ({
  id,
  description,
  model: "scripted",
  systemPrompt: TERSE,
  mcpServers: ["fs", "memory", "everything"],
  exposure: "direct",
  loop: "parallel",
  maxIterations: 8,
  temperature: 0,
  maxOutputTokens: 512,
  ...fields,
});

/** The demo's agents, each differing from `baseline` in one way. */
export const DEMO_AGENT_CONFIGS: readonly Record<string, unknown>[] = [
  agent("baseline", "All three servers, terse prompt, every tool offered directly.", {}),
  agent(
    "cheaper-model",
    "The baseline on a model priced like GPT-4.1 mini: the same answers for a fraction of the cost.",
    { model: "scripted-openai", loop: "sequential" },
  ),
  agent(
    "via-proxy",
    "The baseline behind the reference discovery proxy: it finds tools with retrieve_tools, so each request carries three tools, not the catalog, and takes more turns.",
    { exposure: "proxy" },
  ),
  agent(
    "warm",
    "The baseline at temperature 1: now and then it answers without checking (flaky cases).",
    { temperature: 1 },
  ),
  agent(
    "tight-budget",
    "The baseline allowed two model turns: a file read needs three (iteration limits).",
    { maxIterations: 2 },
  ),
  agent(
    "no-tools",
    "Told to answer from what it knows: cheap, and almost always wrong.",
    {
      model: "scripted-openai",
      systemPrompt: "Answer from what you know. Do not use tools. Be terse.",
    },
  ),
  agent(
    "broken-server",
    "Its only server cannot start (a command that does not exist): every case is an infrastructure error.",
    { mcpServers: ["missing"] },
  ),
];

/** Ids of the demo's agents, in the order they run. */
export const DEMO_AGENTS: readonly string[] = DEMO_AGENT_CONFIGS.map((a) => String(a.id));
/** Fixture suites the demo runs. */
export const DEMO_SUITES = ["fs_basics", "memory_graph"] as const;

/**
 * The demo's lever sweep: `base` on `suite` with the `tools` allow-list varied (`all`: the 3
 * servers' every tool; `fs:list_*+fs:read_text_file`: the filesystem tools the suite's cases
 * call), run id `runId`.
 */
export const DEMO_SWEEP = {
  runId: "demo-fs_basics-sweep-tools",
  suite: "fs_basics",
  base: "baseline",
  vary: "tools=all,fs:list_*+fs:read_text_file",
} as const;

/**
 * Writes the demo's agents, model registry (the scripted models, and `judge` for the suites'
 * `llm_judge` cases: the scripted model priced like Claude Haiku 4.5) and servers (the fixture
 * servers plus `missing`, which cannot start) into `dir`.
 */
async function writeDemoConfig(dir: string, fixtureServers: string): Promise<void> {
  const agentsDir = join(dir, "agents");
  await Deno.mkdir(agentsDir, { recursive: true });
  for (const a of DEMO_AGENT_CONFIGS) {
    await Deno.writeTextFile(join(agentsDir, `${a.id}.json`), JSON.stringify(a, null, 2) + "\n");
  }
  const judge = {
    ...SCRIPTED_MODELS[0],
    id: "judge",
    pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 5 },
  };
  await Deno.writeTextFile(
    join(dir, "models.json"),
    JSON.stringify({ models: [...SCRIPTED_MODELS, judge] }, null, 2) + "\n",
  );
  const servers = JSON.parse(await Deno.readTextFile(fixtureServers));
  servers.mcpServers.missing = {
    command: "mcpmeter-demo-no-such-server",
    notes: "The demo's broken server: no such command, so its agent's cases are errors.",
  };
  await Deno.writeTextFile(join(dir, "servers.json"), JSON.stringify(servers, null, 2) + "\n");
}

/** Options of {@linkcode demoRuns}. */
export interface DemoRunsOptions {
  /** Output folder; runs land in `outDir/runs/`. Default `results/demo` under the root. */
  readonly outDir?: string;
  /** Repetitions per case. Default 3. */
  readonly repetitions?: number;
  /** Tokenizer the scripted model counts usage with. Default `cl100k_base`. */
  readonly tokenizer?: Tokenizer;
  /** Delete the demo's run folders first and run them all again. @default {false} */
  readonly fresh?: boolean;
}

async function finished(runDir: string): Promise<boolean> {
  try {
    return JSON.parse(await Deno.readTextFile(join(runDir, "run.json"))).status === "complete";
  } catch {
    return false;
  }
}

/**
 * Runs the demo (each suite twice: run ids `demo-<suite>-1` and `-2`; then the lever sweep
 * {@linkcode DEMO_SWEEP}) and returns the run folders, the sweep's last, reusing folders that
 * already hold a finished run (so notebooks can call it cheaply).
 *
 * @param options Output folder, repetitions, tokenizer.
 * @param io Repository root (fixtures), clocks, environment, git, progress (task
 *   `demo-agents`). @default {denoFlowIo()}
 * @returns Absolute paths of the run folders.
 * @throws {Error} When a run cannot be set up (the scripted model always answers).
 */
export async function demoRuns(
  options: DemoRunsOptions = {},
  io: FlowIo = denoFlowIo(),
): Promise<string[]> {
  const outDir = options.outDir ?? io.fromRoot("results/demo");
  const repetitions = options.repetitions ?? 3;
  const runsDir = join(outDir, "runs");
  const wanted: { suite: string; runId: string; sweep?: true }[] = [
    ...DEMO_SUITES.flatMap((s) => [1, 2].map((n) => ({ suite: s, runId: `demo-${s}-${n}` }))),
    { suite: DEMO_SWEEP.suite, runId: DEMO_SWEEP.runId, sweep: true },
  ];
  const todo = [];
  for (const w of wanted) {
    if (options.fresh) {
      await Deno.remove(join(runsDir, w.runId), { recursive: true }).catch(() => {});
    }
    if (!(await finished(join(runsDir, w.runId)))) todo.push(w);
  }
  const reused = wanted.length - todo.length;
  if (reused > 0) {
    // Say so: a finished demo run is kept, whatever repetitions were asked for now.
    io.progress(
      "demo-agents",
      `reusing ${reused} finished demo run(s) in ${io.displayPath(runsDir)} (--fresh reruns them)`,
    );
  }
  const configDir = join(outDir, "config");
  await writeDemoConfig(configDir, io.fromRoot(AGENTS_DEFAULTS.servers));
  if (todo.length > 0) {
    const server = startDemoModelServer(options.tokenizer ?? createTokenizer("cl100k_base"));
    const env = { ...io.env(), ...scriptedEnv(server) };
    try {
      for (const { suite, runId, sweep } of todo) {
        // An unfinished folder (a crash mid-run) starts over: the demo is cheap and reproducible.
        await Deno.remove(join(runsDir, runId), { recursive: true }).catch(() => {});
        // The sweep's agents and sweep.json, written as `deno task sweep` writes them.
        const agentsDir = sweep
          ? (await prepareSweep({
            base: DEMO_SWEEP.base,
            vary: [DEMO_SWEEP.vary],
            suite: io.fromRoot(`fixtures/suites/${suite}.json`),
            agentsDir: join(configDir, "agents"),
            out: runsDir,
            runId,
          }, io)).sweepDir
          : join(configDir, "agents");
        io.progress(
          "demo-agents",
          sweep
            ? `${runId}: ${DEMO_SWEEP.base} with ${DEMO_SWEEP.vary} × ${repetitions} repetitions`
            : `${runId}: ${DEMO_AGENTS.length} agents × ${repetitions} repetitions`,
        );
        const result = await runAgents({
          suite: io.fromRoot(`fixtures/suites/${suite}.json`),
          ...(sweep ? {} : { agents: DEMO_AGENTS }),
          agentsDir,
          models: join(configDir, "models.json"),
          servers: join(configDir, "servers.json"),
          toolPrices: io.fromRoot("fixtures/agents/tool_prices.json"),
          repetitions,
          concurrency: 4,
          out: runsDir,
          runId,
          resume: false,
          cache: "off",
          cacheDir: io.fromRoot(AGENTS_DEFAULTS.cacheDir),
          timeoutMs: AGENTS_DEFAULTS.timeoutMs,
          installDir: io.fromRoot(AGENTS_DEFAULTS.installDir),
          data: io.fromRoot(AGENTS_DEFAULTS.data),
          env,
          seed: 0,
          task: "demo-agents",
        }, io);
        if (result.status === "no-model") {
          throw new Error(`demo run ${runId} failed: ${result.message.split("\n")[0]}`);
        }
      }
    } finally {
      await server.close();
    }
  }
  return wanted.map((w) => join(runsDir, w.runId));
}

/** Where the demo's runs can be looked at next, for {@linkcode demoSummaryLines}. */
export interface DemoNext {
  /** The runs folder as the user would type it, e.g. `results/demo/runs`. */
  readonly runsDir: string;
  /**
   * The `deno task serve` command whose workbench lists these runs (it lists
   * `RESULTS/demo/runs`), or `null` when the runs are elsewhere.
   */
  readonly serve: string | null;
  /** The workbench's address, e.g. `http://127.0.0.1:5088`. */
  readonly url: string;
}

/**
 * The closing lines of `deno task demo-agents`: per suite, each agent's pass rate in its latest
 * run (passed ÷ scored; an agent with no scored case has none, and says why), marked simulated;
 * then where to look next. The sweep's runs are left to the workbench and the dashboard.
 *
 * @param runs The demo's loaded runs.
 * @param next Runs folder, serve command and address.
 * @returns Lines without newlines.
 */
export function demoSummaryLines(runs: readonly LoadedRun[], next: DemoNext): string[] {
  const rows = agentRows(runs.filter((r) => r.sweep === null));
  const width = Math.max(0, ...rows.map((r) => r.agentId.length));
  const lines = [
    "Pass rates of the demo's agents, latest run per suite (simulated: a scripted model answered;",
    "the figures show what mcpmeter measures, not how any real model does):",
  ];
  for (const suiteId of [...new Set(rows.map((r) => r.suiteId))].sort()) {
    const mine = rows.filter((r) => r.suiteId === suiteId);
    lines.push(`  ${suiteId} (${[...new Set(mine.map((r) => r.runId))].sort().join(", ")})`);
    for (const r of mine) {
      const errors = r.records - r.scored;
      const rate = r.passRate === null
        ? `${"–".padStart(6)}  no scored case (${counted(errors, "infrastructure error")})`
        : `${(r.passRate * 100).toFixed(1).padStart(5)}%  ${r.passed} of ${r.scored} passed${
          errors > 0 ? ` (${counted(errors, "infrastructure error")} not scored)` : ""
        }`;
      lines.push(`    ${r.agentId.padEnd(width)}  ${rate}`);
    }
  }
  const glob = `'${next.runsDir}/*'`;
  lines.push(
    "Next:",
    next.serve === null
      ? `  the workbench lists RESULTS/demo/runs only (deno task serve --results RESULTS); these are in ${next.runsDir}`
      : `  ${next.serve}, then open ${next.url}/runs (the demo's runs are labelled demo)`,
    `  deno task report --runs ${glob}   (the comparison dashboard, results/compare/dashboard.html)`,
  );
  return lines;
}

/**
 * Loads the demo's runs and writes {@linkcode demoSummaryLines} for them.
 *
 * @param dirs The run folders {@linkcode demoRuns} returned.
 * @param outDir The demo's output folder (`--out`).
 * @param url The workbench's default address.
 * @param io Repository root and path display.
 * @returns Lines without newlines.
 */
export async function demoSummary(
  dirs: readonly string[],
  outDir: string,
  url: string,
  io: FlowIo = denoFlowIo(),
): Promise<string[]> {
  const runs = await Promise.all(dirs.map((d) => loadRun(d)));
  // The workbench lists RESULTS/demo/runs beside RESULTS/runs.
  const results = dirname(resolve(outDir));
  const serve = basename(resolve(outDir)) !== "demo"
    ? null
    : results === resolve(io.fromRoot("results"))
    ? "deno task serve"
    : `deno task serve --results ${io.displayPath(results)}`;
  return demoSummaryLines(runs, { runsDir: io.displayPath(join(outDir, "runs")), serve, url });
}
