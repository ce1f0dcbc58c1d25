/**
 * The demo runs: example agent runs without an API key, for notebooks 05 and 06, the workbench
 * and trying `deno task report` / `deno task gate`.
 *
 * The agents, suites and MCP servers are the real fixtures (npm servers over stdio); only the
 * model is replaced, by mcpmeter's scripted local server that speaks the Anthropic Messages and
 * OpenAI Chat Completions wire formats and answers from the real tool output. Its answers are
 * scripted, so pass rates show the pipeline, not any model's quality; token counts are counted
 * from the real requests (`createDemoPolicy`).
 *
 * One more run is a sweep over a lever ({@linkcode DEMO_SWEEP}): the same agent offered every
 * tool of its three servers, or only the four filesystem tools the fs_basics suite needs (a
 * `tools` allow-list), so notebook 06 and the comparison dashboard show what the lever moves.
 *
 * @module
 */
import { join } from "node:path";
import { startDemoModelServer } from "../agent/demo_policy.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { AGENTS_DEFAULTS, runAgents } from "./agents.ts";
import { prepareSweep } from "./sweep.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";

/** Fixture agents the demo runs: they differ in prompt, loop and exposure mode. */
export const DEMO_AGENTS = [
  "all-terse-parallel",
  "all-terse-sequential-gpt",
  "all-terse-proxy",
  "all-terse-code",
] as const;
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
  base: "all-terse-parallel",
  vary: "tools=all,fs:list_*+fs:read_text_file",
} as const;

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
  if (todo.length > 0) {
    const server = startDemoModelServer(options.tokenizer ?? createTokenizer("cl100k_base"));
    const env = {
      ...io.env(),
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "demo-not-a-key",
      ANTHROPIC_MODEL: "scripted-demo",
      OPENAI_BASE_URL: server.openaiBaseUrl,
      OPENAI_API_KEY: "demo-not-a-key",
      OPENAI_MODEL: "scripted-demo",
    };
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
            agentsDir: io.fromRoot(AGENTS_DEFAULTS.agentsDir),
            out: runsDir,
            runId,
          }, io)).sweepDir
          : io.fromRoot(AGENTS_DEFAULTS.agentsDir);
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
          models: io.fromRoot(AGENTS_DEFAULTS.models),
          servers: io.fromRoot(AGENTS_DEFAULTS.servers),
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
