/**
 * The agents flow: runs agent configurations against a suite (model clients with optional wire
 * log and response cache, MCP servers prepared per agent) and writes the run folder
 * `out/<runId>/` (cases.jsonl, run.json, summary.csv) through `runSuite`.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { AgentConfigError, expandVars, requiredModelIds } from "../agent/config.ts";
import { loadAgents, loadModels, loadSuite, loadToolPrices } from "../agent/load_config.ts";
import {
  cutVersion,
  listVersions,
  resolveAgentSelections,
  versionsDirFor,
} from "../agent/load_versions.ts";
import { snapshotSha256 } from "../agent/versions.ts";
import { nothingScored, runHealth } from "../agent/health.ts";
import { createModelClient } from "../agent/providers/client.ts";
import { providerEntry } from "../agent/providers/registry.ts";
import { agentRequestEstimate } from "../billing/request_estimate.ts";
import { realSleep } from "../agent/providers/retry.ts";
import type { WireEntry } from "../agent/providers/wire_log.ts";
import { NO_MODEL_HELP, prepareAgentServers } from "../agent/agent_servers.ts";
import { parseShard, type RunOutcome, runSuite } from "../agent/run.ts";
import { claimNewRunId } from "../agent/run_folder.ts";
import { runRedactor } from "../agent/secrets.ts";
import type { Redactor } from "../core/secrets.ts";
import {
  type CacheMode,
  createFileResponseStore,
  withResponseCache,
} from "../agent/providers/cache.ts";
import type { AgentConfig, CaseRecord } from "../agent/types.ts";
import type { ModelClient } from "../agent/providers/types.ts";
import { UsageError } from "../core/errors.ts";
import { idProblem } from "../core/ids.ts";
import { DEFAULT_CONTEXT_TOKENIZER, needsContextTokenizer } from "../agent/context.ts";
import { toolSearchProblems } from "../agent/tool_search.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import type { FlowOutcome } from "./outcome.ts";

/** Default inputs of `deno task agents`, relative to the working directory. */
export const AGENTS_DEFAULTS = {
  agentsDir: "fixtures/agents",
  models: "fixtures/agents/models.json",
  servers: "fixtures/agents/servers.json",
  out: "results/runs",
  cache: "off",
  cacheDir: "results/cache",
  timeoutMs: 300_000,
  installDir: ".scratch/servers",
  data: "fixtures/suites/data",
} as const;

/** Options of {@linkcode runAgents}: the settings of `deno task agents`, already parsed. */
export interface RunAgentsOptions {
  /** Suite JSON. */
  readonly suite: string;
  /** Agents to run: `ID` (the live configuration) or `ID@N` (frozen version N). Default: every
   * agent found. */
  readonly agents?: readonly string[];
  /** How `agents` was written, recorded in run.json for `--resume`. Default: joined by `,`. */
  readonly agentsText?: string;
  /** Agents file or folder. */
  readonly agentsDir: string;
  /** Model registry. */
  readonly models: string;
  /** `mcpServers` config. */
  readonly servers: string;
  /** USD per call by `server:tool` (default: none). */
  readonly toolPrices?: string;
  /** A line saying where the agents, models and servers come from, printed once the flags
   * check out (e.g. the working config the task opened). */
  readonly configNote?: string;
  /** Runs per case (≥ 1). */
  readonly repetitions: number;
  /** Cases in flight (≥ 1). */
  readonly concurrency: number;
  /** `i/n`: run the i-th of n deterministic slices. */
  readonly shard?: string;
  /** Runs folder. */
  readonly out: string;
  /** Run id (default: `<suite>-<UTC time>`); with `resume`, the run to finish. */
  readonly runId?: string;
  /** Finish run `runId`: skip recorded cases, duplicate none. */
  readonly resume?: boolean;
  /** With `resume`: run again the cases that ended in an infrastructure error. */
  readonly retryErrors?: boolean;
  /** Stop starting cases after this many consecutive 401/403 answers (0: never). */
  readonly stopAfterAuthFailures?: number;
  /** Aborted to interrupt the run (Ctrl-C): see lib/agent `RunSuiteOptions.stop`. */
  readonly stop?: AbortSignal;
  /** LLM response cache mode. */
  readonly cache: CacheMode;
  /** Response cache folder. */
  readonly cacheDir: string;
  /** Folder for every raw model exchange (keys redacted). */
  readonly wireLog?: string;
  /** Per-case timeout (ms). */
  readonly timeoutMs: number;
  /** Where MCP server packages are installed. */
  readonly installDir: string;
  /** Fixture data copied per session (`${DATA}`). */
  readonly data: string;
  /** Variables for `${VAR}` in the registry and servers config (environment + `.env`). */
  readonly env: Readonly<Record<string, string>>;
  /** Recorded in run.json. */
  readonly seed: number;
  /** Task name for progress lines. Default `agents`. */
  readonly task?: string;
  /** Called after each finished case. */
  readonly onRecord?: (record: CaseRecord, done: number, total: number) => void;
}

/** What {@linkcode runAgents} did. */
export type RunAgentsResult =
  | {
    /** A model client could not be set up (no key, bad registry entry). */
    readonly status: "no-model";
    /** The reason, followed by {@linkcode NO_MODEL_HELP}. */
    readonly message: string;
  }
  | {
    /** The suite ran (some cases may have failed or errored). */
    readonly status: "ran";
    /** The run folder. */
    readonly runDir: string;
    /** The run id. */
    readonly runId: string;
    /** Records, how many this session wrote, summary. */
    readonly outcome: RunOutcome;
  };

/**
 * A `run-id` from a suite id and a time: `<suite>-YYYYMMDDTHHMMSSZ`.
 *
 * @param suiteId The suite id.
 * @param epochMs The time (epoch ms).
 * @returns The run id.
 */
export function defaultRunId(suiteId: string, epochMs: number): string {
  return `${suiteId}-${
    new Date(epochMs).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")
  }`;
}

/**
 * Checks a run id given on the command line: it names a folder inside the runs folder, so it may
 * not hold a path separator or `..` (`--run-id ../x` would write beside `--out`).
 *
 * @param id The id.
 * @param flag The flag it came from, for the message.
 * @returns The id.
 * @throws {UsageError} When the id is not one (see `ID_PATTERN` in lib/core/ids.ts).
 */
export function checkRunId(id: string, flag: string): string {
  const problem = idProblem(id);
  if (problem !== undefined) {
    throw new UsageError(
      `${flag} ${JSON.stringify(id)} is not a run id: ${problem} (a run id names a folder ` +
        "inside --out)",
    );
  }
  return id;
}

/**
 * Refuses to start a new run in a folder that already holds cases: starting again would mix two
 * runs in one file, so the user resumes it or names another run.
 *
 * @param out The runs folder.
 * @param runId The new run's id.
 * @throws {UsageError} When `out/runId/cases.jsonl` holds at least one line.
 */
async function refuseExistingRun(out: string, runId: string): Promise<void> {
  const cases = join(out, runId, "cases.jsonl");
  const text = await Deno.readTextFile(cases).catch(() => "");
  const lines = text.split("\n").filter((l) => l.trim() !== "").length;
  if (lines > 0) {
    throw new UsageError(
      `run "${runId}" already exists (${cases} holds ${lines} case${lines === 1 ? "" : "s"}): ` +
        `finish it with --resume ${runId}, or give another --run-id`,
    );
  }
}

/**
 * Runs (or resumes) a suite against agents and writes the run folder.
 *
 * @param options See {@linkcode RunAgentsOptions}.
 * @param io Clocks, git state, progress. @default {denoFlowIo()}
 * @returns `no-model` when a needed model client cannot be set up, else the run.
 * @throws {UsageError} On a run id that is not one or names a run that has cases (unless
 *   resuming), a bad shard, `retryErrors` without `resume`, an unknown cache mode, unknown agent
 *   ids, no agents, models missing from the registry, or servers that cannot be prepared.
 * @throws {AgentConfigError} On a suite, agent, registry or price file that does not validate.
 */
export async function runAgents(
  options: RunAgentsOptions,
  io: Pick<FlowIo, "now" | "epochNow" | "gitState" | "progress"> = denoFlowIo(),
): Promise<RunAgentsResult> {
  const task = options.task ?? "agents";
  if (options.retryErrors && !options.resume) {
    throw new UsageError("--retry-errors goes with --resume RUN_ID");
  }
  if (!["read", "write", "off"].includes(options.cache)) {
    throw new UsageError(`--cache must be read, write or off, got "${options.cache}"`);
  }
  if (options.runId !== undefined) {
    checkRunId(options.runId, options.resume ? "--resume" : "--run-id");
    if (!options.resume) await refuseExistingRun(options.out, options.runId);
  }
  let shard;
  try {
    shard = options.shard === undefined ? undefined : parseShard(options.shard);
  } catch (e) {
    throw new UsageError(`--shard: ${(e as Error).message}`);
  }
  if (options.configNote) io.progress(task, options.configNote);
  const suite = await loadSuite(options.suite);
  const live = await loadAgents(options.agentsDir);
  const wanted = options.agents;
  if (wanted !== undefined) {
    const unknown = wanted.filter((id) => !id.includes("@") && !live.some((a) => a.id === id));
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
    wanted ?? live.map((a) => a.id),
    live,
    await versionsDirFor(options.agentsDir),
  );
  if (agents.length === 0) throw new UsageError("no agents to run");
  const models = await loadModels(options.models);
  const toolPrices = await loadToolPrices(options.toolPrices);
  const needed = requiredModelIds(agents, suite);
  const missing = needed.filter((id) => !models.some((m) => m.id === id));
  if (missing.length > 0) {
    throw new UsageError(
      `model(s) ${missing.join(", ")} are not in the registry ${options.models}`,
    );
  }
  // A search exposure on a provider or model without tool search: refused before anything runs.
  const cannotSearch = toolSearchProblems(agents, models, options.env);
  if (cannotSearch.length > 0) throw new UsageError(cannotSearch.join("\n"));

  // The run's secrets: the environment's and the models'; the servers config's are added once it
  // is read. The run's files, wire log, cache, progress lines and errors are written through it.
  const redactor = runRedactor({
    models: models.filter((m) => needed.includes(m.id)),
    env: options.env,
  });
  const say = (message: string) => io.progress(task, redactor.text(message));

  // Model clients (one per registry id needed), with optional wire log and response cache.
  const wireDir = options.wireLog;
  if (wireDir) await Deno.mkdir(wireDir, { recursive: true });
  const wireCounter = { value: 0 };
  const wireLog = wireDir
    ? (e: WireEntry) =>
      Deno.writeTextFile(
        join(wireDir, `${String(e.seq).padStart(6, "0")}-${e.model}.json`),
        JSON.stringify(e, null, 2) + "\n",
      )
    : undefined;
  const store = options.cache === "off"
    ? undefined
    : createFileResponseStore(options.cacheDir, redactor);
  const clients = new Map<string, ModelClient>();
  for (const id of needed) {
    const config = models.find((m) => m.id === id)!;
    let client: ModelClient;
    try {
      client = createModelClient(config, {
        env: options.env,
        now: io.now,
        sleep: realSleep,
        source: options.models,
        redactor,
        ...(wireLog ? { wireLog, wireCounter } : {}),
      });
    } catch (e) {
      if (e instanceof AgentConfigError) {
        return { status: "no-model", message: `${e.message}\n\n${NO_MODEL_HELP}` };
      }
      throw e;
    }
    clients.set(
      id,
      store
        ? withResponseCache(client, config, { mode: options.cache, store, now: io.now })
        : client,
    );
  }

  // MCP servers: pinned packages installed when missing, ${BIN}/${DATA} resolved per entry.
  const servers = await redacted(
    redactor,
    prepareAgentServers({
      serversPath: options.servers,
      agents,
      installDir: options.installDir,
      dataDir: options.data,
      env: options.env,
      task,
      onProgress: say,
      now: io.now,
    }),
  );
  redactor.add(servers.secrets);
  const providerOf = (agent: AgentConfig) => models.find((m) => m.id === agent.model)!.provider;
  // A new run's folder is claimed with one mkdir: two runs started in the same second get two
  // ids (the second with an "x" appended), never one folder.
  const runId = options.runId ??
    await claimNewRunId(options.out, defaultRunId(suite.id, io.epochNow()));
  const runDir = join(options.out, runId);
  const args: Record<string, string> = {
    suite: options.suite,
    "agents-dir": options.agentsDir,
    models: options.models,
    servers: options.servers,
    ...(options.toolPrices ? { "tool-prices": options.toolPrices } : {}),
    ...(wanted ? { agents: options.agentsText ?? wanted.join(",") } : {}),
    repetitions: String(options.repetitions),
    ...(options.shard ? { shard: options.shard } : {}),
    "timeout-ms": String(options.timeoutMs),
    data: options.data,
    seed: String(options.seed),
  };
  const git = await io.gitState();
  const outcome = await redacted(
    redactor,
    runSuite({
      redactor,
      runDir,
      runId,
      suite,
      agents,
      models: models.filter((m) => needed.includes(m.id)),
      toolPrices,
      clients,
      openTools: (agent) => servers.open(agent, providerOf(agent)),
      // The static estimate of each agent's first request, checked by every record's
      // firstTurnInputTokens (lib/billing, default calibration).
      estimateRequest: (agent, tools) => {
        const model = models.find((m) => m.id === agent.model)!;
        // The model name as sent (a registry's `${VAR:-default}` expanded, as the client does).
        let name = model.model;
        try {
          name = expandVars(model.model, options.env, { file: options.models, field: "model" });
        } catch {
          // Unset without a default: the client refused it already; the raw text stands.
        }
        return agentRequestEstimate(agent, {
          model: name,
          wire: providerEntry(model.provider).wire,
        }, tools);
      },
      repetitions: options.repetitions,
      concurrency: options.concurrency,
      ...(shard ? { shard } : {}),
      caseTimeoutMs: options.timeoutMs,
      resume: options.resume ?? false,
      ...(options.retryErrors ? { retryErrors: true } : {}),
      ...(options.stopAfterAuthFailures === undefined
        ? {}
        : { stopAfterAuthFailures: options.stopAfterAuthFailures }),
      ...(options.stop ? { stop: options.stop } : {}),
      seed: options.seed,
      now: io.now,
      epochNow: io.epochNow,
      agentVersions,
      meta: { args, git, cache: options.cache, wireLog: wireDir ?? null },
      ...(needsContextTokenizer(agents)
        ? { tokenizer: createTokenizer(DEFAULT_CONTEXT_TOKENIZER) }
        : {}),
      ...(options.onRecord ? { onRecord: options.onRecord } : {}),
    }).finally(() => servers.dispose()),
  );
  return { status: "ran", runDir, runId, outcome };
}

/** `promise`, its error's message redacted: a server's stderr or an endpoint may quote a key. */
async function redacted<T>(redactor: Redactor, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (e) {
    if (e instanceof Error) e.message = redactor.text(e.message);
    throw e;
  }
}

/**
 * One progress line per finished case: a 30-wide bar, `done/total`, agent, case, repetition and
 * `pass`, `fail` or `error:<kind>`.
 *
 * @param r The record.
 * @param done Cases finished.
 * @param total Cases planned.
 * @returns The line (no newline).
 */
export function caseProgressLine(r: CaseRecord, done: number, total: number): string {
  const mark = r.passed === true ? "pass" : r.passed === false ? "fail" : `error:${r.error?.kind}`;
  const width = 30;
  const filled = Math.round((done / total) * width);
  const bar = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`;
  return `${bar} ${r.agentId} ${r.caseId}#${r.repetition} ${mark}`;
}

/**
 * The console summary of a run and its exit code: cases run, per agent pass rate with its
 * interval, errors and cost; replaced records; the no-endpoint help when no case reached the
 * model, or how to finish a run whose endpoint went down; exit 1 when the run stopped early
 * (consecutive auth failures) or scored nothing; exit 130 (with the `--resume` line) when it was
 * interrupted.
 *
 * @param runDir The run folder.
 * @param runId The run id (for the `--resume` hint).
 * @param outcome The outcome.
 * @returns The lines, for stderr (stdout stays empty), and the exit code.
 */
export function runSummary(
  runDir: string,
  runId: string,
  outcome: RunOutcome,
): FlowOutcome {
  const pct = (x: number | null) => x === null ? "n/a" : `${(x * 100).toFixed(1)}%`;
  const lines = [
    `[agents] ${outcome.newRecords} case(s) run this session, ${outcome.records.length} in ${runDir}`,
    ...outcome.summary.map((row) =>
      `  ${row.agentId}: pass ${pct(row.passRate)} [${pct(row.passRateLo)}, ${
        pct(row.passRateHi)
      }] ` +
      `of ${row.scored} scored; errors ${pct(row.errorRate)}; cost $${row.totalCostUsd.toFixed(6)}`
    ),
  ];
  if (outcome.replaced > 0) {
    lines.push(`[agents] ${outcome.replaced} infrastructure-error record(s) replaced`);
  }
  const health = runHealth(outcome.records);
  if (health.endpoint === "never_reached") lines.push(`\n${NO_MODEL_HELP}`);
  if (health.endpoint === "went_down") {
    lines.push(
      `\n[agents] the model endpoint went down during the run: ${health.reachedModel} case(s) ` +
        `got answers, ${health.unreachable} could not connect; once it is back, complete the ` +
        `run with --resume ${runId} --retry-errors`,
    );
  }
  if (outcome.stopped?.interrupted) {
    lines.push(
      `[agents] interrupted: the ${outcome.newRecords} case(s) finished this session are in ${runDir}/cases.jsonl, ${outcome.stopped.notStarted} case(s) not finished; finish the run with deno task agents --resume ${runId}`,
    );
    return { stdout: [], stderr: lines, exitCode: 130 };
  }
  if (outcome.stopped !== null) {
    lines.push(
      `[agents] ${outcome.stopped.reason} (${outcome.stopped.notStarted} case(s) not started)`,
    );
    return { stdout: [], stderr: lines, exitCode: 1 };
  }
  const nothing = nothingScored(health);
  if (nothing !== null) {
    lines.push(`[agents] ${nothing}: the run measured nothing`);
    return { stdout: [], stderr: lines, exitCode: 1 };
  }
  return { stdout: [], stderr: lines, exitCode: 0 };
}

/**
 * `deno task agents --cut-version ID` / `--list-versions ID`: freezes the live configuration of
 * an agent as its next numbered version (nothing written when unchanged), or lists its versions
 * (`ID@N`, sha256 prefix, creation time, `= live` on the one the live configuration equals).
 *
 * @param options Agents file or folder, and the agent to cut or list.
 * @param io Wall clock of the cut, and how a path is shown. @default {denoFlowIo()}
 * @returns Lines for stdout (the version cut, or the list) and for stderr (what happened); exit
 *   code 0.
 * @throws {UsageError} On an unknown agent (cut), or an unknown agent with no versions (list).
 */
export async function agentVersionsCommand(
  options: { readonly agentsDir: string; readonly cut?: string; readonly list?: string },
  io: Pick<FlowIo, "epochNow" | "displayPath"> = denoFlowIo(),
): Promise<FlowOutcome> {
  const live = await loadAgents(options.agentsDir);
  const dir = await versionsDirFor(options.agentsDir);
  const id = (options.cut ?? options.list)!;
  const agent = live.find((a) => a.id === id);
  if (options.cut !== undefined) {
    if (!agent) {
      throw new UsageError(`unknown agent "${id}"; known: ${live.map((a) => a.id).join(", ")}`);
    }
    const r = await cutVersion(dir, agent, new Date(io.epochNow()).toISOString());
    return {
      stdout: [String(r.version.version)],
      stderr: [
        r.created
          ? `[agents] ${id}: version ${r.version.version} cut → ${io.displayPath(r.path)}`
          : `[agents] ${id}: unchanged since version ${r.version.version} (${
            io.displayPath(r.path)
          }); nothing written`,
      ],
      exitCode: 0,
    };
  }
  const versions = await listVersions(dir, id);
  if (versions.length === 0 && !agent) {
    throw new UsageError(`unknown agent "${id}" and no versions in ${dir}`);
  }
  const liveSha = agent ? await snapshotSha256(agent, agent.id) : null;
  return {
    stdout: versions.map((v) =>
      `${id}@${v.version}\t${v.sha256.slice(0, 12)}\t${v.createdAt}${
        v.sha256 === liveSha ? "\t= live" : ""
      }`
    ),
    stderr: versions.length === 0 ? [`[agents] ${id}: no versions yet (--cut-version ${id})`] : [],
    exitCode: 0,
  };
}

/**
 * The settings a run was started with (`meta.args` of its run.json), which `--resume` reuses.
 *
 * @param out The runs folder.
 * @param runId The run to resume.
 * @returns Flag name → value as recorded.
 * @throws {UsageError} When `runId` is not an id, or run.json is missing or unreadable.
 */
export async function savedRunArgs(
  out: string,
  runId: string,
): Promise<Record<string, string | undefined>> {
  checkRunId(runId, "--resume");
  const runJson = join(out, runId, "run.json");
  try {
    const doc = JSON.parse(await Deno.readTextFile(runJson));
    return doc.meta?.args ?? {};
  } catch {
    throw new UsageError(`cannot resume "${runId}": ${runJson} is missing or unreadable`);
  }
}

/** Flags of `deno task agents` that name files, compared as resolved paths on `--resume`. */
const PATH_FLAGS = new Set(["suite", "agents-dir", "models", "servers", "tool-prices", "data"]);
/** Flags that define what a run measures: `--resume` takes them from `run.json`. */
const RUN_FLAGS = new Set([...PATH_FLAGS, "agents", "repetitions", "shard", "timeout-ms", "seed"]);

/**
 * Refuses flags given with `--resume` that would change what the run measures: a resumed run
 * keeps the settings in its `run.json` (suite, agents, models, servers, repetitions, shard,
 * timeout, data, seed), so a different value given on the command line would be ignored (or,
 * for one the run did not set, would change its plan). Paths are compared resolved; a flag
 * given with the saved value passes, and so do the others (concurrency, cache, wire log).
 *
 * @param runId The run being resumed (for the message).
 * @param saved The run's saved arguments ({@linkcode savedRunArgs}).
 * @param given Flags given on the command line, by name without `--` (only those given).
 * @throws {UsageError} On the first flag whose value differs from the saved one.
 *
 * @example Usage
 * ```ts
 * import { checkResumeArgs } from "./agents.ts";
 * checkResumeArgs("r1", { suite: "a.json" }, { suite: "./a.json", concurrency: "4" });
 * ```
 */
export function checkResumeArgs(
  runId: string,
  saved: Readonly<Record<string, string | undefined>>,
  given: Readonly<Record<string, string>>,
): void {
  for (const [name, value] of Object.entries(given).sort(([a], [b]) => a < b ? -1 : 1)) {
    if (!RUN_FLAGS.has(name)) continue;
    const was = saved[name];
    const same = was !== undefined &&
      (PATH_FLAGS.has(name) ? resolve(value) === resolve(was) : value === was);
    if (same) continue;
    throw new UsageError(
      `--resume ${runId} keeps the run's own --${name} (${
        was ?? "unset"
      }); --${name} ${value} would be ignored: drop it to finish the run, or start a new run with --run-id`,
    );
  }
}

/**
 * Prints {@linkcode caseProgressLine} per finished case: on a terminal, one line redrawn in
 * place (a newline after the last case); elsewhere one line per case.
 *
 * @param tty Whether the output is a terminal.
 * @param write Writes text as is (the task: stderr).
 * @returns An `onRecord` callback for {@linkcode runAgents}.
 */
export function caseProgressPrinter(
  tty: boolean,
  write: (text: string) => void,
): (record: CaseRecord, done: number, total: number) => void {
  return (r, done, total) => {
    const line = caseProgressLine(r, done, total);
    write(tty ? `\r\x1b[2K${line}${done === total ? "\n" : ""}` : `${line}\n`);
  };
}
