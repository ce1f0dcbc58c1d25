/**
 * Agent versions for the workbench: the {@linkcode AgentVersions} provider over the version
 * files beside the working config's agents (`<config>/agents/versions/<id>/<N>.json`, the same
 * files `deno task agents --cut-version` writes), plus cutting a version from the live agent.
 *
 * @module
 */
import type { AgentConfig } from "../agent/types.ts";
import type { AgentVersion } from "../agent/versions.ts";
import { type CutResult, cutVersion, listVersions, versionsDirFor } from "../agent/io.ts";
import type { AgentVersions } from "./app.ts";
import type { ConfigStore } from "./config_store.ts";
import { checkId, WorkbenchError } from "./_paths.ts";

/** The provider plus cutting. */
export interface WorkbenchVersions extends AgentVersions {
  /**
   * Cuts a version of a live agent (nothing written when it equals the latest version).
   *
   * @param agentId Agent id.
   * @param now ISO time recorded as `createdAt`.
   * @returns The cut (or matching) version.
   * @throws {WorkbenchError} 404 for an unknown agent.
   */
  cut(agentId: string, now: string): Promise<CutResult>;
  /**
   * Every version of an agent with its configuration, newest first.
   *
   * @param agentId Agent id.
   */
  all(agentId: string): Promise<AgentVersion[]>;
}

/**
 * Versions over a working config.
 *
 * @param config The config store.
 * @returns The provider.
 */
export function createAgentVersions(config: ConfigStore): WorkbenchVersions {
  // files(): refused when agents/ links out of the config folder.
  const dir = async () => versionsDirFor((await config.files()).agentsDir);
  return {
    async resolve(agentId: string, version: string): Promise<AgentConfig | undefined> {
      checkId(agentId, "agentId");
      if (!/^[1-9]\d*$/.test(version)) return undefined;
      const v = (await listVersions(await dir(), agentId)).find((x) =>
        x.version === Number(version)
      );
      return v?.config;
    },
    async list(agentId: string) {
      checkId(agentId, "agentId");
      return (await listVersions(await dir(), agentId)).reverse().map((v) => ({
        version: String(v.version),
        cutAt: v.createdAt,
      }));
    },
    async all(agentId: string): Promise<AgentVersion[]> {
      return (await listVersions(await dir(), agentId)).reverse();
    },
    async cut(agentId: string, now: string): Promise<CutResult> {
      checkId(agentId, "agentId");
      const agent = (await config.loadAgents()).find((a) => a.id === agentId);
      if (!agent) throw new WorkbenchError(404, `no agent "${agentId}"`, "agentId");
      return await cutVersion(await dir(), agent, now);
    },
  };
}
