// deno task sweep: expands a base agent into the cross product of varied parameters, writes the
// generated agent files into the run folder (lib/flows/sweep.ts), and runs them through deno task
// agents (same options: repetitions, concurrency, shards, resume, cache). The run folder gets
// sweep.json.
import {
  fromRoot,
  helpText,
  IO,
  parseFlags,
  progress,
  runMain,
  taskRunArgs,
  UsageError,
} from "./_cli.ts";
import { prepareSweep, removeUnstartedSweep } from "../lib/flows/mod.ts";
import { workingConfig } from "./_config.ts";

const HELP = helpText({
  usage: "sweep --base AGENT --vary NAME=V1,V2 [--vary ...] --suite FILE [options]",
  purpose: "Run every combination of varied agent parameters (model, exposure, levers) on a suite.",
  about:
    `Runs the cross product of agent configurations that differ from the base agent in the varied
parameters, through deno task agents. Agents are named <base>__<name>-<value>__...; the
comparison dashboard (deno task report) groups results by the varied parameters.`,
  options: `  --base AGENT        id of the base agent (in --agents-dir)
  --vary NAME=V,...   model | exposure | loop | systemPrompt | maxIterations | temperature |
                      maxOutputTokens | mcpServers (servers joined by +) | overrides;
                      systemPrompt values ending in .md or .txt are prompt files (relative to
                      --agents-dir, else to the folder you ran it from), other values inline text;
                      overrides values are tool-description overrides files (found the same
                      way) or "none"
                      Levers: promptCaching=off,5m,1h,1h+results
                      toolResultMaxChars=none,4000  retryOnToolError=none,0,2
                      tools=all,fs:read_*+!fs:read_media*  (+ joins globs, ! denies)
                      contextStrategy=none,truncate:2000,drop:2,summarize:MODEL:8000
  --suite FILE        suite to run
  --run-id ID         run name (default: <suite>-sweep-<UTC time>)
  --out DIR           runs folder (default: results/runs)
  --config DIR        working config (default: results/config, the workbench's, created
                      from fixtures/agents and fixtures/suites on first use); passed on
  --agents-dir PATH   where the base agent is (default: <config>/agents)
  --resume RUN_ID     finish a sweep run (agent files are kept in <run>/sweep/)
  Every other option (--models, --servers, --repetitions, --concurrency, --shard, --cache,
  --tool-prices, --timeout-ms, --install-dir, --data, --env-file, --seed, --wire-log,
  --cache-dir) is passed to deno task agents unchanged.`,
  exitCodes: "those of deno task agents (0 scored, 1 scored nothing, 2 bad input, 130 " +
    "interrupted)",
});

/** A passed-on flag naming a file or folder: resolved from the user's folder here. */
const PATH = { type: "string", path: true } as const;
/** A passed-on flag of any other value. */
const TEXT = { type: "string" } as const;

/** The flags passed on to deno task agents unchanged, in the order they are passed. */
const PASS = {
  config: PATH,
  models: PATH,
  servers: PATH,
  "tool-prices": PATH,
  repetitions: TEXT,
  concurrency: TEXT,
  shard: TEXT,
  cache: TEXT,
  "cache-dir": PATH,
  "wire-log": PATH,
  "timeout-ms": TEXT,
  "install-dir": PATH,
  data: PATH,
  "env-file": PATH,
  seed: TEXT,
} as const;

async function main(): Promise<number> {
  const parsed = parseFlags(Deno.args, {
    base: { type: "string" },
    vary: { type: "string", multiple: true },
    suite: { type: "string", path: true },
    "run-id": { type: "string" },
    out: { type: "string", default: "results/runs", path: true },
    "agents-dir": { type: "string", path: true },
    resume: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
    ...PASS,
  });
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const out = v.out as string;
  // The agents task with the permissions deno.json declares for it (not -A).
  const agentsTask = await taskRunArgs("agents");
  const passArgs = Object.keys(PASS).flatMap((p) =>
    v[p] === undefined ? [] : [`--${p}`, v[p] as string]
  );
  if (v.resume !== undefined) {
    return await runAgents([
      ...agentsTask,
      "--resume",
      v.resume as string,
      "--out",
      out,
      ...passArgs,
    ]);
  }
  if (!v.base || !v.suite || !v.vary) {
    throw new UsageError(
      "--base AGENT, --suite FILE and at least one --vary are required (see --help)",
    );
  }
  const sweep = await prepareSweep({
    base: v.base as string,
    vary: v.vary as string[],
    suite: v.suite as string,
    agentsDir: (v["agents-dir"] as string | undefined) ?? await configAgents(v.config),
    out,
    ...(v["run-id"] === undefined ? {} : { runId: v["run-id"] as string }),
  }, IO);
  progress("sweep", sweep.summary);
  const code = await runAgents([
    ...agentsTask,
    "--suite",
    v.suite as string,
    "--agents-dir",
    sweep.sweepDir,
    "--run-id",
    sweep.runId,
    "--out",
    out,
    ...passArgs,
  ]);
  if (await removeUnstartedSweep(sweep.runDir)) {
    progress("sweep", `the run did not start; removed ${sweep.runDir}`);
  }
  return code;
}

async function runAgents(args: string[]): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: fromRoot("."),
    // Paths in its arguments start in the repository, not where sweep was run (lib/core/paths.ts).
    env: { INIT_CWD: fromRoot(".") },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // A signal sent to this process alone (kill, a CI timeout) reaches the agents run too, which
  // stops cleanly and prints its --resume line; a terminal's Ctrl-C reaches both already.
  const signals = ["SIGINT", "SIGTERM"] as const;
  const forward = (signal: Deno.Signal) => () => {
    try {
      child.kill(signal);
    } catch { /* it has exited */ }
  };
  const handlers = signals.map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) Deno.addSignalListener(s, h);
  try {
    return (await child.status).code;
  } finally {
    for (const [s, h] of handlers) Deno.removeSignalListener(s, h);
  }
}

/** The working config's agents folder (where the base agent is), said on stderr. */
async function configAgents(dir: unknown): Promise<string> {
  const config = await workingConfig(typeof dir === "string" ? dir : undefined);
  progress("sweep", config.note);
  return config.agentsDir;
}

if (import.meta.main) runMain("sweep", main);
