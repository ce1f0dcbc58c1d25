// deno task agents: runs agent configurations against a suite and writes results/runs/<runId>/.
import { join } from "node:path";
import { gitState, intFlag, listFlag, parseFlags, runMain, UsageError } from "./_cli.ts";
import { NO_MODEL_HELP, prepareAgentServers } from "./_agent_servers.ts";
import { nothingScored, runHealth } from "../lib/agent/mod.ts";
import {
  type AgentConfig,
  AgentConfigError,
  type CacheMode,
  type CaseRecord,
  type ModelClient,
  parseShard,
  requiredModelIds,
  snapshotSha256,
  type WireEntry,
  withResponseCache,
} from "../lib/agent/mod.ts";
import {
  createFileResponseStore,
  createModelClient,
  cutVersion,
  listVersions,
  loadAgents,
  loadEnv,
  loadModels,
  loadSuite,
  loadToolPrices,
  realSleep,
  resolveAgentSelections,
  runSuite,
  versionsDirFor,
} from "../lib/agent/io.ts";

const HELP = `Usage: deno task agents --suite FILE [options]

Runs every case of a suite against agent configurations and writes
results/runs/<runId>/ (cases.jsonl, run.json, summary.csv).

Options:
  --suite FILE          suite JSON (required unless --resume)
  --agents a,b@2        agents to run: ID (the live configuration) or ID@N (version N);
                        default: all agents found
  --cut-version ID      cut a version of agent ID (its resolved configuration, prompt
                        inlined) into <agents-dir>/versions/ID/N.json, print N, and exit
  --list-versions ID    print the versions of agent ID (number, sha256, date) and exit
  --agents-dir PATH     agents file or folder (default: fixtures/agents)
  --models FILE         model registry (default: fixtures/agents/models.json)
  --servers FILE        mcpServers config (default: fixtures/agents/servers.json)
  --tool-prices FILE    USD per call by server:tool (default: none)
  --repetitions N       runs per case (default: 1)
  --concurrency C       cases in flight (default: 1)
  --shard i/n           run the i-th of n deterministic slices
  --out DIR             runs folder (default: results/runs)
  --run-id ID           name of a new run (default: <suite>-<UTC time>)
  --resume RUN_ID       finish a run: skip recorded cases, duplicate none
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
  --seed N              recorded in run.json (default: 0)
  --help                show this help
`;

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    suite: { type: "string" },
    agents: { type: "string" },
    "cut-version": { type: "string" },
    "list-versions": { type: "string" },
    "agents-dir": { type: "string", default: "fixtures/agents" },
    models: { type: "string", default: "fixtures/agents/models.json" },
    servers: { type: "string", default: "fixtures/agents/servers.json" },
    "tool-prices": { type: "string" },
    repetitions: { type: "string" },
    concurrency: { type: "string" },
    shard: { type: "string" },
    out: { type: "string", default: "results/runs" },
    "run-id": { type: "string" },
    resume: { type: "string" },
    "retry-errors": { type: "boolean", default: false },
    "stop-after-auth": { type: "string" },
    cache: { type: "string", default: "off" },
    "cache-dir": { type: "string", default: "results/cache" },
    "wire-log": { type: "string" },
    "timeout-ms": { type: "string" },
    "install-dir": { type: "string", default: ".scratch/servers" },
    data: { type: "string", default: "fixtures/suites/data" },
    "env-file": { type: "string", default: ".env" },
    seed: { type: "string" },
    help: { type: "boolean", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values["cut-version"] !== undefined || values["list-versions"] !== undefined) {
    return await versionCommand(
      values["agents-dir"],
      values["cut-version"],
      values["list-versions"],
    );
  }
  if (values["retry-errors"] && values.resume === undefined) {
    throw new UsageError("--retry-errors goes with --resume RUN_ID");
  }
  // A resumed run takes its settings from run.json; only concurrency, cache and wire log may change.
  let saved: Record<string, string | undefined> = {};
  if (values.resume !== undefined) {
    const runJson = join(values.out, values.resume, "run.json");
    try {
      const doc = JSON.parse(await Deno.readTextFile(runJson));
      saved = doc.meta?.args ?? {};
    } catch {
      throw new UsageError(`cannot resume "${values.resume}": ${runJson} is missing or unreadable`);
    }
  }
  const arg = (name: keyof typeof values) =>
    (values.resume !== undefined && name in saved ? saved[name] : values[name]) as
      | string
      | undefined;
  const suitePath = arg("suite");
  if (suitePath === undefined) throw new UsageError("--suite FILE is required (see --help)");
  const cache = values.cache as CacheMode;
  if (!["read", "write", "off"].includes(cache)) {
    throw new UsageError(`--cache must be read, write or off, got "${cache}"`);
  }
  const repetitions = intFlag("repetitions", arg("repetitions"), 1, 1);
  const concurrency = intFlag("concurrency", values.concurrency, 1, 1);
  const timeoutMs = intFlag("timeout-ms", arg("timeout-ms"), 300_000, 1);
  const seed = intFlag("seed", arg("seed"), 0);
  const shardText = arg("shard");
  const shard = shardText === undefined ? undefined : parseShard(shardText);

  const env = await loadEnv(values["env-file"]);
  const suite = await loadSuite(suitePath);
  const live = await loadAgents(arg("agents-dir")!);
  const wanted = arg("agents");
  const ids = listFlag("agents", wanted);
  const selections = ids ?? live.map((a) => a.id);
  if (ids !== undefined) {
    const unknown = ids.filter((id) => !id.includes("@") && !live.some((a) => a.id === id));
    if (unknown.length > 0) {
      throw new UsageError(
        `unknown agent(s) ${unknown.map((u) => `"${u}"`).join(", ")}; known: ${
          live.map((a) => a.id).join(", ")
        }`,
      );
    }
  }
  // ID runs the live configuration (recording the version it equals), ID@N a frozen version.
  const { agents, agentVersions } = await resolveAgentSelections(
    selections,
    live,
    await versionsDirFor(arg("agents-dir")!),
  );
  if (agents.length === 0) throw new UsageError("no agents to run");
  const modelsPath = arg("models")!;
  const models = await loadModels(modelsPath);
  const toolPrices = await loadToolPrices(arg("tool-prices"));
  const needed = requiredModelIds(agents, suite);
  const missing = needed.filter((id) => !models.some((m) => m.id === id));
  if (missing.length > 0) {
    throw new UsageError(`model(s) ${missing.join(", ")} are not in the registry ${modelsPath}`);
  }

  // Model clients (one per registry id needed), with optional wire log and response cache.
  const wireDir = values["wire-log"];
  if (wireDir) await Deno.mkdir(wireDir, { recursive: true });
  const wireCounter = { value: 0 };
  const wireLog = wireDir
    ? (e: WireEntry) =>
      Deno.writeTextFile(
        join(wireDir, `${String(e.seq).padStart(6, "0")}-${e.model}.json`),
        JSON.stringify(e, null, 2) + "\n",
      )
    : undefined;
  const store = cache === "off" ? undefined : createFileResponseStore(values["cache-dir"]);
  const clients = new Map<string, ModelClient>();
  for (const id of needed) {
    const config = models.find((m) => m.id === id)!;
    let client: ModelClient;
    try {
      client = createModelClient(config, {
        env,
        now: () => performance.now(),
        sleep: realSleep,
        source: modelsPath,
        ...(wireLog ? { wireLog, wireCounter } : {}),
      });
    } catch (e) {
      if (e instanceof AgentConfigError) {
        console.error(`mcpmeter agents: ${e.message}\n\n${NO_MODEL_HELP}`);
        return 2;
      }
      throw e;
    }
    clients.set(
      id,
      store
        ? withResponseCache(client, config, { mode: cache, store, now: () => performance.now() })
        : client,
    );
  }

  // MCP servers: pinned packages installed when missing, ${BIN}/${DATA} resolved per entry.
  const serversPath = arg("servers")!;
  const servers = await prepareAgentServers({
    serversPath,
    agents,
    installDir: values["install-dir"],
    dataDir: arg("data")!,
    env,
    task: "agents",
  });
  const providerOf = (agent: AgentConfig) => models.find((m) => m.id === agent.model)!.provider;
  const openTools = (agent: AgentConfig) => servers.open(agent, providerOf(agent));

  const runId = values.resume ?? values["run-id"] ??
    `${suite.id}-${new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}`;
  const runDir = join(values.out, runId);
  const git = await gitState();
  const isTty = Deno.stderr.isTerminal();
  const enc = new TextEncoder();
  const onRecord = (r: CaseRecord, done: number, total: number) => {
    const mark = r.passed === true
      ? "pass"
      : r.passed === false
      ? "fail"
      : `error:${r.error?.kind}`;
    const width = 30;
    const filled = Math.round((done / total) * width);
    const bar = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`;
    const line = `${bar} ${r.agentId} ${r.caseId}#${r.repetition} ${mark}`;
    if (isTty) Deno.stderr.writeSync(enc.encode(`\r\x1b[2K${line}${done === total ? "\n" : ""}`));
    else console.error(line);
  };
  const args: Record<string, string> = {
    suite: suitePath,
    "agents-dir": arg("agents-dir")!,
    models: modelsPath,
    servers: serversPath,
    ...(arg("tool-prices") ? { "tool-prices": arg("tool-prices")! } : {}),
    ...(wanted ? { agents: wanted } : {}),
    repetitions: String(repetitions),
    ...(shardText ? { shard: shardText } : {}),
    "timeout-ms": String(timeoutMs),
    data: arg("data")!,
    seed: String(seed),
  };
  const outcome = await runSuite({
    runDir,
    runId,
    suite,
    agents,
    models: models.filter((m) => needed.includes(m.id)),
    toolPrices,
    clients,
    openTools,
    repetitions,
    concurrency,
    ...(shard ? { shard } : {}),
    caseTimeoutMs: timeoutMs,
    resume: values.resume !== undefined,
    retryErrors: values["retry-errors"],
    stopAfterAuthFailures: intFlag("stop-after-auth", values["stop-after-auth"], 3),
    seed,
    now: () => performance.now(),
    epochNow: () => Date.now(),
    agentVersions,
    meta: { args, git, cache, wireLog: wireDir ?? null },
    onRecord,
  }).finally(() => servers.dispose());
  console.error(
    `[agents] ${outcome.newRecords} case(s) run this session, ${outcome.records.length} in ${runDir}`,
  );
  for (const row of outcome.summary) {
    const pct = (x: number | null) => x === null ? "n/a" : `${(x * 100).toFixed(1)}%`;
    console.error(
      `  ${row.agentId}: pass ${pct(row.passRate)} [${pct(row.passRateLo)}, ${
        pct(row.passRateHi)
      }] ` +
        `of ${row.scored} scored; errors ${pct(row.errorRate)}; cost $${
          row.totalCostUsd.toFixed(6)
        }`,
    );
  }
  if (outcome.replaced > 0) {
    console.error(`[agents] ${outcome.replaced} infrastructure-error record(s) replaced`);
  }
  const health = runHealth(outcome.records);
  if (health.endpoint === "never_reached") console.error(`\n${NO_MODEL_HELP}`);
  if (health.endpoint === "went_down") {
    console.error(
      `\n[agents] the model endpoint went down during the run: ${health.reachedModel} case(s) ` +
        `got answers, ${health.unreachable} could not connect; once it is back, complete the ` +
        `run with --resume ${runId} --retry-errors`,
    );
  }
  if (outcome.stopped !== null) {
    console.error(
      `[agents] ${outcome.stopped.reason} (${outcome.stopped.notStarted} case(s) not started)`,
    );
    return 1;
  }
  const nothing = nothingScored(health);
  if (nothing !== null) {
    console.error(`[agents] ${nothing}: the run measured nothing`);
    return 1;
  }
  return 0;
}

async function versionCommand(
  agentsDir: string,
  cut: string | undefined,
  list: string | undefined,
): Promise<number> {
  const live = await loadAgents(agentsDir);
  const dir = await versionsDirFor(agentsDir);
  const id = (cut ?? list)!;
  const agent = live.find((a) => a.id === id);
  if (cut !== undefined) {
    if (!agent) {
      throw new UsageError(`unknown agent "${id}"; known: ${live.map((a) => a.id).join(", ")}`);
    }
    const r = await cutVersion(dir, agent, new Date().toISOString());
    console.error(
      r.created
        ? `[agents] ${id}: version ${r.version.version} cut → ${r.path}`
        : `[agents] ${id}: unchanged since version ${r.version.version} (${r.path}); nothing written`,
    );
    console.log(r.version.version);
    return 0;
  }
  const versions = await listVersions(dir, id);
  if (versions.length === 0 && !agent) {
    throw new UsageError(`unknown agent "${id}" and no versions in ${dir}`);
  }
  const liveSha = agent ? await snapshotSha256(agent, agent.id) : null;
  for (const v of versions) {
    console.log(
      `${id}@${v.version}\t${v.sha256.slice(0, 12)}\t${v.createdAt}${
        v.sha256 === liveSha ? "\t= live" : ""
      }`,
    );
  }
  if (versions.length === 0) console.error(`[agents] ${id}: no versions yet (--cut-version ${id})`);
  return 0;
}

if (import.meta.main) runMain("agents", main);
