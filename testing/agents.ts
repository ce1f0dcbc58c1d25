/**
 * Set-up shared by the tests of the agents flow and of `deno task agents`: {@linkcode runAgents}
 * with the task's defaults and its stderr captured, a model registry on a scripted server, and
 * readers for the run folder, and the world of a sweep test. Private to tests.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { installPackages } from "../lib/mcp/install.ts";
import {
  type ReceivedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
  startScriptedModelServer,
  writeScriptedRegistry,
} from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";
import type { CaseRecord } from "../lib/agent/types.ts";
import { parseCaseLines } from "../lib/agent/read_run.ts";
import {
  AGENTS_DEFAULTS,
  caseProgressPrinter,
  runAgents,
  type RunAgentsOptions,
  type RunAgentsResult,
  runSummary,
} from "../lib/flows/agents.ts";
import { denoFlowIo } from "../lib/flows/io.ts";

/** The options a test must give; the rest take the defaults of `deno task agents`. */
export type AgentsTestOptions =
  & Partial<RunAgentsOptions>
  & Pick<RunAgentsOptions, "suite" | "out" | "env">;

/** What a test run gave: the result, the exit code the task would return, its stderr text. */
export interface AgentsTestRun {
  /** What {@linkcode runAgents} returned. */
  readonly result: RunAgentsResult;
  /** 2 on `no-model`, else the exit code of {@linkcode runSummary}. */
  readonly code: number;
  /** Progress, per-case lines and the summary, as the task prints them on stderr. */
  readonly stderr: string;
}

/**
 * Runs {@linkcode runAgents} in process as `deno task agents` would (stop after 3 auth failures,
 * one repetition, one case in flight, seed 0) and captures what the task prints on stderr.
 *
 * @param options Suite, runs folder, variables, and any other option.
 * @returns The result, exit code and stderr text.
 */
export async function runAgentsForTest(options: AgentsTestOptions): Promise<AgentsTestRun> {
  const err: string[] = [];
  const result = await runAgents({
    agentsDir: AGENTS_DEFAULTS.agentsDir,
    models: AGENTS_DEFAULTS.models,
    servers: AGENTS_DEFAULTS.servers,
    repetitions: 1,
    concurrency: 1,
    stopAfterAuthFailures: 3,
    cache: AGENTS_DEFAULTS.cache,
    cacheDir: AGENTS_DEFAULTS.cacheDir,
    timeoutMs: AGENTS_DEFAULTS.timeoutMs,
    installDir: AGENTS_DEFAULTS.installDir,
    data: AGENTS_DEFAULTS.data,
    seed: 0,
    onRecord: caseProgressPrinter(false, (text) => err.push(text)),
    ...options,
  }, { ...denoFlowIo(), progress: (task, message) => err.push(`[${task}] ${message}\n`) });
  if (result.status === "no-model") {
    return { result, code: 2, stderr: err.join("") + `mcpmeter agents: ${result.message}\n` };
  }
  const summary = runSummary(result.runDir, result.runId, result.outcome);
  return { result, code: summary.exitCode, stderr: err.join("") + summary.stderr.join("\n") };
}

/**
 * Writes `dir/models.json` for the fixture agents on a scripted model server, key `${E2E_KEY}`:
 * `claude` (Anthropic; $3 / $15 per million input / output tokens, cache read $0.30, cache
 * write $3.75), `gpt` (OpenAI; $0.40 / $1.60, cache read $0.10), `gpt-responses` (OpenAI
 * Responses; $2.50 / $15, cache read $0.25) and `judge` (Anthropic; $1 / $5).
 *
 * @param dir Folder to write into.
 * @param url Anthropic base URL.
 * @param openaiUrl OpenAI base URL.
 * @returns The registry's path.
 */
export async function writeAgentsRegistry(
  dir: string,
  url: string,
  openaiUrl: string,
): Promise<string> {
  const m = (
    id: string,
    provider: "anthropic" | "openai" | "openai-responses",
    pricing: Record<string, number>,
  ) => ({
    id,
    provider,
    baseUrl: provider === "anthropic" ? url : openaiUrl,
    keyVar: "E2E_KEY",
    pricing,
    ...(id === "judge" ? { model: "scripted-judge" } : {}),
  });
  return await writeScriptedRegistry(join(dir, "models.json"), [
    m("claude", "anthropic", {
      inputUsdPerMTok: 3,
      outputUsdPerMTok: 15,
      cacheReadUsdPerMTok: 0.3,
      cacheWriteUsdPerMTok: 3.75,
    }),
    m("gpt", "openai", { inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6, cacheReadUsdPerMTok: 0.1 }),
    m("gpt-responses", "openai-responses", {
      inputUsdPerMTok: 2.5,
      outputUsdPerMTok: 15,
      cacheReadUsdPerMTok: 0.25,
    }),
    m("judge", "anthropic", { inputUsdPerMTok: 1, outputUsdPerMTok: 5 }),
  ]);
}

/**
 * The records of a run folder's cases.jsonl, in file order.
 *
 * @param runDir The run folder.
 * @returns The records.
 */
export async function readRecords(runDir: string): Promise<CaseRecord[]> {
  const path = join(runDir, "cases.jsonl");
  return parseCaseLines(await Deno.readTextFile(path), path);
}

/**
 * A record's identity in a run: `agent|case|repetition`.
 *
 * @param r The record.
 * @returns The key.
 */
export const recordKey = (r: CaseRecord): string => `${r.agentId}|${r.caseId}|${r.repetition}`;

/**
 * A summary CSV without the wall-time columns (the only measured, run-dependent ones).
 *
 * @param csv summary.csv text.
 * @returns The CSV without `wall_p50_ms` and `wall_p95_ms`.
 */
export function stableSummary(csv: string): string {
  const rows = csv.trimEnd().split("\n").map((l) => l.split(","));
  const drop = new Set(["wall_p50_ms", "wall_p95_ms"].map((c) => rows[0].indexOf(c)));
  return rows.map((r) => r.filter((_, i) => !drop.has(i)).join(",")).join("\n");
}

/**
 * One column of a summary.csv row, as a number.
 *
 * @param csv summary.csv text.
 * @param agentId The row's agent.
 * @param column The column name.
 * @returns The value.
 */
export function summaryValue(csv: string, agentId: string, column: string): number {
  const lines = csv.trimEnd().split("\n");
  const head = lines[0].split(",");
  const row = lines.find((l) => l.startsWith(`${agentId},`))!.split(",");
  return Number(row[head.indexOf(column)]);
}

/** A sweep test's world: its scratch folder, its model registry, and how to tear it down. */
export interface SweepFixture {
  /** Scratch folder (removed by `close`). */
  readonly dir: string;
  /** Model registry file in `dir`: model `claude` on the scripted server, key `${keyVar}`. */
  readonly models: string;
  /** Stops the scripted model and removes `dir`. */
  close(): Promise<void>;
}

/**
 * Installs the filesystem server, starts the scripted model and writes the registry.
 *
 * @param prefix Prefix of the scratch folder's name.
 * @param keyVar Variable the registry's `apiKey` names (the test sets it for the child).
 * @returns The fixture.
 */
export async function sweepFixture(prefix: string, keyVar: string): Promise<SweepFixture> {
  const installed = await installPackages(
    [{ package: "@modelcontextprotocol/server-filesystem", version: "2026.8.31" }],
    { installDir: ".scratch/servers" },
  );
  assert.ok(installed.every((r) => r.status !== "failed"), JSON.stringify(installed));
  const server = startScriptedModelServer(fixturePolicy);
  const dir = await Deno.makeTempDir({ prefix });
  const models = await writeScriptedRegistry(join(dir, "models.json"), [{
    id: "claude",
    provider: "anthropic",
    baseUrl: server.url,
    keyVar,
    pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
  }]);
  return {
    dir,
    models,
    async close() {
      await server.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The model key the agents tests put in `${E2E_KEY}`: a run must never record it. */
export const E2E_KEY = "sk-e2e-SECRET-abcdef123456";

/** Installs the filesystem, memory and everything servers @2026.8.31 into .scratch/servers. */
export async function ensureAgentServers(): Promise<void> {
  const servers = ["server-filesystem", "server-memory", "server-everything"].map((p) => ({
    package: `@modelcontextprotocol/${p}`,
    version: "2026.8.31",
  }));
  const results = await installPackages(servers, { installDir: AGENTS_DEFAULTS.installDir });
  for (const r of results) assert.notEqual(r.status, "failed", `${r.package}: ${r.message}`);
}

/**
 * Runs `fn` with a scripted model server answering `handler`, a scratch folder and the
 * {@linkcode writeAgentsRegistry} registry in it; stops the server and removes the folder after.
 *
 * @param handler The scripted replies.
 * @param fn The test body: server, scratch folder, registry path.
 * @returns What `fn` returned.
 */
export async function withScriptedModel<T>(
  handler: (req: ReceivedRequest) => ScriptedReply | Promise<ScriptedReply>,
  fn: (s: ScriptedModelServer, dir: string, models: string) => Promise<T>,
): Promise<T> {
  const s = startScriptedModelServer(handler);
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-agents-e2e-" });
  try {
    return await fn(s, dir, await writeAgentsRegistry(dir, s.url, s.openaiBaseUrl));
  } finally {
    await s.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
