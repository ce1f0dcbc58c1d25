/**
 * Agent versions: a frozen, numbered snapshot of an agent's resolved configuration (the system
 * prompt inlined), its SHA-256, the `id@N` selection syntax, and which version a live
 * configuration equals. Pure; `load_versions.ts` reads and writes the version files.
 *
 * @module
 */
import type { AgentConfig } from "./types.ts";
import { stableJson } from "../core/json.ts";
import { sha256Hex } from "../catalog/load.ts";

/** One version file, `versions/<agentId>/<version>.json` beside the agents. */
export interface AgentVersion {
  /** The agent's id. */
  readonly agentId: string;
  /** 1-based version number. */
  readonly version: number;
  /** SHA-256 (lower-case hex) of the configuration, see {@linkcode snapshotSha256}. */
  readonly sha256: string;
  /** When it was cut, ISO 8601 (provenance only; not hashed). */
  readonly createdAt: string;
  /** The resolved configuration (system prompt inlined), `id` = `agentId`. */
  readonly config: AgentConfig;
}

/** Which version of an agent a run used, as `run.json` `agentVersions.<record agent id>` holds it. */
export interface AgentVersionRef {
  /** The agent's id (without `@N`). */
  readonly agentId: string;
  /** Version run, or `null` for the live configuration. */
  readonly version: number | null;
  /** SHA-256 of the configuration run. */
  readonly snapshotSha256: string;
  /** For the live configuration: the version it equals, `null` when none; for a version: `null`. */
  readonly equalsVersion: number | null;
}

/**
 * SHA-256 of an agent's resolved configuration: sorted-key JSON of the config with `id` set to
 * the agent's own id (so `a@2` and the live `a` hash alike when they are the same config).
 *
 * @param config Resolved configuration (prompt inlined).
 * @param agentId The agent's own id. @default config.id without `@N`
 * @returns Lower-case hex digest.
 *
 * @example Usage
 * ```ts
 * import { snapshotSha256 } from "./versions.ts";
 * const a = { id: "a", description: "", model: "m", systemPrompt: "p", mcpServers: [],
 *   exposure: "direct" as const, loop: "sequential" as const, maxIterations: 5, maxOutputTokens: 10 };
 * if (await snapshotSha256(a) !== await snapshotSha256({ ...a, id: "a@3" })) throw new Error();
 * ```
 */
export function snapshotSha256(config: AgentConfig, agentId?: string): Promise<string> {
  const id = agentId ?? parseAgentSelection(config.id).agentId;
  return sha256Hex(stableJson({ ...config, id }, { indent: 0 }));
}

/**
 * Parses an agent selection: `id` (the live configuration) or `id@N` (version N ≥ 1).
 *
 * @param text E.g. `fs-terse@2`.
 * @returns `{agentId, version}` (`version` `null` for the live configuration).
 * @throws {RangeError} on an empty id or a version that is not an integer ≥ 1.
 */
export function parseAgentSelection(
  text: string,
): { readonly agentId: string; readonly version: number | null } {
  const at = text.lastIndexOf("@");
  if (at < 0) {
    if (text.trim() === "") throw new RangeError(`Cannot select agent "${text}": empty id`);
    return { agentId: text, version: null };
  }
  const agentId = text.slice(0, at);
  const v = text.slice(at + 1);
  if (agentId === "" || !/^[1-9]\d*$/.test(v)) {
    throw new RangeError(
      `Cannot select agent "${text}": expected ID or ID@N with N a version number >= 1`,
    );
  }
  return { agentId, version: Number(v) };
}

/**
 * The version whose hash equals a live configuration's, if any (the newest such).
 *
 * @param versions The agent's versions.
 * @param sha256 The live configuration's {@linkcode snapshotSha256}.
 * @returns The version number, or `null`.
 */
export function matchingVersion(
  versions: readonly AgentVersion[],
  sha256: string,
): number | null {
  const hits = versions.filter((v) => v.sha256 === sha256).map((v) => v.version);
  return hits.length === 0 ? null : Math.max(...hits);
}
