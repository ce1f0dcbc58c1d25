/**
 * `POST /api/runs`: checks a run request against the working config, freezes the suite and the
 * agents (versions and overrides applied) into `workbench.json`, and queues the run.
 *
 * @module
 */

import { type AgentConfig, type Criterion, EXPOSURES, type Suite } from "../agent/types.ts";
import type { WorkbenchContext } from "./app.ts";
import { checkId, WorkbenchError } from "./_paths.ts";
import { chatModel } from "./config_store.ts";
import type { RunRequest, RunSidecar } from "./run_store.ts";

const KNOWN = new Set([
  "suiteId",
  "agents",
  "repetitions",
  "concurrency",
  "exposure",
  "model",
  "judge",
]);

/** Largest repetitions and concurrency a request may ask for. */
export const MAX_REPETITIONS = 100;
/** Largest cases-in-flight a request may ask for. */
export const MAX_CONCURRENCY = 16;

function intField(body: Record<string, unknown>, name: string, max: number): number {
  const v = body[name];
  if (v === undefined) return 1;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > max) {
    throw new WorkbenchError(
      400,
      `field "${name}" must be an integer from 1 to ${max}, got ${
        typeof v === "number" ? String(v) : JSON.stringify(v)
      }`,
      name,
    );
  }
  return v;
}

/**
 * A run id: `<suiteId>-<yyyymmddThhmmssZ>` (UTC), with `x` appended until `claim` gets it.
 *
 * @param suiteId Suite id.
 * @param iso ISO-8601 UTC time.
 * @param claim Takes an id for the new run: `true` when it is now this run's (its folder was
 *   created), `false` when it was taken. Checking and then creating would give two parallel
 *   requests the same id.
 * @returns The id.
 */
export async function newRunId(
  suiteId: string,
  iso: string,
  claim: (id: string) => Promise<boolean>,
): Promise<string> {
  let id = `${suiteId}-${iso.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}`;
  while (!(await claim(id))) id += "x";
  return id;
}

/** Whether a suite has an `llm_judge` criterion (at any depth). */
export function hasJudge(suite: Suite): boolean {
  const walk = (c: Criterion): boolean =>
    c.type === "llm_judge" || ((c.type === "all" || c.type === "any") && c.criteria.some(walk));
  return suite.cases.some((k) => walk(k.criterion));
}

/**
 * The suite with every `llm_judge` criterion judged by one model (its votes kept).
 *
 * @param suite The suite.
 * @param judge Model registry id.
 * @returns A copy; the input is not changed.
 */
export function withJudge(suite: Suite, judge: string): Suite {
  const swap = (c: Criterion): Criterion => {
    if (c.type === "all" || c.type === "any") return { ...c, criteria: c.criteria.map(swap) };
    if (c.type !== "llm_judge") return c;
    const { model: _m, judges: _j, ...rest } = c;
    return { ...rest, model: judge };
  };
  return { ...suite, cases: suite.cases.map((k) => ({ ...k, criterion: swap(k.criterion) })) };
}

/**
 * Validates a run request and queues it.
 *
 * Defaults: every agent of the config (sorted by id), 1 repetition, 1 case in flight. A
 * selection with a version runs as agent id `<agentId>@<version>`.
 *
 * @param ctx Workbench context.
 * @param body Parsed request body.
 * @returns The new run id.
 * A `judge` (a chat model's registry id) judges every `llm_judge` criterion of the suite in
 * place of the models the suite names (the frozen suite records it), e.g. `scripted` for a run
 * without an API key.
 *
 * @throws {WorkbenchError} 400 naming the field: unknown field, unknown suite, agent, version or
 *   model, an embedding model where a chat model is needed, repetitions or concurrency out of
 *   range, a selection given twice, no agents, or a model the run could not call (its API key
 *   variable unset; a judge's on the `judge` field).
 */
export async function startRun(ctx: WorkbenchContext, body: unknown): Promise<string> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new WorkbenchError(400, "body must be a JSON object with suiteId");
  }
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) {
    if (!KNOWN.has(k)) {
      throw new WorkbenchError(
        400,
        `field "${k}" is not known (known: ${[...KNOWN].join(", ")})`,
        k,
      );
    }
  }
  if (b.suiteId === undefined) {
    throw new WorkbenchError(400, `field "suiteId" is required`, "suiteId");
  }
  const suiteId = checkId(b.suiteId, "suiteId");
  const { suites } = await ctx.config.suiteEntries();
  const entry = suites.find((s) => s.suite.id === suiteId);
  if (entry === undefined) {
    throw new WorkbenchError(
      400,
      `field "suiteId": no suite "${suiteId}" (known: ${suites.map((s) => s.suite.id).join(", ")})`,
      "suiteId",
    );
  }
  const repetitions = intField(b, "repetitions", MAX_REPETITIONS);
  const concurrency = intField(b, "concurrency", MAX_CONCURRENCY);
  let exposure: AgentConfig["exposure"] | undefined;
  if (b.exposure !== undefined && b.exposure !== null && b.exposure !== "") {
    if (!EXPOSURES.includes(b.exposure as never)) {
      throw new WorkbenchError(
        400,
        `field "exposure" must be one of ${EXPOSURES.join(", ")}, got ${
          JSON.stringify(b.exposure)
        }`,
        "exposure",
      );
    }
    exposure = b.exposure as AgentConfig["exposure"];
  }
  const models = await ctx.config.loadModels();
  const given = (v: unknown) => v !== undefined && v !== null && v !== "";
  const model = given(b.model) ? chatModel(models, b.model, "model").id : undefined;
  const judge = given(b.judge) ? chatModel(models, b.judge, "judge").id : undefined;
  if (judge !== undefined && !hasJudge(entry.suite)) {
    throw new WorkbenchError(
      400,
      `field "judge": suite "${suiteId}" has no llm_judge criterion to judge`,
      "judge",
    );
  }
  const suite = judge === undefined ? entry.suite : withJudge(entry.suite, judge);
  const known = await ctx.config.loadAgents();
  const selections = b.agents === undefined ? known.map((a) => ({ agentId: a.id })) : b.agents;
  if (!Array.isArray(selections) || selections.length === 0) {
    throw new WorkbenchError(400, `field "agents" must be a non-empty array`, "agents");
  }
  const agents: AgentConfig[] = [];
  const picked: { agentId: string; version?: string | null }[] = [];
  for (const [i, s] of selections.entries()) {
    const at = `agents[${i}]`;
    if (typeof s !== "object" || s === null || Array.isArray(s)) {
      throw new WorkbenchError(400, `field "${at}" must be {agentId, version?}`, at);
    }
    const sel = s as Record<string, unknown>;
    const extra = Object.keys(sel).find((k) => k !== "agentId" && k !== "version");
    if (extra !== undefined) {
      throw new WorkbenchError(400, `field "${at}.${extra}" is not known`, `${at}.${extra}`);
    }
    const agentId = checkId(sel.agentId, `${at}.agentId`);
    const base = known.find((a) => a.id === agentId);
    if (base === undefined) {
      throw new WorkbenchError(
        400,
        `field "${at}.agentId": no agent "${agentId}" (known: ${
          known.map((a) => a.id).join(", ")
        })`,
        `${at}.agentId`,
      );
    }
    let agent = base;
    const version = sel.version;
    if (version !== undefined && version !== null) {
      if (typeof version !== "string" && typeof version !== "number") {
        throw new WorkbenchError(400, `field "${at}.version" must be a string`, `${at}.version`);
      }
      const v = await ctx.versions.resolve(agentId, String(version));
      if (v === undefined) {
        throw new WorkbenchError(
          400,
          `field "${at}.version": agent "${agentId}" has no version ${JSON.stringify(version)}`,
          `${at}.version`,
        );
      }
      agent = { ...v, id: `${agentId}@${version}` };
    }
    if (agents.some((a) => a.id === agent.id)) {
      throw new WorkbenchError(400, `field "${at}" selects "${agent.id}" twice`, at);
    }
    agents.push({
      ...agent,
      ...(exposure ? { exposure } : {}),
      ...(model ? { model } : {}),
    });
    picked.push({ agentId, ...(version !== undefined ? { version: version as string } : {}) });
  }
  // A run that cannot read its config or reach its models would only fail: refuse it before it
  // exists (a top-level file linked from outside the folder is refused here), on the field that
  // chose the model (the agents' or the judge's).
  await ctx.config.files();
  const agentsOnly = { ...suite, cases: [] };
  const problem = await ctx.preflight?.(agents, agentsOnly);
  if (problem) throw new WorkbenchError(400, problem, model === undefined ? "agents" : "model");
  const judgeProblem = await ctx.preflight?.([], suite);
  if (judgeProblem) {
    throw new WorkbenchError(
      400,
      `${judgeProblem.replace(/; restart the workbench.*$/, "")}; choose a judge model${
        models.some((m) => m.simulated) ? " (scripted needs no key)" : ""
      }`,
      "judge",
    );
  }
  const request: RunRequest = {
    suiteId,
    agents: picked,
    repetitions,
    concurrency,
    ...(exposure ? { exposure } : {}),
    ...(model ? { model } : {}),
    ...(judge ? { judge } : {}),
  };
  const createdAt = ctx.isoNow();
  const runId = await newRunId(suiteId, createdAt, (id) => ctx.runs.claim(id));
  const sidecar: RunSidecar = {
    schemaVersion: 1,
    runId,
    createdAt,
    request,
    suite,
    suiteFile: entry.file,
    agents,
  };
  await ctx.runs.writeSidecar(sidecar);
  ctx.queue.enqueue(runId, false);
  return runId;
}

/**
 * `POST /api/runs/{id}/resume`: queues an interrupted or failed run again; the runner skips the
 * cases already recorded.
 *
 * @param ctx Workbench context.
 * @param runId Run id.
 * @throws {WorkbenchError} 404 for an unknown run; 409 when it is queued, running or completed,
 *   or has no `workbench.json` (a CLI run: resume it with `deno task agents --resume`); 400
 *   when a model it uses could not be called (its API key variable unset).
 */
export async function resumeRun(ctx: WorkbenchContext, runId: string): Promise<void> {
  const run = await ctx.runs.get(runId);
  if (run.state !== "interrupted" && run.state !== "failed") {
    throw new WorkbenchError(
      409,
      `run "${runId}" is ${run.state}; only an interrupted or failed run resumes`,
    );
  }
  const sidecar = await ctx.runs.sidecar(runId);
  if (sidecar === null) {
    throw new WorkbenchError(
      409,
      `run "${runId}" was made by the CLI; resume it with deno task agents --resume ${runId}`,
    );
  }
  // Resuming into the same missing key would only fail again.
  const problem = await ctx.preflight?.(sidecar.agents, sidecar.suite);
  if (problem) throw new WorkbenchError(400, `cannot resume run "${runId}": ${problem}`);
  ctx.queue.enqueue(runId, true);
}
