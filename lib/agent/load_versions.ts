/**
 * Version files of agents: `<agents folder>/versions/<agentId>/<N>.json` (beside the agent
 * files, where `loadAgents` does not look). Cutting writes version N + 1 with an exclusive
 * create, so two cuts never share a number; nothing is rewritten. File edge of `versions.ts`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { AgentConfig } from "./types.ts";
import { AgentConfigError } from "./config.ts";
import {
  type AgentVersion,
  type AgentVersionRef,
  matchingVersion,
  parseAgentSelection,
  snapshotSha256,
} from "./versions.ts";
import { stableJson } from "../core/json.ts";
import { idProblem } from "../core/ids.ts";

/** The folder of an agent's versions; an id that could name another folder is refused. */
function agentVersionsDir(versionsDir: string, agentId: string): string {
  const problem = idProblem(agentId);
  if (problem !== undefined) {
    throw new AgentConfigError("agent version", versionsDir, "agentId", `is not an id: ${problem}`);
  }
  return join(versionsDir, agentId);
}

/**
 * The versions folder for an agents path: `<folder>/versions` for a folder of agent files, or
 * `<folder of the file>/versions` for one agents file.
 *
 * @param agentsPath File or folder given to `loadAgents`.
 * @returns The versions folder path.
 */
export async function versionsDirFor(agentsPath: string): Promise<string> {
  const stat = await Deno.stat(agentsPath).catch(() => null);
  return join(stat?.isDirectory ? agentsPath : dirname(agentsPath), "versions");
}

/**
 * The versions of one agent, oldest first; none when the folder is missing.
 *
 * @param versionsDir Versions folder.
 * @param agentId Agent id.
 * @returns Versions sorted by number.
 * @throws {AgentConfigError} on an agent id that is not an id (`../x`: it would name another
 *   folder), or a version file that is not JSON or whose number or id disagrees with its path.
 */
export async function listVersions(versionsDir: string, agentId: string): Promise<AgentVersion[]> {
  const dir = agentVersionsDir(versionsDir, agentId);
  const out: AgentVersion[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      const m = /^([1-9]\d*)\.json$/.exec(e.name);
      if (!e.isFile || !m) continue;
      const path = join(dir, e.name);
      let v: AgentVersion;
      try {
        v = JSON.parse(await Deno.readTextFile(path));
      } catch (err) {
        throw new AgentConfigError(
          "agent version",
          path,
          "",
          `is not JSON (${(err as Error).message})`,
        );
      }
      if (v.version !== Number(m[1]) || v.agentId !== agentId || typeof v.sha256 !== "string") {
        throw new AgentConfigError(
          "agent version",
          path,
          "version",
          `does not match its path (agent "${agentId}", version ${m[1]})`,
        );
      }
      out.push(v);
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return out.sort((a, b) => a.version - b.version);
}

/** What {@linkcode cutVersion} did. */
export interface CutResult {
  /** The version written, or the existing one the configuration equals. */
  readonly version: AgentVersion;
  /** `false` when the configuration equals the latest version (nothing written). */
  readonly created: boolean;
  /** The file of the version. */
  readonly path: string;
}

/**
 * Cuts a version of an agent: when its resolved configuration differs from the latest version
 * (or there is none), writes version N + 1; otherwise returns the latest and writes nothing.
 *
 * @param versionsDir Versions folder.
 * @param agent Resolved configuration (live, prompt inlined).
 * @param now ISO time for `createdAt`.
 * @returns The version and whether it was created.
 * @throws {AgentConfigError} on unreadable version files.
 */
export async function cutVersion(
  versionsDir: string,
  agent: AgentConfig,
  now: string,
): Promise<CutResult> {
  const existing = await listVersions(versionsDir, agent.id);
  const sha256 = await snapshotSha256(agent, agent.id);
  const latest = existing[existing.length - 1];
  const dir = agentVersionsDir(versionsDir, agent.id);
  if (latest && latest.sha256 === sha256) {
    return { version: latest, created: false, path: join(dir, `${latest.version}.json`) };
  }
  await Deno.mkdir(dir, { recursive: true });
  let n = (latest?.version ?? 0) + 1;
  for (;;) {
    const version: AgentVersion = {
      agentId: agent.id,
      version: n,
      sha256,
      createdAt: now,
      config: agent,
    };
    const path = join(dir, `${n}.json`);
    try {
      await Deno.writeTextFile(path, stableJson(version), { createNew: true });
      return { version, created: true, path };
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      n += 1; // a concurrent cut took this number
    }
  }
}

/**
 * Resolves agent selections (`id` or `id@N`) against the live agents and their versions. A
 * version runs under the id `id@N` (so two versions can share a run); the live configuration
 * keeps its id and records the version it equals.
 *
 * @param selections E.g. `["fs-terse", "fs-terse@1"]`.
 * @param live Live agents (from `loadAgents`).
 * @param versionsDir Versions folder.
 * @returns The configurations to run and `agentVersions` for run.json, keyed by run agent id.
 * @throws {AgentConfigError} for an unknown agent or version (the message lists the known ones).
 */
export async function resolveAgentSelections(
  selections: readonly string[],
  live: readonly AgentConfig[],
  versionsDir: string,
): Promise<{ agents: AgentConfig[]; agentVersions: Record<string, AgentVersionRef> }> {
  const agents: AgentConfig[] = [];
  const agentVersions: Record<string, AgentVersionRef> = {};
  for (const sel of selections) {
    let parsed;
    try {
      parsed = parseAgentSelection(sel);
    } catch (e) {
      throw new AgentConfigError(
        "agent",
        sel,
        "",
        (e as Error).message.replace(/^Cannot select agent "[^"]*": /, ""),
      );
    }
    const versions = await listVersions(versionsDir, parsed.agentId);
    if (parsed.version === null) {
      const a = live.find((x) => x.id === parsed.agentId);
      if (!a) {
        throw new AgentConfigError(
          "agent",
          sel,
          "",
          `is unknown; known: ${live.map((x) => x.id).join(", ")}`,
        );
      }
      const sha = await snapshotSha256(a, a.id);
      agents.push(a);
      agentVersions[a.id] = {
        agentId: a.id,
        version: null,
        snapshotSha256: sha,
        equalsVersion: matchingVersion(versions, sha),
      };
    } else {
      const v = versions.find((x) => x.version === parsed.version);
      if (!v) {
        throw new AgentConfigError(
          "agent",
          sel,
          "",
          `has no version ${parsed.version} in ${join(versionsDir, parsed.agentId)} (versions: ${
            versions.map((x) => x.version).join(", ") ||
            "none; cut one with deno task agents --cut-version " + parsed.agentId
          })`,
        );
      }
      const id = `${parsed.agentId}@${v.version}`;
      agents.push({ ...v.config, id });
      agentVersions[id] = {
        agentId: parsed.agentId,
        version: v.version,
        snapshotSha256: v.sha256,
        equalsVersion: null,
      };
    }
  }
  return { agents, agentVersions };
}

/**
 * `agentVersions` for run.json from agents already resolved (ids `ID` or `ID@N`, e.g. the
 * workbench's): a version records its number and the hash of the configuration as it runs (an
 * override of exposure or model changes the hash); a live agent records its hash and the version
 * it equals.
 *
 * @param agents Agents as they will run.
 * @param versionsDir Versions folder.
 * @returns Record agent id → version reference.
 * @throws {AgentConfigError} on unreadable version files.
 */
export async function versionRefsFor(
  agents: readonly AgentConfig[],
  versionsDir: string,
): Promise<Record<string, AgentVersionRef>> {
  const out: Record<string, AgentVersionRef> = {};
  for (const a of agents) {
    const { agentId, version } = parseAgentSelection(a.id);
    const sha = await snapshotSha256(a, agentId);
    out[a.id] = {
      agentId,
      version,
      snapshotSha256: sha,
      equalsVersion: version === null
        ? matchingVersion(await listVersions(versionsDir, agentId), sha)
        : null,
    };
  }
  return out;
}
