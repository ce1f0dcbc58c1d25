/**
 * Gets a servers config ready for an offline capture: package-runner launches
 * (`npx -y pkg`, `pnpm dlx`, `bunx`, `uvx`, ...) become pinned package entries,
 * every pinned npm package is installed into the scratch folder before any
 * server starts, and entries that cannot be started offline fail at once with
 * their reason instead of timing out.
 *
 * I/O edge: runs npm through the injected {@linkcode PrepareCaptureOptions.resolveVersion}
 * and {@linkcode PrepareCaptureOptions.install}.
 *
 * @module
 */
import type { ServerEntry, ServersConfig, StdioServerEntry } from "./config.ts";
import {
  installedVersions,
  installPackages,
  type InstallResult,
  type PackageSpec,
  readInstalledPackage,
  resolveNpmVersion,
} from "./install.ts";
import { type Launch, parseLaunch, pinLaunch, uninstallableReason } from "./launchers.ts";
import { oneLine } from "../core/text.ts";
import type { ServerCaptureRecord } from "./types.ts";
import { spawnFailedRecord } from "./_capture.ts";

/** What happened to one entry's launch. */
export interface LaunchNote {
  /** Config key. */
  readonly server: string;
  /** The launch as recognised. */
  readonly launch: Launch;
  /** The exact version pinned (requested, or resolved from `latest`/a range). */
  readonly version?: string;
  /** A warning for the capture record (unpinned launches). */
  readonly warning?: string;
  /** Why the entry cannot be started offline, when it cannot. */
  readonly failure?: string;
}

/** Options of {@linkcode prepareCapture}. */
export interface PrepareCaptureOptions {
  /** Servers to prepare (by config key); default all. */
  readonly only?: readonly string[];
  /**
   * Resolves `name@range` (range `undefined` = latest) to one exact version;
   * `undefined` when versions cannot be resolved (then unpinned launches fail).
   */
  readonly resolveVersion?: (name: string, range: string | undefined) => Promise<string>;
  /**
   * Installs packages (e.g. `installPackages` with an install folder);
   * `undefined` to install nothing (packages must be present already).
   */
  readonly install?: (specs: readonly PackageSpec[]) => Promise<readonly InstallResult[]>;
}

/** Result of {@linkcode prepareCapture}. */
export interface PreparedCapture {
  /** The config with launches pinned and the failed entries left out. */
  readonly config: ServersConfig;
  /** One record per entry that cannot start (`spawn_failed`, phase `spawn`, with the reason). */
  readonly failed: readonly ServerCaptureRecord[];
  /** One note per recognised launch, in config order. */
  readonly launches: readonly LaunchNote[];
  /** Warnings to add to each server's capture record, by config key. */
  readonly warnings: ReadonlyMap<string, readonly string[]>;
  /** Install outcome per `package@version` (`present`, `installed`, `failed: ...`). */
  readonly installs: Readonly<Record<string, string>>;
}

async function noteFor(
  entry: StdioServerEntry,
  launch: Launch,
  resolveVersion: PrepareCaptureOptions["resolveVersion"],
): Promise<LaunchNote> {
  const base = { server: entry.name, launch };
  const reason = uninstallableReason(launch);
  if (reason !== undefined) return { ...base, failure: reason };
  if (launch.pinned) return { ...base, version: launch.requested! };
  const asked = `${launch.runner} ${launch.spec}`;
  if (resolveVersion === undefined) {
    return {
      ...base,
      failure: `${asked} is not pinned to one version and versions cannot be resolved here ` +
        `(without install); write it as ${launch.package}@VERSION`,
    };
  }
  try {
    const version = await resolveVersion(launch.package!, launch.requested);
    return {
      ...base,
      version,
      warning: `unpinned launch "${asked}": installed ${launch.package}@${version}; ` +
        `write ${launch.package}@${version} in the config for a reproducible capture`,
    };
  } catch (error) {
    return { ...base, failure: `cannot resolve a version for ${asked}: ${oneLine(error)}` };
  }
}

/**
 * Pins the package-runner launches of a config, installs every pinned npm
 * package, and sets aside the entries that cannot start offline.
 *
 * An npm launch becomes a pinned package entry (see `pinLaunch`); an unpinned
 * one (`latest`, a tag, a range, or no version) is resolved to one exact
 * version and warned about; a Python launch, a non-registry spec, an
 * unresolvable version or a failed install each gives a `spawn_failed`
 * record with the reason, so the capture goes on with the other servers.
 * Entries with `package`/`version` already are installed as before.
 *
 * @param config A parsed servers config (unexpanded).
 * @param options Which servers, the version resolver, the installer.
 * @returns The config to capture, the failures, notes, warnings and installs.
 *
 * @example Usage
 * ```ts
 * import { prepareCapture } from "./prepare.ts";
 * import { parseServersConfig } from "./config.ts";
 * const config = parseServersConfig({ mcpServers: {
 *   mem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
 *   fetch: { command: "uvx", args: ["mcp-server-fetch"] } } });
 * const ready = await prepareCapture(config, { resolveVersion: async () => "2026.8.31" });
 * const mem = ready.config.servers[0];
 * if (mem.kind !== "stdio" || mem.meta.version !== "2026.8.31" || mem.args[0] !== "${BIN}") {
 *   throw new Error(JSON.stringify(mem));
 * }
 * if (ready.failed[0]?.server !== "fetch") throw new Error("uvx cannot be installed offline");
 * ```
 */
export async function prepareCapture(
  config: ServersConfig,
  options: PrepareCaptureOptions = {},
): Promise<PreparedCapture> {
  const only = options.only === undefined ? undefined : new Set(options.only);
  const servers: ServerEntry[] = [];
  const failed: ServerCaptureRecord[] = [];
  const launches: LaunchNote[] = [];
  const warnings = new Map<string, string[]>();
  for (const entry of config.servers) {
    if (only !== undefined && !only.has(entry.name)) {
      servers.push(entry);
      continue;
    }
    const launch = entry.kind === "stdio" && entry.meta.package === undefined
      ? parseLaunch(entry)
      : undefined;
    if (launch === undefined) {
      servers.push(entry);
      continue;
    }
    const note = await noteFor(entry as StdioServerEntry, launch, options.resolveVersion);
    launches.push(note);
    if (note.failure !== undefined) {
      failed.push(spawnFailedRecord(entry, note.failure));
      continue;
    }
    if (note.warning !== undefined) warnings.set(entry.name, [note.warning]);
    servers.push(pinLaunch(entry as StdioServerEntry, launch, note.version!));
  }

  const selected = servers.filter((s) => only === undefined || only.has(s.name));
  const specs: PackageSpec[] = selected.flatMap((s) =>
    s.meta.package !== undefined && s.meta.version !== undefined
      ? [{
        package: s.meta.package,
        version: s.meta.version,
        scripts: s.meta.installScripts ?? false,
      }]
      : []
  );
  const installs: Record<string, string> = {};
  let kept = servers;
  if (options.install !== undefined && specs.length > 0) {
    const results = await options.install(specs);
    const failedInstall = new Map<string, string>();
    for (const r of results) {
      const key = `${r.package}@${r.version}`;
      installs[key] = r.status === "failed" ? `failed: ${r.message}` : r.status;
      if (r.status === "failed") failedInstall.set(key, r.message ?? "npm install failed");
    }
    kept = servers.filter((s) => {
      const key = `${s.meta.package}@${s.meta.version}`;
      const why = (only === undefined || only.has(s.name)) ? failedInstall.get(key) : undefined;
      if (why === undefined) return true;
      failed.push(
        spawnFailedRecord(s, `${key} could not be installed before the offline start: ${why}`),
      );
      return false;
    });
  }
  failed.sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  return {
    config: { source: config.source, servers: kept },
    failed,
    launches,
    warnings,
    installs,
  };
}

/** Options of {@linkcode installLaunches}. */
export interface InstallLaunchesOptions {
  /** Install folder of pinned packages (the one `${BIN}` is then read from). */
  readonly installDir: string;
  /** Servers to prepare (by config key); default all. */
  readonly only?: readonly string[];
  /** Progress lines: each launch pinned, each package installed. Default: none. */
  readonly onProgress?: (line: string) => void;
}

/**
 * {@linkcode prepareCapture} with npm behind it, for the commands that start servers to use
 * them (agent runs, chat, the proxy): `npx`/`pnpm dlx`/`bunx` entries are pinned (an unpinned
 * one to the version npm would pick now, or, when npm cannot be asked, to the newest already
 * installed) and installed before any server starts; an entry that cannot be is in `failed`
 * with its reason.
 *
 * @param config A parsed servers config (unexpanded).
 * @param options Install folder, which servers, progress.
 * @returns What `prepareCapture` returns.
 */
export async function installLaunches(
  config: ServersConfig,
  options: InstallLaunchesOptions,
): Promise<PreparedCapture> {
  const { installDir } = options;
  const say = options.onProgress ?? (() => {});
  const prepared = await prepareCapture(config, {
    ...(options.only === undefined ? {} : { only: options.only }),
    resolveVersion: async (name, range) => {
      try {
        return await resolveNpmVersion(name, range);
      } catch (error) {
        const [newest] = range === undefined || range === "latest"
          ? await installedVersions(installDir, name)
          : [];
        if (newest === undefined) throw error;
        say(`${name}: ${oneLine(error)}; using ${newest}, the newest installed`);
        return newest;
      }
    },
    install: async (specs) => {
      const missing = [];
      for (const s of specs) {
        if (!(await readInstalledPackage(installDir, s.package, s.version))) missing.push(s);
      }
      if (missing.length > 0) {
        say(
          `installing ${
            missing.map((s) => `${s.package}@${s.version}`).join(", ")
          } into ${installDir}`,
        );
      }
      return await installPackages(specs, {
        installDir,
        onProgress: (r, done, total) => {
          if (r.status === "present") return;
          say(
            `  [${done}/${total}] ${r.package}@${r.version}: ${r.status}${
              r.message ? ` (${r.message})` : ""
            }`,
          );
        },
      });
    },
  });
  for (const note of prepared.launches) {
    if (note.failure !== undefined) continue;
    say(
      `${note.server}: ${note.launch.runner} ${note.launch.spec} runs ${note.launch.package}@${note.version}${
        note.warning === undefined ? "" : " (unpinned: resolved now)"
      }`,
    );
  }
  for (const f of prepared.failed) say(`${f.server}: cannot start: ${f.message}`);
  return prepared;
}

/**
 * Merges the records of a capture with the entries set aside by
 * {@linkcode prepareCapture}, adding its warnings, in config-key order.
 *
 * @param captured Records from `captureServers` over the prepared config.
 * @param prepared What `prepareCapture` returned.
 * @returns Every server's record, sorted by server name.
 */
export function mergePrepared(
  captured: readonly ServerCaptureRecord[],
  prepared: PreparedCapture,
): ServerCaptureRecord[] {
  const withWarnings = captured.map((r) => {
    const extra = prepared.warnings.get(r.server);
    return extra === undefined ? r : { ...r, warnings: [...extra, ...r.warnings] };
  });
  return [...withWarnings, ...prepared.failed].sort((a, b) =>
    a.server < b.server ? -1 : a.server > b.server ? 1 : 0
  );
}
