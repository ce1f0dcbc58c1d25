/**
 * Starts the workbench: opens (or bootstraps) the working config, the runs folder and the queue,
 * builds the app from its features and serves it with `Deno.serve`. The I/O edge of
 * `lib/workbench`: the task passes in what reaches processes and the network.
 *
 * @module
 */

import { join, resolve } from "node:path";
import type {
  AgentVersions,
  AuditService,
  BenchService,
  ChatService,
  WorkbenchContext,
} from "./app.ts";
import { createWorkbenchApp } from "./app.ts";
import { openConfigStore } from "./config_store.ts";
import { type RunSource, RunStore } from "./run_store.ts";
import { type Runner, RunQueue } from "./queue.ts";
import { createAgentRunner, type PrepareServers } from "./runner.ts";
import { DEFAULT_FEATURES } from "./features/mod.ts";
import { errorPage } from "./html.ts";
import { createChatService } from "./chat.ts";
import { isLoopback } from "./guard.ts";
import { createAgentVersions } from "./versions.ts";
import { UsageError } from "../core/errors.ts";
import { tokenProblem } from "../core/http_guard.ts";
import { runRedactor } from "../agent/secrets.ts";

/** Inputs of {@linkcode startWorkbench}. */
export interface StartWorkbenchOptions {
  /** Address to bind. @default "127.0.0.1" */
  readonly hostname?: string;
  /** Port; 0 picks a free one. @default 5088 */
  readonly port?: number;
  /** Token every API call must carry; required off loopback. */
  readonly token?: string;
  /** More `Host` values to answer to (`name` or `name:port`), e.g. a machine name. */
  readonly allowedHosts?: readonly string[];
  /** Working config folder. */
  readonly configDir: string;
  /** Results folder; runs go to `<resultsDir>/runs`. */
  readonly resultsDir: string;
  /**
   * Run folders shown beside the runs folder, read-only.
   * @default {[{dir: "<resultsDir>/demo/runs", label: "demo"}]} (`deno task demo-agents`'s)
   */
  readonly runSources?: readonly RunSource[];
  /** Example agents, models, servers, tool prices (`fixtures/agents`). */
  readonly agentsExamples: string;
  /** Example suites (`fixtures/suites`). */
  readonly suitesExamples: string;
  /** Committed JSON Schemas (`lib/agent/schemas`). */
  readonly schemasDir: string;
  /** Starts MCP servers for a run. */
  readonly prepareServers: PrepareServers;
  /** Variables for `${VAR}` in the model registry. */
  readonly env: Readonly<Record<string, string>>;
  /** Runs in flight at once. @default 1 */
  readonly maxConcurrentRuns?: number;
  /** Per-case timeout, ms. */
  readonly caseTimeoutMs?: number;
  /** Agent versions provider. @default the version files beside the working config's agents */
  readonly versions?: AgentVersions;
  /** Chat sessions. @default the `lib/agent` loop over the working config ({@linkcode createChatService}) */
  readonly chat?: ChatService;
  /** Bench runs. */
  readonly bench?: BenchService;
  /** Audit runs. */
  readonly audit?: AuditService;
  /** Replaces the `lib/agent` runner (tests of the queue). */
  readonly runner?: Runner;
  /** Git state for run provenance. */
  readonly git?: Readonly<Record<string, string | boolean | null>>;
  /** One line per unexpected server error. */
  readonly log?: (line: string) => void;
  /** ISO-8601 UTC wall clock that names and stamps runs; default `new Date().toISOString()`. */
  readonly isoNow?: () => string;
}

/** A running workbench. */
export interface Workbench {
  /** `http://host:port` (no token). */
  readonly url: string;
  /** Bound port. */
  readonly port: number;
  /** Shared context (stores, queue). */
  readonly context: WorkbenchContext;
  /** Every registered route (method and Hono path, e.g. `GET /api/runs/:id`). */
  readonly routes: readonly { readonly method: string; readonly path: string }[];
  /** Stops listening, ends chat sessions, waits for no run (runs left unfinished resume later). */
  close(): Promise<void>;
}

/** No agent versions: every version is unknown. */
export const NO_VERSIONS: AgentVersions = {
  resolve: () => Promise.resolve(undefined),
  list: () => Promise.resolve([]),
};

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((res) => {
    const t = setTimeout(res, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      res();
    }, { once: true });
  });
}

/**
 * Starts the workbench.
 *
 * @param options See {@linkcode StartWorkbenchOptions}.
 * @returns The running workbench.
 * @throws {RangeError} when binding beyond loopback without a token, or with a token that
 *   `weakTokenReason` (lib/core/http_guard.ts) refuses, on any address.
 * @throws {UsageError} when the port is taken (by another workbench, say), naming it.
 */
export async function startWorkbench(options: StartWorkbenchOptions): Promise<Workbench> {
  const hostname = options.hostname ?? "127.0.0.1";
  const weak = tokenProblem(hostname, options.token);
  if (weak !== undefined) {
    throw new RangeError(
      `Cannot listen on ${hostname}: ${weak}${
        isLoopback(hostname) ? "" : "; an address beyond 127.0.0.1 needs a token"
      } (--token-env VAR with VAR set)`,
    );
  }
  const config = await openConfigStore({
    dir: options.configDir,
    agentsExamples: options.agentsExamples,
    suitesExamples: options.suitesExamples,
    schemasDir: options.schemasDir,
  });
  // The workbench's secrets: the environment's, the token, and what the config resolves now;
  // each run and chat session adds its own. Every answer, run file and log line goes through it.
  const redactor = runRedactor({ env: options.env }).add(options.token ? [options.token] : []);
  redactor.add(await config.secrets(options.env));
  const log = options.log ? (line: string) => options.log!(redactor.text(line)) : undefined;
  const isoNow = options.isoNow ?? (() => new Date().toISOString());
  const runs = new RunStore(
    join(resolve(options.resultsDir), "runs"),
    options.runSources ??
      [{ dir: join(resolve(options.resultsDir), "demo", "runs"), label: "demo" }],
    redactor,
  );
  await Deno.mkdir(runs.dir, { recursive: true });
  const runner = options.runner ?? createAgentRunner({
    config,
    store: runs,
    env: options.env,
    prepareServers: options.prepareServers,
    now: () => performance.now(),
    epochNow: () => Date.now(),
    redactor,
    ...(options.caseTimeoutMs ? { caseTimeoutMs: options.caseTimeoutMs } : {}),
    ...(options.git ? { git: options.git } : {}),
  });
  const queue = new RunQueue({
    maxConcurrentRuns: options.maxConcurrentRuns ?? 1,
    runner,
    store: runs,
    isoNow,
  });
  const chat = options.chat ?? createChatService({
    config,
    env: options.env,
    prepareServers: options.prepareServers,
    now: () => performance.now(),
    redactor,
    ...(options.caseTimeoutMs ? { timeoutMs: options.caseTimeoutMs } : {}),
  });
  const context: WorkbenchContext = {
    config,
    runs,
    queue,
    resultsDir: resolve(options.resultsDir),
    versions: options.versions ?? createAgentVersions(config),
    chat,
    ...(options.bench ? { bench: options.bench } : {}),
    ...(options.audit ? { audit: options.audit } : {}),
    isoNow,
    ...(runner.preflight ? { preflight: runner.preflight.bind(runner) } : {}),
    sleep: abortableSleep,
    nav: [],
  };
  let port = options.port ?? 5088;
  const app = createWorkbenchApp({
    context,
    features: DEFAULT_FEATURES,
    guard: {
      hostname,
      port: () => port,
      ...(options.token ? { token: options.token } : {}),
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    },
    ...(log ? { log } : {}),
    redactor,
    errorPage: (status, message) => errorPage(context, status, message),
  });
  const ready = Promise.withResolvers<void>();
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({
      hostname,
      port,
      onListen: (addr) => {
        port = addr.port;
        ready.resolve();
      },
    }, app.fetch);
  } catch (e) {
    await chat.close();
    if (!(e instanceof Deno.errors.AddrInUse)) throw e;
    throw new UsageError(
      `Cannot listen on ${shown}:${port}: the port is in use (another workbench?); choose another with --port N, or --port 0 for a free one`,
      { cause: e },
    );
  }
  await ready.promise;
  return {
    url: `http://${shown}:${port}`,
    port,
    context,
    routes: app.routes.filter((r) => r.method !== "ALL").map((r) => ({
      method: r.method,
      path: r.path,
    })),
    async close() {
      await chat.close();
      await server.shutdown();
    },
  };
}
