/**
 * The audit of the MCP clients configured on a machine: which clients (Claude Code, Claude
 * Desktop, Cursor, VS Code, Windsurf, Gemini CLI, Codex, Zed, Copilot CLI, Cline, Roo Code, Kiro, Amazon Q CLI, opencode, LM Studio) start which servers, what those servers'
 * tools cost each request in that client's provider format, and whether the client defers them.
 *
 * Pure parts: {@linkcode discoverConfigs} and {@linkcode readConfigFile} (given a file reader),
 * {@linkcode readServerEntry}, {@linkcode resolvePosture}. The disk: `findConfigs` (`io.ts`).
 *
 * @example Usage
 * ```ts
 * import { resolvePosture } from "./mod.ts";
 * const p = resolvePosture({ kind: "cursor" }, { toolTokens: 0, contextWindow: 1, toolCount: 0 });
 * if (p.state !== "deferred") throw new Error(p.rule);
 * ```
 *
 * @module
 */
export {
  type ClientId,
  type ClientInfo,
  CLIENTS,
  DEFAULT_CONTEXT_WINDOW,
  familyOf,
  isClientId,
  type ModelFamily,
} from "./clients.ts";
export { ConfigSyntaxError, type JsonDialect, parseConfigText } from "./config_text.ts";
export {
  bindVariables,
  type ConfiguredServer,
  entryVariables,
  type FolderVariables,
  launchLabel,
  readServerEntry,
  type ToolFilter,
} from "./entries.ts";
export {
  type ClientConfig,
  type ConfigProblem,
  discoverConfigs,
  type DiscoverOptions,
  type Discovery,
  type Platform,
  readConfigFile,
  tilde,
} from "./discover.ts";
export {
  type DeferralInputs,
  type DeferralPosture,
  type PostureFigures,
  readVariable,
  resolvePosture,
  type SettingsLayer,
  type VariableRead,
} from "./posture.ts";
export type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
export type { SentFormat, SentTool } from "../catalog/sent.ts";
export type {
  CaptureOutcome,
  CaptureTransport,
  ProcessExit,
  RunPath,
  ServerCaptureRecord,
} from "../mcp/types.ts";
export type { ListMethod } from "../mcp/list.ts";
export type { BillingProvider } from "../billing/mod.ts";
export type {
  RemoteServerEntry,
  RemoteTransport,
  ServerEntry,
  ServerMeta,
  StdioServerEntry,
} from "../mcp/config.ts";
export {
  amazonQToolName,
  AUDIT_SCHEMA_VERSION,
  type BilledEstimate,
  BILLING_OF_FAMILY,
  buildConfigReport,
  clientToolName,
  codexToolName,
  type ConfigReport,
  DEFAULT_HEAVIEST,
  geminiCliToolName,
  opencodeToolName,
  type Removal,
  type ReportOptions,
  sentToolOf,
  type ServerReport,
  type ServerStatus,
  type SessionStart,
  type ToolCost,
} from "./report.ts";
export {
  type AuditReport,
  FORMAT_NAMES,
  ifDeferredLine,
  PROVIDER_NAMES,
  renderAudit,
  renderConfig,
  serverWarnings,
  sessionStartHow,
} from "./render.ts";
export {
  type AuditBaseline,
  baselineProblem,
  gateAudit,
  type GateResult,
  type GrowthLimit,
  parseGrowthLimit,
  toBaseline,
} from "./baseline.ts";
