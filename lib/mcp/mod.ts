/**
 * Live capture of MCP tool catalogs: read a servers config in the standard
 * `mcpServers` shape, start each server (stdio, or streamable HTTP/SSE),
 * `initialize`, list its tools (following `nextCursor`, leniently), prompts
 * and resources, kill its process tree, and write the mcpmeter capture format
 * plus a manifest.
 *
 * Pure parts: {@linkcode parseServersConfig}, {@linkcode expandServerEntry},
 * {@linkcode normalizeRecord}, {@linkcode toCaptureFile},
 * {@linkcode toCaptureManifest}. Edges (processes,
 * network, files): `captureServers` (`io.ts`), `captureStdioServer` (`io.ts`),
 * `captureRemoteServer` (`io.ts`), `installPackages` (`io.ts`).
 *
 * @example
 * ```ts
 * import { parseServersConfig, toCaptureFile } from "./mod.ts";
 * const config = parseServersConfig('{"mcpServers":{"m":{"command":"node","args":["m.js"]}}}');
 * if (config.servers.length !== 1) throw new Error();
 * const file = toCaptureFile([], { id: "empty", version: "1", source: {} });
 * if (file.toolCount !== 0) throw new Error();
 * ```
 *
 * @module
 */

export {
  expandServerEntry,
  filePathProblem,
  parseServersConfig,
  type ParseServersConfigOptions,
  referencedVariables,
  type RemoteServerEntry,
  type RemoteTransport,
  type ServerEntry,
  type ServerMeta,
  type ServersConfig,
  type StdioServerEntry,
} from "./config.ts";
export { ConfigError, PaginationError } from "./errors.ts";
export { InputFileError } from "../core/errors.ts";
export {
  DEFAULT_SETTLE_MS,
  listAll,
  type ListChangeWatcher,
  listChangeWatcher,
  type ListingClient,
  type ListMethod,
  type ListOptions,
  listServer,
  MAX_LIST_PAGES,
  MAX_RELISTS,
  type PagedList,
  type ServerListing,
} from "./list.ts";
export { CLIENT_INFO } from "./client_info.ts";
export { DEFAULT_SERVER_TIMEOUT_MS, MAX_WARNINGS_PER_SERVER, STDERR_TAIL_CHARS } from "./stdio.ts";
export {
  type McpSession,
  SESSION_FOLDER_PREFIX,
  type SessionClient,
  SessionStartError,
  type SessionToolResult,
  type StdioSession,
} from "./session.ts";
export {
  CAPTURE_FORMAT,
  CAPTURE_FORMAT_VERSION,
  type CaptureFile,
  type CaptureFileMeta,
  type CaptureFileServer,
  toCaptureFile,
} from "./capture_file.ts";
export {
  DEFAULT_LOOKBACK_DAYS,
  type Normalization,
  NORMALIZATION_RULES,
  type NormalizationRule,
  type NormalizeOptions,
  normalizeRecord,
} from "./volatile_text.ts";
export { MANIFEST_FORMAT, type ManifestInfo, toCaptureManifest } from "./manifest.ts";
export { type InstalledPackage, packageDirName, type PackageSpec, resolveBin } from "./install.ts";
export {
  type Launch,
  type LauncherEcosystem,
  parseLaunch,
  pinLaunch,
  splitNpmSpec,
  uninstallableReason,
} from "./launchers.ts";
export type { JsonObject, JsonValue } from "../catalog/types.ts";
export type {
  CaptureOutcome,
  CaptureTransport,
  ProcessExit,
  RunPath,
  ServerCaptureRecord,
} from "./types.ts";
export {
  checkStructuredContent,
  type StructuredContentError,
  type StructuredContentErrorKind,
} from "./structured.ts";
