/**
 * Records produced by a live capture: one {@linkcode ServerCaptureRecord} per
 * configured server, whatever happened to it.
 *
 * @module
 */

import type { JsonObject } from "../catalog/types.ts";
import type { ListMethod } from "./list.ts";

/**
 * What happened to one server:
 * - `ok`: `initialize` and `tools/list` completed (warnings may exist);
 * - `timeout`: no complete answer within the server's overall timeout;
 * - `exited`: the process ended (or closed stdout) before the capture completed;
 * - `spawn_failed`: the process could not be started (command not found, not
 *   executable), or, for a remote server, the connection could not be opened;
 * - `protocol_error`: the server answered, but with an error response, a result
 *   that fails even the lenient schema, or a never-ending pagination.
 */
export type CaptureOutcome = "ok" | "timeout" | "exited" | "spawn_failed" | "protocol_error";

/** How the server was reached. */
export type CaptureTransport = "stdio" | "streamable-http" | "sse";

/** How a process ended, as Node's `exit` event reports it. */
export interface ProcessExit {
  /** Exit code, or `null` when a signal ended it. */
  readonly code: number | null;
  /** Signal name (e.g. `"SIGKILL"`), or `null` when it exited on its own. */
  readonly signal: string | null;
}

/** A run-specific path that appears in captured text and its stable placeholder. */
export interface RunPath {
  /** Absolute path as it existed during the run, e.g. `/tmp/mcpmeter-x1/home`. */
  readonly path: string;
  /** Placeholder that replaces it, e.g. `<home>`. */
  readonly placeholder: string;
}

/** The result of capturing one server. */
export interface ServerCaptureRecord {
  /** Config key. */
  readonly server: string;
  /** Transport used (for `auto` remote servers: the one that worked or was tried last). */
  readonly transport: CaptureTransport;
  /** npm package, when the config names one. */
  readonly package?: string;
  /** Package version, when the config names one. */
  readonly version?: string;
  /** What happened (see {@linkcode CaptureOutcome}). */
  readonly outcome: CaptureOutcome;
  /** One-line cause when `outcome !== "ok"`. */
  readonly message?: string;
  /** Which step was running when a failure happened (`spawn`, `initialize`, `tools/list`). */
  readonly phase?: "spawn" | "initialize" | "tools/list";
  /** How the process ended, when it ended before it was killed. */
  readonly exit?: ProcessExit;
  /** Last characters of stderr when `outcome !== "ok"`, secrets redacted (an exit's `message` quotes one line). */
  readonly stderrTail?: string;
  /** Non-fatal findings (non-JSON stdout lines, strict-schema rejections, failed optional lists). */
  readonly warnings: readonly string[];
  /**
   * What mcpmeter met in its own steps that is no fault of the server (its era probe answered
   * after it stopped waiting); mcpmeter's fixed text, absent when none.
   */
  readonly notes?: readonly string[];
  /** `serverInfo` from the `initialize` result. */
  readonly serverInfo?: JsonObject;
  /** Protocol version the server agreed to in `initialize`. */
  readonly protocolVersion?: string;
  /**
   * `instructions` from the `initialize` result, when the server sent any: what a client that
   * defers tools still loads at session start.
   */
  readonly instructions?: string;
  /** `tools/list` items as received (empty unless `outcome === "ok"`). */
  readonly tools: readonly JsonObject[];
  /** `prompts/list` items, where advertised and listed. */
  readonly prompts?: readonly JsonObject[];
  /** `resources/list` items, where advertised and listed. */
  readonly resources?: readonly JsonObject[];
  /** Pages received per list method (count). */
  readonly pages: Readonly<Partial<Record<ListMethod, number>>>;
  /** Wall time from spawn (or connect) to the end of the last list, in ms (measured). */
  readonly captureMs: number;
  /** Paths specific to this run, for {@linkcode normalizeRecord}-style placeholders. */
  readonly runPaths: readonly RunPath[];
}
