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
 * @module
 */
import { join } from "node:path";
import { startDemoModelServer } from "../agent/demo_policy.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { AGENTS_DEFAULTS, runAgents } from "./agents.ts";
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
 * Runs the demo (each suite twice: run ids `demo-<suite>-1` and `-2`) and returns the run
 * folders, reusing folders that already hold a finished run (so notebooks can call it cheaply).
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
  const wanted = DEMO_SUITES.flatMap((s) =>
    [1, 2].map((n) => ({ suite: s, runId: `demo-${s}-${n}` }))
  );
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
      for (const { suite, runId } of todo) {
        io.progress(
          "demo-agents",
          `${runId}: ${DEMO_AGENTS.length} agents × ${repetitions} repetitions`,
        );
        const result = await runAgents({
          suite: io.fromRoot(`fixtures/suites/${suite}.json`),
          agents: DEMO_AGENTS,
          agentsDir: io.fromRoot(AGENTS_DEFAULTS.agentsDir),
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
