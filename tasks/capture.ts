/**
 * `deno task capture`: installs the pinned npm MCP servers of a config into a
 * scratch folder, spawns them (bounded-parallel, each in a throwaway HOME,
 * without network where `unshare` works), and writes `<id>.tools.json` (the
 * mcpmeter capture format) and `<id>.manifest.json` (per-server package,
 * version, license, status, cause, counts, capture time; totals; corpus
 * sha256; normalizations).
 *
 * Progress goes to stderr. Bad input: a one-line reason and exit code 2.
 *
 * @module
 */

import { fromRoot, parseFlags, UsageError } from "./_cli.ts";
import { sha256Hex } from "../lib/catalog/load.ts";
import { basename, join, relative, resolve } from "node:path";
import {
  captureServers,
  ConfigError,
  DEFAULT_CAPTURE_CONCURRENCY,
  DEFAULT_SERVER_TIMEOUT_MS,
  DEFAULT_SETTLE_MS,
  detectIsolation,
  installPackages,
  mergePrepared,
  type Normalization,
  normalizeRecord,
  parseServersConfig,
  prepareCapture,
  readInstalledPackage,
  resolveNpmVersion,
  type ServerCaptureRecord,
  stringifySorted,
  toCaptureFile,
  toCaptureManifest,
} from "../lib/mcp/mod.ts";

/** Every server failed: a measured outcome (exit 1), not bad input (exit 2). */
class NothingCaptured extends Error {}

/** The reference servers config: the only one whose capture lands in fixtures/ by default. */
const REFERENCE_CONFIG = fromRoot("fixtures/servers/reference.json");

const HELP = `deno task capture [options]

Installs the pinned MCP servers of a servers config (npm install --prefix, one
prefix per package, packages already present are skipped), captures their
tools/list (plus prompts/list and resources/list where advertised) over stdio,
and writes <out>/<id>.tools.json and <out>/<id>.manifest.json.

Options:
  --config FILE       servers config in the mcpServers shape
                      (default: fixtures/servers/reference.json)
  --out DIR           output folder (default: fixtures/corpora for a full capture of the
                      reference config, results/captures for any other config or an
                      --only subset, so a frozen corpus is only rewritten on purpose)
  --id ID             corpus id, used in the file names (default: reference_v1 for the
                      reference config, else the config file name without .json)
  --version V         corpus version string (default: 1)
  --concurrency N     servers captured at once (default: ${DEFAULT_CAPTURE_CONCURRENCY})
  --timeout-ms MS     overall timeout per server unless its entry sets timeoutMs
                      (default: ${DEFAULT_SERVER_TIMEOUT_MS})
  --settle-ms MS      for a server that declares tools.listChanged: how long to wait for
                      notifications/tools/list_changed (re-listing on each) after a
                      listing (default: 1000)
  --install-dir DIR   where packages are installed (default: .scratch/servers)
  --only A,B          capture only these servers (by config key)
  --no-install        do not run npm; servers whose package is missing fail
  --help              show this help
`;

function positiveInt(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new UsageError(`--${name} must be a positive integer, got ${JSON.stringify(text)}`);
  }
  return value;
}

function sdkVersion(): string {
  const resolved = import.meta.resolve("@modelcontextprotocol/sdk/types.js");
  // npm:/@modelcontextprotocol/sdk@1.32.2/... or .../@modelcontextprotocol+sdk@1.32.2/...
  return /@modelcontextprotocol[/+]sdk@([^/]+)/.exec(resolved)?.[1] ?? "unknown";
}

function log(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(`${line}\n`));
}

function summary(record: ServerCaptureRecord): string {
  const seconds = (record.captureMs / 1000).toFixed(1);
  if (record.outcome === "ok") {
    const warn = record.warnings.length > 0 ? `, ${record.warnings.length} warning(s)` : "";
    return `ok, ${record.tools.length} tools, ${seconds} s${warn}`;
  }
  return `${record.outcome.toUpperCase()} after ${seconds} s: ${record.message ?? ""}`;
}

async function main(args: string[]): Promise<void> {
  const { values } = parseFlags(args, {
    config: { type: "string", default: REFERENCE_CONFIG },
    out: { type: "string" },
    id: { type: "string" },
    version: { type: "string", default: "1" },
    concurrency: { type: "string" },
    "timeout-ms": { type: "string" },
    "settle-ms": { type: "string" },
    "install-dir": { type: "string", default: ".scratch/servers" },
    only: { type: "string" },
    "no-install": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const reference = resolve(values.config) === resolve(REFERENCE_CONFIG);
  const id = values.id ??
    (reference ? "reference_v1" : basename(values.config).replace(/\.json$/, ""));
  // Only a full capture of the reference config replaces the frozen corpus by default;
  // a custom config or an --only subset goes to results/captures unless --out says otherwise.
  const frozen = reference && values.only === undefined;
  const out = values.out ?? fromRoot(frozen ? "fixtures/corpora" : "results/captures");
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) {
    throw new UsageError(
      `--id must be letters, digits, "_", "." or "-", got ${JSON.stringify(id)}`,
    );
  }
  const concurrency = positiveInt("concurrency", values.concurrency, DEFAULT_CAPTURE_CONCURRENCY);
  const timeoutMs = positiveInt("timeout-ms", values["timeout-ms"], DEFAULT_SERVER_TIMEOUT_MS);
  const settleMs = positiveInt("settle-ms", values["settle-ms"], DEFAULT_SETTLE_MS);
  const installDir = resolve(values["install-dir"]);
  const configPath = values.config;

  let configBytes: Uint8Array;
  try {
    configBytes = await Deno.readFile(configPath);
  } catch (error) {
    throw new UsageError(
      `cannot read --config ${JSON.stringify(configPath)}: ${(error as Error).message}`,
    );
  }
  const config = parseServersConfig(new TextDecoder().decode(configBytes), { source: configPath });
  const env = Deno.env.toObject();
  const only = values.only?.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const known = new Set(config.servers.map((s) => s.name));
  for (const name of only ?? []) {
    if (!known.has(name)) {
      throw new UsageError(`--only: no server named ${JSON.stringify(name)} in ${configPath}`);
    }
  }
  if (only === undefined && config.servers.length === 0) {
    throw new UsageError(`no servers to capture in ${configPath}`);
  }
  // npx/pnpm dlx/bunx launches are pinned and installed before the offline start; entries
  // that cannot start (uvx, a failed install, an unresolvable version) fail now, with
  // their reason. An undefined ${VAR} fails its own server only, at its start.
  const install = !values["no-install"];
  const prepared = await prepareCapture(config, {
    ...(only === undefined ? {} : { only }),
    ...(install ? { resolveVersion: (name, range) => resolveNpmVersion(name, range) } : {}),
    ...(install
      ? {
        install: (specs) => {
          log(
            `capture: installing ${specs.length} package(s) into ${
              relative(Deno.cwd(), installDir) || "."
            }`,
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
  const installs = prepared.installs;
  const capturable = new Set(prepared.config.servers.map((s) => s.name));
  const selected = prepared.config.servers.filter((s) =>
    only === undefined || only.includes(s.name)
  );
  const captureOnly = only?.filter((name) => capturable.has(name));
  const licenses: Record<string, string> = {};
  for (const s of selected) {
    if (s.meta.package === undefined || s.meta.version === undefined) continue;
    const installed = await readInstalledPackage(installDir, s.meta.package, s.meta.version);
    const license = installed?.license ?? s.meta.license;
    if (license !== undefined) licenses[`${s.meta.package}@${s.meta.version}`] = license;
  }

  const isolation = await detectIsolation();
  log(
    `capture: ${selected.length} server(s) to start, concurrency ${concurrency}, timeout ${timeoutMs} ms, isolation ${isolation}`,
  );
  const startedAt = Date.now();
  const startedWall = performance.now();
  const captured = await captureServers(prepared.config, {
    concurrency,
    timeoutMs,
    env,
    installDir,
    isolation,
    settleMs,
    ...(captureOnly === undefined ? {} : { only: captureOnly }),
    onProgress: (event) => {
      if (event.kind === "done") {
        log(`  [${event.done}/${event.total}] ${event.server}: ${summary(event.record)}`);
      }
    },
  });
  const records = mergePrepared(captured, prepared);
  const wallMs = Math.round(performance.now() - startedWall);
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

  const sdk = sdkVersion();
  const file = toCaptureFile(normalized, {
    id,
    version: values.version,
    source: {
      task: "tasks/capture.ts",
      config: basename(configPath),
      configSha256: await sha256Hex(configBytes),
      sdk: `@modelcontextprotocol/sdk@${sdk}`,
      normalizations: [...new Set(changes.map((c) => c.rule))].sort(),
      note:
        "raw tools/list items as sent by each server; keys sorted; see the manifest for per-server provenance",
    },
  });
  const corpusText = stringifySorted(file as unknown as Parameters<typeof stringifySorted>[0]);
  const corpusBytes = new TextEncoder().encode(corpusText);
  const corpusSha256 = await sha256Hex(corpusBytes);
  const corpusFile = `${id}.tools.json`;
  const manifest = toCaptureManifest(normalized, {
    id,
    version: values.version,
    corpusFile,
    corpusSha256,
    configFile: configPath,
    configSha256: await sha256Hex(configBytes),
    capturedAt: new Date(startedAt).toISOString(),
    wallMs,
    environment: {
      deno: Deno.version.deno,
      node: await nodeVersion(),
      sdk,
      os: Deno.build.os,
      arch: Deno.build.arch,
      isolation,
    },
    settings: {
      concurrency,
      defaultTimeoutMs: timeoutMs,
      settleMs,
      installDir: values["install-dir"],
    },
    licenses,
    installs,
    normalizations: changes,
  });
  const failed = normalized.filter((r) => r.outcome !== "ok");
  if (file.serverCount === 0) {
    for (const r of failed) {
      log(`  failed: ${r.server} ${r.outcome}: ${r.message ?? ""}`);
    }
    throw new NothingCaptured(`no server of ${configPath} was captured; nothing written`);
  }
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeFile(join(out, corpusFile), corpusBytes);
  await Deno.writeTextFile(
    join(out, `${id}.manifest.json`),
    stringifySorted(manifest),
  );
  log(
    `capture: ${file.serverCount}/${normalized.length} servers ok, ${file.toolCount} tools, ` +
      `${(wallMs / 1000).toFixed(1)} s; wrote ${join(out, corpusFile)} (sha256 ${
        corpusSha256.slice(0, 12)
      }...)`,
  );
  for (const r of failed) {
    log(`  failed: ${r.server} ${r.outcome}: ${r.message ?? ""}`);
  }
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

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    const known = error instanceof UsageError || error instanceof ConfigError ||
      error instanceof RangeError || error instanceof TypeError;
    const message = (error as Error)?.message ?? String(error);
    if (error instanceof NothingCaptured) {
      console.error(`capture: ${message}`);
      Deno.exit(1);
    }
    console.error(`capture: ${known ? "" : "unexpected error: "}${message.split("\n")[0]}`);
    Deno.exit(2);
  }
}
