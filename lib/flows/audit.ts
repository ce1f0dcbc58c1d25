/**
 * The audit flow behind `deno task audit` and the workbench's Audit page: find the MCP client
 * configs of an account (or read the files given), capture each distinct server once with the
 * existing capture (package-runner launches pinned and installed into the results folder, a
 * throwaway HOME, no network where `unshare` works, timeouts, `list_changed`), in parallel, and
 * build one report per client config (lib/audit).
 *
 * Nothing outside the results folder changes: packages and npm's cache go under
 * `results/cache`, each server runs in a scratch folder that is removed, and the config files
 * are only read.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import {
  AUDIT_SCHEMA_VERSION,
  type AuditBaseline,
  type AuditReport,
  baselineProblem,
  bindVariables,
  buildConfigReport,
  type ClientConfig,
  type ClientId,
  type ConfigReport,
  type ConfiguredServer,
  gateAudit,
  parseGrowthLimit,
  type Platform,
  renderAudit,
  tilde,
  toBaseline,
  type ToolCost,
} from "../audit/mod.ts";
import { findConfigs } from "../audit/io.ts";
import type { SentFormat } from "../catalog/mod.ts";
import { createDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import {
  referencedVariables,
  type ServerCaptureRecord,
  type ServerEntry,
  type ServersConfig,
} from "../mcp/mod.ts";
import {
  captureServers,
  DEFAULT_CAPTURE_CONCURRENCY,
  installedVersions,
  installPackages,
  mergePrepared,
  prepareCapture,
  resolveNpmVersion,
} from "../mcp/io.ts";
import { MIN_SECRET_CHARS, redactText } from "../core/secrets.ts";
import { printable } from "../core/text.ts";
import { InputFileError, UsageError } from "../core/errors.ts";
import { RESULT_DECIMALS, stableJson } from "../core/json.ts";
import { ensureWritable } from "./_write.ts";
import type { FlowOutcome } from "./outcome.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";

/** The encoding the audit counts with. */
export const AUDIT_TOKENIZER = "o200k_base";

/** Where the audit installs packages, repository-relative (inside results/). */
export const AUDIT_INSTALL_DIR = "results/cache/servers";

/** Options of {@linkcode runAudit}. */
export interface RunAuditOptions {
  /** Audit this home folder instead of this account's (its shell environment is not read). */
  readonly home?: string;
  /** The working folder whose project files are read. @default {INIT_CWD, else the current folder} */
  readonly project?: string;
  /** Read these config files instead of discovering. */
  readonly configs?: readonly string[];
  /** Context window for every config, tokens. @default {the model family's default} */
  readonly contextWindow?: number;
  /** Sent format per client (`--sent-form`). */
  readonly formats?: Readonly<Partial<Record<ClientId, SentFormat>>>;
  /** Heaviest tools listed per config. @default {5} */
  readonly heaviest?: number;
  /** Servers captured (and packages installed) at once. @default {DEFAULT_CAPTURE_CONCURRENCY} */
  readonly concurrency?: number;
  /** Overall timeout per server, ms. @default {30,000 (lib/mcp)} */
  readonly timeoutMs?: number;
  /** Where packages are installed. @default {AUDIT_INSTALL_DIR} (from the root) */
  readonly installDir?: string;
  /** Run npm (resolve versions, install). @default {true} */
  readonly install?: boolean;
  /** This machine's OS. @default {Deno.build.os} */
  readonly platform?: Platform;
}

/** One distinct server to capture, and the configured servers it stands for. */
interface Target {
  readonly name: string;
  readonly entry: ServerEntry;
}

/** The same server in two configs (same command, arguments, environment, URL) is captured once. */
function targetKey(entry: ServerEntry): string {
  return stableJson({ ...entry, name: "" }, { indent: 0 });
}

/**
 * Values that must not be printed: what the entries and their `envFile`s set, and the values of
 * the variables they reference, from the client's settings (Claude Code's `env` blocks) or else
 * the shell.
 */
function secretValues(
  servers: readonly ConfiguredServer[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const out: string[] = [];
  for (const s of servers) {
    const e = s.entry;
    if (e === undefined) continue;
    const texts = e.kind === "stdio"
      ? [e.command, ...e.args, ...Object.values(e.env), e.cwd ?? ""]
      : [e.url, ...Object.values(e.headers)];
    out.push(...(e.kind === "stdio" ? Object.values(e.env) : Object.values(e.headers)));
    out.push(...Object.values(s.fileEnv ?? {}));
    for (const name of texts.flatMap(referencedVariables)) {
      out.push(s.variables?.[name] ?? env[name] ?? "");
    }
  }
  return out.filter((v) => v.length >= MIN_SECRET_CHARS);
}

/**
 * The entry a server is captured from: the client's own variable values put in, and its
 * `envFile` variables under the entry's own `env`.
 */
function captureEntry(s: ConfiguredServer): ServerEntry | undefined {
  if (s.entry === undefined) return undefined;
  const e = s.variables === undefined ? s.entry : bindVariables(s.entry, s.variables);
  return s.fileEnv === undefined || e.kind !== "stdio"
    ? e
    : { ...e, env: { ...s.fileEnv, ...e.env } };
}

/**
 * Refuses a `--home` or `--project` that names no folder: discovery would find nothing there and
 * say only that.
 */
async function requireFolder(flag: string, path: string): Promise<void> {
  const stat = await Deno.stat(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  });
  if (stat?.isDirectory) return;
  throw new InputFileError(
    path,
    `${flag} ${path}: ${stat === null ? "no such folder" : "not a folder"}`,
  );
}

function osOf(): Platform {
  return Deno.build.os === "darwin" ? "darwin" : Deno.build.os === "windows" ? "windows" : "linux";
}

/**
 * Runs the audit.
 *
 * @param options Home, project, files, window, formats, capture settings.
 * @param io Environment, clock, root and progress sink. @default {denoFlowIo()}
 * @returns The report: one entry per client config, the files that could not be read.
 * @throws {UsageError} When no home folder is known (`--home` absent and neither `HOME` nor
 *   `USERPROFILE` set).
 * @throws {InputFileError} When `home` or `project` names no folder.
 */
export async function runAudit(
  options: RunAuditOptions = {},
  io: FlowIo = denoFlowIo(),
): Promise<AuditReport> {
  return (await audit(options, io)).report;
}

/** {@linkcode runAudit}, and every place looked at (`~`-relative), for the console. */
async function audit(
  options: RunAuditOptions,
  io: FlowIo,
): Promise<{ report: AuditReport; searched: string[] }> {
  const env = io.env();
  let printed: string[] = [];
  // Progress lines name packages and servers; none may carry a value from the configs, nor a
  // control character a server or a config name holds.
  const log = (line: string) => io.progress("audit", printable(redactText(line, printed)));
  const system = options.home === undefined;
  const home = options.home === undefined ? env.HOME ?? env.USERPROFILE : resolve(options.home);
  if (home === undefined) {
    throw new UsageError("no home folder: HOME and USERPROFILE are not set; give --home DIR");
  }
  // deno task runs in the repository; INIT_CWD is the folder the user ran it from.
  const project = resolve(options.project ?? env.INIT_CWD ?? Deno.cwd());
  if (!system) await requireFolder("--home", home);
  if (options.project !== undefined) await requireFolder("--project", project);
  const found = await findConfigs(
    { home, project, platform: options.platform ?? osOf(), system, env },
    options.configs ?? [],
  );
  printed = found.configs.flatMap((c) => secretValues(c.servers, env));
  for (const p of found.problems) log(`not read: ${p.message}`);

  // One capture per distinct server, whichever configs declare it.
  const targets = new Map<string, Target>();
  const targetOf = new Map<ConfiguredServer, string>();
  const names = new Set<string>();
  for (const c of found.configs) {
    for (const s of c.servers) {
      const entry = captureEntry(s);
      if (s.disabled || entry === undefined) continue;
      const key = targetKey(entry);
      targetOf.set(s, key);
      if (targets.has(key)) continue;
      let name = s.name;
      for (let n = 2; names.has(name); n++) name = `${s.name}~${n}`;
      names.add(name);
      targets.set(key, { name, entry: { ...entry, name } });
    }
  }
  const records = new Map<string, ServerCaptureRecord>();
  if (targets.size > 0) {
    const installDir = resolve(options.installDir ?? io.fromRoot(AUDIT_INSTALL_DIR));
    // npm's cache and update check stay inside the results folder, not the user's home.
    const npmEnv = {
      npm_config_cache: join(installDir, "..", "npm"),
      npm_config_update_notifier: "false",
    };
    const concurrency = options.concurrency ?? DEFAULT_CAPTURE_CONCURRENCY;
    const config: ServersConfig = {
      source: "audit",
      servers: [...targets.values()].map((t) => t.entry),
    };
    const prepared = await prepareCapture(config, {
      ...(options.install === false
        ? {
          // Without npm, an unpinned launch runs the newest version already installed here.
          resolveVersion: async (name: string, range: string | undefined) => {
            const [newest] = range === undefined || range === "latest"
              ? await installedVersions(installDir, name)
              : [];
            if (newest !== undefined) return newest;
            throw new Error(
              `no version of ${name} is installed in ${io.displayPath(installDir)} ` +
                `(--no-install; run once without it, or write ${name}@VERSION)`,
            );
          },
        }
        : {
          resolveVersion: (name: string, range: string | undefined) =>
            resolveNpmVersion(name, range, { env: npmEnv }),
          install: (specs) => {
            const distinct = new Set(specs.map((p) => `${p.package}@${p.version}`)).size;
            log(`installing ${distinct} package(s) into ${io.displayPath(installDir)}`);
            return installPackages(specs, {
              installDir,
              concurrency,
              env: npmEnv,
              onProgress: (r, done, total) => {
                if (r.status !== "present") {
                  log(`  [${done}/${total}] ${r.package}@${r.version}: ${r.status}`);
                }
              },
            });
          },
        }),
    });
    log(`capturing ${targets.size} server(s), ${concurrency} at a time`);
    const captured = await captureServers(prepared.config, {
      env,
      installDir,
      concurrency,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      onProgress: (e) => {
        if (e.kind !== "done") return;
        log(
          `  ${e.done}/${e.total} ${e.server}: ${
            e.record.outcome === "ok" ? `${e.record.tools.length} tools` : e.record.outcome
          }`,
        );
      },
    });
    const byName = new Map([...targets].map(([key, t]) => [t.name, key]));
    for (const r of mergePrepared(captured, prepared)) {
      const key = byName.get(r.server);
      if (key !== undefined) records.set(key, r);
    }
  }

  const tokenizer = createDefaultTokenizer(AUDIT_TOKENIZER);
  const count = (text: string) => tokenizer.count(text);
  const configs = found.configs.map((c: ClientConfig): ConfigReport => {
    const secrets = secretValues(c.servers, env);
    const report = buildConfigReport(c, (s) => {
      const key = targetOf.get(s);
      return key === undefined ? undefined : records.get(key);
    }, {
      count,
      home,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
      ...(options.formats === undefined ? {} : { formats: options.formats }),
      ...(options.heaviest === undefined ? {} : { heaviest: options.heaviest }),
    });
    // What a server wrote (causes, warnings, tool names, which the notes quote) is cleared of
    // every value the entries hold: a server may echo its environment back.
    const clean = (text: string) => redactText(text, secrets);
    const cleanCost = (t: ToolCost): ToolCost => ({ ...t, tool: clean(t.tool) });
    return {
      ...report,
      servers: report.servers.map((s) => ({
        ...s,
        ...(s.cause === undefined ? {} : { cause: clean(s.cause) }),
        disabledTools: s.disabledTools.map(clean),
        toolCosts: s.toolCosts.map(cleanCost),
        warnings: s.warnings.map(clean),
      })),
      heaviest: report.heaviest.map(cleanCost),
      removal: report.removal === null
        ? null
        : { ...report.removal, tools: report.removal.tools.map(clean) },
      notes: report.notes.map(clean),
    };
  });
  const report: AuditReport = {
    schemaVersion: AUDIT_SCHEMA_VERSION,
    kind: "mcpmeter-audit",
    createdAt: io.createdAt(),
    tokenizer: AUDIT_TOKENIZER,
    counting: `billed: the provider's own count, estimated from the sent form with a cited ` +
      `calibration (lib/billing); sent, wire, session start and savings: ${AUDIT_TOKENIZER} ` +
      `counts of the rendered text (computed)`,
    home: system ? "~" : home,
    configs,
    problems: found.problems.map((p) => p.message),
    searched: found.searched.length,
  };
  return { report, searched: found.searched.map((p) => tilde(p, home)) };
}

/** Options of {@linkcode runAuditCommand}: the audit's, and what to print and write. */
export interface AuditCommandOptions extends RunAuditOptions {
  /** Print the report as JSON instead of text. */
  readonly json?: boolean;
  /** Write the report here. @default {results/audits/audit-STAMP.json} */
  readonly out?: string;
  /** Write a baseline of this audit here. */
  readonly writeBaseline?: string;
  /** Compare with this baseline (needs `maxIncrease`). */
  readonly baseline?: string;
  /** The growth allowed against the baseline: `PCT%` or `TOKENS`. */
  readonly maxIncrease?: string;
}

async function readBaseline(path: string): Promise<AuditBaseline> {
  let value: unknown;
  try {
    value = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    throw new InputFileError(path, `--baseline ${path}: ${(error as Error).message}`);
  }
  const problem = baselineProblem(value);
  if (problem !== undefined) throw new InputFileError(path, `--baseline ${path}: ${problem}`);
  return value as AuditBaseline;
}

/**
 * `deno task audit`: checks the flags' files before any work, runs the audit, writes the report
 * (and a baseline when asked), and compares with a baseline when asked.
 *
 * @param options The audit's options and the outputs.
 * @param io Environment, clock, root and progress. @default {denoFlowIo()}
 * @returns The lines to print and the exit code: 0 ok, 1 a config grew beyond the limit or no
 *   server was measured.
 * @throws {UsageError} On `--baseline` without `--max-increase` (or the reverse), a limit that is
 *   neither `PCT%` nor `TOKENS`, an output that cannot be written.
 * @throws {InputFileError} On a baseline that cannot be read, config files given with
 *   `--config` none of which could be read, or a `--home` or `--project` that names no folder.
 */
export async function runAuditCommand(
  options: AuditCommandOptions,
  io: FlowIo = denoFlowIo(),
): Promise<FlowOutcome> {
  if ((options.baseline === undefined) !== (options.maxIncrease === undefined)) {
    throw new UsageError("--baseline and --max-increase go together (see --help)");
  }
  const limit = options.maxIncrease === undefined
    ? undefined
    : parseGrowthLimit(options.maxIncrease);
  if (options.maxIncrease !== undefined && limit === undefined) {
    throw new UsageError(
      `--max-increase must be a percentage (5%) or a number of tokens (500), got ${
        JSON.stringify(options.maxIncrease)
      }`,
    );
  }
  const baseline = options.baseline === undefined
    ? undefined
    : await readBaseline(options.baseline);
  if (options.writeBaseline !== undefined) {
    await ensureWritable(options.writeBaseline, "--write-baseline");
  }
  const { report, searched } = await audit(options, io);
  if ((options.configs ?? []).length > 0 && report.configs.length === 0) {
    throw new InputFileError(
      options.configs![0],
      `no config could be read: ${report.problems.join("; ")}`,
    );
  }
  const stamp = report.createdAt.replace(/\.\d+Z$/, "Z").replace(/:/g, "-");
  const out = options.out ?? io.fromRoot(`results/audits/audit-${stamp}.json`);
  await Deno.mkdir(dirname(resolve(out)), { recursive: true });
  await Deno.writeTextFile(out, stableJson(report, { decimals: RESULT_DECIMALS }));
  const stderr = [`[audit] wrote ${io.displayPath(out)}`];
  if (options.writeBaseline !== undefined) {
    await Deno.writeTextFile(
      options.writeBaseline,
      stableJson(toBaseline(report), { decimals: RESULT_DECIMALS }),
    );
    stderr.push(`[audit] wrote the baseline ${io.displayPath(options.writeBaseline)}`);
  }
  const stdout = options.json
    ? [stableJson(report, { decimals: RESULT_DECIMALS }).trimEnd()]
    : renderAudit(report);
  const measured = report.configs.reduce((n, c) => n + c.totals.measured, 0);
  let exitCode = 0;
  if (measured === 0) {
    if (report.configs.length > 0) stderr.push("[audit] no server was measured");
    else {
      // Where it looked, so that a config kept elsewhere can be named.
      const home = report.home === "~" ? "" : ` (~ is ${report.home})`;
      stderr.push(
        `[audit] no MCP client config found in the ${searched.length} places looked at${home}:`,
        ...searched.map((p) => `[audit]   ${p}`),
        "[audit] a config kept elsewhere: deno task audit --config FILE (repeatable)",
      );
    }
    exitCode = 1;
  }
  if (baseline !== undefined && limit !== undefined) {
    const gate = gateAudit(report, baseline, limit);
    (options.json ? stderr : stdout).push(...(options.json ? [] : [""]), ...gate.lines);
    if (!gate.ok) exitCode = 1;
  }
  return { stdout, stderr, exitCode };
}
