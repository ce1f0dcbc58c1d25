/**
 * File edges of lib/agent that tasks use beside `mod.ts`: agent version files.
 *
 * @module
 */
export {
  type CutResult,
  cutVersion,
  listVersions,
  resolveAgentSelections,
  versionsDirFor,
} from "./load_versions.ts";
