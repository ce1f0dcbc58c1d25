/**
 * The I/O edge of lib/agent: agent version files, configuration loaders, model clients (HTTP
 * through the vendors' SDKs), the `run_code` sandbox (a subprocess), MCP tool hosts (server
 * processes), suite runs (run folders) and the file response cache.
 *
 * @module
 */
export {
  type CutResult,
  cutVersion,
  listVersions,
  resolveAgentSelections,
  versionRefsFor,
  versionsDirFor,
} from "./load_versions.ts";
export { createModelClient, type ModelClientDeps } from "./providers/client.ts";
export { runCode, type RunCodeOptions, type RunCodeResult } from "./run_code.ts";
export { type RunOutcome, runSuite, type RunSuiteOptions } from "./run.ts";
export { loadAgents, loadEnv, loadModels, loadSuite, loadToolPrices } from "./load_config.ts";
export { readCaseRecords } from "./run_folder.ts";
export {
  parseCaseLines,
  readRun,
  type RunDoc,
  type RunFiles,
  RunInputError,
  type SweepFile,
} from "./read_run.ts";
export { readMaverikFolder, writeMaverikImport } from "./maverik_io.ts";
export { createFileResponseStore } from "./providers/cache.ts";
export {
  CODE_SERVER_NAME,
  DEFAULT_MCP_TIMEOUT_MS,
  DEFAULT_RUN_CODE_TIMEOUT_MS,
  hostSessions,
  McpHostError,
  type McpServerSpec,
  type McpToolHost,
  openMcpHost,
  type OpenMcpHostOptions,
  PROXY_SERVER_NAME,
} from "./mcp_host.ts";
export { realSleep } from "./providers/retry.ts";
export { contextCollaborators } from "./context_setup.ts";
export {
  type AgentServers,
  NO_MODEL_HELP,
  prepareAgentServers,
  type PrepareOptions,
} from "./agent_servers.ts";
export {
  createDemoPolicy,
  type ReceivedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
  startDemoModelServer,
} from "./demo_policy.ts";
export type { WireProvider } from "./_scripted_model_server.ts";
export type { Tokenizer } from "../tokens/types.ts";
export { type MemoryRunFolder, memoryRunFolder, type RunFolder, runFolder } from "./run_folder.ts";
