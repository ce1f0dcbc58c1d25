/**
 * The I/O edge of lib/mcp: installing pinned npm servers, spawning and capturing servers over stdio and HTTP, and long-lived sessions (processes, network, scratch folders).
 *
 * @module
 */
export { captureStdioServer, type StdioCaptureOptions } from "./stdio.ts";
export { captureRemoteServer, type RemoteCaptureOptions } from "./http.ts";
export type { CaptureOptionsBase } from "./_capture.ts";
export {
  createSessionFolder,
  openRemoteSession,
  openSession,
  openStdioSession,
  type RemoteSessionOptions,
  removeStaleSessionFolders,
  STALE_SESSION_MIN_AGE_MS,
  type StdioSessionOptions,
} from "./session.ts";
export {
  type CaptureOptions,
  type CaptureProgress,
  captureServers,
  DEFAULT_CAPTURE_CONCURRENCY,
} from "./capture.ts";
export {
  installedVersions,
  type InstallOptions,
  installPackages,
  type InstallResult,
  packageVars,
  readInstalledPackage,
  resolveNpmVersion,
  type ResolveVersionOptions,
} from "./install.ts";
export {
  installLaunches,
  type InstallLaunchesOptions,
  type LaunchNote,
  mergePrepared,
  prepareCapture,
  type PrepareCaptureOptions,
  type PreparedCapture,
} from "./prepare.ts";
export { detectIsolation, type IsolationMode } from "./_sandbox.ts";
