/**
 * The capture flow behind `deno task capture`: prepare a servers config for an offline start
 * (pin and install package-runner launches, set aside what cannot start), capture every
 * server's `tools/list` (bounded-parallel, throwaway HOME, no network where `unshare` works),
 * normalize run-specific text, and build the corpus file (mcpmeter capture format) and its
 * manifest (per-server package, version, license, status, cause, pages, counts; totals; corpus
 * sha256; normalizations).
 *
 * @module
 */
import { stableJson } from "../core/json.ts";
import { basename, join, relative, resolve } from "node:path";
import { sha256Hex } from "../catalog/load.ts";
import {
  DEFAULT_SERVER_TIMEOUT_MS,
  DEFAULT_SETTLE_MS,
  type Normalization,
  normalizeRecord,
  parseServersConfig,
  type ServerCaptureRecord,
  toCaptureFile,
  toCaptureManifest,
} from "../mcp/mod.ts";
import {
  captureServers,
  DEFAULT_CAPTURE_CONCURRENCY,
  detectIsolation,
  installPackages,
  type IsolationMode,
  type LaunchNote,
  mergePrepared,
  prepareCapture,
  readInstalledPackage,
  resolveNpmVersion,
} from "../mcp/io.ts";
import type { JsonObject } from "../catalog/types.ts";
import { UsageError } from "../core/errors.ts";
import { oneLine } from "../core/text.ts";
import { sdkPackages } from "../core/sdk.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";

/** The reference servers config, repository-relative: the only one captured into fixtures/. */
export const REFERENCE_SERVERS_CONFIG = "fixtures/servers/reference.json";

/** Options of {@linkcode runCapture}. */
export interface RunCaptureOptions {
  /** Servers config path. @default {REFERENCE_SERVERS_CONFIG} (resolved from the root) */
  readonly config?: string;
  /** Corpus id (file names). @default {"reference_v1" for the reference config, else the config's file stem} */
  readonly id?: string;
  /** Corpus version string. @default {"1"} */
  readonly version?: string;
  /** Servers captured at once. @default {DEFAULT_CAPTURE_CONCURRENCY} */
  readonly concurrency?: number;
  /** Overall timeout per server unless its entry sets `timeoutMs`, in ms. @default {DEFAULT_SERVER_TIMEOUT_MS} */
  readonly timeoutMs?: number;
  /** Settle window for servers that declare `tools.listChanged`, in ms. @default {DEFAULT_SETTLE_MS} */
  readonly settleMs?: number;
  /** Where packages are installed. @default {".scratch/servers"} (as given, resolved from the cwd) */
  readonly installDir?: string;
  /** Capture only these servers (config keys). @default {every server} */
  readonly only?: readonly string[];
  /** Run npm (resolve and install packages). @default {true} */
  readonly install?: boolean;
  /**
   * Output folder; the frozen reference corpus is refreshed only when this names
   * `fixtures/corpora`. @default {results/captures}
   */
  readonly out?: string;
}

/** What {@linkcode runCapture} produced, ready to be written by {@linkcode writeCapture}. */
export interface CaptureRun {
  /** Corpus id. */
  readonly id: string;
  /** Output folder (absolute or as given). */
  readonly out: string;
  /** Every server's record, normalized, sorted by server. */
  readonly records: readonly ServerCaptureRecord[];
  /** The records whose outcome is not `ok`. */
  readonly failed: readonly ServerCaptureRecord[];
  /** Servers captured with tools (the corpus's `serverCount`). */
  readonly serverCount: number;
  /** Tools in the corpus. */
  readonly toolCount: number;
  /** `<id>.tools.json` bytes. */
  readonly corpusBytes: Uint8Array;
  /** Lower-case hex SHA-256 of `corpusBytes`. */
  readonly corpusSha256: string;
  /** The manifest (written as `<id>.manifest.json`). */
  readonly manifest: JsonObject;
  /** Wall time of the capture (spawn to last list), in ms. Measured. */
  readonly wallMs: number;
}

async function nodeVersion(): Promise<string> {
  try {
    const out = await new Deno.Command("node", {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(out.stdout).trim() || "unknown";
  } catch {
    return "not found";
  }
}

function summary(record: ServerCaptureRecord): string {
  const seconds = (record.captureMs / 1000).toFixed(1);
  if (record.outcome === "ok") {
    const warn = record.warnings.length > 0 ? `, ${record.warnings.length} warning(s)` : "";
    const notes = record.notes?.length ?? 0;
    return `ok, ${record.tools.length} tools, ${seconds} s${warn}${
      notes > 0 ? `, ${notes} note(s)` : ""
    }`;
  }
  return `${record.outcome.toUpperCase()} after ${seconds} s: ${record.message ?? ""}`;
}

/**
 * A captured server's warnings and notes, one line each, for under its progress line (a failed
 * server's cause says what they would repeat). An unpinned launch is said as the audit says it
 * (lib/audit/render.ts `serverWarnings`), with the version it was captured at.
 */
function details(record: ServerCaptureRecord, launch: LaunchNote | undefined): string[] {
  if (record.outcome !== "ok") return [];
  return [
    ...record.warnings.map((w) =>
      w === launch?.warning
        ? `warning: launched without an exact version, captured at the version ${launch.launch.runner} ` +
          `picks with this Node.js: ${launch.launch.package}@${launch.version} (pin it in the ` +
          `config for a repeatable capture)`
        : `warning: ${oneLine(w, 300)}`
    ),
    ...(record.notes ?? []).map((n) => `note: ${oneLine(n, 300)}`),
  ];
}

/**
 * Captures the servers of a config into a corpus and a manifest (in memory; see
 * {@linkcode writeCapture}). Progress lines go to `io.progress("capture", ...)`.
 *
 * @param options Config, id, version, concurrency, timeouts (ms), install folder, subset, output.
 * @param io Clock, root, environment and progress sink. @default {denoFlowIo()}
 * @returns The records, the corpus bytes and sha256, the manifest, wall time (ms).
 * @throws {UsageError} When the config cannot be read, an `--only` name is unknown, the id is
 *   not a file-name-safe word, or the config lists no server.
 * @throws {ConfigError} When the config is malformed (lib/mcp).
 */
export async function runCapture(
  options: RunCaptureOptions = {},
  io: FlowIo = denoFlowIo(),
): Promise<CaptureRun> {
  const log = (line: string) => io.progress("capture", line);
  const reference = io.fromRoot(REFERENCE_SERVERS_CONFIG);
  const configPath = options.config ?? reference;
  const isReference = resolve(configPath) === resolve(reference);
  const id = options.id ??
    (isReference ? "reference_v1" : basename(configPath).replace(/\.json$/, ""));
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) {
    throw new UsageError(
      `--id must be letters, digits, "_", "." or "-", got ${JSON.stringify(id)}`,
    );
  }
  // Nothing rewrites the frozen corpus unless asked: --out fixtures/corpora says so.
  const out = options.out ?? io.fromRoot("results/captures");
  const concurrency = options.concurrency ?? DEFAULT_CAPTURE_CONCURRENCY;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const installDirGiven = options.installDir ?? ".scratch/servers";
  const installDir = resolve(installDirGiven);
  const version = options.version ?? "1";

  let configBytes: Uint8Array;
  try {
    configBytes = await Deno.readFile(configPath);
  } catch (error) {
    throw new UsageError(
      `cannot read --config ${JSON.stringify(configPath)}: ${(error as Error).message}`,
    );
  }
  const configSha256 = await sha256Hex(configBytes);
  const config = parseServersConfig(new TextDecoder().decode(configBytes), { source: configPath });
  const known = new Set(config.servers.map((s) => s.name));
  for (const name of options.only ?? []) {
    if (!known.has(name)) {
      throw new UsageError(`--only: no server named ${JSON.stringify(name)} in ${configPath}`);
    }
  }
  if (options.only === undefined && config.servers.length === 0) {
    throw new UsageError(`no servers to capture in ${configPath}`);
  }
  // A client's own switches: a server its client starts not (`"disabled": true`, as Windsurf
  // and others write it) is left out unless --only names it; a per-tool filter is not applied
  // (the capture keeps what the server lists) and is said so.
  const off = options.only === undefined
    ? config.servers.filter((s) => s.meta.extra.disabled === true).map((s) => s.name)
    : [];
  for (const name of off) {
    log(`  ${name}: not captured: "disabled": true in its entry (--only ${name} captures it)`);
  }
  if (off.length > 0 && off.length === config.servers.length) {
    throw new UsageError(
      `every server in ${configPath} is set off ("disabled": true); --only NAME captures one anyway`,
    );
  }
  for (const s of config.servers) {
    for (const key of ["disabledTools", "includeTools", "excludeTools"]) {
      if (!off.includes(s.name) && Object.hasOwn(s.meta.extra, key)) {
        log(
          `  note: ${s.name}: its ${key} is not applied: the capture keeps every tool the server ` +
            `lists (deno task audit counts what the client sends)`,
        );
      }
    }
  }
  const only = off.length === 0
    ? options.only
    : config.servers.map((s) => s.name).filter((name) => !off.includes(name));

  // npx/pnpm dlx/bunx launches are pinned and installed before the offline start; entries that
  // cannot start (uvx, a failed install, an unresolvable version) fail now, with their reason.
  // An undefined ${VAR} fails its own server only, at its start.
  const install = options.install ?? true;
  const prepared = await prepareCapture(config, {
    ...(only === undefined ? {} : { only }),
    ...(install
      ? {
        resolveVersion: (name: string, range: string | undefined) => resolveNpmVersion(name, range),
        install: (specs) => {
          log(
            `installing ${specs.length} package(s) into ${relative(Deno.cwd(), installDir) || "."}`,
          );
          return installPackages(specs, {
            installDir,
            concurrency,
            onProgress: (r, done, total) => {
              if (r.status !== "present") {
                log(
                  `  [${done}/${total}] ${r.package}@${r.version}: ${r.status}${
                    r.message ? ` (${r.message})` : ""
                  }`,
                );
              }
            },
          });
        },
      }
      : {}),
  });
  for (const note of prepared.launches) {
    log(
      `  ${note.server}: ${note.launch.runner} ${note.launch.spec} → ${
        note.failure === undefined
          ? `${note.launch.package}@${note.version}`
          : "cannot start offline"
      }${note.warning === undefined ? "" : " (unpinned: resolved now)"}`,
    );
  }
  const capturable = new Set(prepared.config.servers.map((s) => s.name));
  const selected = prepared.config.servers.filter((s) =>
    only === undefined || only.includes(s.name)
  );
  const captureOnly = only?.filter((name) => capturable.has(name));
  const licenses: Record<string, string> = {};
  const packageInfo: Record<string, { description?: string; keywords?: readonly string[] }> = {};
  for (const s of selected) {
    if (s.meta.package === undefined || s.meta.version === undefined) continue;
    const key = `${s.meta.package}@${s.meta.version}`;
    const installed = await readInstalledPackage(installDir, s.meta.package, s.meta.version);
    const license = installed?.license ?? s.meta.license;
    if (license !== undefined) licenses[key] = license;
    // The package's own words, a retrieval signal beside the tools' (see --package-info).
    if (installed?.description !== undefined || installed?.keywords !== undefined) {
      packageInfo[key] = {
        ...(installed.description === undefined ? {} : { description: installed.description }),
        ...(installed.keywords === undefined ? {} : { keywords: installed.keywords }),
      };
    }
  }

  const isolation: IsolationMode = await detectIsolation();
  log(
    `${selected.length} server(s) to start, concurrency ${concurrency}, timeout ${timeoutMs} ms, isolation ${isolation}`,
  );
  const startedAt = Date.now();
  const startedWall = io.now();
  const captured = selected.length === 0 ? [] : await captureServers(prepared.config, {
    concurrency,
    timeoutMs,
    env: io.env(),
    installDir,
    isolation,
    settleMs,
    ...(captureOnly === undefined ? {} : { only: captureOnly }),
    onProgress: (event) => {
      if (event.kind !== "done") return;
      // The record as the manifest will hold it (mergePrepared): an unpinned launch's warning first.
      const pinned = prepared.warnings.get(event.server) ?? [];
      const record = { ...event.record, warnings: [...pinned, ...event.record.warnings] };
      log(`  [${event.done}/${event.total}] ${event.server}: ${summary(record)}`);
      const launch = prepared.launches.find((n) => n.server === event.server);
      for (const line of details(record, launch)) log(`      ${line}`);
    },
  });
  const records = mergePrepared(captured, prepared);
  const wallMs = Math.round(io.now() - startedWall);
  const endedAt = Date.now();

  const changes: Normalization[] = [];
  const normalized = records.map((record) => {
    const result = normalizeRecord(record, {
      paths: [{ path: installDir, placeholder: "<install>" }],
      window: { fromMs: startedAt, toMs: endedAt },
    });
    changes.push(...result.changes);
    return result.record;
  });

  const sdk = sdkPackages();
  const file = toCaptureFile(normalized, {
    id,
    version,
    source: {
      task: "tasks/capture.ts",
      config: basename(configPath),
      configSha256,
      // The v2 client speaks to every server; stdio servers through the v1 line's transport.
      sdk: sdk.client,
      sdkStdioTransport: sdk.stdioTransport,
      normalizations: [...new Set(changes.map((c) => c.rule))].sort(),
      note:
        "raw tools/list items as sent by each server; keys sorted; see the manifest for per-server provenance",
    },
  });
  const corpusText = stableJson(file);
  const corpusBytes = new TextEncoder().encode(corpusText);
  const corpusSha256 = await sha256Hex(corpusBytes);
  const manifest = toCaptureManifest(normalized, {
    id,
    version,
    corpusFile: `${id}.tools.json`,
    corpusSha256,
    configFile: configPath,
    configSha256,
    capturedAt: new Date(startedAt).toISOString(),
    wallMs,
    environment: {
      deno: Deno.version.deno,
      node: await nodeVersion(),
      sdk: sdk.client,
      sdkStdioTransport: sdk.stdioTransport,
      os: Deno.build.os,
      arch: Deno.build.arch,
      isolation,
    },
    settings: { concurrency, defaultTimeoutMs: timeoutMs, settleMs, installDir: installDirGiven },
    licenses,
    packageInfo,
    installs: prepared.installs,
    normalizations: changes,
  });
  return {
    id,
    out,
    records: normalized,
    failed: normalized.filter((r) => r.outcome !== "ok"),
    serverCount: file.serverCount,
    toolCount: file.toolCount,
    corpusBytes,
    corpusSha256,
    manifest,
    wallMs,
  };
}

/**
 * Writes `<out>/<id>.tools.json` and `<out>/<id>.manifest.json` (sorted keys).
 *
 * @param run What {@linkcode runCapture} returned.
 * @returns The corpus file's path.
 */
export async function writeCapture(run: CaptureRun): Promise<string> {
  await Deno.mkdir(run.out, { recursive: true });
  const corpusPath = join(run.out, `${run.id}.tools.json`);
  await Deno.writeFile(corpusPath, run.corpusBytes);
  await Deno.writeTextFile(join(run.out, `${run.id}.manifest.json`), stableJson(run.manifest));
  return corpusPath;
}
