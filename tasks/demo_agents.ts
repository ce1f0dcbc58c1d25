// deno task demo-agents: produce example agent runs without an API key, for
// notebooks 05 and 06 and for trying `deno task report` / `deno task gate`.
//
// The agents, suites and MCP servers are the real fixtures (npm servers over
// stdio); only the model is replaced, by mcpmeter's scripted local server that
// speaks the Anthropic Messages and OpenAI Chat Completions wire formats and
// answers from the real tool output. Its answers and token counts are scripted,
// so pass rates show the pipeline, not any model's quality; token counts are
// counted from the real requests (see demoPolicy).
import { join } from "node:path";
import {
  type ReceivedRequest,
  type ScriptedReply,
  startScriptedModelServer,
} from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";
import { createTokenizer } from "../lib/tokens/mod.ts";
import { fromRoot, parseFlags, progress, runMain, UsageError } from "./_cli.ts";

const HELP = `mcpmeter demo-agents — example agent runs against a scripted local model

Usage: deno task demo-agents [--out DIR] [--repetitions N]

Runs the fixture agents (direct, proxy and code exposure) on the fs_basics and memory_graph
suites, twice each (two run ids per suite), against a local server that speaks the Anthropic
and OpenAI wire formats with scripted replies. No API key or network needed. Writes
DIR/runs/demo-<suite>-<n>/ (default DIR: results/demo).

  --out DIR         output folder (default: results/demo)
  --repetitions N   repetitions per case (default: 3)
`;

/** Fixture agents the demo runs: they differ in prompt, loop and exposure mode. */
export const DEMO_AGENTS = [
  "all-terse-parallel",
  "all-terse-sequential-gpt",
  "all-terse-proxy",
  "all-terse-code",
] as const;
/** Fixture suites the demo runs. */
export const DEMO_SUITES = ["fs_basics", "memory_graph"] as const;

const cl100k = createTokenizer("cl100k_base");

/**
 * The fixture policy's replies with usage replaced by counts of what was
 * really sent and returned: input tokens = cl100k_base tokens of the request's
 * system prompt, messages and tool definitions (as JSON); output tokens = those
 * of the reply's content. So the demo's token and cost figures move with the
 * exposure mode and the catalog, as a real model's would (within the tokenizer
 * caveat); no cache reads or writes are reported.
 *
 * @param req The request the scripted server received.
 * @returns The scripted reply with counted usage.
 */
export function demoPolicy(req: ReceivedRequest): ScriptedReply {
  const reply = fixturePolicy(req);
  const body = JSON.parse(reply.body);
  const { system, messages, tools } = req.body;
  const input = cl100k.count(JSON.stringify({ system, messages, tools }));
  if (req.provider === "anthropic") {
    const output = cl100k.count(JSON.stringify(body.content));
    body.usage = { input_tokens: input, output_tokens: output };
  } else {
    const output = cl100k.count(JSON.stringify(body.choices?.[0]?.message ?? ""));
    body.usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
  }
  return { ...reply, body: JSON.stringify(body) };
}

/**
 * Runs the demo and returns the run folders, reusing folders that already hold
 * a finished run (so notebooks can call it cheaply).
 *
 * @param outDir Output folder; runs land in `outDir/runs/`.
 * @param repetitions Repetitions per case.
 * @returns Absolute paths of the run folders.
 */
export async function demoRuns(
  outDir = fromRoot("results/demo"),
  repetitions = 3,
): Promise<string[]> {
  const runsDir = join(outDir, "runs");
  const wanted = DEMO_SUITES.flatMap((s) =>
    [1, 2].map((n) => ({ suite: s, runId: `demo-${s}-${n}` }))
  );
  const done = async (runId: string) => {
    try {
      const run = JSON.parse(await Deno.readTextFile(join(runsDir, runId, "run.json")));
      return run.status === "complete";
    } catch {
      return false;
    }
  };
  const todo = [];
  for (const w of wanted) if (!(await done(w.runId))) todo.push(w);
  if (todo.length > 0) {
    const server = startScriptedModelServer(demoPolicy);
    try {
      for (const { suite, runId } of todo) {
        progress(
          "demo-agents",
          `${runId}: ${DEMO_AGENTS.length} agents × ${repetitions} repetitions`,
        );
        const out = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            fromRoot("tasks/agents.ts"),
            "--suite",
            `fixtures/suites/${suite}.json`,
            "--agents",
            DEMO_AGENTS.join(","),
            "--tool-prices",
            "fixtures/agents/tool_prices.json",
            "--repetitions",
            String(repetitions),
            "--concurrency",
            "4",
            "--out",
            runsDir,
            "--run-id",
            runId,
            "--env-file",
            "/nonexistent.env",
          ],
          cwd: fromRoot("."),
          env: {
            ANTHROPIC_BASE_URL: server.url,
            ANTHROPIC_API_KEY: "demo-not-a-key",
            ANTHROPIC_MODEL: "scripted-demo",
            OPENAI_BASE_URL: server.openaiBaseUrl,
            OPENAI_API_KEY: "demo-not-a-key",
            OPENAI_MODEL: "scripted-demo",
            NO_COLOR: "1",
          },
          stdout: "piped",
          stderr: "piped",
        }).output();
        if (!out.success) {
          const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
          throw new Error(`demo run ${runId} failed: ${err}`);
        }
      }
    } finally {
      await server.close();
    }
  }
  return wanted.map((w) => join(runsDir, w.runId));
}

async function main(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    out: { type: "string" },
    repetitions: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const reps = Number(values.repetitions ?? 3);
  if (!Number.isInteger(reps) || reps < 1) {
    throw new UsageError(`--repetitions must be >= 1: "${values.repetitions}"`);
  }
  const dirs = await demoRuns(values.out ?? fromRoot("results/demo"), reps);
  console.log(`demo runs in:\n${dirs.join("\n")}`);
  return 0;
}

if (import.meta.main) await runMain("demo-agents", () => main(Deno.args));
