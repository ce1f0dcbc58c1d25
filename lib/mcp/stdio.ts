/**
 * Captures one stdio MCP server: spawn it with the SDK's
 * `StdioClientTransport` in a throwaway HOME, `initialize`, list, kill its
 * whole process tree, and record what happened.
 *
 * Isolation: where `unshare` works (Linux, root) the server runs in new
 * network and PID namespaces (no network; one SIGKILL ends the whole tree);
 * otherwise it is made a process-group leader with `setsid` and the group is
 * killed (see `_sandbox.ts` for the trade-offs).
 *
 * The server's environment is only: what the SDK inherits by default (`HOME`,
 * `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`), with `HOME` replaced by the
 * throwaway folder, `TMPDIR` pointing into the run folder,
 * `NODE_NO_WARNINGS=1`, and the entry's own `env`.
 *
 * @module
 */

import type { ChildProcess } from "node:child_process";
import { StdioClientTransport, type StdioServerParameters } from "../core/sdk.ts";
import type { StdioServerEntry } from "./config.ts";
import { detectIsolation, type IsolationMode, killTree } from "./_sandbox.ts";
import {
  type CaptureOptionsBase,
  type CaptureResult,
  captureSession,
  recordBase,
  redactResult,
  spawnFailedRecord,
} from "./_capture.ts";
import { checkTimeoutMs, FALLBACK_PATH, prepareLaunch } from "./_launch.ts";
import { settleWithin } from "./_settle.ts";
import { createScratch } from "./_scratch.ts";
import { stderrGist, TailBuffer, WarningSink } from "./_text.ts";
import { oneLine } from "../core/text.ts";
import { secretValuesOf } from "../core/secrets.ts";
import { entrySecrets } from "./secrets.ts";
import { type EraNegotiation, mcpErrorKind, nextNegotiation } from "./client.ts";
import type { ProcessExit, ServerCaptureRecord } from "./types.ts";

/** Default overall timeout per server (spawn, initialize and all lists), in ms. */
export const DEFAULT_SERVER_TIMEOUT_MS = 30_000;

/** Characters of stderr kept for a failed server's record. */
export const STDERR_TAIL_CHARS = 2_000;

/** Node's codes for a connection or a name lookup that failed. */
const NETWORK_ERROR = /\b(?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)\b/;

/** Appended to the cause of a server that failed on the network inside its namespace. */
export const NO_NETWORK = "mcpmeter starts servers without network (a namespace with its own " +
  "loopback): a server that must reach a service at start, a database on localhost included, " +
  "cannot start here";

/** Warnings kept verbatim per server; further ones are counted. */
export const MAX_WARNINGS_PER_SERVER = 20;

/** Options of {@linkcode captureStdioServer}. */
export interface StdioCaptureOptions extends CaptureOptionsBase {
  /** Extra variables that win over `env` (e.g. `BIN`, the package's bin script). */
  readonly vars?: Readonly<Record<string, string>>;
  /** `PATH` for the server and for finding `command` (default: this process's `PATH`). */
  readonly path?: string;
  /** Isolation to use (default: the strongest available, probed once). */
  readonly isolation?: IsolationMode;
}

/**
 * Spawns, lists and kills one stdio server. Never throws for server faults:
 * every failure is an outcome in the returned record.
 *
 * Secrets stay out of the record: the values of the server's environment variables with
 * secret names (one rule, `isSecretName` in lib/core/secrets.ts: `*KEY*`, `*TOKEN*`, `*SECRET*`,
 * `*PASSW*`, `*AUTH*`, ...) and of such variables the entry references are replaced by
 * `[REDACTED]` in `message`, `warnings` and `stderrTail`.
 *
 * @param entry The (unexpanded) config entry; it is expanded here, once the
 *   run's HOME/SCRATCH/TMPDIR exist.
 * @param options Timeout (ms), variables, PATH, isolation.
 * @returns The record: `outcome`, tools/prompts/resources, warnings, exit
 *   info and stderr tail for failures, wall time in ms.
 * @throws {RangeError} When `timeoutMs` is not a positive number.
 */
export async function captureStdioServer(
  entry: StdioServerEntry,
  options: StdioCaptureOptions = {},
): Promise<ServerCaptureRecord> {
  const timeoutMs = checkTimeoutMs(
    options.timeoutMs ?? entry.meta.timeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS,
  );
  const isolation = options.isolation ?? await detectIsolation();
  const path = options.path ?? Deno.env.get("PATH") ?? FALLBACK_PATH;
  const scratch = await createScratch(`mcpmeter-${entry.name.replace(/[^A-Za-z0-9_.-]/g, "_")}-`);
  const base = { ...recordBase(entry, scratch.runPaths), transport: "stdio" as const };
  const failure = (message: string) => spawnFailedRecord(entry, message, scratch.runPaths);
  try {
    const launch = await prepareLaunch(entry, scratch, { ...options, path, isolation });
    if ("problem" in launch) return failure(launch.problem);
    // A server whose era the probe misjudged is started again and spoken to in the other era
    // (lib/mcp/client.ts nextNegotiation): one that closed the connection on server/discover
    // (the 2025 rules let it refuse requests before initialize), or refused initialize.
    const run = (negotiation: EraNegotiation) =>
      runSession(
        { ...launch, stderr: "pipe" },
        isolation,
        timeoutMs,
        options.settleMs,
        negotiation,
      );
    let result = await run("auto");
    while (result.retryAs !== undefined) result = await run(result.retryAs);
    delete result.retryAs;
    return { ...base, ...redactResult(result, secretValues(entry, launch.env, options.env)) };
  } finally {
    await scratch.dispose();
  }
}

/**
 * Values that must not reach a record: the server's environment variables whose names look
 * secret (`isSecretName` in lib/core/secrets.ts), and the entry's secrets by the one rule of
 * `lib/mcp/secrets.ts` (`entrySecrets`: every `${VAR}` it resolves, secret-looking literals in
 * its env and arguments, well-known credentials).
 */
export function secretValues(
  entry: StdioServerEntry,
  serverEnv: Readonly<Record<string, string>>,
  callerEnv: Readonly<Record<string, string | undefined>> = {},
): string[] {
  return [...secretValuesOf(serverEnv), ...entrySecrets(entry, callerEnv)];
}

async function runSession(
  params: StdioServerParameters,
  isolation: IsolationMode,
  timeoutMs: number,
  settleMs: number | undefined,
  negotiation: EraNegotiation,
): Promise<CaptureResult & { retryAs?: EraNegotiation }> {
  const transport = new ObservedStdioTransport(params);
  const stderr = transport.tailStderr(STDERR_TAIL_CHARS);
  let phase: "spawn" | "initialize" | "tools/list" = "spawn";
  transport.onSpawned = () => phase = "initialize";
  const closed = (error: unknown) => {
    const kind = mcpErrorKind(error);
    return kind === "closed" || kind === "probe_closed";
  };
  let retryAs: EraNegotiation | undefined;
  const result = await captureSession(transport, new WarningSink(MAX_WARNINGS_PER_SERVER), {
    timeoutMs,
    settleMs,
    negotiation,
    phase: () => phase,
    onListing: () => phase = "tools/list",
    settleFailure: async (error) => {
      retryAs = nextNegotiation(negotiation, error);
      if (closed(error) && transport.exit === undefined) {
        await transport.exitedWithin(1_000);
      }
    },
    failureExtras: () => ({ stderrTail: stderr.toString() }),
    failure: (error, fields) => {
      if (transport.exit !== undefined || closed(error)) {
        const exit = transport.exit;
        const how = exit === undefined
          ? "closed the connection"
          : exit.signal !== null
          ? `was killed by ${exit.signal}`
          : `exited with code ${exit.code}`;
        // What the server said last on stderr is usually why it stopped (a missing setting, a
        // refused connection, a module that did not load): the cause the reports print says it.
        const said = stderrGist(stderr.toString(), stderr.errorLine);
        // In its own network namespace a server reaches nothing, this machine's localhost
        // included: one that connects to a database or an API at start fails here, and the
        // cause says so rather than leave the user to suspect their own service.
        const cutOff = isolation === "namespace" &&
          NETWORK_ERROR.test(`${stderr.errorLine ?? ""}\n${stderr.toString()}`);
        return {
          ...fields,
          outcome: "exited",
          message: `the server ${how} during ${phase}${said === "" ? "" : `; its stderr: ${said}`}${
            cutOff ? `; ${NO_NETWORK}` : ""
          }`,
          ...(exit === undefined ? {} : { exit }),
        };
      }
      if (phase === "spawn") {
        return { ...fields, outcome: "spawn_failed", message: oneLine(error) };
      }
      return { ...fields, outcome: "protocol_error", message: `${phase}: ${oneLine(error)}` };
    },
    closeMs: 3_000,
    beforeClose: () => {
      if (transport.spawnedPid !== undefined) killTree(isolation, transport.spawnedPid);
    },
    afterClose: () => transport.exitedWithin(2_000),
  });
  return retryAs === undefined ? result : { ...result, retryAs };
}

/**
 * The SDK's stdio transport, plus what a capture needs to know: the spawned
 * pid and how the process ended. The exit is
 * observed on the SDK's child-process object, which is private to the SDK; if
 * a future SDK renames it, exit details are simply absent.
 */
export class ObservedStdioTransport extends StdioClientTransport {
  /** The server's pid once started. */
  spawnedPid: number | undefined;
  /** How the process ended, once it has. */
  exit: ProcessExit | undefined;
  /** Called once the process is spawned. */
  onSpawned: (() => void) | undefined;
  #exited = Promise.withResolvers<void>();

  /** Starts the process (the SDK's start) and begins watching for its exit. */
  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid ?? undefined;
    this.onSpawned?.();
    const child = (this as unknown as { _process?: ChildProcess })._process;
    if (child === undefined) {
      this.#exited.resolve();
      return;
    }
    child.once("exit", (code, signal) => {
      this.exit = { code, signal };
      this.#exited.resolve();
    });
  }

  /**
   * Keeps the last `maxChars` characters the server writes to stderr (spawned with
   * `stderr: "pipe"`; otherwise nothing is kept). Call before {@linkcode start}.
   *
   * @param maxChars How many trailing characters to keep.
   * @returns The tail, growing as the server writes.
   */
  tailStderr(maxChars: number): TailBuffer {
    const tail = new TailBuffer(maxChars);
    const stream = this.stderr as
      | (NodeJS.ReadableStream & { setEncoding(e: string): void })
      | null;
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => tail.push(chunk));
    return tail;
  }

  /** Resolves when the process has exited or after `ms` milliseconds. */
  async exitedWithin(ms: number): Promise<void> {
    if (this.spawnedPid === undefined || this.exit !== undefined) return;
    await settleWithin(this.#exited.promise, ms);
  }
}
