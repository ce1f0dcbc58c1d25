// deno task agents: runs agent configurations against a suite (lib/flows/agents.ts) and
// writes results/runs/<runId>/.
import {
  helpText,
  intFlag,
  IO,
  listFlag,
  parseFlags,
  printOutcome,
  progress,
  runMain,
  UsageError,
} from "./_cli.ts";
import { CONFIG_HELP, workingConfig } from "./_config.ts";
import { loadEnv } from "../lib/agent/io.ts";
import type { CacheMode } from "../lib/agent/mod.ts";
import {
  agentVersionsCommand,
  caseProgressPrinter,
  checkResumeArgs,
  runAgents,
  runSummary,
  savedRunArgs,
} from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "agents --suite FILE [options]",
  purpose: "Run agent configurations against a test suite, N repetitions each.",
  about: `Runs every case of a suite against agent configurations and writes
results/runs/<runId>/ (cases.jsonl, run.json, summary.csv). Agents, models and servers come
from the workbench's working config unless flags name other files; the line on stderr says
which folder was read.`,
  options: `  --suite FILE          suite JSON (required unless --resume)
  --agents a,b@2        agents to run: ID (the live configuration) or ID@N (version N);
                        default: all agents found
  --cut-version ID      cut a version of agent ID (its resolved configuration, prompt
                        inlined) into <agents-dir>/versions/ID/N.json, print N, and exit
  --list-versions ID    print the versions of agent ID (number, sha256, date) and exit
${CONFIG_HELP}
  --agents-dir PATH     agents file or folder (default: <config>/agents)
  --models FILE         model registry (default: <config>/models.json)
  --servers FILE        mcpServers config (default: <config>/servers.json)
  --tool-prices FILE    USD per call by server:tool (default: <config>/tool_prices.json
                        when it exists)
  --repetitions N       runs per case (default: 1)
  --concurrency C       cases in flight (default: 1)
  --shard i/n           run the i-th of n deterministic slices
  --out DIR             runs folder (default: results/runs)
  --run-id ID           name of a new run (default: <suite>-<UTC time>)
  --resume RUN_ID       finish a run: skip recorded cases, duplicate none; the run keeps
                        its own suite, agents, models, servers, repetitions, shard,
                        timeout, data and seed (a different one given is refused, exit 2)
  --retry-errors        with --resume: run again the cases that ended in an infrastructure
                        error (model, timeout, mcp, judge), replacing their records
  --stop-after-auth N   stop starting cases after N consecutive 401/403 answers
                        (default: 3; 0 = never)
  --cache MODE          LLM response cache: read | write | off (default: off)
  --cache-dir DIR       response cache folder (default: results/cache)
  --wire-log DIR        write every raw model exchange (keys redacted)
  --timeout-ms MS       per-case timeout (default: 300000)
  --install-dir DIR     where MCP server packages are installed (default: .scratch/servers)
  --data DIR            fixture data copied to a fresh folder per session; \${DATA} in the
                        servers config points at the copy (default: fixtures/suites/data)
  --env-file FILE       dotenv file with API keys (default: .env)
  --seed N              recorded in run.json (default: 0)`,
  exitCodes: `0 the run scored cases, 1 it scored nothing (or stopped on repeated 401/403),
2 bad input (a flag, a config, a model without its API key), 130 interrupted (finish it with
the --resume line printed).`,
  notes: `Ctrl-C (or SIGTERM) interrupts: no new case starts, the cases in flight are aborted and
left for --resume, the files are written and run.json says "stopped"; a second Ctrl-C quits
at once.`,
});

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    suite: { type: "string", path: true },
    agents: { type: "string" },
    "cut-version": { type: "string" },
    "list-versions": { type: "string" },
    config: { type: "string", path: true },
    "agents-dir": { type: "string", path: true },
    models: { type: "string", path: true },
    servers: { type: "string", path: true },
    "tool-prices": { type: "string", path: true },
    repetitions: { type: "string" },
    concurrency: { type: "string" },
    shard: { type: "string" },
    out: { type: "string", default: "results/runs", path: true },
    "run-id": { type: "string" },
    resume: { type: "string" },
    "retry-errors": { type: "boolean", default: false },
    "stop-after-auth": { type: "string" },
    cache: { type: "string", default: "off" },
    "cache-dir": { type: "string", default: "results/cache", path: true },
    "wire-log": { type: "string", path: true },
    "timeout-ms": { type: "string" },
    "install-dir": { type: "string", default: ".scratch/servers", path: true },
    data: { type: "string", default: "fixtures/suites/data", path: true },
    "env-file": { type: "string", default: ".env", path: true },
    seed: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values["cut-version"] !== undefined || values["list-versions"] !== undefined) {
    const out = await agentVersionsCommand({
      agentsDir: values["agents-dir"] ?? await configAgents(values.config),
      ...(values["cut-version"] === undefined ? {} : { cut: values["cut-version"] }),
      ...(values["list-versions"] === undefined ? {} : { list: values["list-versions"] }),
    }, IO);
    return printOutcome(out);
  }
  // A resumed run takes its settings from run.json; only concurrency, cache and wire log may change.
  const saved = values.resume === undefined ? {} : await savedRunArgs(values.out, values.resume);
  if (values.resume !== undefined) {
    const given: Record<string, string> = {};
    for (const a of Deno.args) {
      const name = a.startsWith("--") ? a.slice(2).split("=")[0] : "";
      const v = (values as Record<string, unknown>)[name];
      if (typeof v === "string") given[name] = v;
    }
    checkResumeArgs(values.resume, saved, given);
  }
  const arg = (name: keyof typeof values) =>
    (values.resume !== undefined && name in saved ? saved[name] : values[name]) as
      | string
      | undefined;
  const suitePath = arg("suite");
  if (suitePath === undefined) throw new UsageError("--suite FILE is required (see --help)");
  const repetitions = intFlag("repetitions", arg("repetitions"), 1, 1);
  const concurrency = intFlag("concurrency", values.concurrency, 1, 1);
  const timeoutMs = intFlag("timeout-ms", arg("timeout-ms"), 300_000, 1);
  const seed = intFlag("seed", arg("seed"), 0);
  const shardText = arg("shard");

  // What the agents read: the run's own files on --resume, else the flags, else the working
  // config (the workbench's), opened only when no flag names the agents, models or servers.
  let paths = {
    agentsDir: arg("agents-dir"),
    models: arg("models"),
    servers: arg("servers"),
    toolPrices: arg("tool-prices"),
  };
  let configNote: string | undefined;
  if (
    values.resume === undefined &&
    [paths.agentsDir, paths.models, paths.servers].includes(undefined)
  ) {
    const config = await workingConfig(values.config);
    configNote = config.note;
    paths = {
      agentsDir: paths.agentsDir ?? config.agentsDir,
      models: paths.models ?? config.models,
      servers: paths.servers ?? config.servers,
      toolPrices: paths.toolPrices ?? config.toolPrices,
    };
  }
  if (!paths.agentsDir || !paths.models || !paths.servers) {
    throw new UsageError(
      `--resume ${values.resume}: its run.json names no agents, models or servers`,
    );
  }
  const env = await loadEnv(values["env-file"]);
  const ids = listFlag("agents", arg("agents"));
  const runId = values.resume ?? values["run-id"];
  // First Ctrl-C: finish cleanly (files written, resume hint); a second one quits at once.
  // A signal within a second of the first is the same interrupt arriving twice (a terminal's
  // Ctrl-C reaches deno task sweep and this run, and sweep forwards it), not a second Ctrl-C.
  const interrupt = new AbortController();
  let firstAt = 0;
  const onSignal = () => {
    if (interrupt.signal.aborted) {
      if (performance.now() - firstAt > 1_000) Deno.exit(130);
      return;
    }
    firstAt = performance.now();
    console.error("\nmcpmeter agents: interrupted: writing the run; Ctrl-C again quits at once");
    interrupt.abort();
  };
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  const result = await runAgents({
    suite: suitePath,
    ...(ids === undefined ? {} : { agents: ids, agentsText: arg("agents")! }),
    agentsDir: paths.agentsDir,
    models: paths.models,
    servers: paths.servers,
    ...(paths.toolPrices ? { toolPrices: paths.toolPrices } : {}),
    ...(configNote ? { configNote } : {}),
    repetitions,
    concurrency,
    ...(shardText === undefined ? {} : { shard: shardText }),
    out: values.out,
    ...(runId === undefined ? {} : { runId }),
    resume: values.resume !== undefined,
    retryErrors: values["retry-errors"],
    stopAfterAuthFailures: intFlag("stop-after-auth", values["stop-after-auth"], 3),
    stop: interrupt.signal,
    cache: values.cache as CacheMode,
    cacheDir: values["cache-dir"],
    ...(values["wire-log"] ? { wireLog: values["wire-log"] } : {}),
    timeoutMs,
    installDir: values["install-dir"],
    data: arg("data")!,
    env,
    seed,
    onRecord: caseProgressPrinter(Deno.stderr.isTerminal(), (text) => {
      Deno.stderr.writeSync(new TextEncoder().encode(text));
    }),
  }, IO).finally(() => {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  });
  if (result.status === "no-model") {
    console.error(`mcpmeter agents: ${result.message}`);
    return 2;
  }
  return printOutcome(runSummary(result.runDir, result.runId, result.outcome));
}

/** The working config's agents folder, saying on stderr which folder that is. */
async function configAgents(dir: string | undefined): Promise<string> {
  const config = await workingConfig(dir);
  progress("agents", config.note);
  return config.agentsDir;
}

if (import.meta.main) runMain("agents", main);
