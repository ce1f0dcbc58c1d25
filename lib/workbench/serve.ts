/**
 * `deno task serve` as a library call: the workbench with its local scripted model (so suites run
 * without a key), the real MCP servers of each run, and the Catalog page's bench jobs, each a
 * `deno task bench` child process with the permissions the caller gives it.
 *
 * @module
 */
import { basename, join, resolve } from "node:path";
import { loadEnv, prepareAgentServers, startDemoModelServer } from "../agent/io.ts";
import { scriptedEnv } from "../agent/demo_policy.ts";
import { createTokenizer } from "../tokens/mod.ts";
import { createBenchService } from "./bench_jobs.ts";
import { createAuditService } from "./audit_jobs.ts";
import { startWorkbench, type Workbench } from "./server.ts";
import { UsageError } from "../core/errors.ts";
import { userFolder } from "../core/paths.ts";
import { isWildcard, tokenProblem } from "../core/http_guard.ts";
import { localHostNames } from "../core/http_guard.ts";
import { BENCH_DEFAULTS } from "../flows/bench/mod.ts";
import { WORKING_CONFIG_DIR } from "./io.ts";

/** Defaults of `deno task serve` (repository-relative paths). */
export const SERVE_DEFAULTS = {
  hostname: "127.0.0.1",
  port: 5088,
  tokenVar: "MCPMETER_TOKEN",
  configDir: WORKING_CONFIG_DIR,
  resultsDir: "results",
  maxRuns: 1,
  timeoutMs: 300_000,
  installDir: ".scratch/servers",
  data: "fixtures/suites/data",
  envFile: ".env",
} as const;

/** What `deno task serve` was asked for. */
export interface ServeWorkbenchOptions {
  /** Address to bind. @default {SERVE_DEFAULTS.hostname} */
  readonly hostname?: string;
  /** Port (0 picks a free one). @default {SERVE_DEFAULTS.port} */
  readonly port?: number;
  /** Bearer token every API call must carry; required off loopback. */
  readonly token?: string;
  /** Name of the variable holding the token, for messages. @default {SERVE_DEFAULTS.tokenVar} */
  readonly tokenVar?: string;
  /** Further Host headers answered. */
  readonly allowedHosts?: readonly string[];
  /** Working config folder. @default {SERVE_DEFAULTS.configDir} */
  readonly configDir?: string;
  /** Results folder; runs in `runs/` under it. @default {SERVE_DEFAULTS.resultsDir} */
  readonly resultsDir?: string;
  /** Runs executed at once, ≥ 1. @default {SERVE_DEFAULTS.maxRuns} */
  readonly maxRuns?: number;
  /** Per-case timeout, ms, ≥ 1. @default {SERVE_DEFAULTS.timeoutMs} */
  readonly timeoutMs?: number;
  /** Installed MCP server packages. @default {SERVE_DEFAULTS.installDir} */
  readonly installDir?: string;
  /** Fixture data copied per run, `${DATA}`. @default {SERVE_DEFAULTS.data} */
  readonly data?: string;
  /** dotenv file with API keys. @default {SERVE_DEFAULTS.envFile} */
  readonly envFile?: string;
  /** Absolute path of a repository-relative path (examples, schemas, corpora). */
  readonly fromRoot: (path: string) => string;
  /** `deno` arguments that run `deno task bench` with its declared permissions. */
  readonly benchArgs: readonly string[];
  /** `deno` arguments that run `deno task audit` with its declared permissions. */
  readonly auditArgs?: readonly string[];
  /** Git state recorded in runs. */
  readonly git?: Readonly<Record<string, string | boolean | null>>;
  /** Log lines (the task: stderr). */
  readonly log?: (line: string) => void;
}

/** A served workbench: its URL, the lines to print, and a close that stops everything. */
export interface ServedWorkbench {
  /** Base URL, e.g. `http://127.0.0.1:5088`. */
  readonly url: string;
  /** What the task prints on start (URL, config and runs folders, token hint). */
  readonly banner: readonly string[];
  /** Stops the server (unfinished runs show as interrupted) and the scripted model. */
  close(): Promise<void>;
  /** The workbench itself. */
  readonly workbench: Workbench;
}

/**
 * Checks the options {@linkcode serveWorkbench} would start with.
 *
 * @param options Port, run limits, bind address and token.
 * @throws {UsageError} On a port above 65535, `maxRuns` or `timeoutMs` below 1, or a bind
 *   address beyond loopback without a token.
 */
export function checkServeOptions(
  options: Pick<
    ServeWorkbenchOptions,
    "port" | "maxRuns" | "timeoutMs" | "hostname" | "token" | "tokenVar"
  >,
): void {
  const tokenVar = options.tokenVar ?? SERVE_DEFAULTS.tokenVar;
  if ((options.port ?? 0) > 65535) {
    throw new UsageError(`--port must be at most 65535: current value is ${options.port}`);
  }
  if ((options.maxRuns ?? 1) < 1) {
    throw new UsageError(`--max-runs must be a positive integer, got ${options.maxRuns}`);
  }
  if ((options.timeoutMs ?? 1) < 1) {
    throw new UsageError(`--timeout-ms must be a positive integer, got ${options.timeoutMs}`);
  }
  const hostname = options.hostname ?? SERVE_DEFAULTS.hostname;
  const problem = tokenProblem(hostname, options.token);
  if (problem === "no token is set") {
    throw new UsageError(
      `--host ${hostname} reaches beyond this machine: set a token (export ${tokenVar}=...; --token-env ${tokenVar})`,
    );
  }
  if (problem !== undefined) {
    throw new UsageError(`$${tokenVar} cannot guard the workbench: ${problem}`);
  }
}

/**
 * Where the Catalog page lists catalogs from: the committed corpora, what `deno task capture`
 * wrote into `<results>/captures/`, and LiveMCPBench when it is beside the checkout; and the
 * golden sets it matches to them: the bench's defaults and any in `<results>/golden/`.
 */
async function catalogInputs(fromRoot: (path: string) => string, resultsDir: string) {
  const goldenDir = join(resultsDir, "golden");
  const own: string[] = [];
  try {
    for await (const e of Deno.readDir(goldenDir)) {
      if (e.isFile && e.name.endsWith(".json")) own.push(join(goldenDir, e.name));
    }
  } catch { /* none yet */ }
  return {
    catalogs: [
      { dir: fromRoot("fixtures/corpora"), source: "reference" },
      { dir: join(resultsDir, "captures"), source: "captured", prefix: "captures/" },
      {
        file: fromRoot("../shared/corpora/livemcptool/tools.json"),
        name: "livemcptool",
        source: "LiveMCPBench",
      },
    ],
    goldenSets: [...BENCH_DEFAULTS.goldenSets.map(fromRoot), ...own.sort()],
  };
}

/**
 * Serves the workbench until {@linkcode ServedWorkbench.close}.
 *
 * @param options Where it listens, its folders, and how to run a bench.
 * @returns The served workbench.
 * @throws {UsageError} On options {@linkcode checkServeOptions} refuses.
 * @throws {Error} When the port is taken or the config folder cannot be created.
 */
export async function serveWorkbench(options: ServeWorkbenchOptions): Promise<ServedWorkbench> {
  checkServeOptions(options);
  const { fromRoot } = options;
  const resultsDir = options.resultsDir ?? SERVE_DEFAULTS.resultsDir;
  const scripted = startDemoModelServer(createTokenizer("cl100k_base"));
  const env: Record<string, string> = {
    ...(await loadEnv(options.envFile ?? SERVE_DEFAULTS.envFile)),
    ...scriptedEnv(scripted),
  };
  const runBench = async (
    input: { readonly corpus: string; readonly golden: readonly string[] },
    outDir: string,
  ) => {
    const golden = input.golden.length === 0 ? ["none"] : input.golden;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        ...options.benchArgs,
        "--corpus",
        input.corpus,
        ...golden.flatMap((g) => ["--golden", g]),
        "--out",
        outDir,
      ],
      cwd: fromRoot("."),
      // Paths in its arguments start in the repository, not where serve was run (lib/core/paths.ts).
      env: { INIT_CWD: fromRoot(".") },
      stdout: "null",
      stderr: "piped",
    }).output();
    const log = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
    return { code: out.code, log };
  };
  const auditArgs = options.auditArgs;
  const runAudit = async (flags: readonly string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...auditArgs!, ...flags],
      cwd: fromRoot("."),
      stdout: "null",
      stderr: "piped",
    }).output();
    const log = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
    return { code: out.code, log };
  };
  // Bound to every interface: answer to this machine's own names and addresses too, so the URL
  // printed below (and the machine's name) works from another machine.
  const local = isWildcard(options.hostname ?? SERVE_DEFAULTS.hostname)
    ? localHostNames()
    : undefined;
  const allowedHosts = [...(options.allowedHosts ?? []), ...(local?.names ?? [])];
  let workbench: Workbench;
  try {
    workbench = await startWorkbench({
      hostname: options.hostname ?? SERVE_DEFAULTS.hostname,
      port: options.port ?? SERVE_DEFAULTS.port,
      ...(options.token ? { token: options.token } : {}),
      ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
      configDir: options.configDir ?? SERVE_DEFAULTS.configDir,
      resultsDir,
      agentsExamples: fromRoot("fixtures/agents"),
      suitesExamples: fromRoot("fixtures/suites"),
      schemasDir: fromRoot("lib/agent/schemas"),
      env,
      maxConcurrentRuns: options.maxRuns ?? SERVE_DEFAULTS.maxRuns,
      caseTimeoutMs: options.timeoutMs ?? SERVE_DEFAULTS.timeoutMs,
      ...(options.git ? { git: options.git } : {}),
      prepareServers: ({ serversPath, agents }) =>
        prepareAgentServers({
          serversPath,
          agents,
          installDir: options.installDir ?? SERVE_DEFAULTS.installDir,
          dataDir: options.data ?? SERVE_DEFAULTS.data,
          env,
          task: "serve",
        }),
      bench: createBenchService({
        ...await catalogInputs(fromRoot, resolve(resultsDir)),
        defaultCorpus: basename(BENCH_DEFAULTS.corpus).replace(/\.tools\.json$/, ""),
        ...(env.HOME ? { home: env.HOME } : {}),
        resultsDir,
        isoNow: () => new Date().toISOString(),
        runBench,
      }),
      ...(auditArgs === undefined ? {} : {
        audit: createAuditService({
          // The audit's own paths (--project, its default) start where serve was run: its
          // report's path is written absolute (lib/core/paths.ts); so do the fields typed.
          resultsDir: resolve(resultsDir),
          ...(env.HOME ? { home: env.HOME } : {}),
          from: userFolder(),
          isoNow: () => new Date().toISOString(),
          runAudit,
        }),
      }),
      ...(options.log ? { log: options.log } : {}),
    });
  } catch (e) {
    await scripted.close();
    throw e;
  }
  const ctx = workbench.context;
  const tokenVar = options.tokenVar ?? SERVE_DEFAULTS.tokenVar;
  // `http://0.0.0.0:PORT/` is no address to open: print one that is.
  const port = new URL(workbench.url).port;
  const url = local ? `http://127.0.0.1:${port}` : workbench.url;
  const shared = local?.shareable ? `http://${local.shareable}:${port}` : undefined;
  return {
    url,
    workbench,
    banner: [
      `mcpmeter workbench: ${shared ?? url}/`,
      ...(local
        ? [
          `  listening on every interface; on this machine also ${url}/`,
          `  answers to Host ${
            ["127.0.0.1", "localhost", ...local.names].join(", ")
          } (more with --allow-host NAME)`,
        ]
        : []),
      `  config ${ctx.config.dir}${ctx.config.bootstrapped ? " (created from fixtures)" : ""}`,
      `  runs   ${ctx.runs.dir}`,
      ...(options.token
        ? [`  token required: open ${shared ?? url}/?token=<value of $${tokenVar}> once`]
        : []),
    ],
    async close() {
      await Promise.race([workbench.close(), new Promise((r) => setTimeout(r, 2000))]);
      await scripted.close();
    },
  };
}
