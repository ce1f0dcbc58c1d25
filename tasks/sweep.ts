// deno task sweep: expands a base agent into the cross product of varied parameters, writes the
// generated agent files into the run folder, and runs them through deno task agents (same
// options: repetitions, concurrency, shards, resume, cache). The run folder gets sweep.json.
import { join, resolve } from "node:path";
import { fromRoot, parseFlags, progress, runMain, taskRunArgs, UsageError } from "./_cli.ts";
import { loadAgents, loadSuite } from "../lib/agent/io.ts";
import { loadToolOverrides } from "../lib/catalog/io.ts";
import type { ToolOverrides } from "../lib/catalog/mod.ts";
import { AgentConfigError } from "../lib/agent/mod.ts";
import { expandSweep, parseVary, type SweepParameter } from "../lib/sweep/mod.ts";

const HELP =
  `Usage: deno task sweep --base AGENT --vary NAME=V1,V2 [--vary ...] --suite FILE [options]

Runs the cross product of agent configurations that differ from the base agent in the varied
parameters. Agents are named <base>__<name>-<value>__...; the comparison dashboard
(deno task report) groups results by the varied parameters.

  --base AGENT        id of the base agent (in --agents-dir)
  --vary NAME=V,...   model | exposure | loop | systemPrompt | maxIterations | temperature |
                      maxOutputTokens | mcpServers (servers joined by +) | overrides;
                      systemPrompt values ending in .md or .txt are prompt files (relative to
                      --agents-dir, else to the working directory), other values inline text;
                      overrides values are tool-description overrides files (found the same
                      way) or "none"
                      Levers: promptCaching=off,5m,1h,1h+results
                      toolResultMaxChars=none,4000  retryOnToolError=none,0,2
                      tools=all,fs:read_*+!fs:read_media*  (+ joins globs, ! denies)
                      contextStrategy=none,truncate:2000,drop:2,summarize:MODEL:8000
  --suite FILE        suite to run
  --run-id ID         run name (default: <suite>-sweep-<UTC time>)
  --out DIR           runs folder (default: results/runs)
  --agents-dir PATH   where the base agent is (default: fixtures/agents)
  --resume RUN_ID     finish a sweep run (agent files are kept in <run>/sweep/)
Every other option (--models, --servers, --repetitions, --concurrency, --shard, --cache,
--tool-prices, --timeout-ms, --install-dir, --data, --env-file, --seed, --wire-log,
--cache-dir) is passed to deno task agents unchanged.`;

const PASS = [
  "models",
  "servers",
  "tool-prices",
  "repetitions",
  "concurrency",
  "shard",
  "cache",
  "cache-dir",
  "wire-log",
  "timeout-ms",
  "install-dir",
  "data",
  "env-file",
  "seed",
] as const;

async function main(): Promise<number> {
  const parsed = parseFlags(Deno.args, {
    base: { type: "string" },
    vary: { type: "string", multiple: true },
    suite: { type: "string" },
    "run-id": { type: "string" },
    out: { type: "string", default: "results/runs" },
    "agents-dir": { type: "string", default: "fixtures/agents" },
    resume: { type: "string" },
    help: { type: "boolean", default: false },
    ...Object.fromEntries(PASS.map((p) => [p, { type: "string" as const }])),
  });
  const v = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const out = v.out as string;
  // The agents task with the permissions deno.json declares for it (not -A).
  const agentsTask = await taskRunArgs("agents");
  const passArgs = PASS.flatMap((p) => v[p] === undefined ? [] : [`--${p}`, v[p] as string]);
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
  let params: SweepParameter[];
  try {
    params = (v.vary as string[]).map(parseVary);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const agentsDir = v["agents-dir"] as string;
  let base, suite;
  try {
    const agents = await loadAgents(agentsDir);
    base = agents.find((a) => a.id === v.base);
    if (!base) {
      throw new UsageError(
        `no agent "${v.base}" in ${agentsDir}; known: ${agents.map((a) => a.id).join(", ")}`,
      );
    }
    suite = await loadSuite(v.suite as string);
  } catch (e) {
    if (e instanceof AgentConfigError) throw new UsageError(e.message);
    throw e;
  }
  // Prompt files: relative to the agents folder first, then to the working directory.
  const prompts: Record<string, string> = {};
  const promptParam = params.find((p) => p.name === "systemPrompt");
  const agentsBase = (await Deno.stat(agentsDir)).isDirectory ? agentsDir : join(agentsDir, "..");
  for (const value of promptParam?.values ?? []) {
    if (!/\.(md|txt)$/i.test(value)) continue;
    const candidates = [
      resolve(agentsBase, value),
      resolve(agentsBase, "prompts", value),
      resolve(value),
    ];
    let text: string | undefined;
    for (const c of candidates) {
      text = await Deno.readTextFile(c).catch(() => undefined);
      if (text !== undefined) break;
    }
    if (text === undefined) {
      throw new UsageError(
        `cannot read prompt file "${value}" (looked in ${candidates.join(", ")})`,
      );
    }
    prompts[value] = text;
  }
  // Overrides files: found like prompt files; "none" drops the base agent's overrides.
  const overrides: Record<string, ToolOverrides> = {};
  for (const value of params.find((p) => p.name === "overrides")?.values ?? []) {
    if (value === "none") continue;
    const candidates = [resolve(agentsBase, value), resolve(value)];
    const found = await Promise.all(
      candidates.map((c) => Deno.stat(c).then((st) => st.isFile, () => false)),
    );
    const at = candidates[found.indexOf(true)];
    if (at === undefined) {
      throw new UsageError(
        `cannot read overrides file "${value}" (looked in ${candidates.join(", ")})`,
      );
    }
    overrides[value] = await loadToolOverrides(at, value);
  }
  let expanded;
  try {
    expanded = expandSweep(base, params, prompts, overrides);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const runId = (v["run-id"] as string | undefined) ??
    `${suite.id}-sweep-${new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}`;
  const runDir = join(out, runId);
  const sweepDir = join(runDir, "sweep");
  await Deno.mkdir(sweepDir, { recursive: true });
  for (const s of expanded) {
    await Deno.writeTextFile(
      join(sweepDir, `${s.id}.json`),
      JSON.stringify(s.agent, null, 2) + "\n",
    );
  }
  const info = {
    base: base.id,
    parameters: params.map((p) => p.name),
    agents: Object.fromEntries(expanded.map((s) => [s.id, s.params])),
  };
  await Deno.writeTextFile(join(runDir, "sweep.json"), JSON.stringify(info, null, 2) + "\n");
  progress(
    "sweep",
    `${expanded.length} agent(s) from "${base.id}" (${
      params.map((p) => `${p.name} × ${p.values.length}`).join(", ")
    }) → ${runDir}`,
  );
  const code = await runAgents([
    ...agentsTask,
    "--suite",
    v.suite as string,
    "--agents-dir",
    sweepDir,
    "--run-id",
    runId,
    "--out",
    out,
    ...passArgs,
  ]);
  // A run that never started (bad input to the agents task) leaves only the sweep's own files:
  // remove them, so `report` and `gate` never meet a run folder without run.json.
  if (await Deno.stat(join(runDir, "run.json")).then(() => false, () => true)) {
    await Deno.remove(runDir, { recursive: true });
    progress("sweep", `the run did not start; removed ${runDir}`);
  }
  return code;
}

async function runAgents(args: string[]): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: fromRoot("."),
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}

if (import.meta.main) runMain("sweep", main);
