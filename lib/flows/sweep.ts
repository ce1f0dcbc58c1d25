/**
 * The flow behind `deno task sweep`: expands a base agent into the cross product of varied
 * parameters, resolves prompt and overrides files, and writes the generated agents
 * (`<run>/sweep/*.json`) and `<run>/sweep.json`, ready for `deno task agents`.
 *
 * @module
 */
import { claimRunDir } from "../agent/run_folder.ts";
import { join, resolve } from "node:path";
import { loadAgents, loadSuite } from "../agent/io.ts";
import { loadToolOverrides } from "../catalog/io.ts";
import type { ToolOverrides } from "../catalog/mod.ts";
import { AgentConfigError } from "../agent/mod.ts";
import { expandSweep, parseVary, type SweepParameter } from "../sweep/mod.ts";
import { UsageError } from "../core/errors.ts";
import { userFolder } from "../core/paths.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import { checkRunId } from "./agents.ts";

/** What a sweep varies and where it writes. */
export interface PrepareSweepOptions {
  /** Id of the base agent. */
  readonly base: string;
  /** `NAME=V1,V2` specs, one per varied parameter. */
  readonly vary: readonly string[];
  /** Suite file. */
  readonly suite: string;
  /** Agents file or folder holding the base agent. */
  readonly agentsDir: string;
  /** Runs folder. */
  readonly out: string;
  /** Run name. @default {`<suite>-sweep-<UTC time>`} */
  readonly runId?: string;
}

/** A prepared sweep: where its generated agents are, and how many. */
export interface PreparedSweep {
  /** Run name. */
  readonly runId: string;
  /** `out/runId`. */
  readonly runDir: string;
  /** Folder of the generated agent files (pass as `--agents-dir`). */
  readonly sweepDir: string;
  /** Generated agents. */
  readonly agents: number;
  /** One line for the progress log. */
  readonly summary: string;
}

/** A file named by a sweep value: the first candidate that is a readable file. */
async function findFile(
  value: string,
  candidates: readonly string[],
  what: string,
): Promise<string> {
  for (const c of candidates) {
    if (await Deno.stat(c).then((st) => st.isFile, () => false)) return c;
  }
  throw new UsageError(`cannot read ${what} "${value}" (looked in ${candidates.join(", ")})`);
}

/**
 * Prepares a sweep run: checks the parameters, loads the base agent and suite, reads the
 * prompt files (values ending in .md or .txt, looked up beside the agents, in their `prompts/`,
 * then in the folder the user ran the task from, lib/core/paths.ts) and overrides files (beside
 * the agents, then that folder; `none` drops the base agent's overrides), and writes the generated agents and
 * sweep.json.
 *
 * @param options Base agent, parameters, suite, folders.
 * @param io Wall clock for the default run id. @default {denoFlowIo()}
 * @returns The prepared run.
 * @throws {UsageError} On a run id that is not one or names a folder that exists, a malformed `--vary`, an unknown base agent, an unreadable suite,
 *   prompt or overrides file, or a combination {@linkcode expandSweep} refuses.
 */
export async function prepareSweep(
  options: PrepareSweepOptions,
  io: Pick<FlowIo, "epochNow"> = denoFlowIo(),
): Promise<PreparedSweep> {
  if (options.runId !== undefined) checkRunId(options.runId, "--run-id");
  let params: SweepParameter[];
  try {
    params = options.vary.map(parseVary);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { agentsDir } = options;
  let base, suite;
  try {
    const agents = await loadAgents(agentsDir);
    base = agents.find((a) => a.id === options.base);
    if (!base) {
      throw new UsageError(
        `no agent "${options.base}" in ${agentsDir}; known: ${agents.map((a) => a.id).join(", ")}`,
      );
    }
    suite = await loadSuite(options.suite);
  } catch (e) {
    if (e instanceof AgentConfigError) throw new UsageError(e.message);
    throw e;
  }
  const agentsBase = (await Deno.stat(agentsDir)).isDirectory ? agentsDir : join(agentsDir, "..");
  const values = (name: string) => params.find((p) => p.name === name)?.values ?? [];
  const prompts: Record<string, string> = {};
  for (const value of values("systemPrompt").filter((v) => /\.(md|txt)$/i.test(v))) {
    const at = await findFile(value, [
      resolve(agentsBase, value),
      resolve(agentsBase, "prompts", value),
      resolve(userFolder(), value),
    ], "prompt file");
    prompts[value] = await Deno.readTextFile(at);
  }
  const overrides: Record<string, ToolOverrides> = {};
  for (const value of values("overrides").filter((v) => v !== "none")) {
    const at = await findFile(
      value,
      [resolve(agentsBase, value), resolve(userFolder(), value)],
      "overrides file",
    );
    overrides[value] = await loadToolOverrides(at, value);
  }
  let expanded;
  try {
    expanded = expandSweep(base, params, prompts, overrides);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const runId = options.runId ??
    `${suite.id}-sweep-${
      new Date(io.epochNow()).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")
    }`;
  const runDir = join(options.out, runId);
  if (!(await claimRunDir(options.out, runId))) {
    // Writing the generated agents into it would change a run that is already there.
    throw new UsageError(
      `run "${runId}" already exists (${runDir}): finish it with --resume ${runId}, or give ` +
        "another --run-id",
    );
  }
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
  return {
    runId,
    runDir,
    sweepDir,
    agents: expanded.length,
    summary: `${expanded.length} agent(s) from "${base.id}" (${
      params.map((p) => `${p.name} × ${p.values.length}`).join(", ")
    }) → ${runDir}`,
  };
}

/**
 * Removes a sweep's own files when its run never started (no run.json: the agents task refused
 * its input), so `report` and `gate` never meet a run folder without run.json.
 *
 * @param runDir The sweep's run folder.
 * @returns Whether it was removed.
 */
export async function removeUnstartedSweep(runDir: string): Promise<boolean> {
  if (await Deno.stat(join(runDir, "run.json")).then(() => true, () => false)) return false;
  await Deno.remove(runDir, { recursive: true });
  return true;
}
